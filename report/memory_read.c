/*===- memory_read.c - reading a report's device memory back --------*- C -*-===*\
|*
|* Reads what memory.c writes ("device_memory"), with the report reader's
|* typed members (json_load.h), so that the same hostile input gets the
|* same one-line reasons as the rest of the report: each entry must be an
|* object with a device number, every count a non-negative integer, every
|* point of the series a pair of them in time order, at most
|* OMPDP_MEM_SERIES_MAX points and OMPDP_MEM_HOLDERS holders (a file that
|* says more was not written by ompdp). Members this version does not know
|* are skipped.
|*
\*===----------------------------------------------------------------------===*/
#include "json_load.h"
#include "memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const HolderNames[] = {"variable", "clause", "call",  "file",
                                          "line",     "column", "function", "bytes",
                                          "allocations"};
enum { H_VAR, H_CLAUSE, H_CALL, H_FILE, H_LINE, H_COLUMN, H_FUNCTION, H_BYTES, H_ALLOCS, H_NUM };

static int find_name(const char *const *names, int n, const char *key) {
  for (int i = 0; i < n; ++i)
    if (!strcmp(names[i], key))
      return i;
  return -1;
}

static int read_holder(ompdp_json_doc_t *d, const json_t *v, ompdp_mem_holder_t *h) {
  if (!json_is_object(v))
    return ompdp_json_fail(d, "\"holders\" must be an array of objects");
  const char *key;
  json_t *m;
  json_object_foreach((json_t *)v, key, m) {
    uint64_t x = 0;
    int e = 0;
    switch (find_name(HolderNames, H_NUM, key)) {
    case H_VAR:
      e = ompdp_json_get_str(d, "variable", m, 1, &h->variable);
      break;
    case H_CLAUSE:
      e = ompdp_json_get_str(d, "clause", m, 1, &h->clause);
      break;
    case H_CALL:
      e = ompdp_json_get_str(d, "call", m, 1, &h->call);
      break;
    case H_FILE:
      e = ompdp_json_get_str(d, "file", m, 1, &h->loc.file);
      break;
    case H_FUNCTION:
      e = ompdp_json_get_str(d, "function", m, 1, &h->loc.function);
      break;
    case H_LINE:
      e = ompdp_json_get_u64(d, "line", m, UINT32_MAX, &x);
      h->loc.line = (uint32_t)x;
      break;
    case H_COLUMN:
      e = ompdp_json_get_u64(d, "column", m, UINT32_MAX, &x);
      h->loc.column = (uint32_t)x;
      break;
    case H_BYTES:
      e = ompdp_json_get_u64(d, "bytes", m, UINT64_MAX, &h->bytes);
      break;
    case H_ALLOCS:
      e = ompdp_json_get_u64(d, "allocations", m, UINT64_MAX, &h->allocations);
      break;
    default:
      break;
    }
    if (e)
      return -1;
  }
  return 0;
}

static int read_series(ompdp_json_doc_t *d, const json_t *v, ompdp_device_memory_t *m) {
  if (!json_is_array(v))
    return ompdp_json_fail(d, "\"series\" must be an array");
  size_t n = json_array_size(v);
  if (n > OMPDP_MEM_SERIES_MAX)
    return ompdp_json_fail(d, "\"series\" has more than %d points", OMPDP_MEM_SERIES_MAX);
  if (!n)
    return 0;
  if (!(m->series = calloc(n, sizeof(*m->series))))
    return ompdp_json_fail(d, "out of memory");
  for (size_t i = 0; i < n; ++i) {
    const json_t *p = json_array_get(v, i);
    ompdp_mem_point_t *pt = &m->series[i];
    if (!json_is_array(p) || json_array_size(p) != 2)
      return ompdp_json_fail(d, "a point of \"series\" must be [time_ns, bytes]");
    if (ompdp_json_get_u64(d, "series", json_array_get(p, 0), UINT64_MAX, &pt->t_ns) ||
        ompdp_json_get_u64(d, "series", json_array_get(p, 1), UINT64_MAX, &pt->bytes))
      return -1;
    if (i && pt->t_ns < m->series[i - 1].t_ns)
      return ompdp_json_fail(d, "the points of \"series\" are not in time order");
    m->num_series++;
  }
  return 0;
}

static const char *const EntryNames[] = {
    "device",     "rank",        "peak_bytes",       "peak_time_ns", "peak_allocations",
    "peak_saved_bytes", "final_bytes", "allocated_bytes", "allocations", "end_ns",
    "holders",    "other_bytes", "other_allocations", "series"};
enum {
  M_DEVICE, M_RANK, M_PEAK, M_TIME, M_PEAK_ALLOCS, M_SAVED, M_FINAL, M_ALLOCATED, M_ALLOCS,
  M_END, M_HOLDERS, M_OTHER_BYTES, M_OTHER_ALLOCS, M_SERIES, M_NUM
};

static int read_entry(ompdp_json_doc_t *d, const json_t *v, ompdp_device_memory_t *m) {
  if (!json_is_object(v))
    return ompdp_json_fail(d, "\"device_memory\" must be an array of objects");
  uint64_t *const Dest[M_NUM] = {
      [M_PEAK] = &m->peak_bytes,         [M_TIME] = &m->peak_time_ns,
      [M_PEAK_ALLOCS] = &m->peak_allocations, [M_SAVED] = &m->peak_saved_bytes,
      [M_FINAL] = &m->final_bytes,       [M_ALLOCATED] = &m->allocated_bytes,
      [M_ALLOCS] = &m->allocations,      [M_END] = &m->end_ns,
      [M_OTHER_BYTES] = &m->other_bytes, [M_OTHER_ALLOCS] = &m->other_allocations};
  int has_device = 0;
  const char *key;
  json_t *x;
  json_object_foreach((json_t *)v, key, x) {
    int k = find_name(EntryNames, M_NUM, key), e = 0, i = 0;
    if (k < 0)
      continue;
    switch (k) {
    case M_DEVICE:
      e = ompdp_json_get_int(d, "device", x, &i);
      m->device = i;
      has_device = 1;
      break;
    case M_RANK:
      e = ompdp_json_get_int(d, "rank", x, &i);
      if (!e && i < 0)
        e = ompdp_json_fail(d, "\"rank\" must not be negative");
      m->rank = i;
      break;
    case M_HOLDERS:
      if (!json_is_array(x)) {
        e = ompdp_json_fail(d, "\"holders\" must be an array of objects");
        break;
      }
      if (json_array_size(x) > OMPDP_MEM_HOLDERS) {
        e = ompdp_json_fail(d, "\"holders\" has more than %d entries", OMPDP_MEM_HOLDERS);
        break;
      }
      if (json_array_size(x) &&
          !(m->holders = calloc(json_array_size(x), sizeof(*m->holders)))) {
        e = ompdp_json_fail(d, "out of memory");
        break;
      }
      for (size_t j = 0; j < json_array_size(x) && !e; ++j)
        e = read_holder(d, json_array_get(x, j), &m->holders[m->num_holders++]);
      break;
    case M_SERIES:
      e = read_series(d, x, m);
      break;
    default:
      e = ompdp_json_get_u64(d, EntryNames[k], x, UINT64_MAX, Dest[k]);
      break;
    }
    if (e)
      return -1;
  }
  if (!has_device)
    return ompdp_json_fail(d, "an entry of \"device_memory\" has no \"device\"");
  if (m->peak_saved_bytes > m->peak_bytes)
    return ompdp_json_fail(d, "\"peak_saved_bytes\" is more than \"peak_bytes\"");
  return 0;
}

int ompdp_memory_read_json(ompdp_json_doc_t *d, const json_t *v, ompdp_report_t *r) {
  if (!json_is_array(v))
    return ompdp_json_fail(d, "\"device_memory\" must be an array");
  for (size_t i = 0; i < json_array_size(v); ++i) {
    ompdp_device_memory_t *m = ompdp_report_add_memory(r, 0);
    if (!m)
      return ompdp_json_fail(d, "out of memory");
    if (read_entry(d, json_array_get(v, i), m))
      return -1;
  }
  return 0;
}
