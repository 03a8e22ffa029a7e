/*===- regions_check.c - bounds check of a region table in memory --*- C -*-===*\
|*
|* A region table comes from whatever object the loader mapped: an old or
|* foreign plugin, a stripped or patched binary, a corrupted file. The
|* runtime reads it with plain pointer arithmetic (regions.c), so before it
|* uses a table this check proves every read it will make stays inside the
|* buffer: the header's magic, version and record sizes, the counts against
|* TotalSize against the bytes there are (in 64-bit arithmetic, so no count
|* can wrap), every region's items inside the item array and its Index equal
|* to its position (the runtime finds the header from a record through it)
|* and its exit records inside theirs,
|* every item's host access records inside theirs and each naming an item
|* that exists, every string offset inside the pool, and the pool
|* NUL-terminated.
|*
|* Pure: reads only the buffer (never the run-time Hook and RuntimeTag
|* words, which another thread may be writing), no allocation, no globals,
|* so the fuzzer (fuzz/fuzz_region_table.c) and the unit tests call it on
|* any bytes. Which fields are strings comes from the X-macro descriptions
|* ("string: ..."), so a field added there is checked without an edit here.
|*
\*===----------------------------------------------------------------------===*/
#include "regions.h"
#include "report.h" /* ompdp_errf */

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ompdp/OmpdpFormat.inc"

typedef struct check_header {
#define OMPDP_REGION_HEADER_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} check_header_t;

typedef struct check_region {
#define OMPDP_REGION_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} check_region_t;

typedef struct check_item {
#define OMPDP_ITEM_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} check_item_t;

typedef struct check_host_access {
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} check_host_access_t;

typedef struct check_exit {
#define OMPDP_EXIT_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} check_exit_t;

/* One 32-bit field of a record that the check looks at. */
typedef struct check_field {
  size_t offset, size;
  const char *name, *desc;
} check_field_t;

static const check_field_t region_fields[] = {
#define OMPDP_REGION_FIELD(Type, Name, Desc)                                   \
  {offsetof(check_region_t, Name), sizeof(Type), #Name, Desc},
#include "ompdp/OmpdpFormat.inc"
};
static const check_field_t item_fields[] = {
#define OMPDP_ITEM_FIELD(Type, Name, Desc)                                     \
  {offsetof(check_item_t, Name), sizeof(Type), #Name, Desc},
#include "ompdp/OmpdpFormat.inc"
};
static const check_field_t host_access_fields[] = {
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc)                              \
  {offsetof(check_host_access_t, Name), sizeof(Type), #Name, Desc},
#include "ompdp/OmpdpFormat.inc"
};
#define CHECK_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t u32_at(const unsigned char *p, size_t off) {
  uint32_t v;
  memcpy(&v, p + off, sizeof(v));
  return v;
}

static int is_string(const check_field_t *f) {
  return f->size == sizeof(uint32_t) && strncmp(f->desc, "string:", 7) == 0;
}

/* Every string field of the record at rec lies inside the pool. */
static int check_strings(const unsigned char *rec, const check_field_t *fields,
                         size_t n, uint32_t pool_size, const char *what,
                         uint32_t index, char *err, size_t errlen) {
  for (size_t k = 0; k < n; ++k) {
    if (!is_string(&fields[k]))
      continue;
    uint32_t off = u32_at(rec, fields[k].offset);
    if (off >= pool_size)
      return ompdp_errf(err, errlen,
                        "%s %u: string %s at offset %u is outside the %u-byte pool",
                        what, (unsigned)index, fields[k].name, (unsigned)off,
                        (unsigned)pool_size);
  }
  return 0;
}

int ompdp_region_table_check(const void *buf, size_t len, char *err,
                             size_t errlen) {
  const unsigned char *p = buf;
  if (err && errlen)
    err[0] = '\0';
  if (!p)
    return ompdp_errf(err, errlen, "no table");
  if (len < sizeof(check_header_t))
    return ompdp_errf(err, errlen, "truncated: %zu bytes, the header alone is %zu",
                      len, sizeof(check_header_t));
  uint64_t magic;
  memcpy(&magic, p + offsetof(check_header_t, Magic), sizeof(magic));
  if (magic != OMPDP_REGION_TABLE_MAGIC)
    return ompdp_errf(err, errlen, "wrong magic number 0x%016llx",
                      (unsigned long long)magic);
  uint32_t version = u32_at(p, offsetof(check_header_t, Version));
  if (version != OMPDP_REGION_TABLE_VERSION)
    return ompdp_errf(err, errlen,
                      "version %u.%u is not the supported version %u.%u; rebuild "
                      "with the matching ompdp plugin",
                      (unsigned)(version & 0xffff), (unsigned)(version >> 16),
                      (unsigned)OMPDP_REGION_TABLE_MAJOR_VERSION,
                      (unsigned)OMPDP_REGION_TABLE_MINOR_VERSION);
  uint32_t header_size = u32_at(p, offsetof(check_header_t, HeaderSize));
  uint32_t region_size = u32_at(p, offsetof(check_header_t, RegionSize));
  uint32_t item_size = u32_at(p, offsetof(check_header_t, ItemSize));
  uint32_t ha_size = u32_at(p, offsetof(check_header_t, HostAccessSize));
  uint32_t exit_size = u32_at(p, offsetof(check_header_t, ExitSize));
  if (ha_size != sizeof(check_host_access_t))
    return ompdp_errf(err, errlen, "host access record size %u, expected %zu",
                      (unsigned)ha_size, sizeof(check_host_access_t));
  if (exit_size != sizeof(check_exit_t))
    return ompdp_errf(err, errlen, "exit record size %u, expected %zu",
                      (unsigned)exit_size, sizeof(check_exit_t));
  if (header_size != sizeof(check_header_t) ||
      region_size != sizeof(check_region_t) ||
      item_size != sizeof(check_item_t))
    return ompdp_errf(err, errlen,
                      "record sizes %u/%u/%u (header/region/item), expected "
                      "%zu/%zu/%zu",
                      (unsigned)header_size, (unsigned)region_size,
                      (unsigned)item_size, sizeof(check_header_t),
                      sizeof(check_region_t), sizeof(check_item_t));
  uint32_t num_regions = u32_at(p, offsetof(check_header_t, NumRegions));
  uint32_t num_items = u32_at(p, offsetof(check_header_t, NumItems));
  uint32_t num_ha = u32_at(p, offsetof(check_header_t, NumHostAccesses));
  uint32_t num_exits = u32_at(p, offsetof(check_header_t, NumExits));
  uint32_t pool_size = u32_at(p, offsetof(check_header_t, StringsSize));
  uint32_t total = u32_at(p, offsetof(check_header_t, TotalSize));
  /* 32-bit counts times 32-bit sizes: each product and the sum fit. */
  uint64_t need = (uint64_t)header_size + (uint64_t)num_regions * region_size +
                  (uint64_t)num_items * item_size +
                  (uint64_t)num_ha * ha_size + (uint64_t)num_exits * exit_size +
                  pool_size;
  if (need != total)
    return ompdp_errf(err, errlen,
                      "TotalSize %u does not match its parts (%u regions, %u "
                      "items, %u host accesses, %u exits, %u pool bytes: %llu "
                      "bytes)",
                      (unsigned)total, (unsigned)num_regions, (unsigned)num_items,
                      (unsigned)num_ha, (unsigned)num_exits, (unsigned)pool_size,
                      (unsigned long long)need);
  if (total % 8)
    return ompdp_errf(err, errlen, "TotalSize %u is not a multiple of 8",
                      (unsigned)total);
  if (total > len)
    return ompdp_errf(err, errlen, "truncated: TotalSize %u, only %zu bytes there",
                      (unsigned)total, len);
  if (pool_size == 0)
    return ompdp_errf(err, errlen, "empty string pool (offset 0 must be \"\")");
  const unsigned char *pool = p + total - pool_size;
  if (pool[0] != '\0' || pool[pool_size - 1] != '\0')
    return ompdp_errf(err, errlen, "string pool does not %s with a NUL",
                      pool[0] != '\0' ? "start" : "end");

  const unsigned char *regions = p + header_size;
  for (uint32_t i = 0; i < num_regions; ++i) {
    const unsigned char *r = regions + (size_t)i * region_size;
    uint32_t first = u32_at(r, offsetof(check_region_t, FirstItem));
    uint32_t n = u32_at(r, offsetof(check_region_t, NumItems));
    if ((uint64_t)first + n > num_items)
      return ompdp_errf(err, errlen,
                        "region %u: items %u..%llu are outside the %u item records",
                        (unsigned)i, (unsigned)first,
                        (unsigned long long)first + n, (unsigned)num_items);
    uint32_t first_exit = u32_at(r, offsetof(check_region_t, FirstExit));
    uint32_t n_exits = u32_at(r, offsetof(check_region_t, NumExits));
    if ((uint64_t)first_exit + n_exits > num_exits)
      return ompdp_errf(err, errlen,
                        "region %u: exits %u..%llu are outside the %u exit records",
                        (unsigned)i, (unsigned)first_exit,
                        (unsigned long long)first_exit + n_exits, (unsigned)num_exits);
    uint32_t index = u32_at(r, offsetof(check_region_t, Index));
    if (index != i)
      return ompdp_errf(err, errlen, "region %u: Index is %u", (unsigned)i,
                        (unsigned)index);
    if (check_strings(r, region_fields, CHECK_COUNT(region_fields), pool_size,
                      "region", i, err, errlen))
      return -1;
  }
  const unsigned char *items = regions + (size_t)num_regions * region_size;
  for (uint32_t i = 0; i < num_items; ++i) {
    const unsigned char *it = items + (size_t)i * item_size;
    if (check_strings(it, item_fields, CHECK_COUNT(item_fields), pool_size,
                      "item", i, err, errlen))
      return -1;
    uint32_t first = u32_at(it, offsetof(check_item_t, FirstHostAccess));
    uint32_t n = u32_at(it, offsetof(check_item_t, NumHostAccesses));
    if ((uint64_t)first + n > num_ha)
      return ompdp_errf(err, errlen,
                        "item %u: host accesses %u..%llu are outside the %u records",
                        (unsigned)i, (unsigned)first,
                        (unsigned long long)first + n, (unsigned)num_ha);
  }
  const unsigned char *has = items + (size_t)num_items * item_size;
  for (uint32_t i = 0; i < num_ha; ++i) {
    const unsigned char *a = has + (size_t)i * ha_size;
    uint32_t item = u32_at(a, offsetof(check_host_access_t, Item));
    if (item >= num_items)
      return ompdp_errf(err, errlen, "host access %u: item %u of %u", (unsigned)i,
                        (unsigned)item, (unsigned)num_items);
    if (check_strings(a, host_access_fields, CHECK_COUNT(host_access_fields),
                      pool_size, "host access", i, err, errlen))
      return -1;
  }
  return 0;
}
