#!/bin/sh
#===- run.sh - extra compile time of the ompdp plugin --------------------===#
#
# Usage: run.sh <build-dir> [functions=1000] [repetitions=3]
# Compiles a generated file with 4*functions offload constructs with plain
# clang-19 and with --config=<build>/lib/ompdp.cfg (host and device, -O0
# and -O2), and prints for each the best CPU time (user+sys of clang and
# its children: what the plugin adds, even on a loaded machine), the best
# wall time, and the plugin's overhead on both. Goal: < 5%.
# CLANG=<compiler> overrides clang-19.
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
exec python3 "$here/measure.py" "${CLANG:-clang-19}" "$build/lib/ompdp.cfg" \
  "$tmp/big.c" "$reps"
