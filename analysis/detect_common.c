/*===- detect_common.c - what the detections share ------------------*- C -*-===*\
|*
|* The match vector: matches are only collected for tests
|* (ompdp_find_matches), the engine aggregates them into findings as it
|* goes. And the words of a repeat whose host buffer the compiler says is
|* new each time, which duplicates and repeated allocations share.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ompdp_matches_push(ompdp_matches_t *m, uint32_t avoid, uint32_t ref, uint32_t aux) {
  if (m->n == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    ompdp_match_t *v = realloc(m->v, cap * sizeof(*v));
    if (!v)
      return -1;
    m->v = v;
    m->cap = cap;
  }
  m->v[m->n++] = (ompdp_match_t){avoid, ref, aux};
  return 0;
}

void ompdp_matches_free(ompdp_matches_t *m) {
  free(m->v);
  m->v = NULL;
  m->n = m->cap = 0;
}

static int same_place(const ompdp_loc_t *a, const ompdp_loc_t *b) {
  return a->file && b->file && a->function && b->function && a->line == b->line &&
         a->column == b->column && !strcmp(a->file, b->file) && !strcmp(a->function, b->function);
}

/* Whether the item of the operation f repeats (related) is a buffer of
 * its own function's call too, in a function other than f's: two such
 * buffers are two objects whatever addresses malloc gave them (extrema's
 * test_1D<int> and test_2D<long> each allocate theirs). A buffer that one
 * function allocates and another maps (a parameter there) is one object,
 * and so is one mapped by two constructs of one function. */
static int other_fresh(const ompdp_finding_t *f, const ompdp_region_info_t *related) {
  if (!related || !(related->access_flags & (OMPDP_IA_FRESH_HOST | OMPDP_IA_AUTOMATIC)) ||
      related->loop_kind != OMPDP_LK_NONE)
    return 0;
  const char *a = f->loc.function, *b = f->related.function;
  return a && b && strcmp(a, b) != 0;
}

static int fresh_host(const ompdp_finding_t *f, const ompdp_region_info_t *it,
                      const ompdp_region_info_t *related, const char **why) {
  if (!it || !it->variable || !it->variable[0])
    return 0;
  if (it->access_flags & OMPDP_IA_BASE_STORED) {
    *why = "the loop around the construct sets it; malloc may put one where the last one was";
    return 1;
  }
  /* A pointer the function sets only from allocations, or an automatic
   * variable, outside loops, repeated by its own construct or by such a
   * buffer of another function: only another call can have repeated it.
   * (Two constructs of one function map the same buffer in one call,
   * maxFlops' `target update`s between kernels: their repeats keep the
   * words of the same buffer.) */
  int again = it->loop_kind == OMPDP_LK_NONE &&
              (same_place(&f->loc, &f->related) || other_fresh(f, related));
  if ((it->access_flags & OMPDP_IA_FRESH_HOST) && again) {
    *why = "each call of the function allocates it; malloc may put one where the last one was";
    return 1;
  }
  if ((it->access_flags & OMPDP_IA_AUTOMATIC) && again) {
    *why = "a variable of the function's own at each call; the stack may put one where the "
           "last one was";
    return 1;
  }
  return 0;
}

char *ompdp_detect_fresh_text(const ompdp_finding_t *f, const ompdp_region_info_t *it,
                              const ompdp_region_info_t *related, const char *happened,
                              const char *once, const char *map) {
  const char *why;
  if (!fresh_host(f, it, related, &why))
    return NULL;
  char buf[768];
  snprintf(buf, sizeof(buf),
           "`%s` is a new host buffer each time (%s)%s: %s it once, before the calls or the "
           "loop that repeat this, and keep it on "
           "the device with `#pragma omp target enter data%s` before them and `target exit "
           "data` after",
           it->variable, why, happened, once, map);
  return ompdp_strdup(buf);
}
