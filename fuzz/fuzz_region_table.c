/*===- fuzz_region_table.c - libFuzzer target: region table bounds check --===*\
|*
|* ompdp_region_table_check() (rt/regions_check.c) stands between the
|* runtime and whatever bytes an object carries in its ompdp_regions
|* section. Any input must get a verdict without a crash or undefined
|* behaviour, and a table it accepts must be readable the way the runtime
|* reads it (rt/regions.c: records by index, a region's items and exits,
|* an item's host accesses, every string up to its NUL) without leaving
|* the input: the walk below does those reads
|* on a copy of exactly the accepted bytes, so AddressSanitizer catches any
|* read past them. The same bytes with one byte fewer must be refused when
|* TotalSize is all of them (the check may not trust anything it was not
|* given).
|*
|* Seeds (fuzz/corpus/region_table/) are real tables, dumped from binaries
|* of the lit suite built with the plugin:
|*   objcopy --dump-section ompdp_regions=out.bin prog
|* (a linked program's section may hold several tables back to back; the
|* check reads the first).
|*
\*===----------------------------------------------------------------------===*/
#include "regions.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ompdp/OmpdpFormat.inc"

typedef struct fuzz_header {
#define OMPDP_REGION_HEADER_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} fuzz_header_t;
typedef struct fuzz_region {
#define OMPDP_REGION_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} fuzz_region_t;
typedef struct fuzz_item {
#define OMPDP_ITEM_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} fuzz_item_t;
typedef struct fuzz_host_access {
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} fuzz_host_access_t;
typedef struct fuzz_exit {
#define OMPDP_EXIT_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} fuzz_exit_t;

static volatile size_t sink;

static void use_string(const char *pool, uint32_t pool_size, uint32_t off) {
  if (off >= pool_size)
    __builtin_trap(); /* the check let an outside offset through */
  sink += strlen(pool + off);
}

/* Reads the accepted table the way rt/regions.c does. */
static void walk(const unsigned char *t) {
  const fuzz_header_t *h = (const fuzz_header_t *)t;
  const char *pool = (const char *)t + h->TotalSize - h->StringsSize;
  for (uint32_t i = 0; i < h->NumRegions; ++i) {
    const fuzz_region_t *r =
        (const fuzz_region_t *)(t + h->HeaderSize + (size_t)i * h->RegionSize);
    /* regions.c finds the header back from a record through its Index. */
    if ((const unsigned char *)r - sizeof(fuzz_header_t) -
            (size_t)r->Index * sizeof(fuzz_region_t) !=
        t)
      __builtin_trap();
#define OMPDP_REGION_FIELD(Type, Name, Desc)                                   \
  if (strncmp(Desc, "string:", 7) == 0)                                        \
    use_string(pool, h->StringsSize, (uint32_t)r->Name);
#include "ompdp/OmpdpFormat.inc"
    /* The region's loop exits, as ompdp_regions_describe hands them out. */
    for (uint32_t x = 0; x < r->NumExits; ++x) {
      const fuzz_exit_t *e =
          (const fuzz_exit_t *)(t + h->HeaderSize + (size_t)h->NumRegions * h->RegionSize +
                                (size_t)h->NumItems * h->ItemSize +
                                (size_t)h->NumHostAccesses * h->HostAccessSize +
                                (size_t)(r->FirstExit + x) * h->ExitSize);
      sink += e->Kind + e->Flags + e->Line;
    }
    for (uint32_t k = 0; k < r->NumItems; ++k) {
      const fuzz_item_t *it =
          (const fuzz_item_t *)(t + h->HeaderSize +
                                (size_t)h->NumRegions * h->RegionSize +
                                (size_t)(r->FirstItem + k) * h->ItemSize);
#define OMPDP_ITEM_FIELD(Type, Name, Desc)                                     \
  if (strncmp(Desc, "string:", 7) == 0)                                        \
    use_string(pool, h->StringsSize, (uint32_t)it->Name);
#include "ompdp/OmpdpFormat.inc"
      /* The item's host accesses, as ompdp_regions_describe hands them out. */
      for (uint32_t a = 0; a < it->NumHostAccesses; ++a) {
        const fuzz_host_access_t *ha =
            (const fuzz_host_access_t *)(t + h->HeaderSize +
                                         (size_t)h->NumRegions * h->RegionSize +
                                         (size_t)h->NumItems * h->ItemSize +
                                         (size_t)(it->FirstHostAccess + a) *
                                             h->HostAccessSize);
        if (ha->Item >= h->NumItems)
          __builtin_trap();
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc)                              \
  if (strncmp(Desc, "string:", 7) == 0)                                        \
    use_string(pool, h->StringsSize, (uint32_t)ha->Name);
#include "ompdp/OmpdpFormat.inc"
      }
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* An 8-aligned copy of exactly size bytes, as a section would be. */
  unsigned char *t = aligned_alloc(8, size ? (size + 7) & ~(size_t)7 : 8);
  if (!t)
    return 0;
  memcpy(t, data, size);
  char err[160];
  int rc = ompdp_region_table_check(t, size, err, sizeof(err));
  if (rc != 0 && rc != -1)
    __builtin_trap();
  if (strlen(err) >= sizeof(err))
    __builtin_trap();
  if (rc == 0) {
    if (err[0])
      __builtin_trap(); /* no reason for an accepted table */
    const fuzz_header_t *h = (const fuzz_header_t *)t;
    if (h->TotalSize > size)
      __builtin_trap();
    if (h->TotalSize == size && size > 0 &&
        ompdp_region_table_check(t, size - 1, err, sizeof(err)) == 0)
      __builtin_trap();
    /* The walk sees only the accepted bytes. */
    unsigned char *exact = malloc(h->TotalSize);
    if (exact) {
      memcpy(exact, t, h->TotalSize);
      walk(exact);
      free(exact);
    }
  } else if (!err[0]) {
    __builtin_trap(); /* a refusal must say why */
  }
  free(t);
  return 0;
}
