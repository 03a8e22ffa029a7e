/*===- check.h - a minimal assertion harness for ompdp unit tests -*- C -*-===*\
|*
|* Each unit test is a C program: CHECK() records a failure and goes on,
|* REQUIRE() records it and returns from the test function (for the checks
|* that what follows depends on: a count before its elements), and
|* CHECK_DONE() prints the plain closing line "N passed, N failed" and turns
|* any failure into a non-zero exit status for ctest.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_UNITTEST_CHECK_H
#define OMPDP_UNITTEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>

static unsigned check_passed, check_failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      ++check_passed;                                                          \
    } else {                                                                   \
      ++check_failed;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_EQ_U64(a, b)                                                     \
  do {                                                                         \
    uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);               \
    if (check_a_ == check_b_) {                                                \
      ++check_passed;                                                          \
    } else {                                                                   \
      ++check_failed;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s == %s (%" PRIu64 " != %" PRIu64 ")\n", \
              __FILE__, __LINE__, #a, #b, check_a_, check_b_);                 \
    }                                                                          \
  } while (0)

/* As CHECK and CHECK_EQ_U64, but a failure also returns from the test
 * function (a void one) at once: what follows reads what the check
 * promises (m.v[0] after m.n == 1), and a regression must be reported as a
 * failed check, never read past the end of an array and crash. */
#define REQUIRE(cond)                                                          \
  do {                                                                         \
    unsigned require_failed_ = check_failed;                                   \
    CHECK(cond);                                                               \
    if (check_failed != require_failed_)                                       \
      return;                                                                  \
  } while (0)

#define REQUIRE_EQ_U64(a, b)                                                   \
  do {                                                                         \
    unsigned require_failed_ = check_failed;                                   \
    CHECK_EQ_U64(a, b);                                                        \
    if (check_failed != require_failed_)                                       \
      return;                                                                  \
  } while (0)

#define CHECK_DONE()                                                           \
  (printf("%u passed, %u failed\n", check_passed, check_failed),              \
   check_failed ? 1 : 0)

#endif
