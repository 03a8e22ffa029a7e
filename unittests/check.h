/*===- check.h - a minimal assertion harness for ompdp unit tests -*- C -*-===*\
|*
|* Each unit test is a C program: CHECK() records a failure and goes on, and
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

#define CHECK_DONE()                                                           \
  (printf("%u passed, %u failed\n", check_passed, check_failed),              \
   check_failed ? 1 : 0)

#endif
