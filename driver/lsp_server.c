/*===- lsp_server.c - the ompdp language server: the session -------------===*\
|*
|* The protocol's side of `ompdp lsp`: the lifecycle (initialize, shutdown,
|* exit, and the errors the protocol asks for out of turn), the client's
|* settings, the reports (named on the command line or in the settings, or
|* found in the workspace; read again when their file changes, which is
|* checked before each message and while the client is quiet) and the open
|* documents, kept in step with the client's full and incremental changes.
|* What the findings look like in the editor is lsp_findings.c's.
|*
|* Every message is taken apart defensively: a member of the wrong type is
|* an InvalidParams error for a request and is ignored (with a log line) in
|* a notification; nothing a client sends ends the session but "exit" or
|* the end of the input.
|*
|* About 1,000 lines, on purpose: the session's state (settings, reports,
|* documents) is one structure that every handler reads and changes; the
|* framing and the JSON are lsp_io.c's, the text lsp_text.c's.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* realpath, strdup, dirent, clock_gettime */
#include "lsp_impl.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Discovery looks in the workspace again at most this often (ms) unless
 * the client says a file changed. */
#define SCAN_INTERVAL_MS 2000

static void logf_(lsp_server_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(lsp_server_t *s, const char *fmt, ...) {
  if (!s->o.log)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs("ompdp: ", s->o.log);
  vfprintf(s->o.log, fmt, ap);
  fputc('\n', s->o.log);
  fflush(s->o.log);
  va_end(ap);
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*===- sending ---------------------------------------------------------------===*/

void lsp_send(lsp_server_t *s, json_t *msg) {
  if (!msg)
    return;
  if (!s->done) {
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
    char *body = json_dumps(msg, JSON_COMPACT);
    if (!body || s->o.send(s->o.send_ctx, body, strlen(body)))
      s->done = 1; /* the client is gone (or no memory to talk to it) */
    free(body);
  }
  json_decref(msg);
}

static void respond(lsp_server_t *s, json_t *id, json_t *result) {
  json_t *m = json_object();
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(m, "result", result ? result : json_null());
  lsp_send(s, m);
}

static void respond_error(lsp_server_t *s, json_t *id, int code, const char *msg) {
  json_t *m = json_object();
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(m, "error", json_pack("{s:i,s:s}", "code", code, "message", msg));
  lsp_send(s, m);
}

void lsp_notify(lsp_server_t *s, const char *method, json_t *params) {
  json_t *m = json_object();
  json_object_set_new(m, "method", json_string(method));
  json_object_set_new(m, "params", params ? params : json_object());
  lsp_send(s, m);
}

void lsp_show(lsp_server_t *s, int type, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  /* jansson takes only UTF-8: a path from a report could hold other bytes. */
  json_t *msg = json_string(buf);
  if (!msg)
    msg = json_string("ompdp: (a message that is not UTF-8)");
  lsp_notify(s, "window/showMessage", json_pack("{s:i,s:o}", "type", type, "message", msg));
}

/*===- paths and URIs ----------------------------------------------------------===*/

static int hexval(int c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *lsp_path_from_uri(const char *uri) {
  if (strncmp(uri, "file://", 7))
    return NULL;
  const char *p = uri + 7;
  if (!strncmp(p, "localhost/", 10))
    p += 9;
  if (*p != '/')
    return NULL; /* file://host/... names another machine */
  size_t n = strlen(p);
  char *out = malloc(n + 1);
  if (!out)
    return NULL;
  size_t j = 0;
  for (size_t i = 0; i < n; ++i) {
    if (p[i] == '?' || p[i] == '#')
      break;
    if (p[i] == '%') {
      int a = i + 2 < n ? hexval((unsigned char)p[i + 1]) : -1;
      int b = a >= 0 ? hexval((unsigned char)p[i + 2]) : -1;
      if (b < 0 || (a == 0 && b == 0)) {
        free(out);
        return NULL;
      }
      out[j++] = (char)(a * 16 + b);
      i += 2;
    } else {
      out[j++] = p[i];
    }
  }
  out[j] = '\0';
  return out;
}

char *lsp_uri_from_path(const char *path) {
  size_t n = strlen(path);
  char *out = malloc(7 + 3 * n + 2);
  if (!out)
    return NULL;
  memcpy(out, "file://", 7);
  size_t j = 7;
  if (path[0] != '/')
    out[j++] = '/';
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)path[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        strchr("/-._~!$&'()*+,;=:@", c)) {
      out[j++] = (char)c;
    } else {
      static const char hex[] = "0123456789ABCDEF";
      out[j++] = '%';
      out[j++] = hex[c >> 4];
      out[j++] = hex[c & 15];
    }
  }
  out[j] = '\0';
  return out;
}

lsp_doc_t *lsp_doc_by_path(lsp_server_t *s, const char *path) {
  for (size_t i = 0; i < s->num_docs; ++i)
    if (s->docs[i]->path && !strcmp(s->docs[i]->path, path))
      return s->docs[i];
  return NULL;
}

char *lsp_uri_for(lsp_server_t *s, const char *path) {
  lsp_doc_t *d = lsp_doc_by_path(s, path);
  return d ? strdup(d->uri) : lsp_uri_from_path(path);
}

char *lsp_dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return strdup(".");
  if (slash == path)
    return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

static char *join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p)
    return NULL;
  memcpy(p, dir, a);
  p[a] = '/';
  memcpy(p + a + 1, name, b + 1);
  return p;
}

/* path without "." and ".." components and repeated slashes (for a path
 * that does not exist, which realpath cannot make canonical). */
static char *normalize(const char *path) {
  size_t n = strlen(path);
  char *out = malloc(n + 2);
  if (!out)
    return NULL;
  size_t j = 0;
  int abs = path[0] == '/';
  if (abs)
    out[j++] = '/';
  const char *p = path;
  while (*p) {
    while (*p == '/')
      ++p;
    const char *e = p;
    while (*e && *e != '/')
      ++e;
    size_t len = (size_t)(e - p);
    if (len == 0)
      break;
    if (len == 1 && p[0] == '.') {
      /* nothing */
    } else if (len == 2 && p[0] == '.' && p[1] == '.' && j > (size_t)abs &&
               !(j >= 2 && out[j - 1] == '.' && out[j - 2] == '.' &&
                 (j == 2 || out[j - 3] == '/'))) {
      while (j > (size_t)abs && out[j - 1] != '/')
        --j;
      if (j > (size_t)abs)
        --j;
    } else if (!(len == 2 && p[0] == '.' && p[1] == '.' && abs && j == 1)) {
      if (j > (size_t)abs)
        out[j++] = '/';
      memcpy(out + j, p, len);
      j += len;
    }
    p = e;
  }
  if (j == 0)
    out[j++] = '.';
  out[j] = '\0';
  return out;
}

/* The canonical form of an absolute path: realpath when it exists. */
static char *canonical(const char *path) {
  char *r = realpath(path, NULL);
  return r ? r : normalize(path);
}

static char *absolute(const char *path) {
  if (path[0] == '/')
    return canonical(path);
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof(cwd)))
    return normalize(path);
  char *j = join(cwd, path);
  char *c = j ? canonical(j) : NULL;
  free(j);
  return c;
}

/*===- reports ------------------------------------------------------------------===*/

/* The file a report's name stands for: an absolute name as it is; a
 * relative one in the first of the source root, the report's directory and
 * the workspace folders that has it (the report's directory if none). */
static char *resolve(lsp_server_t *s, const lsp_report_t *r, const char *name) {
  if (name[0] == '/')
    return canonical(name);
  const char *dirs[3 + 16];
  size_t n = 0;
  if (s->source_root)
    dirs[n++] = s->source_root;
  if (r->base)
    dirs[n++] = r->base;
  for (size_t i = 0; i < s->num_roots && n < sizeof(dirs) / sizeof(dirs[0]); ++i)
    dirs[n++] = s->roots[i];
  for (size_t i = 0; i < n; ++i) {
    char *p = join(dirs[i], name);
    if (p && access(p, F_OK) == 0) {
      char *c = canonical(p);
      free(p);
      return c;
    }
    free(p);
  }
  char *p = join(n ? dirs[0] : ".", name);
  char *c = p ? normalize(p) : NULL;
  free(p);
  return c;
}

typedef struct name_cache {
  char *name[64];
  char *path[64];
  size_t n;
} name_cache_t;

/* Replaces *name (owned by the report) with the file it stands for. */
static int make_absolute(lsp_server_t *s, const lsp_report_t *r, name_cache_t *c, char **name) {
  if (!*name || !**name)
    return 0;
  for (size_t i = 0; i < c->n; ++i)
    if (!strcmp(c->name[i], *name)) {
      char *p = strdup(c->path[i]);
      if (!p)
        return -1;
      free(*name);
      *name = p;
      return 0;
    }
  char *p = resolve(s, r, *name);
  if (!p)
    return -1;
  if (c->n < 64) {
    char *k = strdup(*name), *v = strdup(p);
    if (k && v) {
      c->name[c->n] = k;
      c->path[c->n++] = v;
    } else {
      free(k);
      free(v);
    }
  }
  free(*name);
  *name = p;
  return 0;
}

static int absolute_names(lsp_server_t *s, lsp_report_t *r) {
  name_cache_t c = {.n = 0};
  int rc = 0;
  ompdp_report_t *rep = &r->rep;
  for (size_t i = 0; i < rep->num_findings && !rc; ++i) {
    ompdp_finding_t *f = &rep->findings[i];
    rc |= make_absolute(s, r, &c, &f->loc.file);
    rc |= make_absolute(s, r, &c, &f->related.file);
    for (size_t j = 0; j < f->num_rewrites && !rc; ++j)
      for (size_t k = 0; k < f->rewrites[j].num_edits && !rc; ++k)
        rc |= make_absolute(s, r, &c, &f->rewrites[j].edits[k].file);
  }
  for (size_t i = 0; i < c.n; ++i) {
    free(c.name[i]);
    free(c.path[i]);
  }
  return rc;
}

static void unload(lsp_report_t *r) {
  if (r->loaded)
    ompdp_report_free(&r->rep);
  r->loaded = 0;
}

static void report_free(lsp_report_t *r) {
  unload(r);
  free(r->path);
  free(r->base);
  free(r->error);
  free(r);
}

/* Reads r's file again when it changed. 1 when what the server shows
 * changes. */
static int refresh_report(lsp_server_t *s, lsp_report_t *r) {
  if (!r->path)
    return 0;
  struct stat st;
  if (stat(r->path, &st)) {
    int was = r->exists || r->loaded;
    if (r->origin != LSP_FROM_WORKSPACE && was)
      lsp_show(s, 2, "ompdp: the report %s is gone; its findings are no longer shown", r->path);
    else if (r->origin != LSP_FROM_WORKSPACE && !r->said_missing)
      lsp_show(s, 2, "ompdp: the report %s does not exist (yet); its findings are shown when it does",
               r->path);
    r->said_missing = 1;
    r->exists = 0;
    unload(r);
    return was;
  }
  if (r->exists && st.st_dev == r->st.st_dev && st.st_ino == r->st.st_ino &&
      st.st_size == r->st.st_size && st.st_mtim.tv_sec == r->st.st_mtim.tv_sec &&
      st.st_mtim.tv_nsec == r->st.st_mtim.tv_nsec)
    return 0;
  r->exists = 1;
  r->said_missing = 0;
  r->st = st;
  int was = r->loaded;
  unload(r);
  char err[600];
  ompdp_report_t rep;
  if (ompdp_report_read_json_file(r->path, &rep, err, sizeof(err))) {
    if (!r->error || strcmp(r->error, err)) {
      lsp_show(s, 1, "ompdp: %s", err);
      logf_(s, "%s", err);
    }
    free(r->error);
    r->error = strdup(err);
    return was;
  }
  free(r->error);
  r->error = NULL;
  r->rep = rep;
  r->loaded = 1;
  if (absolute_names(s, r)) {
    unload(r);
    logf_(s, "out of memory reading %s", r->path);
    return was;
  }
  logf_(s, "read %s: %zu finding(s)", r->path, r->rep.num_findings);
  return 1;
}

static lsp_report_t *add_report(lsp_server_t *s, const char *path, lsp_origin_t origin) {
  lsp_report_t **v = realloc(s->reports, (s->num_reports + 1) * sizeof(*v));
  if (!v)
    return NULL;
  s->reports = v;
  lsp_report_t *r = calloc(1, sizeof(*r));
  if (!r)
    return NULL;
  r->origin = origin;
  r->listed = 1;
  if (path) {
    r->path = strdup(path);
    r->base = lsp_dirname(path);
    if (!r->path || !r->base) {
      report_free(r);
      return NULL;
    }
  }
  s->reports[s->num_reports++] = r;
  return r;
}

int lsp_server_add_report_text(lsp_server_t *s, const char *json, size_t len,
                               const char *base_dir, char *err, size_t errlen) {
  ompdp_report_t rep;
  if (ompdp_report_read_json(json, len, &rep, err, errlen))
    return -1;
  lsp_report_t *r = add_report(s, NULL, LSP_FROM_MEMORY);
  if (!r || !(r->base = strdup(base_dir))) {
    ompdp_report_free(&rep);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  r->rep = rep;
  r->loaded = 1;
  if (absolute_names(s, r)) {
    unload(r);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

static int name_is_report(const char *name) {
  size_t n = strlen(name);
  return !strcmp(name, "ompdp-report.json") ||
         (n > 11 && !strcmp(name + n - 11, ".ompdp.json"));
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The reports in dir (named by the rule of docs/lsp.md), appended to *v;
 * with subdirs, also those of its subdirectories named build*. */
static void scan_dir(const char *dir, int subdirs, char ***v, size_t *n) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)) && *n < 256) {
    if (e->d_name[0] == '.')
      continue;
    char *p = join(dir, e->d_name);
    if (!p)
      break;
    struct stat st;
    if (stat(p, &st)) {
      free(p);
      continue;
    }
    if (S_ISREG(st.st_mode) && name_is_report(e->d_name)) {
      char **nv = realloc(*v, (*n + 1) * sizeof(**v));
      if (!nv) {
        free(p);
        break;
      }
      *v = nv;
      (*v)[(*n)++] = p;
      continue;
    }
    if (subdirs && S_ISDIR(st.st_mode) && !strncmp(e->d_name, "build", 5))
      scan_dir(p, 0, v, n);
    free(p);
  }
  closedir(d);
}

/* Makes the list of reports what the command line, the settings and the
 * workspace name now. 1 when it changed. */
static int list_reports(lsp_server_t *s) {
  int changed = 0;
  char **want = NULL;
  size_t n = 0;
  size_t explicit_ = s->o.num_reports + s->num_setting_reports;
  if (s->o.read_client_paths) {
    for (size_t i = 0; i < s->num_setting_reports; ++i) {
      char **nv = realloc(want, (n + 1) * sizeof(*want));
      if (!nv)
        break;
      want = nv;
      want[n++] = strdup(s->setting_reports[i]);
    }
    if (s->discover && !explicit_) {
      size_t before = n;
      if (s->num_roots)
        for (size_t i = 0; i < s->num_roots; ++i)
          scan_dir(s->roots[i], 1, &want, &n);
      else {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof(cwd)))
          scan_dir(cwd, 1, &want, &n);
      }
      qsort(want + before, n - before, sizeof(*want), cmp_str);
    }
    s->last_scan = now_ms();
  }
  for (size_t i = 0; i < s->num_reports; ++i)
    if (s->reports[i]->origin == LSP_FROM_SETTINGS || s->reports[i]->origin == LSP_FROM_WORKSPACE)
      s->reports[i]->listed = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!want[i])
      continue;
    char *p = canonical(want[i]);
    lsp_report_t *found = NULL;
    for (size_t k = 0; p && k < s->num_reports && !found; ++k)
      if (s->reports[k]->path && !strcmp(s->reports[k]->path, p))
        found = s->reports[k];
    if (found) {
      found->listed = 1;
    } else if (p) {
      lsp_origin_t o = i < s->num_setting_reports ? LSP_FROM_SETTINGS : LSP_FROM_WORKSPACE;
      if (add_report(s, p, o))
        changed = 1;
    }
    free(p);
  }
  for (size_t i = 0; i < n; ++i)
    free(want[i]);
  free(want);
  size_t k = 0;
  for (size_t i = 0; i < s->num_reports; ++i) {
    if (s->reports[i]->listed) {
      s->reports[k++] = s->reports[i];
    } else {
      changed |= s->reports[i]->loaded;
      report_free(s->reports[i]);
    }
  }
  s->num_reports = k;
  return changed;
}

static void place_all(lsp_server_t *s) {
  for (size_t i = 0; i < s->num_docs; ++i) {
    if (lsp_place(s, s->docs[i]))
      logf_(s, "out of memory placing the findings of %s", s->docs[i]->uri);
    lsp_publish(s, s->docs[i]);
  }
}

/* Looks at the reports again: the list (discovery at most every
 * SCAN_INTERVAL_MS unless forced) and each file. Republishes what changed. */
static void refresh(lsp_server_t *s, int rescan) {
  if (s->state != LSP_STATE_RUNNING)
    return;
  int changed = 0;
  if (rescan || now_ms() - s->last_scan >= SCAN_INTERVAL_MS)
    changed |= list_reports(s);
  for (size_t i = 0; i < s->num_reports; ++i)
    changed |= refresh_report(s, s->reports[i]);
  if (changed)
    place_all(s);
}

void lsp_server_tick(lsp_server_t *s) { refresh(s, 0); }

/*===- settings -------------------------------------------------------------------===*/

/* A report path from the settings: relative to the first workspace folder. */
static char *setting_path(lsp_server_t *s, const char *p) {
  if (p[0] == '/' || !s->num_roots)
    return absolute(p);
  char *j = join(s->roots[0], p);
  char *c = j ? canonical(j) : NULL;
  free(j);
  return c;
}

/* initializationOptions or didChangeConfiguration's settings: {"reports":
 * [..], "sourceRoot": "..", "discover": bool}, at the top or under "ompdp". */
static void apply_settings(lsp_server_t *s, json_t *v) {
  if (!json_is_object(v))
    return;
  json_t *mine = json_object_get(v, "ompdp");
  if (json_is_object(mine))
    v = mine;
  json_t *reports = json_object_get(v, "reports");
  if (json_is_string(reports) || json_is_array(reports)) {
    for (size_t i = 0; i < s->num_setting_reports; ++i)
      free(s->setting_reports[i]);
    free(s->setting_reports);
    s->setting_reports = NULL;
    s->num_setting_reports = 0;
    size_t n = json_is_string(reports) ? 1 : json_array_size(reports);
    if (n > 64)
      n = 64;
    s->setting_reports = calloc(n ? n : 1, sizeof(char *));
    for (size_t i = 0; s->setting_reports && i < n; ++i) {
      json_t *e = json_is_string(reports) ? reports : json_array_get(reports, i);
      if (!json_is_string(e) || !json_string_length(e)) {
        lsp_show(s, 2, "ompdp: settings: \"reports\" must hold file names");
        continue;
      }
      char *p = setting_path(s, json_string_value(e));
      if (p)
        s->setting_reports[s->num_setting_reports++] = p;
    }
  } else if (reports && !json_is_null(reports)) {
    lsp_show(s, 2, "ompdp: settings: \"reports\" must be a file name or a list of them");
  }
  json_t *root = json_object_get(v, "sourceRoot");
  if (json_is_string(root) || json_is_null(root)) {
    char *now = json_string_length(root) ? setting_path(s, json_string_value(root))
                : s->o.source_root           ? absolute(s->o.source_root)
                                             : NULL;
    int same = (!now && !s->source_root) ||
               (now && s->source_root && !strcmp(now, s->source_root));
    free(s->source_root);
    s->source_root = now;
    /* The reports' relative names were resolved against the old one. */
    for (size_t i = 0; !same && i < s->num_reports; ++i)
      s->reports[i]->exists = 0;
  }
  json_t *discover = json_object_get(v, "discover");
  if (json_is_boolean(discover))
    s->discover = json_is_true(discover);
}

/*===- lifecycle ------------------------------------------------------------------===*/

static int has_string(json_t *arr, const char *v) {
  size_t i;
  json_t *e;
  json_array_foreach(arr, i, e) if (json_is_string(e) && !strcmp(json_string_value(e), v)) return 1;
  return 0;
}

static void add_root(lsp_server_t *s, const char *uri_or_path, int is_uri) {
  char *p = is_uri ? lsp_path_from_uri(uri_or_path) : strdup(uri_or_path);
  if (!p || s->num_roots >= 16) {
    free(p);
    return;
  }
  char *c = absolute(p);
  free(p);
  char **v = c ? realloc(s->roots, (s->num_roots + 1) * sizeof(*v)) : NULL;
  if (!v) {
    free(c);
    return;
  }
  s->roots = v;
  s->roots[s->num_roots++] = c;
}

static void on_initialize(lsp_server_t *s, json_t *id, json_t *params) {
  if (s->state != LSP_STATE_NEW) {
    respond_error(s, id, LSP_INVALID_REQUEST, "the server is already initialized");
    return;
  }
  json_t *caps = lsp_get(params, "capabilities");
  /* Positions: bytes (UTF-8) when the client can, as ompdp counts them. */
  json_t *encs = lsp_get(caps, "general.positionEncodings");
  json_t *clangd = lsp_get(caps, "offsetEncoding"); /* clangd's extension, before 3.17 */
  int via_clangd = 0;
  if (has_string(encs, "utf-8"))
    s->enc = LSP_UTF8;
  else if (has_string(encs, "utf-32"))
    s->enc = LSP_UTF32;
  else if (has_string(clangd, "utf-8"))
    s->enc = LSP_UTF8, via_clangd = 1;
  s->markdown = has_string(lsp_get(caps, "textDocument.hover.contentFormat"), "markdown");
  s->disabled_actions = json_is_true(lsp_get(caps, "textDocument.codeAction.disabledSupport"));
  s->document_changes = json_is_true(lsp_get(caps, "workspace.workspaceEdit.documentChanges"));
  s->watch_files =
      json_is_true(lsp_get(caps, "workspace.didChangeWatchedFiles.dynamicRegistration"));
  json_t *folders = lsp_get(params, "workspaceFolders");
  size_t i;
  json_t *f;
  json_array_foreach(folders, i, f) {
    const char *uri = lsp_get_string(f, "uri");
    if (uri)
      add_root(s, uri, 1);
  }
  if (!s->num_roots) {
    const char *uri = lsp_get_string(params, "rootUri");
    const char *path = lsp_get_string(params, "rootPath");
    if (uri)
      add_root(s, uri, 1);
    else if (path)
      add_root(s, path, 0);
  }
  apply_settings(s, lsp_get(params, "initializationOptions"));

  json_t *result = json_pack(
      "{s:{s:s,s:{s:b,s:i,s:{s:b}},s:{s:[s,s]},s:b},s:{s:s,s:s}}", "capabilities",
      "positionEncoding", lsp_encoding_name(s->enc), "textDocumentSync", "openClose", 1,
      "change", 2, "save", "includeText", 0, "codeActionProvider", "codeActionKinds",
      "quickfix", "source.fixAll.ompdp", "hoverProvider", 1, "serverInfo", "name", "ompdp",
      "version", s->o.version ? s->o.version : "unknown");
  if (via_clangd)
    json_object_set_new(result, "offsetEncoding", json_string("utf-8"));
  s->state = LSP_STATE_RUNNING;
  respond(s, id, result);
}

static void on_initialized(lsp_server_t *s) {
  if (s->watch_files && s->o.read_client_paths) {
    json_t *watchers = json_pack("[{s:s},{s:s}]", "globPattern", "**/ompdp-report.json",
                                 "globPattern", "**/*.ompdp.json");
    json_t *reg = json_pack("{s:[{s:s,s:s,s:{s:o}}]}", "registrations", "id", "ompdp-reports",
                            "method", "workspace/didChangeWatchedFiles", "registerOptions",
                            "watchers", watchers);
    json_t *m = json_pack("{s:I,s:s,s:o}", "id", (json_int_t)++s->next_id, "method",
                          "client/registerCapability", "params", reg);
    lsp_send(s, m);
  }
  refresh(s, 1);
}

/*===- documents -------------------------------------------------------------------===*/

static lsp_doc_t *doc_by_uri(lsp_server_t *s, const char *uri) {
  for (size_t i = 0; i < s->num_docs; ++i)
    if (!strcmp(s->docs[i]->uri, uri))
      return s->docs[i];
  return NULL;
}

static void doc_free(lsp_doc_t *d) {
  lsp_doc_clear(d);
  lsp_text_free(&d->text);
  free(d->uri);
  free(d->path);
  free(d);
}

static void on_did_open(lsp_server_t *s, json_t *params) {
  const char *uri = lsp_get_string(params, "textDocument.uri");
  json_t *text = lsp_get(params, "textDocument.text");
  if (!uri || !json_is_string(text)) {
    logf_(s, "textDocument/didOpen without a uri and a text");
    return;
  }
  lsp_doc_t *d = doc_by_uri(s, uri);
  if (!d) {
    lsp_doc_t **v = realloc(s->docs, (s->num_docs + 1) * sizeof(*v));
    if (!v)
      return;
    s->docs = v;
    d = calloc(1, sizeof(*d));
    if (!d || !(d->uri = strdup(uri))) {
      free(d);
      return;
    }
    char *p = lsp_path_from_uri(uri);
    d->path = p ? canonical(p) : NULL;
    free(p);
    s->docs[s->num_docs++] = d;
  }
  d->refusal_said = -1;
  int64_t version = 0;
  lsp_get_int(params, "textDocument.version", INT64_MIN, INT64_MAX, &version);
  d->version = version;
  if (lsp_text_set(&d->text, json_string_value(text), json_string_length(text))) {
    lsp_doc_clear(d);
    lsp_text_set(&d->text, "", 0);
    logf_(s, "out of memory opening %s", uri);
  }
  if (lsp_place(s, d))
    logf_(s, "out of memory placing the findings of %s", uri);
  lsp_publish(s, d);
}

/* One content change: {"range": ..., "text": ...} or {"text": ...}. 0, or
 * -1 when it is not one (the document is then out of step). */
static int apply_change(lsp_server_t *s, lsp_doc_t *d, json_t *c) {
  json_t *text = json_object_get(c, "text");
  if (!json_is_string(text))
    return -1;
  const char *t = json_string_value(text);
  size_t n = json_string_length(text);
  json_t *range = json_object_get(c, "range");
  size_t cs, ce;
  if (range) {
    int64_t l0, c0, l1, c1;
    if (!lsp_get_int(range, "start.line", 0, UINT32_MAX, &l0) ||
        !lsp_get_int(range, "start.character", 0, UINT32_MAX, &c0) ||
        !lsp_get_int(range, "end.line", 0, UINT32_MAX, &l1) ||
        !lsp_get_int(range, "end.character", 0, UINT32_MAX, &c1))
      return -1;
    cs = lsp_text_offset(&d->text, (uint64_t)l0, (uint64_t)c0, s->enc);
    ce = lsp_text_offset(&d->text, (uint64_t)l1, (uint64_t)c1, s->enc);
    if (ce < cs) {
      size_t x = cs;
      cs = ce;
      ce = x;
    }
    lsp_move(d, cs, ce, n);
    return lsp_text_replace(&d->text, cs, ce, t, n);
  }
  size_t start, old_end, new_end;
  lsp_text_diff(d->text.s, d->text.len, t, n, &start, &old_end, &new_end);
  lsp_move(d, start, old_end, new_end - start);
  return lsp_text_set(&d->text, t, n);
}

static void on_did_change(lsp_server_t *s, json_t *params) {
  const char *uri = lsp_get_string(params, "textDocument.uri");
  json_t *changes = lsp_get(params, "contentChanges");
  lsp_doc_t *d = uri ? doc_by_uri(s, uri) : NULL;
  if (!d) {
    logf_(s, "textDocument/didChange of a document that is not open");
    return;
  }
  if (!json_is_array(changes)) {
    logf_(s, "textDocument/didChange without contentChanges");
    return;
  }
  size_t i;
  json_t *c;
  json_array_foreach(changes, i, c) {
    if (!json_is_object(c) || apply_change(s, d, c)) {
      /* The rest of the changes cannot be placed: what the editor has is
       * unknown from here on, and so is where the findings are. */
      logf_(s, "textDocument/didChange: change %zu is not a change; the findings of %s are "
               "dropped until it is opened again", i, uri);
      lsp_doc_clear(d);
      break;
    }
  }
  int64_t version;
  if (lsp_get_int(params, "textDocument.version", INT64_MIN, INT64_MAX, &version))
    d->version = version;
  if (lsp_matches_again(s, d) && lsp_place(s, d))
    logf_(s, "out of memory placing the findings of %s", uri);
  lsp_publish(s, d);
}

static void on_did_close(lsp_server_t *s, json_t *params) {
  const char *uri = lsp_get_string(params, "textDocument.uri");
  for (size_t i = 0; uri && i < s->num_docs; ++i)
    if (!strcmp(s->docs[i]->uri, uri)) {
      doc_free(s->docs[i]);
      s->docs[i] = s->docs[--s->num_docs];
      lsp_notify(s, "textDocument/publishDiagnostics",
                 json_pack("{s:s,s:[]}", "uri", uri, "diagnostics"));
      return;
    }
}

/*===- dispatch ---------------------------------------------------------------------===*/

static void on_request(lsp_server_t *s, const lsp_message_t *m) {
  const char *method = m->method;
  if (!strcmp(method, "initialize")) {
    on_initialize(s, m->id, m->params);
    return;
  }
  if (s->state == LSP_STATE_NEW) {
    respond_error(s, m->id, LSP_SERVER_NOT_INITIALIZED, "the server is not initialized yet");
    return;
  }
  if (s->state == LSP_STATE_SHUTDOWN) {
    respond_error(s, m->id, LSP_INVALID_REQUEST, "the server was shut down");
    return;
  }
  if (!strcmp(method, "shutdown")) {
    s->state = LSP_STATE_SHUTDOWN;
    respond(s, m->id, NULL);
    return;
  }
  int doc_request = !strcmp(method, "textDocument/codeAction") ||
                    !strcmp(method, "textDocument/hover");
  if (!doc_request) {
    char msg[200];
    snprintf(msg, sizeof(msg), "ompdp lsp does not handle %.150s", method);
    respond_error(s, m->id, LSP_METHOD_NOT_FOUND, msg);
    return;
  }
  const char *uri = lsp_get_string(m->params, "textDocument.uri");
  if (!uri) {
    respond_error(s, m->id, LSP_INVALID_PARAMS, "params.textDocument.uri is missing");
    return;
  }
  lsp_doc_t *d = doc_by_uri(s, uri);
  if (!d) { /* not open: nothing of it is shown, so nothing to offer */
    respond(s, m->id, !strcmp(method, "textDocument/hover") ? json_null() : json_array());
    return;
  }
  int code = 0;
  char err[200] = "";
  json_t *r = !strcmp(method, "textDocument/hover")
                  ? lsp_hover(s, d, m->params, &code, err, sizeof(err))
                  : lsp_code_actions(s, d, m->params, &code, err, sizeof(err));
  if (code)
    respond_error(s, m->id, code, err);
  else
    respond(s, m->id, r);
}

static void on_notification(lsp_server_t *s, const lsp_message_t *m) {
  const char *method = m->method;
  if (!strcmp(method, "exit")) {
    s->exit_status = s->state == LSP_STATE_SHUTDOWN ? 0 : 1;
    s->done = 1;
    return;
  }
  if (s->state != LSP_STATE_RUNNING)
    return; /* before initialize and after shutdown, notifications are dropped */
  if (!strcmp(method, "initialized"))
    on_initialized(s);
  else if (!strcmp(method, "textDocument/didOpen"))
    on_did_open(s, m->params);
  else if (!strcmp(method, "textDocument/didChange"))
    on_did_change(s, m->params);
  else if (!strcmp(method, "textDocument/didClose"))
    on_did_close(s, m->params);
  else if (!strcmp(method, "workspace/didChangeConfiguration")) {
    apply_settings(s, lsp_get(m->params, "settings"));
    refresh(s, 1);
  } else if (!strcmp(method, "workspace/didChangeWatchedFiles"))
    refresh(s, 1);
  else if (strncmp(method, "$/", 2) && strcmp(method, "textDocument/didSave") &&
           strcmp(method, "workspace/didChangeWorkspaceFolders"))
    logf_(s, "ignored the notification %.100s", method);
}

void lsp_server_handle(lsp_server_t *s, const char *body, size_t len) {
  if (s->done)
    return;
  lsp_message_t m;
  lsp_message_parse(body, len, &m);
  switch (m.kind) {
  case LSP_INVALID:
    logf_(s, "%s", m.error);
    respond_error(s, m.id, m.error_code, m.error);
    break;
  case LSP_RESPONSE:
    break; /* to client/registerCapability: nothing to do either way */
  case LSP_REQUEST:
    refresh(s, 0);
    on_request(s, &m);
    break;
  case LSP_NOTIFICATION:
    refresh(s, 0);
    on_notification(s, &m);
    break;
  }
  lsp_message_free(&m);
}

void lsp_server_bad_frame(lsp_server_t *s, const char *why) {
  logf_(s, "%s", why);
  respond_error(s, NULL, LSP_PARSE_ERROR, why);
}

/*===- the server --------------------------------------------------------------------===*/

lsp_server_t *lsp_server_new(const lsp_server_options_t *o) {
  lsp_server_t *s = calloc(1, sizeof(*s));
  if (!s)
    return NULL;
  s->o = *o;
  s->exit_status = 1;
  s->discover = 1;
  s->enc = LSP_UTF16;
  if (o->source_root && !(s->source_root = absolute(o->source_root))) {
    free(s);
    return NULL;
  }
  for (size_t i = 0; i < o->num_reports; ++i) {
    char *p = absolute(o->reports[i]);
    if (!p || !add_report(s, p, LSP_FROM_COMMAND_LINE)) {
      free(p);
      lsp_server_free(s);
      return NULL;
    }
    free(p);
  }
  return s;
}

void lsp_server_free(lsp_server_t *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->num_reports; ++i)
    report_free(s->reports[i]);
  free(s->reports);
  for (size_t i = 0; i < s->num_docs; ++i)
    doc_free(s->docs[i]);
  free(s->docs);
  for (size_t i = 0; i < s->num_roots; ++i)
    free(s->roots[i]);
  free(s->roots);
  for (size_t i = 0; i < s->num_setting_reports; ++i)
    free(s->setting_reports[i]);
  free(s->setting_reports);
  free(s->source_root);
  free(s);
}

int lsp_server_done(const lsp_server_t *s) { return s->done; }

int lsp_server_exit_status(const lsp_server_t *s) {
  if (!s->done) /* the input ended without "exit": as if it had come */
    return s->state == LSP_STATE_SHUTDOWN ? 0 : 1;
  return s->exit_status;
}
