/*===- attribution_linux.c - source locations from DWARF -----------*- C -*-===*\
|*
|* Maps the return address of an offload call to function, file, line and
|* column with elfutils' libdwfl, in whichever object of the process holds
|* it (so code in shared libraries is found too; each object is reported to
|* libdwfl when first needed, and each address looked up once per report:
|* docs/runtime.md, Source locations). The address looked up is
|* codeptr - 1: the call instruction itself, not the one after it, which can
|* belong to the next source line. The function is the innermost one in the
|* DWARF scopes (inlined functions included); without debug information the
|* ELF symbol is used and file/line stay unknown.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "attribution.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <omp-tools.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <link.h>
#include <unistd.h>

/* libdw (with libelf, zlib, liblzma and libbz2 under it) is loaded only
 * when a report needs a DWARF lookup: a program built with the plugin never
 * does (its region table names every operation), and loading them at
 * start-up cost 0.6 ms of every run; the driver needs it only to rebuild
 * the report of a program that died. */
#define OMPDP_DW_FUNCTIONS(X)                                                                    \
  X(dwarf_attr_integrate) X(dwarf_child) X(dwarf_decl_file) X(dwarf_decl_line) X(dwarf_diename)  \
  X(dwarf_formstring) X(dwarf_getscopes) X(dwarf_getsrc_die) X(dwarf_getsrclines)               \
  X(dwarf_hasattr) X(dwarf_haspc) X(dwarf_lineaddr) X(dwarf_linecol) X(dwarf_lineendsequence)   \
  X(dwarf_lineno) X(dwarf_linesrc) X(dwarf_nextcu) X(dwarf_offdie) X(dwarf_onesrcline)          \
  X(dwarf_siblingof) X(dwarf_tag) X(dwfl_addrmodule) X(dwfl_begin) X(dwfl_end)                  \
  X(dwfl_linux_proc_find_elf) X(dwfl_linux_proc_report) X(dwfl_module_addrdie)                  \
  X(dwfl_module_addrname) X(dwfl_module_getdwarf) X(dwfl_report_begin_add) X(dwfl_report_elf)  \
  X(dwfl_report_end) X(dwfl_standard_find_debuginfo)

static struct {
#define OMPDP_DW_POINTER(f) __typeof__(f) *f;
  OMPDP_DW_FUNCTIONS(OMPDP_DW_POINTER)
#undef OMPDP_DW_POINTER
} libdw_fn;

/* 1 once every function is there; 0 (for good) when libdw is not. */
static int load_libdw(void) {
  static int state; /* 0: not tried, 1: loaded, -1: not there */
  if (state)
    return state > 0;
  state = -1;
  void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return 0;
#define OMPDP_DW_LOOKUP(f)                                                                       \
  if (!(libdw_fn.f = (__typeof__(f) *)dlsym(h, #f)))                                                   \
    return 0;
  OMPDP_DW_FUNCTIONS(OMPDP_DW_LOOKUP)
#undef OMPDP_DW_LOOKUP
  state = 1;
  return 1;
}

#define OMPDP_DW_RENAME(f) libdw_fn.f
#define dwarf_attr_integrate OMPDP_DW_RENAME(dwarf_attr_integrate)
#define dwarf_child OMPDP_DW_RENAME(dwarf_child)
#define dwarf_decl_file OMPDP_DW_RENAME(dwarf_decl_file)
#define dwarf_decl_line OMPDP_DW_RENAME(dwarf_decl_line)
#define dwarf_diename OMPDP_DW_RENAME(dwarf_diename)
#define dwarf_formstring OMPDP_DW_RENAME(dwarf_formstring)
#define dwarf_getscopes OMPDP_DW_RENAME(dwarf_getscopes)
#define dwarf_getsrc_die OMPDP_DW_RENAME(dwarf_getsrc_die)
#define dwarf_getsrclines OMPDP_DW_RENAME(dwarf_getsrclines)
#define dwarf_hasattr OMPDP_DW_RENAME(dwarf_hasattr)
#define dwarf_haspc OMPDP_DW_RENAME(dwarf_haspc)
#define dwarf_lineaddr OMPDP_DW_RENAME(dwarf_lineaddr)
#define dwarf_linecol OMPDP_DW_RENAME(dwarf_linecol)
#define dwarf_lineendsequence OMPDP_DW_RENAME(dwarf_lineendsequence)
#define dwarf_lineno OMPDP_DW_RENAME(dwarf_lineno)
#define dwarf_linesrc OMPDP_DW_RENAME(dwarf_linesrc)
#define dwarf_nextcu OMPDP_DW_RENAME(dwarf_nextcu)
#define dwarf_offdie OMPDP_DW_RENAME(dwarf_offdie)
#define dwarf_onesrcline OMPDP_DW_RENAME(dwarf_onesrcline)
#define dwarf_siblingof OMPDP_DW_RENAME(dwarf_siblingof)
#define dwarf_tag OMPDP_DW_RENAME(dwarf_tag)
#define dwfl_addrmodule OMPDP_DW_RENAME(dwfl_addrmodule)
#define dwfl_begin OMPDP_DW_RENAME(dwfl_begin)
#define dwfl_end OMPDP_DW_RENAME(dwfl_end)
#define dwfl_linux_proc_find_elf OMPDP_DW_RENAME(dwfl_linux_proc_find_elf)
#define dwfl_linux_proc_report OMPDP_DW_RENAME(dwfl_linux_proc_report)
#define dwfl_module_addrdie OMPDP_DW_RENAME(dwfl_module_addrdie)
#define dwfl_module_addrname OMPDP_DW_RENAME(dwfl_module_addrname)
#define dwfl_module_getdwarf OMPDP_DW_RENAME(dwfl_module_getdwarf)
#define dwfl_report_begin_add OMPDP_DW_RENAME(dwfl_report_begin_add)
#define dwfl_report_elf OMPDP_DW_RENAME(dwfl_report_elf)
#define dwfl_report_end OMPDP_DW_RENAME(dwfl_report_end)
#define dwfl_standard_find_debuginfo OMPDP_DW_RENAME(dwfl_standard_find_debuginfo)

static Dwfl *dwfl;
static int dwfl_failed;
static Dwfl_Callbacks callbacks;

static int proc_reported; /* every mapped object reported (the fallback) */

static Dwfl *get_dwfl(void) {
  if (dwfl || dwfl_failed)
    return dwfl;
  if (!load_libdw()) {
    dwfl_failed = 1;
    return NULL;
  }
  callbacks.find_elf = dwfl_linux_proc_find_elf;
  callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
  dwfl = dwfl_begin(&callbacks);
  if (!dwfl)
    dwfl_failed = 1;
  return dwfl;
}

/* The module holding addr. Modules are reported as they are needed, from
 * the dynamic linker's own record of the object (dladdr1: its file and load
 * bias), which costs a few thousand instructions; reading /proc/self/maps
 * for every mapped object up front (dwfl_linux_proc_report) cost about a
 * million (fscanf over a few hundred lines), paid by every report with a
 * finding. An address the dynamic linker does not know falls back to that. */
static ompdp_object_finder_t find_object;

void ompdp_attribution_set_object_finder(ompdp_object_finder_t fn) { find_object = fn; }

static Dwfl_Module *module_at(Dwfl *d, Dwarf_Addr addr) {
  Dwfl_Module *mod = dwfl_addrmodule(d, addr);
  if (mod)
    return mod;
  if (find_object) { /* another process's objects (driver/recover.c) */
    const char *file;
    uint64_t bias;
    if (find_object(addr, &file, &bias))
      return NULL;
    dwfl_report_begin_add(d);
    Dwfl_Module *m = dwfl_report_elf(d, file, file, -1, (GElf_Addr)bias, true);
    dwfl_report_end(d, NULL, NULL);
    return m ? dwfl_addrmodule(d, addr) : NULL;
  }
  Dl_info info;
  struct link_map *lm = NULL;
  char exe[4096];
  if (!proc_reported && dladdr1((void *)(uintptr_t)addr, &info, (void **)&lm, RTLD_DL_LINKMAP) &&
      lm) {
    const char *file = lm->l_name;
    if (!file || !file[0]) { /* the main program */
      ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
      file = n > 0 ? exe : NULL;
      if (n > 0)
        exe[n] = 0;
    }
    if (file) {
      dwfl_report_begin_add(d);
      /* add_p_vaddr: l_addr is the load bias, added to the segments'. */
      Dwfl_Module *m = dwfl_report_elf(d, file, file, -1, (GElf_Addr)lm->l_addr, true);
      dwfl_report_end(d, NULL, NULL);
      mod = m ? dwfl_addrmodule(d, addr) : NULL;
      if (mod)
        return mod;
    }
  }
  if (proc_reported)
    return NULL;
  proc_reported = 1;
  dwfl_report_begin_add(d);
  int rc = dwfl_linux_proc_report(d, getpid());
  if (dwfl_report_end(d, NULL, NULL) != 0 || rc != 0)
    return NULL;
  return dwfl_addrmodule(d, addr);
}

/* The compile unit containing addr. Clang emits no .debug_aranges by
 * default, so dwfl_module_addrdie fails on its output; then scan the units'
 * address ranges. */
static int find_cu(Dwfl_Module *mod, Dwarf_Addr addr, Dwarf_Die *cu, Dwarf_Addr *bias) {
  Dwarf_Die *d = dwfl_module_addrdie(mod, addr, bias);
  if (d) {
    *cu = *d;
    return 1;
  }
  Dwarf *dw = dwfl_module_getdwarf(mod, bias);
  if (!dw)
    return 0;
  Dwarf_Off off = 0, next;
  size_t header;
  while (dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
    if (dwarf_offdie(dw, off + header, cu) && dwarf_haspc(cu, addr - *bias) == 1)
      return 1;
    off = next;
  }
  return 0;
}

/* Name of the innermost subprogram or inlined subroutine around pc. */
static char *scope_function(Dwarf_Die *cu, Dwarf_Addr pc) {
  Dwarf_Die *scopes = NULL;
  int n = dwarf_getscopes(cu, pc, &scopes);
  char *name = NULL;
  for (int i = 0; i < n && !name; ++i) {
    int tag = dwarf_tag(&scopes[i]);
    if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
      continue;
    Dwarf_Attribute attr;
    const char *s = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_name, &attr));
    if (s)
      name = strdup(s);
  }
  free(scopes);
  return name;
}

/* The first line-table row after pc with a real line, searched a bounded
 * distance forward. */
static Dwarf_Line *next_line(Dwarf_Die *cu, Dwarf_Addr pc) {
  Dwarf_Lines *lines;
  size_t n;
  if (dwarf_getsrclines(cu, &lines, &n) != 0)
    return NULL;
  for (size_t i = 0; i < n; ++i) {
    Dwarf_Line *l = dwarf_onesrcline(lines, i);
    Dwarf_Addr a;
    int lineno;
    bool end;
    if (!l || dwarf_lineaddr(l, &a) != 0 || a <= pc)
      continue;
    if (a - pc > 65536 || (dwarf_lineendsequence(l, &end) == 0 && end))
      return NULL;
    if (dwarf_lineno(l, &lineno) == 0 && lineno != 0)
      return l;
  }
  return NULL;
}

/* Functions the compiler made for a construct (the task of a `nowait`
 * target, outlined regions) rather than the user. */
static bool compiler_made(const char *name) {
  return !name || name[0] == '.' || !strncmp(name, "__omp_offloading", 16) ||
         strstr(name, ".omp_outlined") || strstr(name, "omp_outlined_debug__");
}

/* The user function whose body holds line `line` of `file`: the latest
 * declared one at or before it, looked for among the unit's functions and
 * two levels of namespaces and classes. */
static void enclosing_user_function(Dwarf_Die *parent, const char *file, int line,
                                    int depth, int *best_line, char **best) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0)
    return;
  do {
    int tag = dwarf_tag(&child);
    if ((tag == DW_TAG_namespace || tag == DW_TAG_structure_type ||
         tag == DW_TAG_class_type) && depth < 2) {
      enclosing_user_function(&child, file, line, depth + 1, best_line, best);
      continue;
    }
    if (tag != DW_TAG_subprogram || !dwarf_hasattr(&child, DW_AT_low_pc))
      continue;
    const char *name = dwarf_diename(&child);
    const char *decl_file = dwarf_decl_file(&child);
    int decl_line = 0;
    /* elfutils 0.188 cannot resolve decl_file in clang's DWARF 5: then the
     * compile unit is the best file match there is. */
    if (compiler_made(name) || (decl_file && strcmp(decl_file, file)) ||
        dwarf_decl_line(&child, &decl_line) != 0 || decl_line > line || decl_line <= *best_line)
      continue;
    free(*best);
    *best = strdup(name);
    *best_line = decl_line;
  } while (dwarf_siblingof(&child, &child) == 0);
}

static void attribute_dwarf(const void *codeptr, int construct, ompdp_loc_t *loc);

/*===- the construct's own position, from the call's ident_t --------------===*/

/* Clang passes every offload call an ident_t (its first argument) whose
 * psource, with -g, is ";file;function;line;column;;": the directive's
 * own position, which the line table may not have (at -O2 the call sits
 * on rows of line 0, and the next row is the statement after the
 * construct). On x86-64 the argument is loaded with `lea disp32(%rip),
 * %rdi` shortly before the call: the last such instruction in the bytes
 * before the return address points at it. Everything read is first
 * checked to lie in the loaded segments of the object that holds the
 * call, so a false match reads nothing it should not. */
#define IDENT_WINDOW 96 /* bytes before the return address searched */
#define MAX_SEGS 16

typedef struct object_segs {
  uintptr_t pc;
  int found;
  size_t n;
  uintptr_t lo[MAX_SEGS], hi[MAX_SEGS];
} object_segs_t;

static int find_segs(struct dl_phdr_info *info, size_t size, void *data) {
  object_segs_t *o = data;
  size_t n = 0;
  int here = 0;
  (void)size;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && n < MAX_SEGS; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    o->lo[n] = info->dlpi_addr + ph->p_vaddr;
    o->hi[n] = o->lo[n] + ph->p_memsz;
    here |= o->pc >= o->lo[n] && o->pc < o->hi[n];
    ++n;
  }
  if (!here)
    return 0;
  o->n = n;
  o->found = 1;
  return 1;
}

/* How many bytes from a on lie in one segment (0: none). */
static size_t room(const object_segs_t *o, uintptr_t a) {
  for (size_t i = 0; i < o->n; ++i)
    if (a >= o->lo[i] && a < o->hi[i])
      return o->hi[i] - a;
  return 0;
}

static int parse_uint(const char **p, uint32_t *out) {
  uint64_t v = 0;
  const char *s = *p;
  if (*s < '0' || *s > '9')
    return -1;
  while (*s >= '0' && *s <= '9' && v <= UINT32_MAX)
    v = v * 10 + (uint64_t)(*s++ - '0');
  if (v > UINT32_MAX)
    return -1;
  *out = (uint32_t)v;
  *p = s;
  return 0;
}

/* ";file;function;line;column;;" at s: the file and function (malloc'd),
 * line, column. 0, or -1 when s holds something else
 * (";unknown;unknown;0;0;;" without -g). */
static int parse_psource(const object_segs_t *o, uintptr_t s, char **file, char **func,
                         uint32_t *line, uint32_t *col) {
  size_t n = room(o, s);
  const char *t = (const char *)s;
  if (n > 4096)
    n = 4096;
  if (!n || !memchr(t, '\0', n) || t[0] != ';')
    return -1;
  const char *f = t + 1, *fe = strchr(f, ';');
  const char *fn = fe ? strchr(fe + 1, ';') : NULL;
  if (!fe || fe == f || !fn)
    return -1;
  const char *p = fn + 1;
  if (parse_uint(&p, line) || *p++ != ';' || parse_uint(&p, col) || strcmp(p, ";;") ||
      *line == 0)
    return -1;
  *file = strndup(f, (size_t)(fe - f));
  *func = fn > fe + 1 ? strndup(fe + 1, (size_t)(fn - fe - 1)) : NULL;
  if (*file && (fn == fe + 1 || *func))
    return 0;
  free(*file);
  free(*func);
  return -1;
}

static int ident_position(const void *codeptr, char **file, char **func, uint32_t *line,
                          uint32_t *col) {
#if defined(__x86_64__)
  object_segs_t o = {.pc = (uintptr_t)codeptr - 1};
  uintptr_t end = (uintptr_t)codeptr;
  if (find_object || end < IDENT_WINDOW) /* another process's code is not here */
    return -1;
  dl_iterate_phdr(find_segs, &o);
  if (!o.found || room(&o, end - IDENT_WINDOW) < IDENT_WINDOW)
    return -1;
  const unsigned char *p = (const unsigned char *)(end - IDENT_WINDOW);
  for (int i = IDENT_WINDOW - 7; i >= 0; --i) {
    if (p[i] != 0x48 || p[i + 1] != 0x8d || p[i + 2] != 0x3d) /* lea disp32(%rip), %rdi */
      continue;
    int32_t disp;
    memcpy(&disp, p + i + 3, sizeof(disp));
    uintptr_t ident = end - IDENT_WINDOW + (uintptr_t)i + 7 + (uintptr_t)(intptr_t)disp;
    struct {
      int32_t reserved_1, flags, reserved_2, reserved_3;
      const char *psource;
    } id;
    if (room(&o, ident) < sizeof(id))
      continue;
    memcpy(&id, (const void *)ident, sizeof(id));
    if (parse_psource(&o, (uintptr_t)id.psource, file, func, line, col) == 0)
      return 0;
  }
#else
  (void)codeptr;
  (void)file;
  (void)func;
  (void)line;
  (void)col;
#endif
  return -1;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* The directive's position as the call's ident_t gives it (ident_position,
 * parsed once per call site). */
typedef struct ident {
  char *file, *func; /* malloc'd */
  uint32_t line, col;
} ident_t;

/* Whether the ident_t is the whole answer, DWARF could add nothing to it:
 * C (no template arguments to add to the function's name), a file named by
 * its full path (DWARF would give the same path: the compile directory adds
 * nothing to it), a function that is the user's. Then libdw is never
 * loaded: loading it and the libraries it needs, and reading the unit, cost
 * 0.4 ms of a short run's 1 (benchmarks/results-host.md, issue 30). */
static int ident_is_whole(const ident_t *id) {
  size_t fl = strlen(id->file);
  return id->file[0] == '/' && fl >= 3 && !strcmp(id->file + fl - 2, ".c") && id->func &&
         !compiler_made(id->func);
}

/* The directive's own line and column where the call's ident_t has them;
 * the file stays DWARF's (a full path) when it names the same one, and the
 * function DWARF's when it is the ident's with template arguments (DWARF's
 * innermost scope may be a function inlined before the call instead).
 * Takes id's strings. */
static void ident_fix(ident_t *id, ompdp_loc_t *loc) {
  size_t fl = id->func ? strlen(id->func) : 0;
  if (id->func && (!loc->function || strncmp(loc->function, id->func, fl) ||
                   (loc->function[fl] && loc->function[fl] != '<'))) {
    free(loc->function);
    loc->function = id->func;
  } else {
    free(id->func);
  }
  if (!loc->file || strcmp(base_name(loc->file), base_name(id->file))) {
    free(loc->file);
    loc->file = id->file;
  } else {
    free(id->file);
  }
  loc->line = id->line;
  loc->column = id->col;
}

/* The report asks for the same call site several times (a finding's site
 * and the related site of another, one site per finding kind): the answers
 * are kept until ompdp_attribution_done. A DWARF lookup costs tens of
 * thousands of instructions (dwarf_getscopes walks the unit), a hit a few. */
#define MEMO_MAX 256
typedef struct memo {
  const void *codeptr;
  int construct;
  ompdp_loc_t loc;
} memo_t;
static memo_t memo[MEMO_MAX];
static size_t memo_n;

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

void ompdp_attribute(const void *codeptr, int construct, ompdp_loc_t *loc) {
  memset(loc, 0, sizeof(*loc));
  if (!codeptr)
    return;
  for (size_t i = 0; i < memo_n; ++i)
    if (memo[i].codeptr == codeptr && memo[i].construct == construct) {
      *loc = memo[i].loc;
      loc->function = dup_or_null(memo[i].loc.function);
      loc->file = dup_or_null(memo[i].loc.file);
      return;
    }
  ident_t id = {0};
  int have_id = ident_position(codeptr, &id.file, &id.func, &id.line, &id.col) == 0;
  if (!have_id || !ident_is_whole(&id))
    attribute_dwarf(codeptr, construct, loc);
  if (have_id)
    ident_fix(&id, loc); /* with no DWARF answer: the ident's own */
  if (memo_n < MEMO_MAX) {
    memo_t *m = &memo[memo_n];
    m->codeptr = codeptr;
    m->construct = construct;
    m->loc = *loc;
    m->loc.function = dup_or_null(loc->function);
    m->loc.file = dup_or_null(loc->file);
    if ((!loc->function || m->loc.function) && (!loc->file || m->loc.file)) {
      ++memo_n;
    } else { /* out of memory: not kept */
      free(m->loc.function);
      free(m->loc.file);
    }
  }
}

/* A line table's file as a path that names it from anywhere: one given
 * relative to the compile directory (`clang -g ./x.c` writes `./x.c`)
 * joined to the unit's DW_AT_comp_dir. */
static char *full_path(Dwarf_Die *cu, const char *file) {
  Dwarf_Attribute attr;
  const char *dir;
  if (file[0] == '/' || !(dir = dwarf_formstring(dwarf_attr_integrate(cu, DW_AT_comp_dir, &attr))) ||
      dir[0] != '/')
    return strdup(file);
  while (file[0] == '.' && file[1] == '/')
    file += 2;
  size_t dl = strlen(dir);
  while (dl > 1 && dir[dl - 1] == '/')
    --dl;
  size_t len = dl + strlen(file) + 2;
  char *p = malloc(len);
  if (p)
    snprintf(p, len, "%.*s/%s", (int)dl, dir, file);
  return p;
}

static void attribute_dwarf(const void *codeptr, int construct, ompdp_loc_t *loc) {
  Dwfl *d = get_dwfl();
  if (!d)
    return;
  Dwarf_Addr addr = (Dwarf_Addr)(uintptr_t)codeptr - 1;
  Dwfl_Module *mod = module_at(d, addr);
  if (!mod)
    return;
  Dwarf_Die cu;
  Dwarf_Addr bias = 0;
  if (find_cu(mod, addr, &cu, &bias)) {
    Dwarf_Addr pc = addr - bias;
    loc->function = scope_function(&cu, pc);
    /* What clang-19 emits: the call of a data construct (enter/exit data,
     * update, target data) is on its pragma's row. The call that launches a
     * kernel carries the previous statement's row, or line 0, and the row
     * right after it is the pragma's. */
    Dwarf_Line *line = dwarf_getsrc_die(&cu, pc);
    int lineno = 0, col = 0;
    bool launch = construct == ompt_target || construct == ompt_target_nowait;
    if (launch || (line && dwarf_lineno(line, &lineno) == 0 && lineno == 0))
      line = next_line(&cu, pc);
    const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
    if (file) {
      dwarf_lineno(line, &lineno);
      dwarf_linecol(line, &col);
      loc->file = full_path(&cu, file);
      loc->line = lineno > 0 ? (uint32_t)lineno : 0;
      loc->column = col > 0 ? (uint32_t)col : 0;
      if (compiler_made(loc->function)) {
        int best_line = 0;
        char *best = NULL;
        enclosing_user_function(&cu, file, lineno, 0, &best_line, &best);
        if (best) {
          free(loc->function);
          loc->function = best;
        }
      }
    }
  }
  if (!loc->function) {
    const char *sym = dwfl_module_addrname(mod, addr);
    if (sym)
      loc->function = strdup(sym);
  }
}

void ompdp_attribution_done(void) {
  for (size_t i = 0; i < memo_n; ++i) {
    free(memo[i].loc.function);
    free(memo[i].loc.file);
  }
  memo_n = 0;
  if (dwfl)
    dwfl_end(dwfl);
  dwfl = NULL;
  dwfl_failed = 0;
  proc_reported = 0;
}
