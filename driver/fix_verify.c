/*===- fix_verify.c - `ompdp fix --apply` leaves no file that fails -------===*\
|*
|* A rewrite rests on what the compiler recorded and what the run saw; what
|* neither shows (a name that means something else before the loop, a
|* construct Clang refuses in that place) shows when the file is compiled.
|* So every changed file is compiled again with the command the plugin
|* recorded (a syntax and semantic check: the same flags, -fsyntax-only),
|* and the rewrites that make it fail are taken back:
|*
|*   1. all chosen rewrites written: every command passes? done (one
|*      compile per command, the common case);
|*   2. else the files of the failing commands as they were: a command
|*      that fails then too cannot tell a rewrite's fault from the
|*      environment's, and its files get no rewrite;
|*   3. else each rewrite of those files in turn, most saving first, on top
|*      of the ones kept: kept if its files' commands pass, else taken back.
|*
|* The compiler runs in the recorded directory with its output captured;
|* the first error line names the reason.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "fix_verify.h"
#include "driver.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Output kept from a compile: enough for its first error. */
#define KEEP_OUTPUT 16384

/* One command's run: 0 it compiles, 1 it fails (why: its first error
 * line), -1 it could not be run (why says so). */
static int run_compile(const ompdp_compile_command_t *c, char *why, size_t whylen) {
  int fds[2];
  why[0] = '\0';
  char **argv = calloc(c->num_arguments + 1, sizeof(*argv)); /* NULL-terminated */
  if (!c->num_arguments || !argv || pipe(fds)) {
    snprintf(why, whylen, "no command");
    free(argv);
    return -1;
  }
  memcpy(argv, c->arguments, c->num_arguments * sizeof(*argv));
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(why, whylen, "cannot start the compiler: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    free(argv);
    return -1;
  }
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
      dup2(devnull, 0);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    if (chdir(c->directory)) {
      fprintf(stderr, "ompdp-fix: cannot enter %s: %s\n", c->directory, strerror(errno));
      _exit(127);
    }
    execv(argv[0], argv);
    fprintf(stderr, "ompdp-fix: cannot run %s: %s\n", c->arguments[0], strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  free(argv);
  char *out = malloc(KEEP_OUTPUT + 1);
  size_t len = 0;
  for (;;) {
    char buf[4096];
    ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    if (out && len < KEEP_OUTPUT) {
      size_t take = (size_t)n < KEEP_OUTPUT - len ? (size_t)n : KEEP_OUTPUT - len;
      memcpy(out + len, buf, take);
      len += take;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (out)
    out[len] = '\0';
  int rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && out && strstr(out, "ompdp-fix: "))
    rc = -1;
  if (rc && out) {
    /* The first line with "error:" (the compiler's), else the first. */
    const char *line = strstr(out, "error:");
    if (line)
      while (line > out && line[-1] != '\n')
        --line;
    else
      line = out;
    if (!strncmp(line, "ompdp-fix: ", 11))
      line += 11;
    size_t n = strcspn(line, "\n");
    snprintf(why, whylen, "%.*s", (int)(n < 300 ? n : 300), line);
  }
  if (rc && !why[0])
    snprintf(why, whylen, "the compiler %s", WIFSIGNALED(status) ? "was killed" : "failed");
  free(out);
  return rc;
}

typedef struct verifier {
  const drv_fix_set_t *s;
  const ompdp_report_t *rep;
  unsigned char *on;
  unsigned char *touched;  /* per file: edited by a rewrite that is on */
  unsigned char *unchecked; /* per file: said that it is not checked */
  int *refused;
} verifier_t;

/* The report's commands for file f. */
static int has_command(const verifier_t *v, size_t f, size_t c) {
  return !strcmp(v->rep->compile_commands[c].file, v->s->names[f]);
}

/* Compiles every command of the files in which[] (each command once);
 * returns the number that fail, with the first failure's file and reason.
 * Commands that cannot run are said once and count as passing. */
static size_t check(verifier_t *v, const unsigned char *which, size_t *bad_file, char *why,
                    size_t whylen) {
  size_t failed = 0;
  size_t nc = v->rep->num_compile_commands;
  for (size_t c = 0; c < nc; ++c) {
    size_t f = 0;
    while (f < v->s->num_files && !(which[f] && has_command(v, f, c)))
      ++f;
    if (f == v->s->num_files)
      continue;
    char reason[400];
    int rc = run_compile(&v->rep->compile_commands[c], reason, sizeof(reason));
    if (rc < 0) {
      if (!v->unchecked[f]) {
        drv_error("%s: not recompiled (%s); its rewrites are applied unchecked", v->s->names[f],
                  reason);
        v->unchecked[f] = 1;
      }
      continue;
    }
    if (rc > 0 && !failed++) {
      *bad_file = f;
      snprintf(why, whylen, "%s", reason);
    }
  }
  return failed;
}

static int write_files(verifier_t *v, const unsigned char *which, const unsigned char *on) {
  for (size_t f = 0; f < v->s->num_files; ++f)
    if (which[f] && v->s->write(v->s->ctx, f, on))
      return -1;
  return 0;
}

int drv_fix_verify(const drv_fix_set_t *s, const ompdp_report_t *rep, unsigned char *on,
                   int *refused) {
  size_t nf = s->num_files, nr = s->num_rewrites;
  verifier_t v = {s, rep, on, calloc(nf ? nf : 1, 1), calloc(nf ? nf : 1, 1), refused};
  unsigned char *scope = calloc(nf ? nf : 1, 1), *files_of = calloc(nf ? nf : 1, 1);
  unsigned char *cur = malloc(nr ? nr : 1);
  int rc = -1;
  if (!v.touched || !v.unchecked || !scope || !files_of || !cur) {
    drv_error("out of memory");
    goto out;
  }
  for (size_t r = 0; r < nr; ++r)
    for (size_t f = 0; on[r] && f < nf; ++f)
      v.touched[f] |= s->edits(s->ctx, r, f) != 0;
  for (size_t f = 0; f < nf; ++f) {
    int any = 0;
    for (size_t c = 0; c < rep->num_compile_commands && !any; ++c)
      any = has_command(&v, f, c);
    if (v.touched[f] && !any) {
      drv_error("%s: not recompiled (the report has no compile command for it: a program "
                "built without this ompdp's plugin?); its rewrites are applied unchecked",
                s->names[f]);
      v.unchecked[f] = 1;
    }
  }
  /* 1. Everything at once. */
  if (write_files(&v, v.touched, on))
    goto out;
  size_t bad_file = 0;
  char why[400];
  if (!check(&v, v.touched, &bad_file, why, sizeof(why))) {
    rc = 0;
    goto out;
  }
  /* 2. The files of the failing commands (and every file sharing a
   * command with them), as they were. */
  for (size_t c = 0; c < rep->num_compile_commands; ++c) {
    int in = 0;
    for (size_t f = 0; f < nf && !in; ++f)
      in = v.touched[f] && has_command(&v, f, c);
    if (!in)
      continue;
    char reason[400];
    /* Which files this command reads among the touched ones. */
    memset(files_of, 0, nf);
    for (size_t f = 0; f < nf; ++f)
      files_of[f] = v.touched[f] && has_command(&v, f, c);
    if (run_compile(&rep->compile_commands[c], reason, sizeof(reason)) > 0)
      for (size_t f = 0; f < nf; ++f)
        scope[f] |= files_of[f];
  }
  for (size_t r = 0; r < nr; ++r) {
    cur[r] = on[r];
    for (size_t f = 0; f < nf && cur[r]; ++f)
      if (scope[f] && s->edits(s->ctx, r, f))
        cur[r] = 0;
  }
  if (write_files(&v, v.touched, cur))
    goto out;
  if (check(&v, scope, &bad_file, why, sizeof(why))) {
    /* Fails without any rewrite: nothing can be checked there. */
    for (size_t f = 0; f < nf; ++f) {
      if (!scope[f])
        continue;
      size_t bf = 0;
      char w[400];
      memset(files_of, 0, nf);
      files_of[f] = 1;
      if (!check(&v, files_of, &bf, w, sizeof(w)))
        continue;
      drv_error("%s: does not compile as it was, with the command it was built with (%s); "
                "none of its rewrites is applied",
                s->names[f], w);
      *refused = 1;
      for (size_t r = 0; r < nr; ++r)
        if (on[r] && s->edits(s->ctx, r, f))
          on[r] = cur[r] = 0;
      scope[f] = 0; /* stays as it was */
    }
  }
  /* 3. One rewrite at a time on top of those kept. */
  for (size_t r = 0; r < nr; ++r) {
    if (!on[r] || cur[r])
      continue;
    memset(files_of, 0, nf);
    int mine = 0;
    for (size_t f = 0; f < nf; ++f)
      if (s->edits(s->ctx, r, f)) {
        files_of[f] = 1;
        mine |= scope[f];
      }
    if (!mine)
      continue;
    cur[r] = 1;
    if (write_files(&v, files_of, cur))
      goto out;
    if (!check(&v, files_of, &bad_file, why, sizeof(why)))
      continue;
    cur[r] = on[r] = 0;
    char what[300];
    s->describe(s->ctx, r, what, sizeof(what));
    drv_error("%s is taken back: %s does not compile with it (%s)", what, s->names[bad_file], why);
    *refused = 1;
    if (write_files(&v, files_of, cur))
      goto out;
  }
  rc = 0;
out:
  free(v.touched);
  free(v.unchecked);
  free(scope);
  free(files_of);
  free(cur);
  return rc;
}
