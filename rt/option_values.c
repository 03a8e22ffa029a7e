/*===- option_values.c - what each runtime option may be set to ---*- C -*-===*\
|*
|* The rules of the values of options.inc, in one place for the two that
|* apply them: the runtime's parser of OMPDP_OPTIONS (options.c), which
|* reports a bad value and goes on with the default, and `ompdp run`, which
|* checks each --option with these rules and refuses a bad one before the
|* program starts (driver/run.c), in the same words. A number option takes
|* 0 to 1000000 or true/false (yes/no, on/off); an option of a few words,
|* one of them. Nothing here has state: the driver holds this file and not
|* the runtime's parser (docs/architecture.md, What each library holds).
|*
\*===----------------------------------------------------------------------===*/
#include "ompdp_rt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ompdp_option_shown(const char *text, size_t len, char buf[80]) {
  size_t j = 0;
  for (size_t i = 0; i < len && text[i]; ++i) {
    if (j == 64) {
      memcpy(buf + j, "...", 3);
      j += 3;
      break;
    }
    unsigned char c = (unsigned char)text[i];
    buf[j++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
  }
  buf[j] = '\0';
  return buf;
}

int ompdp_option_int(const char *value, int *out) {
  static const char *const yes[] = {"1", "true", "yes", "on"};
  static const char *const no[] = {"0", "false", "no", "off"};
  for (size_t i = 0; i < 4; ++i) {
    if (!strcmp(value, yes[i]) || !strcmp(value, no[i])) {
      *out = !strcmp(value, yes[i]);
      return 0;
    }
  }
  char *end;
  errno = 0;
  long l = strtol(value, &end, 10);
  if (!*value || *end || errno || l < 0 || l > 1000000)
    return -1;
  *out = (int)l;
  return 0;
}

/* The options of a few words; the first is the default. */
static const struct {
  const char *name, *words[5], *text;
} Words[] = {
    {"mode", {"stream", "full", "check", NULL}, "stream, full or check"},
    {"timeline", {"bounded", "full", "off", NULL}, "bounded, full or off"},
    {"hash_isa", {"auto", "avx512", "avx2", "portable", NULL}, "auto, avx512, avx2 or portable"},
};

const char *ompdp_option_words(const char *name, const char **first) {
  for (size_t i = 0; i < sizeof(Words) / sizeof(Words[0]); ++i)
    if (!strcmp(name, Words[i].name)) {
      if (first)
        *first = Words[i].words[0];
      return Words[i].text;
    }
  return NULL;
}

int ompdp_option_word_ok(const char *name, const char *value) {
  for (size_t i = 0; i < sizeof(Words) / sizeof(Words[0]); ++i)
    if (!strcmp(name, Words[i].name)) {
      for (size_t w = 0; Words[i].words[w]; ++w)
        if (!strcmp(value, Words[i].words[w]))
          return 1;
      return 0;
    }
  return 1;
}

int ompdp_option_check(const char *name, const char *value, char *err, size_t errlen) {
  char shown[80];
  int is_int = -1, v;
#define OMPDP_OPTION(Type, Name, Default, Description)                                          \
  if (!strcmp(name, #Name))                                                                     \
    is_int = _Generic((Type)0, int: 1, default: 0);
#include "options.inc"
  if (is_int < 0) {
    snprintf(err, errlen, "unknown option '%s'", ompdp_option_shown(name, SIZE_MAX, shown));
    return -1;
  }
  if (is_int && ompdp_option_int(value, &v)) {
    snprintf(err, errlen, "option '%s' wants a number or true/false, not '%s'", name,
             ompdp_option_shown(value, SIZE_MAX, shown));
    return -1;
  }
  if (!ompdp_option_word_ok(name, value)) {
    snprintf(err, errlen, "option '%s' wants %s, not '%s'", name,
             ompdp_option_words(name, NULL), ompdp_option_shown(value, SIZE_MAX, shown));
    return -1;
  }
  return 0;
}
