/*===- fix.c - `ompdp fix` ----------------------------------------------===*\
|*
|* `ompdp fix REPORT.json` reads the sources the rewrites of a report name,
|* has the fix planner (report/fix_plan.c, which the compiler plugin's
|* fix-its use too) choose the edits to apply, and either writes them as a
|* clang-apply-replacements YAML file or, with --apply, edits the files in
|* place.
|*
|* Nothing is applied to a file that no longer matches the report (its
|* content hash, an edit's line:column, byte offsets or original text); a
|* rewrite is applied whole or not at all, and one whose edits overlap (or
|* repeat) those of a rewrite that saves more is left out. Each refusal is
|* one "ompdp: file:line:col: ..." line, and the exit status is then 1. With --apply each file is replaced atomically
|* (a temporary file renamed over it) after its old contents were saved as
|* FILE.orig.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "fix_verify.h"
#include "fix_plan.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sources are read whole; a cap keeps a wrong path from exhausting memory. */
#define MAX_SOURCE_BYTES ((size_t)64 << 20)

typedef struct src_file {
  ompdp_fix_file_t ff; /* what the planner sees; ff.user is this */
  char *path;          /* where it was read */
  char *text;
  struct stat st;
  int unreadable;
  int written; /* --apply: its backup and new text are written */
} src_file_t;

typedef struct fixer {
  const char *root;        /* --root, else the current directory */
  int root_given;          /* --root: it alone */
  const ompdp_report_t *rep; /* its compile commands: where files were built */
  src_file_t **files;
  size_t num_files;
  ompdp_fix_plan_t plan;
  int refused; /* something was left out: exit status 1 */
} fixer_t;

/*--- sources ----------------------------------------------------------------*/

static char *join_path(const char *root, const char *name) {
  if (name[0] == '/' || !root)
    return strdup(name);
  size_t a = strlen(root), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p)
    return NULL;
  memcpy(p, root, a);
  p[a] = '/';
  memcpy(p + a + 1, name, b + 1);
  return p;
}

static int read_source(src_file_t *s, const char *name) {
  char *buf;
  size_t len;
  if (ompdp_read_regular_file(s->path, MAX_SOURCE_BYTES, "source", &s->st, &buf, &len, NULL, 0))
    return -1;
  s->text = buf;
  if (ompdp_fix_file_init(&s->ff, name, buf, len)) {
    errno = ENOMEM;
    return -1;
  }
  s->ff.user = s;
  return 0;
}

/* Where the file an edit names is: a relative name is relative to the
 * directory it was compiled in, which the report records (so a report
 * copied or moved elsewhere still finds its sources), or, where the report
 * records none or the file is not there, to the current directory; --root
 * overrides both. malloc'd. */
static char *source_path(const fixer_t *fx, const char *name) {
  if (name[0] == '/' || fx->root_given)
    return join_path(fx->root, name);
  for (size_t i = 0; i < fx->rep->num_compile_commands; ++i) {
    const ompdp_compile_command_t *c = &fx->rep->compile_commands[i];
    if (strcmp(c->file, name) || !c->directory || !c->directory[0])
      continue;
    char *p = join_path(c->directory, name);
    struct stat st;
    if (!p || (stat(p, &st) == 0 && S_ISREG(st.st_mode)))
      return p;
    free(p);
  }
  return join_path(fx->root, name);
}

/* The planner's source: the file named name, read once; NULL when it
 * cannot be read (said once). */
static ompdp_fix_file_t *open_file(void *ctx, const char *name) {
  fixer_t *fx = ctx;
  for (size_t i = 0; i < fx->num_files; ++i)
    if (!strcmp(fx->files[i]->ff.name, name))
      return fx->files[i]->unreadable ? NULL : &fx->files[i]->ff;
  src_file_t **nf = realloc(fx->files, (fx->num_files + 1) * sizeof(*nf));
  if (!nf)
    return NULL;
  fx->files = nf;
  src_file_t *s = calloc(1, sizeof(*s));
  if (!s)
    return NULL;
  fx->files[fx->num_files++] = s;
  s->ff.name = name;
  s->path = source_path(fx, name);
  if (!s->path || read_source(s, name)) {
    drv_error("cannot read '%s': %s; its rewrites are left out", s->path ? s->path : name,
              strerror(errno));
    s->unreadable = 1;
    fx->refused = 1;
    return NULL;
  }
  return &s->ff;
}

/* An edit that does not match its file: said once per file. */
static void mismatch(void *ctx, ompdp_fix_file_t *file, const ompdp_edit_t *e,
                     const ompdp_fix_mismatch_t *m) {
  fixer_t *fx = ctx;
  const ompdp_range_t *r = &e->range;
  char why[300];
  ompdp_fix_mismatch_words(why, sizeof(why), e, m, "report");
  drv_error("%s:%" PRIu32 ":%" PRIu32 ": the file does not match the report (%s); "
            "no edit is applied to %s",
            e->file, r->line, r->column, why, e->file);
  (void)file;
  fx->refused = 1;
}

static src_file_t *src_of(const ompdp_fix_edit_t *p) { return p->file->user; }

/*--- choosing the rewrites ------------------------------------------------*/

static void describe_fix(char *buf, size_t size, const ompdp_fix_t *x) {
  snprintf(buf, size, "the %s rewrite for %s", ompdp_rewrite_kind_json(x->rw->kind),
           ompdp_finding_kind_json(x->f->kind));
}

/* Plans the report's rewrites (report/fix_plan.c) and says why each one
 * left out for a conflict is (files that do not match were said while
 * planning). */
static int choose(fixer_t *fx, const ompdp_report_t *rep) {
  ompdp_fix_source_t src = {open_file, mismatch, fx};
  if (ompdp_fix_plan_report(rep, &src, &fx->plan))
    return -1;
  for (size_t i = 0; i < fx->plan.num_fixes; ++i) {
    const ompdp_fix_t *x = &fx->plan.fixes[i];
    char me[128], them[128];
    const ompdp_edit_t *at = x->edits[x->at].e;
    switch (x->state) {
    case OMPDP_FIX_APPLY:
      break;
    case OMPDP_FIX_NO_FILE:
    case OMPDP_FIX_STALE_FILE:
      fx->refused = 1;
      break;
    case OMPDP_FIX_SELF_OVERLAP:
      describe_fix(me, sizeof(me), x);
      drv_error("%s:%" PRIu32 ":%" PRIu32 ": %s has overlapping edits; it is left out", at->file,
                at->range.line, at->range.column, me);
      fx->refused = 1;
      break;
    case OMPDP_FIX_OVERLAPS: {
      const ompdp_fix_t *w = &fx->plan.fixes[x->winner];
      const ompdp_edit_t *wat = w->edits[x->other_at].e;
      describe_fix(me, sizeof(me), x);
      describe_fix(them, sizeof(them), w);
      drv_error("%s:%" PRIu32 ":%" PRIu32 ": %s overlaps %s at %s:%" PRIu32 ":%" PRIu32
                "; it is left out",
                at->file, at->range.line, at->range.column, me, them, wat->file,
                wat->range.line, wat->range.column);
      fx->refused = 1;
      break;
    }
    }
  }
  return 0;
}

/*--- YAML for clang-apply-replacements --------------------------------------*/

/* A YAML double-quoted scalar: every byte survives LLVM's YAML parser. */
static void yaml_str(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    unsigned char c = *p;
    switch (c) {
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    case '\n': fputs("\\n", out); break;
    case '\t': fputs("\\t", out); break;
    case '\r': fputs("\\r", out); break;
    default:
      if (c < 0x20 || c == 0x7F)
        fprintf(out, "\\x%02X", c);
      else
        fputc(c, out);
    }
  }
  fputc('"', out);
}

static int write_yaml(const fixer_t *fx, FILE *out) {
  const char *main_file = NULL;
  for (size_t i = 0; i < fx->plan.num_fixes && !main_file; ++i)
    if (fx->plan.fixes[i].state == OMPDP_FIX_APPLY)
      main_file = src_of(&fx->plan.fixes[i].edits[0])->path;
  fputs("---\nMainSourceFile:  ", out);
  yaml_str(out, main_file ? main_file : "");
  fputs("\nDiagnostics:", out);
  int any = 0;
  for (size_t i = 0; i < fx->plan.num_fixes; ++i) {
    const ompdp_fix_t *r = &fx->plan.fixes[i];
    if (r->state != OMPDP_FIX_APPLY)
      continue;
    const ompdp_fix_edit_t *first = &r->edits[0];
    any = 1;
    fputs("\n  - DiagnosticName:  ", out);
    yaml_str(out, ompdp_finding_kind_warning_group(r->f->kind));
    fputs("\n    DiagnosticMessage:\n      Message:         ", out);
    /* What the rewrite rests on goes with it, as in every other output. */
    if (r->rw->assumption) {
      const char *d = r->rw->description ? r->rw->description : "";
      size_t n = strlen(d) + strlen(r->rw->assumption) + sizeof("; it assumes ");
      char *m = malloc(n);
      if (m)
        snprintf(m, n, "%s; it assumes %s", d, r->rw->assumption);
      yaml_str(out, m ? m : d);
      free(m);
    } else {
      yaml_str(out, r->rw->description ? r->rw->description : "");
    }
    fputs("\n      FilePath:        ", out);
    yaml_str(out, src_of(first)->path);
    fprintf(out, "\n      FileOffset:      %zu\n      Replacements:", first->start);
    for (size_t j = 0; j < r->rw->num_edits; ++j) {
      const ompdp_fix_edit_t *p = &r->edits[j];
      fputs("\n        - FilePath:        ", out);
      yaml_str(out, src_of(p)->path);
      fprintf(out, "\n          Offset:          %zu\n          Length:          %zu",
              p->start, p->end - p->start);
      fputs("\n          ReplacementText: ", out);
      size_t tl = ompdp_fix_edit_text(p, NULL);
      char *t = malloc(tl + 1);
      if (!t)
        return -1;
      t[ompdp_fix_edit_text(p, t)] = 0;
      yaml_str(out, t);
      free(t);
    }
    fputs("\n    Level:           Warning", out);
  }
  fputs(any ? "\n...\n" : " []\n...\n", out);
  return fflush(out) || ferror(out) ? -1 : 0;
}

/*--- applying in place -----------------------------------------------------*/

static int cmp_placed(const void *pa, const void *pb) {
  const ompdp_fix_edit_t *a = *(const ompdp_fix_edit_t *const *)pa;
  const ompdp_fix_edit_t *b = *(const ompdp_fix_edit_t *const *)pb;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return (a->end > b->end) - (a->end < b->end);
}

/* Writes data to path through a temporary file in the same directory and a
 * rename, so that path holds either its old or its new contents. */
static int write_atomic(const char *path, const char *data, size_t len, mode_t mode) {
  size_t n = strlen(path);
  char *tmp = malloc(n + sizeof(".ompdp-XXXXXX"));
  if (!tmp)
    return -1;
  memcpy(tmp, path, n);
  memcpy(tmp + n, ".ompdp-XXXXXX", sizeof(".ompdp-XXXXXX"));
  int fd = mkstemp(tmp);
  if (fd < 0) {
    free(tmp);
    return -1;
  }
  int rc = drv_write_all(fd, data, len);
  if (!rc && (fchmod(fd, mode & 07777) || fsync(fd)))
    rc = -1;
  int e = errno;
  if (close(fd) && !rc) {
    rc = -1;
    e = errno;
  }
  if (!rc && rename(tmp, path)) {
    rc = -1;
    e = errno;
  }
  if (rc)
    unlink(tmp);
  free(tmp);
  errno = e;
  return rc;
}

/* The text of file s with the edits of the fixes that are on (on NULL:
 * those planned to apply) into *out_text (malloc'd), their number into
 * *num_edits. Returns 0, or -1 when out of memory. */
static int file_text(const fixer_t *fx, const src_file_t *s, const unsigned char *on,
                     char **out_text, size_t *out_len, size_t *num_edits) {
  const ompdp_fix_plan_t *plan = &fx->plan;
  size_t n = 0;
#define FIX_ON(i) (on ? on[i] : plan->fixes[i].state == OMPDP_FIX_APPLY)
  for (size_t i = 0; i < plan->num_fixes; ++i)
    if (FIX_ON(i))
      for (size_t j = 0; j < plan->fixes[i].rw->num_edits; ++j)
        n += plan->fixes[i].edits[j].file == &s->ff;
  *num_edits = n;
  const ompdp_fix_edit_t **v = malloc((n ? n : 1) * sizeof(*v));
  if (!v)
    return -1;
  size_t k = 0, grow = 0;
  for (size_t i = 0; i < plan->num_fixes; ++i)
    if (FIX_ON(i))
      for (size_t j = 0; j < plan->fixes[i].rw->num_edits; ++j) {
        const ompdp_fix_edit_t *p = &plan->fixes[i].edits[j];
        if (p->file == &s->ff) {
          v[k++] = p;
          grow += ompdp_fix_edit_text(p, NULL);
        }
      }
  qsort(v, n, sizeof(*v), cmp_placed);
  size_t len = s->ff.len;
  char *out = malloc(len + grow + 1);
  if (!out) {
    free(v);
    return -1;
  }
  size_t o = 0, at = 0;
  for (size_t i = 0; i < n; ++i) {
    memcpy(out + o, s->text + at, v[i]->start - at);
    o += v[i]->start - at;
    o += ompdp_fix_edit_text(v[i], out + o);
    at = v[i]->end;
  }
  memcpy(out + o, s->text + at, len - at);
  o += len - at;
  free(v);
#undef FIX_ON
  *out_text = out;
  *out_len = o;
  return 0;
}

/* Saves file s as FILE.orig and writes it with its edits (not said yet:
 * the recompile may take some back). */
static int apply_file(fixer_t *fx, src_file_t *s) {
  char *out;
  size_t o, n, len = s->ff.len;
  if (file_text(fx, s, NULL, &out, &o, &n))
    return -1;
  if (!n) {
    free(out);
    return 0;
  }
  /* The file must still be what was checked. */
  struct stat now;
  int rc = -1;
  if (stat(s->path, &now) || now.st_size != s->st.st_size ||
      now.st_mtim.tv_sec != s->st.st_mtim.tv_sec ||
      now.st_mtim.tv_nsec != s->st.st_mtim.tv_nsec) {
    drv_error("%s changed while ompdp fix ran; nothing is applied to it", s->path);
    fx->refused = 1;
    free(out);
    return 0;
  }
  size_t pl = strlen(s->path);
  char *backup = malloc(pl + sizeof(".orig"));
  if (backup) {
    memcpy(backup, s->path, pl);
    memcpy(backup + pl, ".orig", sizeof(".orig"));
    if (write_atomic(backup, s->text, len, s->st.st_mode))
      drv_error("cannot write the backup '%s': %s; nothing is applied to %s", backup,
                strerror(errno), s->path);
    else if (write_atomic(s->path, out, o, s->st.st_mode))
      drv_error("cannot write '%s': %s", s->path, strerror(errno));
    else {
      s->written = 1;
      rc = 0;
    }
  }
  if (rc)
    fx->refused = 1;
  free(backup);
  free(out);
  return 0;
}

/*--- the recompile of what --apply wrote (fix_verify.c) ---------------------*/

static int vf_edits(void *ctx, size_t rw, size_t f) {
  const fixer_t *fx = ctx;
  const ompdp_fix_t *x = &fx->plan.fixes[rw];
  for (size_t j = 0; j < x->rw->num_edits; ++j)
    if (x->edits[j].file == &fx->files[f]->ff)
      return 1;
  return 0;
}

static int vf_write(void *ctx, size_t f, const unsigned char *on) {
  fixer_t *fx = ctx;
  src_file_t *s = fx->files[f];
  if (!s->written)
    return 0; /* nothing of it was applied (its backup failed) */
  char *out;
  size_t len, n;
  if (file_text(fx, s, on, &out, &len, &n)) {
    drv_error("out of memory");
    return -1;
  }
  int rc = write_atomic(s->path, out, len, s->st.st_mode);
  if (rc)
    drv_error("cannot write '%s': %s", s->path, strerror(errno));
  free(out);
  return rc;
}

static void vf_describe(void *ctx, size_t rw, char *buf, size_t size) {
  const fixer_t *fx = ctx;
  const ompdp_fix_t *x = &fx->plan.fixes[rw];
  const ompdp_edit_t *at = x->edits[0].e;
  char what[128];
  describe_fix(what, sizeof(what), x);
  snprintf(buf, size, "%s:%" PRIu32 ":%" PRIu32 ": %s", at->file, at->range.line,
           at->range.column, what);
}

/* Recompiles the files written, takes back what fails, and says what is
 * applied (with what each rewrite assumes). */
static int verify_applied(fixer_t *fx, const ompdp_report_t *rep, int recompile) {
  size_t nf = fx->plan.num_fixes;
  unsigned char *on = malloc(nf ? nf : 1);
  const char **names = malloc((fx->num_files ? fx->num_files : 1) * sizeof(*names));
  int rc = -1;
  if (!on || !names)
    goto out;
  for (size_t i = 0; i < nf; ++i)
    on[i] = fx->plan.fixes[i].state == OMPDP_FIX_APPLY;
  for (size_t f = 0; f < fx->num_files; ++f)
    names[f] = fx->files[f]->ff.name;
  drv_fix_set_t set = {fx->num_files, names, nf, fx, vf_edits, vf_write, vf_describe};
  if (recompile && drv_fix_verify(&set, rep, on, &fx->refused)) {
    fx->refused = 1;
    goto out;
  }
  for (size_t f = 0; f < fx->num_files; ++f) {
    src_file_t *s = fx->files[f];
    if (!s->written)
      continue;
    size_t n = 0;
    for (size_t i = 0; i < nf; ++i)
      if (on[i])
        for (size_t j = 0; j < fx->plan.fixes[i].rw->num_edits; ++j)
          n += fx->plan.fixes[i].edits[j].file == &s->ff;
    if (n) {
      printf("%s: %zu edit(s) applied (the old file is %s.orig)\n", s->ff.name, n, s->path);
      continue;
    }
    size_t pl = strlen(s->path);
    char *backup = malloc(pl + sizeof(".orig"));
    if (backup) {
      memcpy(backup, s->path, pl);
      memcpy(backup + pl, ".orig", sizeof(".orig"));
      unlink(backup);
      free(backup);
    }
    printf("%s: no edit applied\n", s->ff.name);
  }
  /* What the applied rewrites rest on travels with them. */
  for (size_t i = 0; i < nf; ++i)
    if (on[i] && fx->plan.fixes[i].rw->assumption) {
      char what[300];
      vf_describe(fx, i, what, sizeof(what));
      printf("%s assumes: %s\n", what, fx->plan.fixes[i].rw->assumption);
    }
  rc = 0;
out:
  free(on);
  free(names);
  return rc;
}

/*--- the command ------------------------------------------------------------*/

static void fix_usage(FILE *out) {
  fputs("usage: ompdp fix [-o FIXES.yaml | --apply] [--root DIR] REPORT.json\n"
        "\n"
        "Takes the rewrites of a JSON report (from 'ompdp run --format=json'),\n"
        "checks that each edit's source text is still where the report says, and\n"
        "writes them as a clang-apply-replacements YAML file (default: standard\n"
        "output), or applies them in place. A file that no longer matches the\n"
        "report gets no edit; a rewrite that overlaps one saving more is left out.\n"
        "\n"
        "options:\n"
        "  -o FILE     write the YAML to FILE\n"
        "  --apply     edit the sources in place, keeping each old file as FILE.orig;\n"
        "              each changed file is compiled again (-fsyntax-only, with the\n"
        "              flags it was built with) and the rewrites that make it fail\n"
        "              are taken back\n"
        "  --no-recompile  with --apply: skip that check\n"
        "  --root DIR  directory that relative source paths are relative to\n"
        "              (default: the directory each file was compiled in, as the\n"
        "              report records it, else the current directory)\n",
        out);
}

typedef struct fix_args {
  const char *input, *root;
  int apply, recompile;
} fix_args_t;

static int fix_flag(void *ctx, int argc, char **argv, int *i) {
  fix_args_t *fa = ctx;
  const char *v;
  int m;
  if (!strcmp(argv[*i], "--apply"))
    return fa->apply = 1;
  if (!strcmp(argv[*i], "--no-recompile")) {
    fa->recompile = 0;
    return 1;
  }
  if ((m = drv_flag_value(argc, argv, i, "root", &v)) > 0)
    fa->root = v;
  return m;
}

static int fix_operand(void *ctx, const char *arg) {
  fix_args_t *fa = ctx;
  if (fa->input) {
    drv_error("one report at a time ('%s' and '%s' given)", fa->input, arg);
    return -1;
  }
  fa->input = arg;
  return 0;
}

int drv_fix_main(int argc, char **argv) {
  const char *output = NULL;
  fix_args_t fa = {.recompile = 1};
  drv_args_t spec = {.command = "fix", .usage = fix_usage, .output = &output,
                     .flag = fix_flag, .operand = fix_operand, .ctx = &fa};
  int prc = drv_parse_args(argc, argv, &spec);
  if (prc)
    return prc > 0 ? 0 : DRV_EXIT_USAGE;
  const char *input = fa.input, *root = fa.root;
  int apply = fa.apply, recompile = fa.recompile;
  if (!input) {
    drv_error("no report given (usage: ompdp fix [-o FIXES.yaml | --apply] REPORT.json)");
    return DRV_EXIT_USAGE;
  }
  if (apply && output) {
    drv_error("--apply edits the sources; it writes no YAML (-o)");
    return DRV_EXIT_USAGE;
  }
  if (output && drv_check_output(output))
    return DRV_EXIT_USAGE;
  char cwd[PATH_MAX];
  if (!root) {
    if (!getcwd(cwd, sizeof(cwd))) {
      drv_error("cannot find the current directory: %s", strerror(errno));
      return DRV_EXIT_FAILURE;
    }
    root = cwd;
  }

  ompdp_report_t r;
  char err[512];
  if (!strcmp(input, "-"))
    input = "/dev/stdin";
  if (ompdp_report_read_json_file(input, &r, err, sizeof(err))) {
    drv_error("%s", err);
    return DRV_EXIT_FAILURE;
  }
  drv_plan_rewrites(&r); /* a runtime's own report: its rewrites */
  fixer_t fx = {.root = root, .root_given = root != cwd, .rep = &r};
  int rc = 0;
  if (choose(&fx, &r)) {
    drv_error("out of memory");
    rc = DRV_EXIT_FAILURE;
  } else if (apply) {
    size_t applied = 0;
    for (size_t i = 0; i < fx.plan.num_fixes; ++i)
      applied += fx.plan.fixes[i].state == OMPDP_FIX_APPLY;
    if (!applied && !fx.refused)
      printf("no rewrite to apply\n");
    for (size_t i = 0; i < fx.num_files && !rc; ++i)
      if (!fx.files[i]->unreadable && !fx.files[i]->ff.stale && apply_file(&fx, fx.files[i])) {
        drv_error("out of memory");
        rc = DRV_EXIT_FAILURE;
      }
    if (!rc && verify_applied(&fx, &r, recompile))
      rc = DRV_EXIT_FAILURE;
  } else {
    FILE *out = stdout;
    if (output && strcmp(output, "-") && !(out = fopen(output, "w"))) {
      drv_error("cannot write '%s': %s", output, strerror(errno));
      rc = DRV_EXIT_FAILURE;
    } else {
      int w = write_yaml(&fx, out);
      if ((out != stdout && fclose(out)) || w) {
        drv_error("cannot write the fixes to %s: %s", output ? output : "standard output",
                  strerror(errno));
        rc = DRV_EXIT_FAILURE;
      }
    }
  }
  if (!rc && fx.refused)
    rc = DRV_EXIT_FAILURE;
  ompdp_fix_plan_free(&fx.plan);
  for (size_t i = 0; i < fx.num_files; ++i) {
    free(fx.files[i]->path);
    free(fx.files[i]->text);
    ompdp_fix_file_free(&fx.files[i]->ff);
    free(fx.files[i]);
  }
  free(fx.files);
  ompdp_report_free(&r);
  return rc;
}
