/*===- routine_text.c - the words of findings at routine calls ------*- C -*-===*\
|*
|* A finding whose operations a device memory routine made (omp_target_memcpy,
|* omp_target_alloc, ...; the compiler recorded the call) is fixed by moving
|* or replacing calls, not by map clauses, which the program does not have:
|* the detections' own words (target data, map(alloc: ...)) would be wrong
|* for it. The words here name the routine and, where they help, write the
|* call the programmer would add with the arguments as the program wrote
|* them (the region table's Arguments).
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Argument k (from 0) of a routine call, as written, into buf; "" when the
 * call has fewer. */
static const char *argument(const ompdp_region_info_t *it, unsigned k, char *buf, size_t n) {
  const char *p = it->arguments ? it->arguments : "";
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

char *ompdp_routine_text(const ompdp_finding_t *f, const char *d) {
  ompdp_region_info_t it;
  if (!ompdp_detect_describe_item(f, &it) || !ompdp_construct_is_routine(it.construct))
    return NULL;
  const char *r = ompdp_construct_kind_name(it.construct);
  const char *v = f->variable && f->variable[0] ? f->variable : "the buffer";
  const char *plural = f->num_devices > 1 ? "s" : "";
  int loop = it.loop_kind != OMPDP_LK_NONE;
  int copy = it.construct == OMPDP_CK_TARGET_MEMCPY ||
             it.construct == OMPDP_CK_TARGET_MEMCPY_RECT ||
             it.construct == OMPDP_CK_TARGET_MEMCPY_ASYNC ||
             it.construct == OMPDP_CK_TARGET_MEMCPY_RECT_ASYNC;
  int memset = it.construct == OMPDP_CK_TARGET_MEMSET ||
               it.construct == OMPDP_CK_TARGET_MEMSET_ASYNC;
  char buf[1024], dst[128], len[128], dev[128];
  switch (f->kind) {
  case OMPDP_FK_DUPLICATE_TRANSFER:
    if (ompdp_finding_is_copy_back(f))
      snprintf(buf, sizeof(buf),
               "`%s` copies back from device%s %s bytes of %s the host already has: %s",
               r, plural, d, v,
               loop ? "copy it back once after the loop (move the call there), or only where "
                      "the device's copy can have changed"
                    : "copy it back only where the device's copy can have changed");
    else if (loop)
      snprintf(buf, sizeof(buf),
               "`%s` sends device%s %s bytes of %s it already has: copy them once before the "
               "loop (move the call there) and again only where %s changes on the host",
               r, plural, d, v, v);
    else
      snprintf(buf, sizeof(buf),
               "`%s` sends device%s %s bytes of %s it already has: copy them once, and again "
               "only where %s changes on the host",
               r, plural, d, v, v);
    break;
  case OMPDP_FK_ROUND_TRIP:
    snprintf(buf, sizeof(buf),
             "%s comes back from device%s %s unchanged and `%s` sends it out again: %s", v,
             plural, d, r,
             loop ? "copy it to the device once before the loop and back once after it (or "
                    "only where the host reads it), moving the calls out of the loop"
                  : "keep the device's copy and send it again only where the host changed it");
    break;
  case OMPDP_FK_REPEATED_ALLOC:
    snprintf(buf, sizeof(buf),
             "`%s` allocates %s on device%s %s again each time, and `omp_target_free` frees "
             "it: %s",
             r, v, plural, d,
             loop ? "allocate it once before the loop and free it after the loop"
                  : "allocate it once and free it when it is no longer used");
    break;
  case OMPDP_FK_UNUSED_ALLOC:
    snprintf(buf, sizeof(buf),
             "no kernel runs on device%s %s while the memory of this `%s` exists: remove the "
             "call and its `omp_target_free`, or move them to where a kernel uses %s",
             plural, d, r, v);
    break;
  case OMPDP_FK_UNUSED_TRANSFER:
    snprintf(buf, sizeof(buf),
             "no kernel reads the bytes this `%s` sends to device%s %s before they are "
             "overwritten or the last kernel there ran: remove the call, or move it to where a "
             "kernel reads %s",
             r, plural, d, v);
    break;
  case OMPDP_FK_ZERO_TRANSFER:
    if (memset) {
      argument(&it, 0, dst, sizeof(dst));
      snprintf(buf, sizeof(buf),
               "this libomptarget implements `%s` as a copy of a host buffer of the value to "
               "device%s %s: a kernel that fills the memory (`#pragma omp target "
               "is_device_ptr(%s)` with a loop writing zeros) avoids the copy",
               r, plural, d, dst[0] ? dst : "...");
      break;
    }
    if (copy) {
      /* memcpy(dst, src, length, dst_offset, src_offset, dst_device, ...) */
      argument(&it, 0, dst, sizeof(dst));
      argument(&it, 2, len, sizeof(len));
      argument(&it, 5, dev, sizeof(dev));
      if (it.construct == OMPDP_CK_TARGET_MEMCPY || it.construct == OMPDP_CK_TARGET_MEMCPY_ASYNC)
        snprintf(buf, sizeof(buf),
                 "every byte of %s that `%s` copied to device%s %s was zero: fill the device "
                 "memory there instead, `omp_target_memset(%s, 0, %s, %s)`, or a kernel "
                 "`#pragma omp target is_device_ptr(%s)` that writes zeros",
                 v, r, plural, d, dst, len, dev, dst);
      else
        snprintf(buf, sizeof(buf),
                 "every byte of %s that `%s` copied to device%s %s was zero: fill the device "
                 "memory there instead, with `omp_target_memset` or a kernel `#pragma omp "
                 "target is_device_ptr(%s)` that writes zeros",
                 v, r, plural, d, dst);
      break;
    }
    snprintf(buf, sizeof(buf), "every byte `%s` copied to device%s %s was zero: fill the memory "
             "on the device instead (`omp_target_memset`, or a kernel with is_device_ptr)",
             r, plural, d);
    break;
  case OMPDP_FK_OVERBROAD_MAP:
  case OMPDP_FK_COUNT:
    return NULL;
  }
  return ompdp_strdup(buf);
}
