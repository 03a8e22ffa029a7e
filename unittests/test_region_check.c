/*===- test_region_check.c - the region table bounds check ---------------===*\
|*
|* ompdp_region_table_check() on a small well-formed table built here from
|* the X-macros, then on copies with one thing broken each: truncated,
|* wrong magic/version/sizes, counts that overflow 32 bits, items outside
|* the item array, a wrong Index, string offsets outside the pool, a pool
|* without its NUL. Each must be refused with a reason; the intact table
|* accepted.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "regions.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ompdp/OmpdpFormat.inc"

typedef struct t_header {
#define OMPDP_REGION_HEADER_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} t_header_t;
typedef struct t_region {
#define OMPDP_REGION_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} t_region_t;
typedef struct t_item {
#define OMPDP_ITEM_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} t_item_t;
typedef struct t_host_access {
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} t_host_access_t;
typedef struct t_exit {
#define OMPDP_EXIT_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} t_exit_t;

/* Two regions (1 and 2 items), one host access of item 0, one exit of
 * region 1, pool "\0a.c\0f\0u\0u[0:n]\0" padded to 16. */
#define NREG 2
#define NITEM 3
#define POOL 16
typedef struct table {
  t_header_t h;
  t_region_t r[NREG];
  t_item_t i[NITEM];
  t_host_access_t a[1];
  t_exit_t x[1];
  char pool[POOL];
} table_t;

static void build(table_t *t) {
  memset(t, 0, sizeof(*t));
  static const char pool[POOL] = "\0a.c\0f\0u\0u[0:n]";
  memcpy(t->pool, pool, POOL);
  t->h.Magic = OMPDP_REGION_TABLE_MAGIC;
  t->h.Version = OMPDP_REGION_TABLE_VERSION;
  t->h.HeaderSize = sizeof(t_header_t);
  t->h.RegionSize = sizeof(t_region_t);
  t->h.ItemSize = sizeof(t_item_t);
  t->h.NumRegions = NREG;
  t->h.NumItems = NITEM;
  t->h.HostAccessSize = sizeof(t_host_access_t);
  t->h.NumHostAccesses = 1;
  t->i[0].NumHostAccesses = 1;
  t->h.ExitSize = sizeof(t_exit_t);
  t->h.NumExits = 1;
  t->r[1].NumExits = 1;
  t->h.StringsSize = POOL;
  t->h.TotalSize = sizeof(table_t);
  for (uint32_t k = 0; k < NREG; ++k) {
    t->r[k].Index = k;
    t->r[k].File = 1;
    t->r[k].SourceFile = 1;
    t->r[k].Function = 5;
    t->r[k].FirstItem = k;
    t->r[k].NumItems = k + 1;
  }
  for (uint32_t k = 0; k < NITEM; ++k) {
    t->i[k].Name = 7;
    t->i[k].Expr = 9;
    t->i[k].Clause = 9;
  }
}

static char err[200];

static int check(const table_t *t, size_t len) {
  memset(err, 'x', sizeof(err));
  int rc = ompdp_region_table_check(t, len, err, sizeof(err));
  /* The reason is always a terminated line. */
  CHECK(memchr(err, '\0', sizeof(err)) != NULL);
  CHECK(strchr(err, '\n') == NULL);
  return rc;
}

/* Refused, and the reason mentions `what`. */
static void refused(const table_t *t, size_t len, const char *what, int line) {
  int rc = check(t, len);
  if (rc != -1 || !strstr(err, what)) {
    fprintf(stderr, "line %d: rc %d, reason \"%s\", expected \"%s\"\n", line,
            rc, err, what);
    CHECK(0);
  } else {
    CHECK(1);
  }
}
#define REFUSED(t, len, what) refused(t, len, what, __LINE__)

int main(void) {
  CHECK(sizeof(table_t) % 8 == 0);
  table_t t;
  build(&t);
  CHECK(check(&t, sizeof(t)) == 0);
  CHECK(err[0] == '\0');
  /* A longer buffer (a section with more tables after this one) is fine. */
  unsigned char *more = calloc(1, sizeof(t) + 64);
  memcpy(more, &t, sizeof(t));
  CHECK(ompdp_region_table_check(more, sizeof(t) + 64, err, sizeof(err)) == 0);
  free(more);

  /* Truncated: less than a header, less than TotalSize. */
  REFUSED(&t, 0, "truncated");
  REFUSED(&t, sizeof(t_header_t) - 1, "truncated");
  REFUSED(&t, sizeof(t) - 1, "truncated");
  CHECK(ompdp_region_table_check(NULL, 100, err, sizeof(err)) == -1);

  table_t b;
  build(&b);
  b.h.Magic ^= 1;
  REFUSED(&b, sizeof(b), "magic");
  build(&b);
  b.h.Version = OMPDP_REGION_TABLE_VERSION + 1;
  REFUSED(&b, sizeof(b), "version");
  build(&b);
  b.h.ItemSize += 8;
  b.h.TotalSize += NITEM * 8;
  REFUSED(&b, sizeof(b), "record sizes");
  build(&b);
  b.h.TotalSize += 8;
  REFUSED(&b, sizeof(b), "TotalSize");
  build(&b);
  b.h.HostAccessSize = 0;
  b.h.TotalSize -= sizeof(t_host_access_t);
  REFUSED(&b, sizeof(b), "host access");
  build(&b);
  b.h.ExitSize = 8;
  b.h.TotalSize -= sizeof(t_exit_t) - 8;
  REFUSED(&b, sizeof(b), "exit record size");
  /* A table of another minor version (3.0: no exits) is refused by name. */
  build(&b);
  b.h.Version = OMPDP_REGION_TABLE_MAJOR_VERSION;
  REFUSED(&b, sizeof(b), "version 3.0 is not the supported version 3.");

  /* Counts whose bytes overflow 32 bits, with a TotalSize equal to their
   * sum truncated to 32 bits (what a 32-bit computation would accept). */
  build(&b);
  uint64_t wrap = (1ull << 32) / sizeof(t_item_t) + 1; /* * size > 2^32 */
  b.h.NumItems = (uint32_t)wrap;
  b.h.TotalSize = (uint32_t)(sizeof(t_header_t) + NREG * sizeof(t_region_t) +
                             wrap * sizeof(t_item_t) + POOL);
  REFUSED(&b, sizeof(b), "TotalSize");
  build(&b);
  b.h.NumRegions = 0xffffffffu;
  b.h.TotalSize = (uint32_t)(sizeof(t_header_t) +
                             0xffffffffull * sizeof(t_region_t) +
                             NITEM * sizeof(t_item_t) + POOL);
  REFUSED(&b, sizeof(b), "TotalSize");
  build(&b);
  b.h.StringsSize = 0xfffffff0u;
  REFUSED(&b, sizeof(b), "TotalSize");

  /* Items of a region outside the item records, directly and by wrap. */
  build(&b);
  b.r[1].NumItems = 3;
  REFUSED(&b, sizeof(b), "region 1: items");
  build(&b);
  b.r[0].FirstItem = 0xffffffffu;
  b.r[0].NumItems = 2; /* FirstItem + NumItems wraps to 1 in 32 bits */
  REFUSED(&b, sizeof(b), "region 0: items");
  /* Exits of a region outside the exit records, directly and by wrap. */
  build(&b);
  b.r[1].FirstExit = 1;
  REFUSED(&b, sizeof(b), "region 1: exits");
  build(&b);
  b.r[0].FirstExit = 0xffffffffu;
  b.r[0].NumExits = 2;
  REFUSED(&b, sizeof(b), "region 0: exits");
  build(&b);
  b.r[1].Index = 0;
  REFUSED(&b, sizeof(b), "Index");
  /* Host accesses of an item outside theirs; one naming no item. */
  build(&b);
  b.i[2].FirstHostAccess = 1;
  b.i[2].NumHostAccesses = 1;
  REFUSED(&b, sizeof(b), "item 2: host accesses");
  build(&b);
  b.i[1].FirstHostAccess = 0xffffffffu;
  b.i[1].NumHostAccesses = 1;
  REFUSED(&b, sizeof(b), "item 1: host accesses");
  build(&b);
  b.a[0].Item = NITEM;
  REFUSED(&b, sizeof(b), "host access 0: item");

  /* String offsets: the last valid one, one past the pool, far out. */
  build(&b);
  b.r[0].File = POOL - 1;
  CHECK(check(&b, sizeof(b)) == 0);
  b.r[0].File = POOL;
  REFUSED(&b, sizeof(b), "region 0: string File");
  build(&b);
  b.r[1].LoopKind = 0xffffffffu;
  REFUSED(&b, sizeof(b), "string LoopKind");
  build(&b);
  b.i[2].Clause = POOL;
  REFUSED(&b, sizeof(b), "item 2: string Clause");
  build(&b);
  b.i[0].MatchName = 1000;
  REFUSED(&b, sizeof(b), "item 0: string MatchName");
  /* Non-string fields may hold anything (byte offsets into the source). */
  build(&b);
  b.i[0].ClauseOffset = 0xffffffffu;
  b.r[0].DirectiveOffset = 0xffffffffu;
  CHECK(check(&b, sizeof(b)) == 0);

  /* The pool: must end (and start) with a NUL; an empty pool is refused. */
  build(&b);
  b.pool[POOL - 1] = 'z';
  REFUSED(&b, sizeof(b), "end with a NUL");
  build(&b);
  b.pool[0] = 'z';
  REFUSED(&b, sizeof(b), "start with a NUL");
  build(&b);
  b.h.StringsSize = 0;
  b.h.TotalSize -= POOL;
  REFUSED(&b, sizeof(b), "empty string pool");

  /* A tiny error buffer is still terminated; errlen 0 and NULL are fine. */
  char small[8];
  memset(small, 'x', sizeof(small));
  CHECK(ompdp_region_table_check(&t, 3, small, sizeof(small)) == -1);
  CHECK(small[7] == '\0');
  CHECK(ompdp_region_table_check(&t, 3, NULL, 0) == -1);
  CHECK(ompdp_region_table_check(&t, sizeof(t), NULL, 0) == 0);
  return CHECK_DONE();
}
