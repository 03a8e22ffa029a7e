/*===- journal_read.c - the journal's bytes, read ------------------------===*\
|*
|* See journal_format.h for the format. The reader takes any bytes: it
|* refuses a file that is not a journal, one of another version, a header
|* with a field missing, out of order, out of range or followed by garbage,
|* a length that does not match the file (truncated, or something
|* appended), a JSON larger than a report may be, and a checksum that does
|* not match, each with one line; only then is the JSON parsed, by the
|* report reader, which has its own checks. What it accepts is a report
|* marked partial and recovered.
|*
\*===----------------------------------------------------------------------===*/
#include "journal_format.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*--- reading ----------------------------------------------------------------*/

/* Parses "name=" and a decimal number (hex when base is 16, exactly
 * `digits` of them when digits > 0) ending at sep. Advances *p. */
static int field(const char **p, const char *end, const char *name, int base, int digits,
                 char sep, uint64_t *out) {
  size_t n = strlen(name);
  if ((size_t)(end - *p) < n + 1 || memcmp(*p, name, n) || (*p)[n] != '=')
    return -1;
  const char *q = *p + n + 1;
  uint64_t v = 0;
  int count = 0;
  for (; q < end && *q != sep; ++q, ++count) {
    unsigned d;
    if (*q >= '0' && *q <= '9')
      d = (unsigned)(*q - '0');
    else if (base == 16 && *q >= 'a' && *q <= 'f')
      d = (unsigned)(*q - 'a' + 10);
    else
      return -1;
    if (count >= 20 || v > (UINT64_MAX - d) / (uint64_t)base)
      return -1;
    v = v * (uint64_t)base + d;
  }
  if (q == end || count == 0 || (digits && count != digits) ||
      (base == 10 && count > 1 && (*p)[n + 1] == '0'))
    return -1;
  *p = q + 1;
  *out = v;
  return 0;
}

int ompdp_journal_read(const char *data, size_t len, const char *reason, ompdp_report_t *r,
                       char *err, size_t errlen) {
  ompdp_report_init(r);
  if (err && errlen)
    err[0] = '\0';
  if (!ompdp_journal_is(data, len))
    return ompdp_errf(err, errlen, "not an ompdp journal (it does not start with '%s ')",
                      OMPDP_JOURNAL_MAGIC);
  size_t scan = len < OMPDP_JOURNAL_MAX_HEADER ? len : OMPDP_JOURNAL_MAX_HEADER;
  const char *nl = memchr(data, '\n', scan);
  if (!nl)
    return ompdp_errf(err, errlen, "the journal's header is %s",
                      len < OMPDP_JOURNAL_MAX_HEADER ? "truncated" : "too long");
  const char *p = data + sizeof(OMPDP_JOURNAL_MAGIC), *end = nl + 1;
  uint64_t version, flushed, events, bytes, sum;
  const char *vp = p;
  while (vp < end && *vp >= '0' && *vp <= '9')
    ++vp;
  if (vp == p || vp - p > 9 || *vp != ' ')
    return ompdp_errf(err, errlen, "the journal's header has no version");
  version = strtoull(p, NULL, 10);
  if (version != OMPDP_JOURNAL_VERSION)
    return ompdp_errf(err, errlen,
                      "journal version %" PRIu64 " is not supported (this ompdp reads %d)",
                      version, OMPDP_JOURNAL_VERSION);
  p = vp + 1;
  if (field(&p, end, "flushed_at_ns", 10, 0, ' ', &flushed) ||
      field(&p, end, "events", 10, 0, ' ', &events) ||
      field(&p, end, "bytes", 10, 0, ' ', &bytes) ||
      field(&p, end, "xxh64", 16, 16, '\n', &sum) || p != end)
    return ompdp_errf(err, errlen, "the journal's header is corrupt");
  if (bytes > OMPDP_JOURNAL_MAX_JSON)
    return ompdp_errf(err, errlen, "the journal's report is larger than %zu MiB",
                      OMPDP_JOURNAL_MAX_JSON >> 20);
  size_t have = len - (size_t)(end - data);
  if (have < bytes)
    return ompdp_errf(err, errlen,
                      "the journal is truncated (%zu of %" PRIu64 " bytes)", have, bytes);
  if (have > bytes)
    return ompdp_errf(err, errlen,
                      "the journal has %zu bytes after its report", have - (size_t)bytes);
  if ((uint64_t)XXH64(end, (size_t)bytes, 0) != sum)
    return ompdp_errf(err, errlen, "the journal is corrupt (its checksum does not match)");
  char why[512];
  if (ompdp_report_read_json(end, (size_t)bytes, r, why, sizeof(why)))
    return ompdp_errf(err, errlen, "the journal's report is corrupt: %s", why);
  free(r->recovered_reason);
  r->recovered_reason = ompdp_strdup(
      reason ? reason : "the process ended without writing its report");
  if (!r->recovered_reason) {
    ompdp_report_free(r);
    return ompdp_errf(err, errlen, "out of memory");
  }
  r->recovered_flushed_at_ns = flushed;
  r->recovered_events = events;
  r->partial = 1;
  return 0;
}

int ompdp_report_read_path(const char *path, ompdp_report_bytes_reader_fn read,
                           const char *reason, ompdp_report_t *r, char *err, size_t errlen) {
  ompdp_report_init(r);
  char *buf;
  size_t len;
  if (ompdp_read_file_capped(path, OMPDP_JOURNAL_MAX_JSON + OMPDP_JOURNAL_MAX_HEADER, "report",
                             &buf, &len, err, errlen))
    return -1;
  char why[512];
  int rc = read(buf, len, reason, r, why, sizeof(why));
  free(buf);
  if (rc)
    ompdp_errf(err, errlen, "%s: %s", path, why);
  return rc;
}

static int report_or_journal(const char *buf, size_t len, const char *reason, ompdp_report_t *r,
                             char *err, size_t errlen) {
  return ompdp_journal_is(buf, len) ? ompdp_journal_read(buf, len, reason, r, err, errlen)
                                    : ompdp_report_read_json(buf, len, r, err, errlen);
}

int ompdp_report_or_journal_read_file(const char *path, const char *reason, ompdp_report_t *r,
                                      char *err, size_t errlen) {
  return ompdp_report_read_path(path, report_or_journal, reason, r, err, errlen);
}
