/*===- fix.c - `ompdp fix` ----------------------------------------------===*\
|*
|* `ompdp fix REPORT.json` collects the rewrites of a report (each once,
|* however many findings share it), checks every edit against the source
|* file as it is now, and either writes them as a clang-apply-replacements
|* YAML file or, with --apply, edits the files in place.
|*
|* Nothing is applied to a file that no longer matches the report: when the
|* report has the file's content hash (the compiler's XXH3-64) the file must
|* still have it, every edit's original text must still be at its
|* line:column range (compared ignoring white space, see
|* ompdp_text_matches), and byte offsets, when the report has them, must
|* agree with line:column. A rewrite is applied whole
|* or not at all; one whose edits overlap (or repeat) those of a rewrite that
|* saves more is left out. Each refusal is one "ompdp: file:line:col: ..." line, and
|* the exit status is then 1. With --apply each file is replaced atomically
|* (a temporary file renamed over it) after its old contents were saved as
|* FILE.orig.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "driver.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The compiler hashes each source file it reads with XXH3-64 (the region
 * table's file hash); the same function, inline, tells whether a file is
 * still what was compiled. */
#define XXH_INLINE_ALL
#include <xxhash.h>

/* Sources are read whole; a cap keeps a wrong path from exhausting memory. */
#define MAX_SOURCE_BYTES ((size_t)64 << 20)

typedef struct src_file {
  const char *name; /* as the report names it */
  char *path;       /* where it was read */
  char *text;
  size_t len;
  size_t *lines; /* offset of the start of each line; lines[num_lines-1] may be len */
  size_t num_lines;
  struct stat st;
  uint64_t hash; /* XXH3-64 of text, once computed */
  int hashed;
  int bad; /* unreadable, or does not match the report */
} src_file_t;

/* An edit resolved against its file. */
typedef struct placed {
  size_t file;
  size_t start, end;
  const ompdp_edit_t *e;
} placed_t;

typedef struct fix_rw {
  const ompdp_rewrite_t *rw;
  const ompdp_finding_t *f;
  placed_t *edits;
  int left_out;
} fix_rw_t;

typedef struct fixer {
  const char *root;
  src_file_t *files;
  size_t num_files;
  fix_rw_t *rws;
  size_t num_rws;
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

static int read_source(src_file_t *s) {
  int fd = open(s->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  if (fstat(fd, &s->st) || !S_ISREG(s->st.st_mode) ||
      (uint64_t)s->st.st_size > MAX_SOURCE_BYTES) {
    int e = S_ISREG(s->st.st_mode) ? EFBIG : EINVAL;
    close(fd);
    errno = e;
    return -1;
  }
  size_t cap = (size_t)s->st.st_size + 1, len = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (len == cap - 1) {
      if (cap > MAX_SOURCE_BYTES) {
        free(buf);
        close(fd);
        errno = EFBIG;
        return -1;
      }
      char *nb = realloc(buf, cap * 2);
      if (!nb)
        break;
      buf = nb;
      cap *= 2;
    }
    ssize_t got = read(fd, buf + len, cap - 1 - len);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0) {
      if (got < 0) {
        int e = errno;
        free(buf);
        close(fd);
        errno = e;
        return -1;
      }
      break;
    }
    len += (size_t)got;
  }
  close(fd);
  if (!buf) {
    errno = ENOMEM;
    return -1;
  }
  buf[len] = '\0';
  s->text = buf;
  s->len = len;
  size_t n = 1;
  for (size_t i = 0; i < len; ++i)
    n += buf[i] == '\n';
  s->lines = malloc(n * sizeof(*s->lines));
  if (!s->lines) {
    errno = ENOMEM;
    return -1;
  }
  s->lines[0] = 0;
  s->num_lines = 1;
  for (size_t i = 0; i < len; ++i)
    if (buf[i] == '\n')
      s->lines[s->num_lines++] = i + 1;
  return 0;
}

/* The file named name, read once; SIZE_MAX when it cannot be read (said
 * once). */
static size_t get_file(fixer_t *fx, const char *name) {
  for (size_t i = 0; i < fx->num_files; ++i)
    if (!strcmp(fx->files[i].name, name))
      return fx->files[i].bad && !fx->files[i].text ? SIZE_MAX : i;
  src_file_t *nf = realloc(fx->files, (fx->num_files + 1) * sizeof(*nf));
  if (!nf)
    return SIZE_MAX;
  fx->files = nf;
  src_file_t *s = &fx->files[fx->num_files++];
  memset(s, 0, sizeof(*s));
  s->name = name;
  s->path = join_path(fx->root, name);
  if (!s->path || read_source(s)) {
    drv_error("cannot read '%s': %s; its rewrites are left out", s->path ? s->path : name,
              strerror(errno));
    s->bad = 1;
    fx->refused = 1;
    free(s->text);
    s->text = NULL;
    return SIZE_MAX;
  }
  return fx->num_files - 1;
}

/* Byte offset of line:col (1-based) in s; -1 if the file has no such
 * position. A position may be the newline that ends a line, and line
 * num_lines + 1, column 1 is the end of a file that ends in a newline. */
static int64_t offset_of(const src_file_t *s, uint32_t line, uint32_t col) {
  if (line == 0 || col == 0 || line > s->num_lines)
    return -1;
  size_t start = s->lines[line - 1];
  size_t end = line < s->num_lines ? s->lines[line] - 1 : s->len; /* the '\n' or EOF */
  if (line == s->num_lines && start == s->len)
    end = s->len; /* the empty "line" after a final newline */
  if ((uint64_t)col - 1 > end - start)
    return -1;
  return (int64_t)(start + col - 1);
}

/* At most 60 bytes of text for a message, on one line. */
static void shown(char *buf, size_t size, const char *t, size_t n) {
  size_t j = 0;
  for (size_t i = 0; i < n && j + 5 < size; ++i) {
    unsigned char c = (unsigned char)t[i];
    if (i == 60) {
      memcpy(buf + j, "...", 3);
      j += 3;
      break;
    }
    if (c == '\n') {
      buf[j++] = '\\';
      buf[j++] = 'n';
    } else {
      buf[j++] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
    }
  }
  buf[j] = '\0';
}

/* Resolves and checks one edit; marks its file bad (once, with a message)
 * when it does not match. */
static int place(fixer_t *fx, const ompdp_edit_t *e, placed_t *p) {
  size_t fi = get_file(fx, e->file);
  if (fi == SIZE_MAX)
    return -1;
  src_file_t *s = &fx->files[fi];
  if (s->bad)
    return -1;
  const ompdp_range_t *r = &e->range;
  int64_t a = offset_of(s, r->line, r->column);
  int64_t b = offset_of(s, r->end_line, r->end_column);
  char why[300];
  why[0] = '\0';
  if (e->file_hash && !s->hashed) {
    s->hash = XXH3_64bits(s->text, s->len);
    s->hashed = 1;
  }
  if (e->file_hash && s->hash != e->file_hash)
    snprintf(why, sizeof(why),
             "it changed since the program was built: its XXH3 is %016" PRIx64
             ", the report's %016" PRIx64,
             s->hash, e->file_hash);
  else if (a < 0 || b < 0)
    snprintf(why, sizeof(why), "it has no line %" PRIu32 ", column %" PRIu32,
             a < 0 ? r->line : r->end_line, a < 0 ? r->column : r->end_column);
  else if (b < a)
    snprintf(why, sizeof(why), "the edit ends before it starts");
  else if (r->offset >= 0 && (r->offset != a || r->end_offset != b))
    snprintf(why, sizeof(why),
             "byte offsets %" PRId64 "-%" PRId64 " are %" PRId64 "-%" PRId64 " in the file",
             r->offset, r->end_offset, a, b);
  else if (e->original && !ompdp_text_matches(s->text + a, (size_t)(b - a), e->original)) {
    char want[80], got[80];
    shown(want, sizeof(want), e->original, strlen(e->original));
    shown(got, sizeof(got), s->text + a, (size_t)(b - a));
    snprintf(why, sizeof(why), "expected '%s', found '%s'", want, got);
  }
  if (why[0]) {
    drv_error("%s:%" PRIu32 ":%" PRIu32 ": the file does not match the report (%s); "
              "no edit is applied to %s",
              e->file, r->line, r->column, why, e->file);
    s->bad = 1;
    fx->refused = 1;
    return -1;
  }
  p->file = fi;
  p->start = (size_t)a;
  p->end = (size_t)b;
  p->e = e;
  return 0;
}

/*--- choosing the rewrites ------------------------------------------------*/

static int cmp_rw(const void *pa, const void *pb) {
  const fix_rw_t *a = pa, *b = pb;
  if (a->rw->time_saved_ns != b->rw->time_saved_ns)
    return a->rw->time_saved_ns > b->rw->time_saved_ns ? -1 : 1;
  return a < b ? -1 : a > b; /* qsort is not stable: keep report order */
}

static int same_edit(const placed_t *a, const placed_t *b) {
  const char *x = a->e->replacement ? a->e->replacement : "";
  const char *y = b->e->replacement ? b->e->replacement : "";
  return a->file == b->file && a->start == b->start && a->end == b->end && !strcmp(x, y);
}

/* Two edits conflict when their ranges share a byte, or when both insert
 * at one place (their order would be a guess), or one inserts strictly
 * inside what the other replaces. */
static int overlap(const placed_t *a, const placed_t *b) {
  if (a->file != b->file)
    return 0;
  if (a->start == a->end && b->start == b->end)
    return a->start == b->start;
  if (a->start == a->end)
    return a->start > b->start && a->start < b->end;
  if (b->start == b->end)
    return b->start > a->start && b->start < a->end;
  return a->start < b->end && b->start < a->end;
}

static void describe_rw(char *buf, size_t size, const fix_rw_t *r) {
  snprintf(buf, size, "the %s rewrite for %s", ompdp_rewrite_kind_json(r->rw->kind),
           ompdp_finding_kind_json(r->f->kind));
}

static void left_out(fixer_t *fx, fix_rw_t *r, const placed_t *at, const fix_rw_t *other,
                     const placed_t *other_at) {
  char me[128], them[128];
  describe_rw(me, sizeof(me), r);
  if (other) {
    describe_rw(them, sizeof(them), other);
    drv_error("%s:%" PRIu32 ":%" PRIu32 ": %s overlaps %s at %s:%" PRIu32 ":%" PRIu32
              "; it is left out",
              at->e->file, at->e->range.line, at->e->range.column, me, them,
              other_at->e->file, other_at->e->range.line, other_at->e->range.column);
  } else {
    drv_error("%s:%" PRIu32 ":%" PRIu32 ": %s has overlapping edits; it is left out",
              at->e->file, at->e->range.line, at->e->range.column, me);
  }
  r->left_out = 1;
  fx->refused = 1;
}

/* Collects the report's distinct rewrites, most saving first, places and
 * checks their edits, and leaves out what cannot be applied. */
static int choose(fixer_t *fx, const ompdp_report_t *rep) {
  size_t total = 0;
  for (size_t i = 0; i < rep->num_findings; ++i)
    total += rep->findings[i].num_rewrites;
  fx->rws = calloc(total ? total : 1, sizeof(*fx->rws));
  if (!fx->rws)
    return -1;
  for (size_t i = 0; i < rep->num_findings; ++i)
    for (size_t j = 0; j < rep->findings[i].num_rewrites; ++j) {
      const ompdp_rewrite_t *rw = &rep->findings[i].rewrites[j];
      int seen = 0;
      for (size_t k = 0; k < fx->num_rws && !seen; ++k)
        seen = ompdp_rewrite_same_edits(fx->rws[k].rw, rw);
      if (seen || !rw->num_edits)
        continue;
      fx->rws[fx->num_rws].rw = rw;
      fx->rws[fx->num_rws].f = &rep->findings[i];
      fx->num_rws++;
    }
  qsort(fx->rws, fx->num_rws, sizeof(*fx->rws), cmp_rw);

  /* Place every edit: a file with one stale edit gets none. */
  for (size_t i = 0; i < fx->num_rws; ++i) {
    fix_rw_t *r = &fx->rws[i];
    r->edits = calloc(r->rw->num_edits, sizeof(*r->edits));
    if (!r->edits)
      return -1;
    for (size_t j = 0; j < r->rw->num_edits; ++j)
      if (place(fx, &r->rw->edits[j], &r->edits[j]))
        r->left_out = 1;
  }
  for (size_t i = 0; i < fx->num_rws; ++i) {
    fix_rw_t *r = &fx->rws[i];
    for (size_t j = 0; j < r->rw->num_edits && !r->left_out; ++j) {
      size_t fi = get_file(fx, r->rw->edits[j].file);
      if (fi == SIZE_MAX || fx->files[fi].bad)
        r->left_out = 1;
    }
  }
  /* Overlaps, in order of saving: an accepted rewrite keeps its edits. */
  for (size_t i = 0; i < fx->num_rws; ++i) {
    fix_rw_t *r = &fx->rws[i];
    if (r->left_out)
      continue;
    size_t n = r->rw->num_edits;
    for (size_t j = 0; j < n && !r->left_out; ++j)
      for (size_t k = j + 1; k < n && !r->left_out; ++k)
        if (overlap(&r->edits[j], &r->edits[k]) || same_edit(&r->edits[j], &r->edits[k]))
          left_out(fx, r, &r->edits[k], NULL, NULL);
    for (size_t p = 0; p < i && !r->left_out; ++p) {
      fix_rw_t *q = &fx->rws[p];
      if (q->left_out)
        continue;
      /* Two different rewrites that make one same edit are alternatives
       * for the same code (remove an item, or change its map type): they
       * conflict as much as overlapping ones do. */
      for (size_t j = 0; j < n && !r->left_out; ++j)
        for (size_t k = 0; k < q->rw->num_edits && !r->left_out; ++k)
          if (overlap(&r->edits[j], &q->edits[k]) || same_edit(&r->edits[j], &q->edits[k]))
            left_out(fx, r, &r->edits[j], q, &q->edits[k]);
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
  for (size_t i = 0; i < fx->num_rws && !main_file; ++i)
    if (!fx->rws[i].left_out)
      main_file = fx->files[fx->rws[i].edits[0].file].path;
  fputs("---\nMainSourceFile:  ", out);
  yaml_str(out, main_file ? main_file : "");
  fputs("\nDiagnostics:", out);
  int any = 0;
  for (size_t i = 0; i < fx->num_rws; ++i) {
    const fix_rw_t *r = &fx->rws[i];
    if (r->left_out)
      continue;
    const placed_t *first = &r->edits[0];
    any = 1;
    fputs("\n  - DiagnosticName:  ", out);
    yaml_str(out, ompdp_finding_kind_warning_group(r->f->kind));
    fputs("\n    DiagnosticMessage:\n      Message:         ", out);
    yaml_str(out, r->rw->description ? r->rw->description : "");
    fputs("\n      FilePath:        ", out);
    yaml_str(out, fx->files[first->file].path);
    fprintf(out, "\n      FileOffset:      %zu\n      Replacements:", first->start);
    for (size_t j = 0; j < r->rw->num_edits; ++j) {
      const placed_t *p = &r->edits[j];
      fputs("\n        - FilePath:        ", out);
      yaml_str(out, fx->files[p->file].path);
      fprintf(out, "\n          Offset:          %zu\n          Length:          %zu",
              p->start, p->end - p->start);
      fputs("\n          ReplacementText: ", out);
      yaml_str(out, p->e->replacement ? p->e->replacement : "");
    }
    fputs("\n    Level:           Warning", out);
  }
  fputs(any ? "\n...\n" : " []\n...\n", out);
  return fflush(out) || ferror(out) ? -1 : 0;
}

/*--- applying in place -----------------------------------------------------*/

static int cmp_placed(const void *pa, const void *pb) {
  const placed_t *a = *(const placed_t *const *)pa, *b = *(const placed_t *const *)pb;
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
  int rc = 0;
  for (size_t off = 0; off < len && !rc;) {
    ssize_t w = write(fd, data + off, len - off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      rc = -1;
    else
      off += (size_t)w;
  }
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

static int apply_file(fixer_t *fx, size_t fi) {
  src_file_t *s = &fx->files[fi];
  size_t n = 0;
  for (size_t i = 0; i < fx->num_rws; ++i)
    if (!fx->rws[i].left_out)
      for (size_t j = 0; j < fx->rws[i].rw->num_edits; ++j)
        n += fx->rws[i].edits[j].file == fi;
  if (!n)
    return 0;
  const placed_t **v = malloc(n * sizeof(*v));
  if (!v)
    return -1;
  size_t k = 0, grow = 0;
  for (size_t i = 0; i < fx->num_rws; ++i)
    if (!fx->rws[i].left_out)
      for (size_t j = 0; j < fx->rws[i].rw->num_edits; ++j) {
        const placed_t *p = &fx->rws[i].edits[j];
        if (p->file == fi) {
          v[k++] = p;
          grow += strlen(p->e->replacement ? p->e->replacement : "");
        }
      }
  qsort(v, n, sizeof(*v), cmp_placed);
  char *out = malloc(s->len + grow + 1);
  if (!out) {
    free(v);
    return -1;
  }
  size_t o = 0, at = 0;
  for (size_t i = 0; i < n; ++i) {
    memcpy(out + o, s->text + at, v[i]->start - at);
    o += v[i]->start - at;
    const char *rep = v[i]->e->replacement ? v[i]->e->replacement : "";
    size_t rl = strlen(rep);
    memcpy(out + o, rep, rl);
    o += rl;
    at = v[i]->end;
  }
  memcpy(out + o, s->text + at, s->len - at);
  o += s->len - at;
  free(v);

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
    if (write_atomic(backup, s->text, s->len, s->st.st_mode))
      drv_error("cannot write the backup '%s': %s; nothing is applied to %s", backup,
                strerror(errno), s->path);
    else if (write_atomic(s->path, out, o, s->st.st_mode))
      drv_error("cannot write '%s': %s", s->path, strerror(errno));
    else {
      printf("%s: %zu edit(s) applied (the old file is %s)\n", s->name, n, backup);
      rc = 0;
    }
  }
  if (rc)
    fx->refused = 1;
  free(backup);
  free(out);
  return 0;
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
        "  --apply     edit the sources in place, keeping each old file as FILE.orig\n"
        "  --root DIR  directory that relative source paths are relative to\n"
        "              (default: the current directory)\n",
        out);
}

int drv_fix_main(int argc, char **argv) {
  const char *output = NULL, *input = NULL, *root = NULL;
  int apply = 0, only_files = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v;
    int m;
    if (!only_files && a[0] == '-' && a[1] != '\0') {
      if (!strcmp(a, "--")) {
        only_files = 1;
        continue;
      }
      if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        fix_usage(stdout);
        return 0;
      }
      if (!strcmp(a, "--apply")) {
        apply = 1;
        continue;
      }
      if ((m = drv_flag_value(argc, argv, &i, "o", &v)) != 0 ||
          (m = drv_flag_value(argc, argv, &i, "output", &v)) != 0) {
        if (m < 0)
          return DRV_EXIT_USAGE;
        output = v;
        continue;
      }
      if ((m = drv_flag_value(argc, argv, &i, "root", &v)) != 0) {
        if (m < 0)
          return DRV_EXIT_USAGE;
        root = v;
        continue;
      }
      drv_error("unknown option '%s' (see 'ompdp fix --help')", a);
      return DRV_EXIT_USAGE;
    }
    if (input) {
      drv_error("one report at a time ('%s' and '%s' given)", input, a);
      return DRV_EXIT_USAGE;
    }
    input = a;
  }
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
  fixer_t fx = {.root = root};
  int rc = 0;
  if (choose(&fx, &r)) {
    drv_error("out of memory");
    rc = DRV_EXIT_FAILURE;
  } else if (apply) {
    size_t applied = 0;
    for (size_t i = 0; i < fx.num_rws; ++i)
      applied += !fx.rws[i].left_out;
    if (!applied && !fx.refused)
      printf("no rewrite to apply\n");
    for (size_t i = 0; i < fx.num_files && !rc; ++i)
      if (!fx.files[i].bad && apply_file(&fx, i)) {
        drv_error("out of memory");
        rc = DRV_EXIT_FAILURE;
      }
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
  for (size_t i = 0; i < fx.num_rws; ++i)
    free(fx.rws[i].edits);
  free(fx.rws);
  for (size_t i = 0; i < fx.num_files; ++i) {
    free(fx.files[i].path);
    free(fx.files[i].text);
    free(fx.files[i].lines);
  }
  free(fx.files);
  ompdp_report_free(&r);
  return rc;
}
