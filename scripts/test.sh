#!/usr/bin/env bash
#===- scripts/test.sh - set up, build, and run every test -----------------===#
#
# Unit tests (one ctest test each) and the lit suite (ctest test "lit").
# Extra arguments go to CMake, e.g. -DOMPDP_SANITIZE=address,undefined with
# OMPDP_BUILD=build-asan.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ompdp_install_packages
ompdp_build "$@"
cd "$OMPDP_BUILD"
ctest --output-on-failure -j"$(nproc)"
