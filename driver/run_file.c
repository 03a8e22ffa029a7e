/*===- run_file.c - what `ompdp run` was asked, for whoever outlives it ---===*\
|*
|* `ompdp run` keeps the runtime's reports and event logs in a directory of
|* its own (run.c), and in it the file `run`: what it was asked (the -o
|* pattern, the format, the --device flags, the program) and its pid and
|* the program's. It holds an fcntl write lock on the file while it lives,
|* which the kernel releases whatever ends it: a runtime that finds the
|* lock free when the program ends knows ompdp run was killed and lands
|* the report itself (rt/orphan_linux.c), and `ompdp recover` (recover_cmd.c)
|* knows which directories nobody will read any more and what to do with
|* what they hold.
|*
|* The file is lines of "name value" after a first line "ompdp-run 1"; a
|* value is the rest of its line, with '\' and newlines escaped as "\\" and
|* "\n". A reader skips names it does not know.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "driver.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RUN_FILE_MAGIC "ompdp-run 1"

static void put_value(ompdp_strbuf_t *b, const char *name, const char *value) {
  if (!value)
    return;
  ompdp_sb_printf(b, "%s ", name);
  for (const char *p = value; *p; ++p)
    ompdp_sb_puts(b, *p == '\\' ? "\\\\" : *p == '\n' ? "\\n" : (char[2]){*p, '\0'});
  ompdp_sb_puts(b, "\n");
}

int drv_run_file_write(int fd, const drv_run_info_t *info) {
  ompdp_strbuf_t b = {0};
  ompdp_sb_printf(&b, RUN_FILE_MAGIC "\ndriver_pid %ld\nprogram_pid %ld\n", info->driver_pid,
                  info->program_pid);
  put_value(&b, "format", info->format);
  put_value(&b, "output", info->output);
  put_value(&b, "device", info->device);
  put_value(&b, "host_memory", info->host_memory);
  put_value(&b, "kernel_scale", info->kernel_scale);
  put_value(&b, "program", info->program);
  if (b.oom) {
    free(b.d);
    errno = ENOMEM;
    return -1;
  }
  int rc = ftruncate(fd, 0) || pwrite(fd, b.d, b.len, 0) != (ssize_t)b.len ? -1 : 0;
  free(b.d);
  return rc;
}

void drv_run_info_free(drv_run_info_t *info) {
  free(info->format);
  free(info->output);
  free(info->device);
  free(info->host_memory);
  free(info->kernel_scale);
  free(info->program);
  memset(info, 0, sizeof(*info));
}

/* The value at s (to the end of its line), unescaped; NULL when out of
 * memory. *end: past the line. */
static char *get_value(const char *s, const char **end) {
  ompdp_strbuf_t b = {0};
  for (; *s && *s != '\n'; ++s) {
    if (s[0] == '\\' && (s[1] == '\\' || s[1] == 'n')) {
      ompdp_sb_puts(&b, s[1] == 'n' ? "\n" : "\\");
      ++s;
    } else {
      ompdp_sb_putn(&b, s, 1);
    }
  }
  *end = *s ? s + 1 : s;
  ompdp_sb_puts(&b, ""); /* an empty value is "", not NULL */
  return ompdp_sb_take(&b);
}

int drv_run_file_read(const char *path, drv_run_info_t *info, long *lock_holder) {
  memset(info, 0, sizeof(*info));
  *lock_holder = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return -1;
  struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET};
  if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
    *lock_holder = (long)fl.l_pid;
  char buf[16384];
  ssize_t n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n < (ssize_t)sizeof(RUN_FILE_MAGIC) || memcmp(buf, RUN_FILE_MAGIC "\n", sizeof(RUN_FILE_MAGIC))) {
    errno = EINVAL;
    return -1;
  }
  buf[n] = '\0';
  static const char *const Names[] = {"format", "output", "device", "host_memory",
                                      "kernel_scale", "program"};
  char **dst[] = {&info->format,       &info->output,        &info->device,
                  &info->host_memory,  &info->kernel_scale,  &info->program};
  for (const char *p = buf + sizeof(RUN_FILE_MAGIC); *p;) {
    const char *sp = strchr(p, ' '), *nl = strchr(p, '\n');
    if (!sp || (nl && nl < sp)) {
      p = nl ? nl + 1 : p + strlen(p);
      continue;
    }
    size_t len = (size_t)(sp - p);
    if (len == 10 && !memcmp(p, "driver_pid", 10))
      info->driver_pid = strtol(sp + 1, NULL, 10);
    else if (len == 11 && !memcmp(p, "program_pid", 11))
      info->program_pid = strtol(sp + 1, NULL, 10);
    const char *end = sp + 1;
    for (size_t k = 0; k < sizeof(Names) / sizeof(Names[0]); ++k)
      if (len == strlen(Names[k]) && !memcmp(p, Names[k], len) && !*dst[k]) {
        if (!(*dst[k] = get_value(sp + 1, &end))) {
          drv_run_info_free(info);
          errno = ENOMEM;
          return -1;
        }
      }
    if (end == sp + 1) {
      const char *e = strchr(sp + 1, '\n');
      end = e ? e + 1 : sp + 1 + strlen(sp + 1);
    }
    p = end;
  }
  return 0;
}
