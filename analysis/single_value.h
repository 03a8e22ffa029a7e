/*===- single_value.h - copies whose every element held one value --*- C -*-===*\
|*
|* The runtime notes the content hash of each host-to-device copy whose
|* bytes repeat one non-zero pattern of up to 8 bytes (single_value.c); the
|* single-value detection (detect_zero.c) and the rewrite facts
|* (rewrite_facts.c) find the pattern by that hash. Thread-safe.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_SINGLE_VALUE_H
#define OMPDP_SINGLE_VALUE_H

#include <stddef.h>
#include <stdint.h>

/* Whether the n bytes at p repeat one pattern of 8, 4, 2 or 1 bytes (the
 * longest that divides n; at least two repeats) that is not all zero: then
 * *pattern holds it repeated to 8 bytes, byte i of the buffer being byte
 * i % 8 of *pattern, least significant first, and *period its shortest
 * period. One pass at most, over the bytes that match. */
int ompdp_single_value_check(const void *p, size_t n, uint64_t *pattern, uint32_t *period);
/* glibc's MALLOC_PERTURB_ (its value's low byte; -1: not set): malloc
 * fills what it hands out with that byte's complement, free what it takes
 * back with the byte. */
void ompdp_single_value_set_perturb(int byte);
/* Whether pattern (period 1: one byte repeated) is such a fill: memory no
 * code initialised, whose bytes no fill on the device may take as the
 * program's (HeCBench backprop's `hidden_delta`, malloc'd and sent unset). */
int ompdp_single_value_uninitialised(uint64_t pattern, uint32_t period);
/* Notes that the copies whose content hash is hash held pattern. */
void ompdp_single_value_note(uint64_t hash, uint64_t pattern, uint32_t period);
/* The pattern noted for hash: 1 and *pattern, *period, or 0. */
int ompdp_single_value_find(uint64_t hash, uint64_t *pattern, uint32_t *period);
/* Forgets every pattern (tests). */
void ompdp_single_value_reset(void);

#endif /* OMPDP_SINGLE_VALUE_H */
