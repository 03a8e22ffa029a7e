/*===- attribution_linux.c - source locations from DWARF -----------*- C -*-===*\
|*
|* Maps the return address of an offload call to function, file, line and
|* column with elfutils' libdwfl, over every object mapped in this process
|* (so code in shared libraries is found too). The address looked up is
|* codeptr - 1: the call instruction itself, not the one after it, which can
|* belong to the next source line. The function is the innermost one in the
|* DWARF scopes (inlined functions included); without debug information the
|* ELF symbol is used and file/line stay unknown.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp_rt.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <omp-tools.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Dwfl *dwfl;
static int dwfl_failed;

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

static Dwfl *get_dwfl(void) {
  if (dwfl || dwfl_failed)
    return dwfl;
  dwfl = dwfl_begin(&callbacks);
  if (!dwfl || dwfl_linux_proc_report(dwfl, getpid()) != 0 ||
      dwfl_report_end(dwfl, NULL, NULL) != 0) {
    if (dwfl)
      dwfl_end(dwfl);
    dwfl = NULL;
    dwfl_failed = 1;
  }
  return dwfl;
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

void ompdp_attribute(const void *codeptr, int construct, ompdp_loc_t *loc) {
  memset(loc, 0, sizeof(*loc));
  if (!codeptr)
    return;
  Dwfl *d = get_dwfl();
  if (!d)
    return;
  Dwarf_Addr addr = (Dwarf_Addr)(uintptr_t)codeptr - 1;
  Dwfl_Module *mod = dwfl_addrmodule(d, addr);
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
      loc->file = strdup(file);
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
  if (dwfl)
    dwfl_end(dwfl);
  dwfl = NULL;
  dwfl_failed = 0;
}
