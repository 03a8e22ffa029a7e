/*===- detect_common.c - the match vector ---------------------------*- C -*-===*\
|*
|* Matches are only collected for tests (ompdp_find_matches): the engine
|* aggregates them into findings as it goes.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdlib.h>

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
