/*===- routine_text.c - the words of findings at routine calls ------*- C -*-===*\
|*
|* A finding whose operations a device memory routine made (omp_target_memcpy,
|* omp_target_alloc, ...; the compiler recorded the call) is fixed by moving
|* or replacing calls, not by map clauses, which the program does not have:
|* the detections' own words (target data, map(alloc: ...)) would be wrong
|* for it. Each kind says it in its routine_text (the table of detections),
|* from the call as built here: the routine's name and, where they help,
|* the arguments as the program wrote them (the region table's Arguments),
|* so that the words can write the call the programmer would add.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <string.h>

const char *ompdp_routine_argument(const ompdp_routine_call_t *c, unsigned k, char *buf,
                                   size_t n) {
  const char *p = c->it->arguments ? c->it->arguments : "";
  for (unsigned i = 0; i < k && p; ++i) {
    p = strchr(p, '\n');
    if (p)
      ++p;
  }
  const char *e = p ? strchr(p, '\n') : NULL;
  size_t len = !p ? 0 : e ? (size_t)(e - p) : strlen(p);
  if (len >= n)
    len = n - 1;
  if (p)
    memcpy(buf, p, len);
  buf[len] = 0;
  return buf;
}

char *ompdp_routine_text(const ompdp_finding_t *f, const ompdp_region_info_t *it,
                         const char *devices) {
  const ompdp_detection_kind_t *k = ompdp_detection_kind(f->kind);
  if (!it || !ompdp_construct_is_routine(it->construct) || !k || !k->routine_text)
    return NULL;
  ompdp_routine_call_t c = {
      .it = it,
      .routine = ompdp_construct_kind_name(it->construct),
      .variable = f->variable && f->variable[0] ? f->variable : "the buffer",
      .plural = f->num_devices > 1 ? "s" : "",
      .devices = devices,
      .loop = it->loop_kind != OMPDP_LK_NONE,
  };
  return k->routine_text(f, &c);
}
