#!/usr/bin/env bash
#===- scripts/fuzz.sh - run every libFuzzer target for a fixed time -------===#
#
# usage: bash scripts/fuzz.sh BUILD_DIR [SECONDS]
#
# Runs each BUILD_DIR/bin/fuzz_<reader> (built with -DOMPDP_FUZZ=ON) for
# SECONDS (default 60; $OMPDP_FUZZ_SECONDS) from its committed corpus
# fuzz/corpus/<reader>/, two at a time. New inputs go to a scratch copy in
# BUILD_DIR/fuzz-work, never into the repository. A crash, leak, timeout or
# sanitizer report fails the run; the input is left in BUILD_DIR/fuzz-work
# and printed (base64) so that it can be made a regression test.
# BUILD_DIR/fuzz-work/results gets one line per target, "<name> passed" or
# "<name> failed" (scripts/test_summary.py counts them).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:?usage: fuzz.sh BUILD_DIR [SECONDS]}" && pwd)"
seconds="${2:-${OMPDP_FUZZ_SECONDS:-60}}"
work="$build/fuzz-work"
rm -rf "$work"
mkdir -p "$work"

shopt -s nullglob
targets=("$build"/bin/fuzz_*)
if [ ${#targets[@]} -eq 0 ]; then
  echo "ompdp: no fuzz targets in $build/bin (configure with -DOMPDP_FUZZ=ON)" >&2
  exit 1
fi

run_one() {
  local bin="$1" name="${1##*/fuzz_}"
  local corpus="$root/fuzz/corpus/$name"
  mkdir -p "$work/$name"
  # -close_fd_mask=2: the readers' own error messages would drown the log.
  if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -close_fd_mask=2 -print_final_stats=1 -artifact_prefix="$work/$name-" \
       "$work/$name" "$corpus" >"$work/$name.log" 2>&1; then
    echo "fuzz_$name: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$work/$name.log"), no failure"
    echo "$name passed" >>"$work/results"
  else
    echo "$name failed" >>"$work/results"
    echo "fuzz_$name: FAILED; log: $work/$name.log" >&2
    tail -n 40 "$work/$name.log" >&2
    for a in "$work/$name"-*; do
      echo "input $a (base64):" >&2
      base64 "$a" >&2
    done
    return 1
  fi
}

status=0
pids=()
for bin in "${targets[@]}"; do
  run_one "$bin" &
  pids+=($!)
  if [ ${#pids[@]} -eq 2 ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do
  wait "$p" || status=1
done
exit $status
