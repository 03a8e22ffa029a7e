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

static int fresh_host(const ompdp_finding_t *f, const ompdp_region_info_t *it, const char **why) {
  if (!it || !it->variable || !it->variable[0])
    return 0;
  if (it->access_flags & OMPDP_IA_BASE_STORED) {
    *why = "the loop around the construct sets it; malloc may put one where the last one was";
    return 1;
  }
  /* A pointer the function sets only from allocations, or an automatic
   * variable, outside loops, repeated by its own construct: only another
   * call can have repeated it. (Two constructs of one function map the same
   * buffer in one call, maxFlops' `target update`s between kernels: their
   * repeats keep the words of the same buffer.) */
  if ((it->access_flags & OMPDP_IA_FRESH_HOST) && it->loop_kind == OMPDP_LK_NONE &&
      same_place(&f->loc, &f->related)) {
    *why = "each call of the function allocates it; malloc may put one where the last one was";
    return 1;
  }
  if ((it->access_flags & OMPDP_IA_AUTOMATIC) && it->loop_kind == OMPDP_LK_NONE &&
      same_place(&f->loc, &f->related)) {
    *why = "a variable of the function's own at each call; the stack may put one where the "
           "last one was";
    return 1;
  }
  return 0;
}

char *ompdp_detect_fresh_text(const ompdp_finding_t *f, const ompdp_region_info_t *it,
                              const char *happened, const char *once, const char *map) {
  const char *why;
  if (!fresh_host(f, it, &why))
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
