/*===- fuzz_journal.c - libFuzzer target: the journal reader ---------------===*\
|*
|* ompdp_journal_read() (report/journal_format.c) must take any bytes (a
|* truncated or corrupt header, lengths and checksums that lie, a report
|* that is not one, no terminating NUL) without a crash, a leak or undefined
|* behaviour, and either refuse them with a one-line reason or accept them.
|* What it accepts is marked partial and recovered, and the journal that
|* ompdp writes for it reads back as the same report (rendering both as JSON
|* gives the same bytes).
|*
|* Checksums make random mutations of the JSON fail early; the seed corpus
|* (fuzz/corpus/journal/) holds valid journals so that the fuzzer also
|* reaches the report reader through a correct header, and the target
|* accepts an input whose checksum field is "xxh64=any" by putting the right
|* one in, so mutations of the JSON are explored too.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream, memmem */
#include "journal_format.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render(const ompdp_report_t *r, size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f)
    abort();
  if (ompdp_report_write_json(r, f))
    __builtin_trap(); /* a memory stream does not fail */
  fclose(f);
  *len = n;
  return buf;
}

/* "xxh64=any\n" in the header: replaced by the checksum of what follows. */
static uint8_t *fix_checksum(const uint8_t *data, size_t size, size_t *out_size) {
  static const char Any[] = "xxh64=any\n";
  size_t scan = size < OMPDP_JOURNAL_MAX_HEADER ? size : OMPDP_JOURNAL_MAX_HEADER;
  const uint8_t *at = memmem(data, scan, Any, sizeof(Any) - 1);
  if (!at)
    return NULL;
  size_t head = (size_t)(at - data), rest = size - head - (sizeof(Any) - 1);
  uint8_t *out = malloc(size + 14); /* 23 bytes for 10, and the NUL */
  if (!out)
    abort();
  memcpy(out, data, head);
  const uint8_t *json = at + sizeof(Any) - 1;
  int n = snprintf((char *)out + head, 24, "xxh64=%016" PRIx64 "\n", (uint64_t)XXH64(json, rest, 0));
  memcpy(out + head + (size_t)n, json, rest);
  *out_size = head + (size_t)n + rest;
  return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t fixed_size;
  uint8_t *fixed = fix_checksum(data, size, &fixed_size);
  if (fixed) {
    data = fixed;
    size = fixed_size;
  }
  ompdp_report_t r;
  char err[512];
  err[0] = '\0';
  if (ompdp_journal_read((const char *)data, size, NULL, &r, err, sizeof(err)) != 0) {
    /* Refused: with a reason, on one line. */
    if (!err[0] || strchr(err, '\n'))
      __builtin_trap();
    free(fixed);
    return 0;
  }
  if (!r.partial || !r.recovered_reason)
    __builtin_trap(); /* a recovered report always says so */
  char *journal;
  size_t jlen, len1, len2;
  if (ompdp_journal_encode(&r, r.recovered_flushed_at_ns, r.recovered_events, &journal, &jlen))
    abort();
  ompdp_report_t back;
  if (ompdp_journal_read(journal, jlen, r.recovered_reason, &back, err, sizeof(err)) != 0)
    __builtin_trap(); /* what ompdp writes, ompdp must read */
  char *json1 = render(&r, &len1), *json2 = render(&back, &len2);
  if (len1 != len2 || memcmp(json1, json2, len1) != 0 ||
      back.recovered_events != r.recovered_events ||
      back.recovered_flushed_at_ns != r.recovered_flushed_at_ns)
    __builtin_trap(); /* the round trip lost or changed something */
  free(json1);
  free(json2);
  free(journal);
  ompdp_report_free(&back);
  ompdp_report_free(&r);
  free(fixed);
  return 0;
}
