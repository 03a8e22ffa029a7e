/*===- read_file.c - reading a whole file, with a size cap ---------------===*\
|*
|* The one way the report library's readers (reports, journals, device
|* profiles) load a file: whole, refused beyond a cap, with a one-line
|* reason. In the report library proper, not the JSON reader, since the
|* device profiles of the cost model are plain text.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* snprintf into a caller's buffer that may be absent. */
static void file_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

int ompdp_read_file_capped(const char *path, size_t max, const char *what, char **out,
                           size_t *out_len, char *err, size_t errlen) {
  *out = NULL;
  *out_len = 0;
  if (err && errlen)
    err[0] = '\0';
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    file_err(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  int regular = 0;
  size_t cap = 65536;
  if (fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      file_err(err, errlen, "cannot read '%s': %s", path, strerror(EISDIR));
      close(fd);
      return -1;
    }
    regular = S_ISREG(st.st_mode);
    if (regular && (uint64_t)st.st_size > max) {
      file_err(err, errlen, "%s: the %s is larger than %zu MiB", path, what, max >> 20);
      close(fd);
      return -1;
    }
    if (regular && st.st_size > 0)
      cap = (size_t)st.st_size + 1;
  }
  /* Read to the end rather than trusting st_size: the file may be a pipe,
   * or still growing. One byte past the cap tells a too-large input. */
  size_t len = 0;
  char *buf = malloc(cap);
  int saved = buf ? 0 : ENOMEM;
  while (!saved) {
    if (len == cap) {
      if (cap > max) {
        saved = EFBIG;
        break;
      }
      size_t ncap = cap > max / 2 ? max + 1 : cap * 2;
      char *nb = realloc(buf, ncap);
      if (!nb) {
        saved = ENOMEM;
        break;
      }
      buf = nb;
      cap = ncap;
    }
    ssize_t got = read(fd, buf + len, cap - len);
    if (got < 0) {
      if (errno != EINTR)
        saved = errno;
      continue;
    }
    if (got == 0)
      break;
    len += (size_t)got;
  }
  close(fd);
  if (saved == EFBIG || (!saved && len > max)) {
    file_err(err, errlen, "%s: the %s is larger than %zu MiB", path, what, max >> 20);
    free(buf);
    return -1;
  }
  if (saved) {
    file_err(err, errlen, "cannot read '%s': %s", path, strerror(saved));
    free(buf);
    return -1;
  }
  *out = buf;
  *out_len = len;
  return 0;
}

