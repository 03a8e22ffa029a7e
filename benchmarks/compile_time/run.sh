#!/bin/sh
#===- run.sh - extra compile time of the ompdp plugin --------------------===#
#
# Usage: run.sh <build-dir> [functions=1000] [repetitions=3]
# Compiles a generated file with 4*functions offload constructs with plain
# clang-19 and with --config=<build>/lib/ompdp.cfg (host and device, -O0
# and -O2), and prints the best time of each and the overhead. Goal: < 5%.
#
#===----------------------------------------------------------------------===#
set -eu
build=${1:?usage: run.sh <build-dir> [functions] [repetitions]}
n=${2:-1000}
reps=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/gen.py" "$n" > "$tmp/big.c"
cc=${CLANG:-clang-19}
offload="-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu"

best() { # best wall time in seconds of "$@" over $reps runs
  b=""
  i=0
  while [ $i -lt "$reps" ]; do
    s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc)
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
    i=$((i + 1))
  done
  echo "$b"
}

echo "constructs: $((4 * n))"
for opt in -O0 -O2; do
  plain=$(best $cc $offload $opt -c "$tmp/big.c" -o "$tmp/a.o")
  plug=$(best $cc --config="$build/lib/ompdp.cfg" $offload $opt -c "$tmp/big.c" -o "$tmp/b.o")
  pct=$(echo "scale=2; ($plug - $plain) * 100 / $plain" | bc)
  echo "$opt plain ${plain}s plugin ${plug}s overhead ${pct}%"
done
