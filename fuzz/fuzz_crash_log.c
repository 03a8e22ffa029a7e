/*===- fuzz_crash_log.c - libFuzzer target: the event log reader ---------===*\
|*
|* drv_recover() (driver/recover.c) reads the event log a dead program left
|* in shared memory (include/ompdp/crashlog.h): a file the program could
|* have written anything into before it died. It must take any bytes
|* without a crash, a leak, a hang or undefined behaviour, and either
|* refuse them with a one-line reason or build a report, marked partial and
|* recovered from the event log.
|*
|* The file is mostly zeros (whole pages, blocks of 52 to 128 KiB), so the
|* input describes it sparsely: a little-endian uint32 file size (at most 4
|* MiB), then patches, each a uint32 offset, a uint16 length and that many
|* bytes, written over a zero file. The seeds (fuzz/corpus/crash_log/) are
|* real event logs in that form. DWARF is not read (the paths in a log are
|* the program's; a stub attributes nothing).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "driver.h"
#include "attribution.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FILE (4u << 20)

/* DWARF attribution is not fuzzed here: the stubs of attribution_linux.c. */
void ompdp_attribute(const void *codeptr, int construct, ompdp_loc_t *loc) {
  (void)codeptr;
  (void)construct;
  memset(loc, 0, sizeof(*loc));
}
void ompdp_attribution_done(void) {}
void ompdp_attribution_set_object_finder(ompdp_object_finder_t fn) { (void)fn; }

static char path[64];
static int fd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4)
    return 0;
  if (fd < 0) {
    snprintf(path, sizeof(path), "/tmp/fuzz_crash_log.%ld", (long)getpid());
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
      abort();
  }
  uint32_t fsize;
  memcpy(&fsize, data, 4);
  fsize %= MAX_FILE + 1;
  uint8_t *file = calloc(fsize ? fsize : 1, 1);
  if (!file)
    abort();
  for (size_t at = 4; at + 6 <= size;) {
    uint32_t off;
    uint16_t len;
    memcpy(&off, data + at, 4);
    memcpy(&len, data + at + 4, 2);
    at += 6;
    if (len > size - at)
      len = (uint16_t)(size - at);
    if (off < fsize)
      memcpy(file + off, data + at, len < fsize - off ? len : fsize - off);
    at += len;
  }
  if (ftruncate(fd, 0) || pwrite(fd, file, fsize, 0) != (ssize_t)fsize)
    abort();
  free(file);
  ompdp_report_t r;
  drv_recovery_t info;
  char err[512];
  if (drv_recover(path, "fuzzing", 0, &r, &info, err, sizeof(err)) == 0) {
    if (!r.partial || !r.recovered_from_log || !r.recovered_reason)
      __builtin_trap();
    ompdp_report_free(&r);
  } else if (!err[0] || memchr(err, '\n', strnlen(err, sizeof(err)))) {
    __builtin_trap(); /* a reason, on one line */
  }
  return 0;
}
