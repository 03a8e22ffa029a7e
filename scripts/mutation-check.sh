#!/usr/bin/env bash
#===- scripts/mutation-check.sh - does the suite catch deliberate bugs? ---===#
#
# A test suite is only as good as the bugs it catches. This script puts one
# deliberate bug at a time into a scratch copy of the sources (an off-by-one
# at a detection's size threshold, a detection that stops finding, a key
# that loses a field, ...), rebuilds what the bug touches, runs the tests
# named for it, and fails unless every one of them fails. One mutation at
# least per detection family; the lit tests of lit-tests/boundaries/ are
# there for them.
#
#   bash scripts/mutation-check.sh [--list] [NAME...]   (default: all)
#
# Before any mutation the same tests must pass on the unchanged copy, so
# that a broken tree cannot pass for a caught bug; a mutation whose text is
# no longer in its file (the code moved on) is an error, never a skip. The
# scratch tree is $OMPDP_MUTATION_DIR (default: build/mutation): src/, a
# copy of the working tree (tracked and untracked, not ignored, files), and
# build/, kept between runs so that each run rebuilds only what changed. It
# builds the driver, the runtime and the unit tests the mutations name, not
# the compiler plugin: the mutations are in the analysis library. On the
# 2-core development machine (load average 6 from other builds): 87 s the
# first time (most of it the build), 53 s after, 2-5 s per mutation. Not
# part of scripts/test.sh; a mutation the suite lets through fails it.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${OMPDP_MUTATION_DIR:-$root/build/mutation}"
lit="${OMPDP_LIT:-/usr/lib/llvm-19/build/utils/lit/lit.py}"
jobs="${OMPDP_JOBS:-2}"

# The mutations: name, file, the exact text, what it becomes, and the tests
# that must each fail with it (lit:PATH under lit-tests/, unit:NAME).
names=() files=() froms=() tos=() tests=()
mutation() {
  names+=("$1") files+=("$2") froms+=("$3") tos+=("$4") tests+=("$5")
}
mutation zero-min-size analysis/detect_zero.c \
  'e->d->bytes < z->min_bytes' 'e->d->bytes <= z->min_bytes' \
  'lit:boundaries/zero_transfer.test unit:test_zero'
mutation zero-hash-chunk-boundary analysis/detect_zero.c \
  'return n < OMPDP_HASH_CHUNKED_MIN ?' 'return n <= OMPDP_HASH_CHUNKED_MIN ?' \
  'lit:boundaries/zero_transfer.test'
mutation round-trip-never analysis/detect_round_trip.c \
  'if (!e->hashed || o->src_dev == o->dst_dev)' 'if (!e->hashed || o->src_dev != o->dst_dev)' \
  'lit:boundaries/round_trip.test lit:runtime/round_trip.c unit:test_round_trip'
mutation duplicate-other-device analysis/detect_duplicate.c \
  'return ompdp_op_get(op)->dst_dev == *(const int *)ctx;' \
  'return ompdp_op_get(op)->dst_dev != *(const int *)ctx;' \
  'lit:boundaries/duplicate_transfer.test lit:runtime/duplicate_transfer.c unit:test_duplicate'
mutation hash-one-byte analysis/analysis.c \
  '(word & OMPDP_REC_HASHED) && e.d->bytes > 0;' '(word & OMPDP_REC_HASHED) && e.d->bytes > 1;' \
  'lit:boundaries/duplicate_transfer.test lit:boundaries/round_trip.test'
mutation repeated-alloc-any-size analysis/detect_allocs.c \
  'o->bytes, &inserted);' '0, &inserted);' \
  'lit:boundaries/allocations.test lit:runtime/repeated_alloc.c'
mutation unused-alloc-kernel-ignored analysis/detect_allocs.c \
  'while (d->pending) {' 'while (0) {' \
  'lit:boundaries/allocations.test lit:runtime/unused_alloc.c unit:test_allocs'
mutation unused-transfer-cover analysis/detect_unused.c \
  'if (o->bytes >= c->bytes && select_b' 'if (o->bytes > c->bytes && select_b' \
  'lit:boundaries/unused_transfer.test'
mutation lifetime-threshold analysis/detect_lifetime.c \
  'saved >= l->min_bytes' 'saved > l->min_bytes' \
  'lit:boundaries/lifetime.test unit:test_lifetime'
mutation lifetime-blind-kernel-unused analysis/detect_lifetime.c \
  'while (d->unused)' 'while (0)' \
  'unit:test_lifetime'
mutation memory-peak-later-moment analysis/mem_track.c \
  'if (d->in_use > d->max) {' 'if (d->in_use >= d->max) {' \
  'unit:test_mem_track'
mutation overbroad-always analysis/detect_overbroad.c \
  'if (it->construct != OMPDP_CK_TARGET || (it->modifiers & OMPDP_MOD_ALWAYS))' \
  'if (it->construct != OMPDP_CK_TARGET)' \
  'unit:test_overbroad'
mutation section-skip-ignored analysis/detect_overbroad.c \
  '*spare = (uint64_t)(lo + skip - end) * es;' '*spare = (uint64_t)(lo - end) * es;' \
  'unit:test_section'
mutation section-never analysis/detect_overbroad.c \
  'return rule != OMPDP_OVERBROAD_NONE ? rule : section_rule(it);' 'return rule;' \
  'unit:test_section'

if [ "${1:-}" = "--list" ]; then
  for i in "${!names[@]}"; do
    echo "${names[i]}: ${files[i]}: '${froms[i]}' -> '${tos[i]}'; caught by: ${tests[i]}"
  done
  exit 0
fi
chosen=()
for want in "$@"; do
  found=""
  for i in "${!names[@]}"; do [ "${names[i]}" = "$want" ] && found=$i; done
  [ -n "$found" ] || { echo "mutation-check: no mutation '$want' (--list names them)" >&2; exit 2; }
  chosen+=("$found")
done
[ ${#chosen[@]} -gt 0 ] || chosen=("${!names[@]}")

# The scratch copy: sources with their times kept, so that the build
# recompiles only what changed, and the mutated files touched, so that no
# object built from a mutation survives into this run.
src="$work/src" build="$work/build"
mkdir -p "$src" "$build"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
   xargs -0 tar --ignore-failed-read -cf - --no-recursion) | tar -xf - -C "$src"
for i in "${!names[@]}"; do touch "$src/${files[i]}"; done

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$work/cmake.log" 2>&1 ||
  { tail -n 20 "$work/cmake.log" >&2; exit 1; }
units=$(for i in "${chosen[@]}"; do for t in ${tests[i]}; do
          case $t in unit:*) echo "${t#unit:}" ;; esac; done; done | sort -u)
build_all() {
  cmake --build "$build" -j"$jobs" --target ompdp ompdp-rt $units >"$work/build.log" 2>&1
}

# Runs tests (lit:PATH unit:NAME ...); prints "<test> passed|failed" lines.
run_tests() {
  local t lits=()
  for t in "$@"; do
    case $t in
      lit:*) lits+=("$build/lit-tests/${t#lit:}") ;;
      unit:*)
        if timeout 300 "$build/unittests/${t#unit:}" >/dev/null 2>&1; then
          echo "$t passed"
        else
          echo "$t failed"
        fi ;;
    esac
  done
  [ ${#lits[@]} -eq 0 ] && return 0
  rm -f "$work/lit.json"
  timeout 900 python3 "$lit" -q -o "$work/lit.json" "${lits[@]}" >/dev/null 2>&1 || true
  python3 - "$work/lit.json" "$@" <<'EOF'
import json, os, sys
want = [t[4:] for t in sys.argv[2:] if t.startswith("lit:")]
codes = {}
if os.path.exists(sys.argv[1]):
    for t in json.load(open(sys.argv[1]))["tests"]:
        codes[t["name"].split(" :: ", 1)[-1]] = t["code"]
for w in want:
    c = codes.get(w, "NOT RUN")
    # A test that did not run (unsupported, lit killed) caught nothing.
    print("lit:%s %s" % (w, "passed" if c == "PASS" else "failed" if c in ("FAIL", "TIMEOUT")
                         else "did-not-run(%s)" % c))
EOF
}

echo "mutation-check: building the unchanged copy in $build"
build_all || { echo "mutation-check: the unchanged copy does not build ($work/build.log)" >&2; exit 1; }
all_tests=$(for i in "${chosen[@]}"; do echo ${tests[i]}; done | tr ' ' '\n' | sort -u)
bad=0
while read -r t result; do
  if [ "$result" != passed ]; then
    echo "mutation-check: $t does not pass without a bug ($result): fix the suite first" >&2
    bad=1
  fi
done < <(run_tests $all_tests)
[ $bad -eq 0 ] || exit 1

failed=0
for i in "${chosen[@]}"; do
  name="${names[i]}" file="$src/${files[i]}"
  cp "$file" "$work/original"
  if ! python3 - "$file" "${froms[i]}" "${tos[i]}" <<'EOF'
import sys
path, old, new = sys.argv[1:4]
s = open(path).read()
if s.count(old) != 1:
    sys.exit("'%s' is in %s %d times, not once: update the mutation" % (old, path, s.count(old)))
open(path, "w").write(s.replace(old, new))
EOF
  then
    echo "mutation-check: $name: cannot apply" >&2
    failed=1
    continue
  fi
  start=$SECONDS
  if ! build_all; then
    echo "$name: the mutated copy does not build (see $work/build.log): caught by the compiler"
  else
    missed=() caught=()
    while read -r t result; do
      if [ "$result" = failed ]; then caught+=("$t"); else missed+=("$t ($result)"); fi
    done < <(run_tests ${tests[i]})
    if [ ${#missed[@]} -eq 0 ]; then
      echo "$name: caught by ${caught[*]} ($((SECONDS - start)) s)"
    else
      echo "$name: NOT caught by ${missed[*]}${caught:+; caught by ${caught[*]}}"
      failed=1
    fi
  fi
  # Back to the original, newer than any object the mutation made.
  cp "$work/original" "$file"
  touch "$file"
done
if [ $failed -ne 0 ]; then
  echo "mutation-check: FAILED: the suite let a deliberate bug through"
  exit 1
fi
echo "mutation-check: every mutation was caught (${#chosen[@]})"
