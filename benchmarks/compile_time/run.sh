#!/bin/sh
#===- run.sh - extra compile time of the ompdp plugin --------------------===#
#
# Usage: run.sh <build-dir> [functions=1000] [repetitions=3]
# Compiles a generated file with 4*functions offload constructs with plain
# clang-19 and with --config=<build>/lib/ompdp.cfg (host and device, -O0
# and -O2), and prints for each the best CPU time (user+sys of clang and
# its children), the best wall time, and the plugin's overhead on both.
# Goal: < 5%. CLANG=<compiler> overrides clang-19. On a shared machine
# times vary by more than that; OMPDP_CT_INSTRUCTIONS=1 counts executed
# instructions instead (valgrind, once, about 50 times slower), which does
# not depend on the load.
#
#===----------------------------------------------------------------------===#
set -eu
build=${1:?usage: run.sh <build-dir> [functions] [repetitions]}
n=${2:-1000}
reps=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$build/lib/ompdp.cfg" ]; then
  echo "ompdp: $build/lib/ompdp.cfg not found (build ompdp first)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/gen.py" "$n" > "$tmp/big.c"
echo "constructs: $((4 * n))  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
mode=""
[ -n "${OMPDP_CT_INSTRUCTIONS:-}" ] && mode=--instructions
python3 "$here/measure.py" $mode "${CLANG:-clang-19}" "$build/lib/ompdp.cfg" \
  "$tmp/big.c" "$reps"
