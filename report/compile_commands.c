/*===- compile_commands.c - how the edited files were compiled -----------===*\
|*
|* A report whose findings carry rewrites also says how each edited file was
|* compiled, as the plugin recorded it in the region table: the working
|* directory and the compile as a syntax check (the compiler, then its
|* arguments). `ompdp fix --apply` runs it on every file it changed and takes
|* back the rewrites that make a file fail (driver/fix_verify.c). The JSON
|* member is "compile_commands", shaped like compile_commands.json entries
|* (file, directory, arguments); readers that predate it skip it.
|*
\*===----------------------------------------------------------------------===*/
#include "report.h"

#include <stdlib.h>
#include <string.h>

static int same(const ompdp_compile_command_t *c, const char *file, const char *dir,
                const char *lines) {
  if (strcmp(c->file, file) || strcmp(c->directory, dir))
    return 0;
  for (size_t i = 0; i < c->num_arguments; ++i) {
    size_t n = strlen(c->arguments[i]);
    if (strncmp(lines, c->arguments[i], n))
      return 0;
    lines += n;
    if (i + 1 < c->num_arguments) {
      if (*lines != '\n')
        return 0;
      ++lines;
    }
  }
  return *lines == '\0';
}

int ompdp_report_add_compile_command(ompdp_report_t *r, const char *file, const char *directory,
                                     const char *args_lines) {
  if (!file || !*file || !directory || !*directory || !args_lines || !*args_lines)
    return 0;
  for (size_t i = 0; i < r->num_compile_commands; ++i)
    if (same(&r->compile_commands[i], file, directory, args_lines))
      return 0;
  ompdp_compile_command_t *n =
      realloc(r->compile_commands, (r->num_compile_commands + 1) * sizeof(*n));
  if (!n)
    return -1;
  r->compile_commands = n;
  ompdp_compile_command_t *c = &n[r->num_compile_commands];
  memset(c, 0, sizeof(*c));
  size_t count = 1;
  for (const char *p = args_lines; *p; ++p)
    count += *p == '\n';
  c->file = ompdp_strdup(file);
  c->directory = ompdp_strdup(directory);
  c->arguments = calloc(count, sizeof(*c->arguments));
  int bad = !c->file || !c->directory || !c->arguments;
  for (const char *p = args_lines; !bad && c->num_arguments < count;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char *a = malloc(len + 1);
    if (!a) {
      bad = 1;
      break;
    }
    memcpy(a, p, len);
    a[len] = '\0';
    c->arguments[c->num_arguments++] = a;
    if (!e)
      break;
    p = e + 1;
  }
  r->num_compile_commands++; /* owned now, freed with the report */
  return bad ? -1 : 0;
}

void ompdp_compile_commands_free(ompdp_report_t *r) {
  for (size_t i = 0; i < r->num_compile_commands; ++i) {
    ompdp_compile_command_t *c = &r->compile_commands[i];
    free(c->file);
    free(c->directory);
    for (size_t j = 0; j < c->num_arguments; ++j)
      free(c->arguments[j]);
    free(c->arguments);
  }
  free(r->compile_commands);
  r->compile_commands = NULL;
  r->num_compile_commands = 0;
}

void ompdp_json_put_compile_commands(FILE *out, const ompdp_report_t *r) {
  if (!r->num_compile_commands)
    return;
  fputs(",\n  \"compile_commands\": [", out);
  for (size_t i = 0; i < r->num_compile_commands; ++i) {
    const ompdp_compile_command_t *c = &r->compile_commands[i];
    fputs(i ? ",\n    {\"file\": " : "\n    {\"file\": ", out);
    ompdp_json_put_string(out, c->file);
    fputs(", \"directory\": ", out);
    ompdp_json_put_string(out, c->directory);
    fputs(", \"arguments\": [", out);
    for (size_t j = 0; j < c->num_arguments; ++j) {
      fputs(j ? ", " : "", out);
      ompdp_json_put_string(out, c->arguments[j]);
    }
    fputs("]}", out);
  }
  fputs("\n  ]", out);
}
