/*===- read_file.c - reading a whole file, with a size cap ---------------===*\
|*
|* The one way ompdp loads a whole file: whole, refused beyond a cap, with a
|* one-line reason, NUL-terminated. Reports, journals and device profiles
|* may come through a pipe (`-` is standard input); the sources that `ompdp
|* fix`, the language server and the HTML page read are regular files only:
|* a report may name a FIFO or a device, which must never be opened for
|* reading (it could block, or never end). In the report library proper,
|* not the JSON reader, since the device profiles of the cost model are
|* plain text.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads path whole. regular: refuse anything but a regular file (opened
 * without blocking); *st (when not NULL) its status. Errors as the public
 * functions below, with errno set. */
static int read_whole(const char *path, size_t max, const char *what, int regular,
                      struct stat *st_out, char **out, size_t *out_len, char *err, size_t errlen) {
  *out = NULL;
  *out_len = 0;
  if (err && errlen)
    err[0] = '\0';
  int fd = open(path, O_RDONLY | O_CLOEXEC | (regular ? O_NONBLOCK : 0));
  if (fd < 0) {
    int e = errno;
    ompdp_errf(err, errlen, "cannot read '%s': %s", path, strerror(e));
    errno = e;
    return -1;
  }
  struct stat st;
  int is_reg = 0, known = fstat(fd, &st) == 0;
  size_t cap = 65536;
  int saved = 0;
  if (known) {
    is_reg = S_ISREG(st.st_mode);
    if (S_ISDIR(st.st_mode) || (regular && !is_reg))
      saved = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    else if (is_reg && (uint64_t)st.st_size > max)
      saved = EFBIG;
    else if (is_reg && st.st_size > 0)
      cap = (size_t)st.st_size + 1;
    if (st_out)
      *st_out = st;
  } else if (regular) {
    saved = errno;
  }
  /* Read to the end rather than trusting st_size: the file may be a pipe,
   * or still growing. One byte past the cap tells a too-large input. */
  size_t len = 0;
  char *buf = saved ? NULL : malloc(cap);
  if (!saved && !buf)
    saved = ENOMEM;
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
  if (!saved && len > max)
    saved = EFBIG;
  if (!saved && len == cap) { /* room for the NUL */
    char *nb = realloc(buf, len + 1);
    if (nb)
      buf = nb;
    else
      saved = ENOMEM;
  }
  if (saved) {
    if (saved == EFBIG)
      ompdp_errf(err, errlen, "%s: the %s is larger than %zu MiB", path, what, max >> 20);
    else
      ompdp_errf(err, errlen, "cannot read '%s': %s", path, strerror(saved));
    free(buf);
    errno = saved;
    return -1;
  }
  buf[len] = '\0';
  *out = buf;
  *out_len = len;
  return 0;
}

int ompdp_read_file_capped(const char *path, size_t max, const char *what, char **out,
                           size_t *out_len, char *err, size_t errlen) {
  return read_whole(path, max, what, 0, NULL, out, out_len, err, errlen);
}

int ompdp_read_regular_file(const char *path, size_t max, const char *what, struct stat *st,
                            char **out, size_t *out_len, char *err, size_t errlen) {
  return read_whole(path, max, what, 1, st, out, out_len, err, errlen);
}
