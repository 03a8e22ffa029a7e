#!/usr/bin/env bash
#===- scripts/test.sh - set up, build, and run every test -----------------===#
#
# What CI runs (.ci/run), in stages; OMPDP_TEST_STAGES picks some of them
# (default: "normal asan fuzz tsan"):
#   normal  build into $OMPDP_BUILD (default build/), run every ctest test:
#           unit tests, the lit suite, the benchmarks' quick mode
#   asan    build runtime, driver, plugin and tests with AddressSanitizer +
#           UndefinedBehaviorSanitizer into $OMPDP_BUILD-asan and run the unit
#           tests and the whole lit suite (the repeated concurrency tests
#           $OMPDP_STRESS_RUNS, 5, times); any sanitizer report fails
#   fuzz    build the libFuzzer targets there and run each for
#           $OMPDP_FUZZ_SECONDS (20) from its corpus (scripts/fuzz.sh; its
#           own default, 60, and longer runs are for a machine of your own:
#           CI's time goes to the tests)
#   tsan    build the runtime, driver and tests with ThreadSanitizer into
#           $OMPDP_BUILD-tsan (the compiler plugin: the normal build's, when
#           there is one) and run the threaded lit tests
# Extra arguments go to CMake (every build).
# The last lines say, for every stage, whether it ran, how many tests passed,
# failed and were skipped, and why each was skipped (scripts/test_summary.py,
# from ctest's JUnit file, lit's results and fuzz.sh's), also when a stage
# fails and the script stops there.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
# The NVIDIA build is tested too (without a GPU: the cubins it embeds must
# be ones LLVM 19 loads); OMPDP_NVPTX_ARCH= (empty) leaves it out.
export OMPDP_NVPTX_ARCH=${OMPDP_NVPTX_ARCH-sm_90}
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ompdp_install_packages

stages=" ${OMPDP_TEST_STAGES:-normal asan fuzz tsan} "
started=$SECONDS
stage_start=$SECONDS

# Each stage's counts go to $summary (summarize STAGE, test_summary.py's
# arguments), printed on any exit with the stages that did not run.
summary="$(mktemp)"
summarize() {
  python3 "$OMPDP_ROOT/scripts/test_summary.py" stage "$@" >>"$summary" ||
    echo "$1: FAILED: test_summary.py could not read its results" >>"$summary"
}
trap 'python3 "$OMPDP_ROOT/scripts/test_summary.py" print "$summary" "$stages" $? \
        $((SECONDS - started)); rm -f "$summary"' EXIT

stage_done() {
  echo "ompdp: stage $1 passed in $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
}

# Runs "$@" with every sanitizer report written to a fresh directory, then
# fails if there is any, even one the test that caused it did not notice
# (a report in a child process, a test that expected a failure anyway).
with_sanitizer_logs() {
  local logs="$1"
  shift
  rm -rf "$logs" && mkdir -p "$logs"
  local rc=0
  ASAN_OPTIONS="log_path=$logs/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
  UBSAN_OPTIONS="log_path=$logs/ubsan${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
  TSAN_OPTIONS="log_path=$logs/tsan${TSAN_OPTIONS:+:$TSAN_OPTIONS}" \
    "$@" || rc=$?
  if [ -n "$(ls -A "$logs")" ]; then
    echo "ompdp: sanitizer reports in $logs:" >&2
    head -n 60 "$logs"/* >&2
    return 1
  fi
  return $rc
}

if [[ $stages == *" normal "* ]]; then
  ompdp_build "$@"
  rm -f "$OMPDP_BUILD/ctest-results.xml" "$OMPDP_BUILD/lit-tests/lit-results.json"
  rc=0
  (cd "$OMPDP_BUILD" && ctest --output-on-failure -j"$(nproc)" --output-junit ctest-results.xml) || rc=$?
  summarize normal --ctest "$OMPDP_BUILD/ctest-results.xml" --lit "$OMPDP_BUILD/lit-tests/lit-results.json"
  [ $rc -eq 0 ] || exit $rc
  stage_done normal
fi

asan_build="$OMPDP_BUILD-asan"
if [[ $stages == *" asan "* || $stages == *" fuzz "* ]]; then
  fuzz=OFF
  [[ $stages == *" fuzz "* ]] && fuzz=ON
  OMPDP_BUILD="$asan_build" ompdp_build -DOMPDP_SANITIZE=address,undefined -DOMPDP_FUZZ=$fuzz "$@"
fi
if [[ $stages == *" asan "* ]]; then
  # The benchmarks would only time ASan; the README's command lines are a
  # user's, with the normal build (programs built without a sanitizer
  # cannot load an instrumented runtime without the lit suite's preload).
  rm -f "$asan_build/ctest-results.xml" "$asan_build/lit-tests/lit-results.json"
  rc=0
  # The concurrency tests repeat 5 times here, as under ThreadSanitizer
  # (the normal stage repeats them 20 times: races are its job; a memory
  # error in a path the runs take shows in the first).
  (cd "$asan_build" &&
   OMPDP_STRESS_RUNS="${OMPDP_STRESS_RUNS:-5}" \
   with_sanitizer_logs "$asan_build/sanitizer-logs" \
     ctest --output-on-failure -j"$(nproc)" -E '^(benchmarks|realprogs|readme)/' \
       --output-junit ctest-results.xml) || rc=$?
  summarize asan --ctest "$asan_build/ctest-results.xml" \
    --lit "$asan_build/lit-tests/lit-results.json" --sanitizer-logs "$asan_build/sanitizer-logs"
  [ $rc -eq 0 ] || exit $rc
  stage_done asan
fi
if [[ $stages == *" fuzz "* ]]; then
  rc=0
  bash "$OMPDP_ROOT/scripts/fuzz.sh" "$asan_build" "${OMPDP_FUZZ_SECONDS:-20}" || rc=$?
  summarize fuzz --fuzz "$asan_build/fuzz-work/results"
  [ $rc -eq 0 ] || exit $rc
  stage_done fuzz
fi

if [[ $stages == *" tsan "* ]]; then
  tsan_build="$OMPDP_BUILD-tsan"
  # The normal build's plugin, when there is one (OMPDP_PLUGIN_DIR in
  # CMakeLists.txt): the plugin runs in clang's one thread.
  plugin_dir=()
  [ -f "$OMPDP_BUILD/lib/ompdp.so" ] && plugin_dir=(-DOMPDP_PLUGIN_DIR="$OMPDP_BUILD/lib")
  cmake -S "$OMPDP_ROOT" -B "$tsan_build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DOMPDP_SANITIZE=thread "${plugin_dir[@]}" "$@" >/dev/null
  cmake --build "$tsan_build" -j"$(nproc)"
  # lit.cfg.py runs only the threaded tests in a ThreadSanitizer build.
  rm -f "$tsan_build/lit-tests/lit-results.json"
  rc=0
  OMPDP_STRESS_RUNS="${OMPDP_STRESS_RUNS:-5}" \
    with_sanitizer_logs "$tsan_build/sanitizer-logs" cmake --build "$tsan_build" --target check-lit ||
    rc=$?
  summarize tsan --lit "$tsan_build/lit-tests/lit-results.json" \
    --sanitizer-logs "$tsan_build/sanitizer-logs"
  [ $rc -eq 0 ] || exit $rc
  stage_done tsan
fi
