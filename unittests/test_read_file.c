/*===- test_read_file.c - the whole-file readers -------------------*- C -*-===*\
|*
|* report/read_file.c: ompdp_read_file_capped (reports, journals, profiles;
|* a pipe too) and ompdp_read_regular_file (the sources a report names:
|* regular files only, never blocking on a FIFO), their caps, their
|* one-line reasons and errno, and the NUL after the bytes.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static const char *path_of(const char *name) {
  static char p[128];
  snprintf(p, sizeof(p), "%s/%s", dir, name);
  return p;
}

static void write_file(const char *name, const char *text, size_t n) {
  FILE *f = fopen(path_of(name), "wb");
  CHECK(f != NULL);
  if (f) {
    CHECK(fwrite(text, 1, n, f) == n);
    fclose(f);
  }
}

int main(void) {
  snprintf(dir, sizeof(dir), "/tmp/ompdp-test-read-XXXXXX");
  if (!mkdtemp(dir))
    return 1;
  char *buf, err[256];
  size_t len;
  struct stat st;

  /* A regular file, whole, with a NUL after its bytes and its status. */
  write_file("a.c", "int x;\n", 7);
  CHECK(ompdp_read_regular_file(path_of("a.c"), 64, "source", &st, &buf, &len, err,
                                sizeof(err)) == 0);
  CHECK_EQ_U64(len, 7);
  CHECK(buf && !memcmp(buf, "int x;\n", 8));
  CHECK_EQ_U64(st.st_size, 7);
  free(buf);
  CHECK(ompdp_read_file_capped(path_of("a.c"), 64, "report", &buf, &len, err, sizeof(err)) == 0);
  CHECK(len == 7 && buf[7] == '\0');
  free(buf);
  /* Empty: an empty string. */
  write_file("empty", "", 0);
  CHECK(ompdp_read_regular_file(path_of("empty"), 64, "source", NULL, &buf, &len, NULL, 0) == 0);
  CHECK(len == 0 && buf && buf[0] == '\0');
  free(buf);

  /* Larger than the cap: EFBIG, said with the cap. */
  write_file("big", "0123456789", 10);
  errno = 0;
  CHECK(ompdp_read_regular_file(path_of("big"), 8, "source", NULL, &buf, &len, err,
                                sizeof(err)) == -1);
  CHECK(errno == EFBIG && buf == NULL);
  CHECK(strstr(err, "the source is larger than 0 MiB") != NULL);

  /* A FIFO: refused at once (EINVAL), never waited on for a writer. */
  CHECK(mkfifo(path_of("fifo"), 0600) == 0);
  errno = 0;
  CHECK(ompdp_read_regular_file(path_of("fifo"), 64, "source", NULL, &buf, &len, err,
                                sizeof(err)) == -1);
  CHECK(errno == EINVAL);
  CHECK(strstr(err, "cannot read '") && strstr(err, "': Invalid argument"));

  /* A directory, for both. */
  CHECK(ompdp_read_regular_file(dir, 64, "source", NULL, &buf, &len, err, sizeof(err)) == -1);
  CHECK(strstr(err, "Is a directory") != NULL);
  CHECK(ompdp_read_file_capped(dir, 64, "report", &buf, &len, err, sizeof(err)) == -1);
  CHECK(strstr(err, "Is a directory") != NULL);
  /* Missing. */
  errno = 0;
  CHECK(ompdp_read_regular_file(path_of("none"), 64, "source", NULL, &buf, &len, err,
                                sizeof(err)) == -1);
  CHECK(errno == ENOENT && strstr(err, "No such file or directory"));

  /* A pipe is what ompdp_read_file_capped also reads (standard input). */
  int fds[2];
  CHECK(pipe(fds) == 0);
  CHECK(write(fds[1], "{}", 2) == 2);
  close(fds[1]);
  char dev[64];
  snprintf(dev, sizeof(dev), "/dev/fd/%d", fds[0]);
  CHECK(ompdp_read_file_capped(dev, 64, "report", &buf, &len, err, sizeof(err)) == 0);
  CHECK(len == 2 && !strcmp(buf, "{}"));
  free(buf);
  close(fds[0]);

  unlink(path_of("a.c"));
  unlink(path_of("empty"));
  unlink(path_of("big"));
  unlink(path_of("fifo"));
  rmdir(dir);
  return CHECK_DONE();
}
