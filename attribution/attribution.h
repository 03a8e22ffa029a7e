/*===- attribution.h - source locations of offload calls, from DWARF --*- C -*-===*\
|*
|* The one DWARF lookup of ompdp (attribution_linux.c, on elfutils'
|* libdwfl), a library of its own because two programs need it: the
|* runtime attributes the offload calls of its own process, and `ompdp run`
|* those of a program that died, from the event log it left
|* (driver/recover.c), through an object finder. Both open libdw at the
|* first lookup: neither has it in its image.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_ATTRIBUTION_H
#define OMPDP_ATTRIBUTION_H

#include "report.h" /* ompdp_loc_t */

#include <stdint.h>

/* Fills loc with the source location of the offload call whose return
 * address is codeptr (uses codeptr - 1: the call itself), made by a
 * construct of the given ompt_target_t kind (0 when unknown). Strings are
 * malloc'd. */
void ompdp_attribute(const void *codeptr, int construct, ompdp_loc_t *loc);
/* Forgets every object and address looked up (the end of a report). */
void ompdp_attribution_done(void);
/* For addresses of another process (`ompdp run` reading a crash log): the
 * object holding addr and its load bias, instead of this process's
 * dynamic linker. Returns 0, or -1 when unknown. */
typedef int (*ompdp_object_finder_t)(uint64_t addr, const char **file, uint64_t *bias);
void ompdp_attribution_set_object_finder(ompdp_object_finder_t fn);

#endif /* OMPDP_ATTRIBUTION_H */
