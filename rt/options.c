/*===- options.c - OMPDP_OPTIONS parsing ---------------------------*- C -*-===*\
|*
|* Options come from one string of space-separated name=value pairs, described
|* by options.inc. A value may be double-quoted, with \" and \\ escapes, so
|* that paths with spaces survive. Unknown names are reported, never ignored
|* silently. The text comes from the environment of any program ompdp is
|* loaded into, so it is hostile input: errors quote it shortened and with
|* control characters replaced, and an error never undoes or skips the
|* checks of the settings that came before it.
|*
\*===----------------------------------------------------------------------===*/
#include "ompdp_rt.h"
#include "report_formats.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ompdp_options_t ompdp_opts;

/* Strings allocated by the parser, freed on reset. */
static char *owned[32];
static size_t num_owned;

void ompdp_options_free(void) {
  for (size_t i = 0; i < num_owned; ++i)
    free(owned[i]);
  num_owned = 0;
}

void ompdp_options_reset(void) {
  ompdp_options_free();
#define OMPDP_OPTION(Type, Name, Default, Description) ompdp_opts.Name = Default;
#include "options.inc"
}

/* Untrusted text for a message: printable ASCII only, at most 64 bytes
 * (option_values.c). */
typedef struct shown {
  char s[80];
} shown_t;

static shown_t show(const char *text, size_t len) {
  shown_t out;
  ompdp_option_shown(text, len, out.s);
  return out;
}

/* Setters by type; each takes ownership of value. A value is checked by the
 * rules that `ompdp run --option` checks it by (option_values.c). */
static int set_int(void *dst, const char *name, char *value) {
  int rc = 0;
  if (ompdp_option_int(value, (int *)dst)) {
    fprintf(stderr, "ompdp: option '%s' wants a number or true/false, not '%s'\n", name,
            show(value, SIZE_MAX).s);
    rc = -1;
  }
  free(value);
  return rc;
}

static int set_str(void *dst, const char *name, char *value) {
  if (num_owned == sizeof(owned) / sizeof(owned[0])) {
    fprintf(stderr, "ompdp: too many settings in OMPDP_OPTIONS (at '%s')\n", name);
    free(value);
    return -1;
  }
  owned[num_owned++] = value;
  *(const char **)dst = value;
  return 0;
}

static int apply(const char *name, char *value) {
#define OMPDP_OPTION(Type, Name, Default, Description)                         \
  if (!strcmp(name, #Name))                                                    \
    return _Generic(ompdp_opts.Name, int: set_int, default: set_str)(          \
        &ompdp_opts.Name, #Name, value);
#include "options.inc"
  static const char known[] =
#define OMPDP_OPTION(Type, Name, Default, Description) " " #Name
#include "options.inc"
      ;
  fprintf(stderr, "ompdp: unknown option '%s' in OMPDP_OPTIONS (known:%s)\n",
          show(name, SIZE_MAX).s, known);
  free(value);
  return -1;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }

int ompdp_options_parse(const char *text) {
  int rc = 0;
  const char *p = text ? text : "";
  for (;;) {
    while (is_space(*p))
      ++p;
    if (!*p)
      break;
    const char *name = p;
    while (*p && *p != '=' && !is_space(*p))
      ++p;
    size_t name_len = (size_t)(p - name);
    if (*p != '=' || name_len == 0 || name_len > 64) {
      fprintf(stderr, "ompdp: malformed OMPDP_OPTIONS item near '%s' (want name=value)\n",
              show(name, name_len ? name_len : 1).s);
      rc = -1;
      while (*p && !is_space(*p))
        ++p;
      continue;
    }
    char name_buf[65];
    memcpy(name_buf, name, name_len);
    name_buf[name_len] = 0;
    ++p; /* '=' */
    /* The value: quoted with escapes, or up to the next space. */
    size_t cap = strlen(p) + 1;
    char *value = malloc(cap);
    if (!value) {
      rc = -1;
      break;
    }
    size_t n = 0;
    if (*p == '"') {
      ++p;
      while (*p && *p != '"') {
        if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
          ++p;
        value[n++] = *p++;
      }
      if (*p != '"') {
        fprintf(stderr, "ompdp: unterminated quote in OMPDP_OPTIONS value of '%s'\n",
                show(name_buf, SIZE_MAX).s);
        free(value);
        rc = -1;
        break; /* what came before still applies, and is still checked */
      }
      ++p;
    } else {
      while (*p && !is_space(*p))
        value[n++] = *p++;
    }
    value[n] = 0;
    if (apply(name_buf, value))
      rc = -1;
  }
  /* The options whose value is one of a few words. The runtime goes on with
   * the default; `ompdp run` refuses the run before the program starts. */
  static const char *const Worded[] = {"mode", "timeline", "hash_isa"};
  const char **const WordedValue[] = {&ompdp_opts.mode, &ompdp_opts.timeline,
                                      &ompdp_opts.hash_isa};
  for (size_t i = 0; i < sizeof(Worded) / sizeof(Worded[0]); ++i) {
    const char *first;
    if (ompdp_option_word_ok(Worded[i], *WordedValue[i]))
      continue;
    const char *words = ompdp_option_words(Worded[i], &first);
    fprintf(stderr, "ompdp: option '%s' wants %s, not '%s'; using %s\n", Worded[i], words,
            show(*WordedValue[i], SIZE_MAX).s, first);
    *WordedValue[i] = first;
    rc = -1;
  }
  /* The formats the runtime writes (report/report_formats.inc). */
  ompdp_report_format_t f;
  char list[64];
  ompdp_report_format_list(list, sizeof(list), OMPDP_RF_RUNTIME, ", ", " or ");
  if (ompdp_report_format_parse(ompdp_opts.format, OMPDP_RF_RUNTIME, &f)) {
    fprintf(stderr, "ompdp: option 'format' wants %s, not '%s'; using %s\n", list,
            show(ompdp_opts.format, SIZE_MAX).s, ompdp_report_format_name(OMPDP_RF_TEXT));
    ompdp_opts.format = ompdp_report_format_name(OMPDP_RF_TEXT);
    rc = -1;
  }
  if (ompdp_report_format_parse(ompdp_opts.final_format, OMPDP_RF_RUNTIME, &f)) {
    fprintf(stderr, "ompdp: option 'final_format' wants %s, not '%s'; no finished report is "
                    "written\n",
            list, show(ompdp_opts.final_format, SIZE_MAX).s);
    ompdp_opts.final = "";
    rc = -1;
  }
  if (ompdp_opts.device_hash > 2 || ompdp_opts.device_sync > 1 ||
      ompdp_opts.device_hash_min_kb < 256) {
    fprintf(stderr, "ompdp: option device_hash wants 0, 1 or 2, device_sync 0 or 1, "
                    "device_hash_min_kb 256 or more; the host hashes every transfer\n");
    ompdp_opts.device_hash = 0;
    ompdp_opts.device_hash_min_kb = 2048;
    ompdp_opts.device_sync = ompdp_opts.device_sync > 1 ? 1 : ompdp_opts.device_sync;
    rc = -1;
  }
  return rc;
}
