/*===- output_path.c - the rank, process and host in `ompdp run -o` -------===*\
|*
|* `mpirun -np 4 ompdp run -o report.%r.json -- ./prog` runs four drivers
|* with one command line: each must write its own file. In -o, %r stands
|* for the rank that the launcher gave this process (report/process.c; 0
|* without a launcher), %p for the program's process id, %h for the host
|* name and %% for '%'; any other '%' sequence is an error, so that a typo
|* cannot make the ranks write one file. Ranks of a job of more than one
|* that are given a path naming neither the rank nor the process would
|* replace each other's report: each writes <path>.<rank> instead, and
|* rank 0 says so once.
|*
|* The pid is known only once the program runs, so the path is expanded in
|* two steps: drv_output_pattern expands everything but %p (and keeps %%),
|* drv_output_path the rest, first with ompdp's own pid, to check before
|* the start that the place can be written, then with the program's.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "process.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

static const char *get_env(const char *name) { return getenv(name); }

/* Appends s with each '%' doubled: still a pattern for drv_output_path. */
static void put_escaped(ompdp_strbuf_t *b, const char *s) {
  for (; *s; ++s)
    ompdp_sb_puts(b, *s == '%' ? "%%" : (char[2]){*s, '\0'});
}

int drv_output_pattern(const char *output, char **pattern) {
  *pattern = NULL;
  ompdp_process_t proc;
  ompdp_process_init(&proc);
  /* A launcher's variables that hold no rank are said by the runtime,
   * which ignores them too: %r is then 0. */
  int launched = ompdp_process_from_env(get_env, &proc, NULL, 0);
  int rank = launched == 1 ? proc.rank : 0;
  ompdp_strbuf_t b = {0};
  int names_process = 0;
  char *host = NULL;
  for (const char *p = output; *p; ++p) {
    if (*p != '%') {
      ompdp_sb_putn(&b, p, 1);
      continue;
    }
    switch (p[1]) {
    case 'r':
      ompdp_sb_printf(&b, "%d", rank);
      names_process = 1;
      break;
    case 'p':
    case '%':
      ompdp_sb_putn(&b, p, 2);
      names_process |= p[1] == 'p';
      break;
    case 'h':
      if (!host && !(host = ompdp_process_host_name()))
        host = ompdp_strdup("unknown-host");
      if (host)
        put_escaped(&b, host);
      break;
    default:
      drv_error("-o '%s': '%%%.1s' stands for nothing (use %%r for the rank, %%p for the "
                "process id, %%h for the host, %%%% for '%%')",
                output, p[1] ? p + 1 : "");
      free(host);
      free(b.d);
      free(proc.launcher);
      free(proc.job);
      return -1;
    }
    ++p;
  }
  free(host);
  if (launched == 1 && proc.size > 1 && !names_process && strcmp(output, "-") != 0) {
    ompdp_sb_printf(&b, ".%d", rank);
    if (rank == 0)
      drv_error("the %d ranks of this job were all given -o %s: each writes %s.<rank> (put "
                "%%r in the path to choose)",
                proc.size, output, output);
  }
  free(proc.launcher);
  free(proc.job);
  *pattern = ompdp_sb_take(&b);
  if (!*pattern) {
    drv_error("out of memory");
    return -1;
  }
  return 0;
}

char *drv_output_path(const char *pattern, long pid) {
  ompdp_strbuf_t b = {0};
  for (const char *p = pattern; *p; ++p) {
    if (p[0] == '%' && p[1] == 'p') {
      ompdp_sb_printf(&b, "%ld", pid);
      ++p;
    } else if (p[0] == '%' && p[1] == '%') {
      ompdp_sb_puts(&b, "%");
      ++p;
    } else {
      ompdp_sb_putn(&b, p, 1);
    }
  }
  char *s = ompdp_sb_take(&b);
  if (!s)
    drv_error("out of memory");
  return s;
}
