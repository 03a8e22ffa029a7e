/*===- journal_format.c - the journal's bytes, written ----------------===*\
|*
|* See journal_format.h for the format: a header line with the length and
|* checksum of the JSON report that follows. The runtime writes journals
|* (rt/journal.c); journal_read.c reads them back, in the reader library,
|* so that the runtime carries no reader.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream */
#include "journal_format.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ompdp_journal_is(const char *data, size_t len) {
  size_t n = sizeof(OMPDP_JOURNAL_MAGIC) - 1;
  return data && len > n && !memcmp(data, OMPDP_JOURNAL_MAGIC, n) && data[n] == ' ';
}

int ompdp_journal_encode(const ompdp_report_t *r, uint64_t flushed_at_ns, uint64_t events,
                         char **out, size_t *len) {
  char *json = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&json, &n);
  if (!f)
    return -1;
  int rc = ompdp_report_write_json(r, f);
  if (fclose(f) || rc) {
    free(json);
    return -1;
  }
  char head[OMPDP_JOURNAL_MAX_HEADER];
  int h = snprintf(head, sizeof(head),
                   OMPDP_JOURNAL_MAGIC " %d flushed_at_ns=%" PRIu64 " events=%" PRIu64
                                       " bytes=%zu xxh64=%016" PRIx64 "\n",
                   OMPDP_JOURNAL_VERSION, flushed_at_ns, events, n,
                   (uint64_t)XXH64(json, n, 0));
  char *buf = h > 0 && (size_t)h < sizeof(head) ? malloc((size_t)h + n) : NULL;
  if (!buf) {
    free(json);
    return -1;
  }
  memcpy(buf, head, (size_t)h);
  memcpy(buf + h, json, n);
  free(json);
  *out = buf;
  *len = (size_t)h + n;
  return 0;
}
