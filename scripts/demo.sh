#!/usr/bin/env bash
#===- scripts/demo.sh - set up, build, and show ompdp on a sample --------===#
#
# Compiles samples/listings.c (the OMPDataPerf paper's Listings 1 and 2) for
# OpenMP offload to the host, with the ompdp compiler plugin when it was
# built, runs it under `ompdp run`, and prints the report.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ompdp_install_packages
ompdp_build

demo_dir="$OMPDP_BUILD/demo"
mkdir -p "$demo_dir"
flags=(-O1 -g -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -Wl,-rpath,/usr/lib/llvm-19/lib)
[ -f "$OMPDP_BUILD/lib/ompdp.cfg" ] && flags=(--config="$OMPDP_BUILD/lib/ompdp.cfg" "${flags[@]}")
echo "\$ clang-19 ${flags[*]} samples/listings.c -o $demo_dir/listings"
clang-19 "${flags[@]}" "$OMPDP_ROOT/samples/listings.c" -o "$demo_dir/listings"
echo "\$ $OMPDP_BUILD/bin/ompdp run -- $demo_dir/listings"
"$OMPDP_BUILD/bin/ompdp" run -- "$demo_dir/listings"
