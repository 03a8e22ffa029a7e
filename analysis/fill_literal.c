//===- fill_literal.c - one value of an element type, as a C literal -----===//
//
// A fill on the device writes the value every copy in held. Written byte
// by byte, its text depends on the element type's size and bytes, so the
// instances of a template (`T` float in one, double in the other) each need
// a text of their own, which one edit of the template cannot be. Written as
// a literal assigned to the element (`zi[i] = 1;`), the text is the same
// wherever the value is: the conversion to the element type gives the
// bytes back exactly, which is checked here, not assumed.
//
//===----------------------------------------------------------------------===//
#include "rewrite_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum lit_kind { LIT_NONE, LIT_FLOAT, LIT_DOUBLE, LIT_SIGNED, LIT_UNSIGNED, LIT_CHAR };

/* The kind of a scalar type's spelling as the region table records it
 * (the canonical type: `float`, `unsigned int`, `long`, `_Bool`). Typedef
 * names a header gives are checked by their size below. */
static enum lit_kind kind_of(const char *t, uint32_t size) {
  if (!strncmp(t, "const ", 6))
    t += 6;
  if (!strcmp(t, "float"))
    return size == 4 ? LIT_FLOAT : LIT_NONE;
  if (!strcmp(t, "double"))
    return size == 8 ? LIT_DOUBLE : LIT_NONE;
  if (!strcmp(t, "char"))
    return LIT_CHAR; /* signed or not by the target: no high bit below */
  if (!strcmp(t, "_Bool") || !strcmp(t, "bool"))
    return LIT_UNSIGNED;
  static const char *const sign[] = {"signed char", "short", "int", "long", "long long",
                                     "int8_t", "int16_t", "int32_t", "int64_t", "ptrdiff_t",
                                     "ssize_t", "intptr_t"};
  static const char *const unsign[] = {"unsigned char", "unsigned short", "unsigned int",
                                       "unsigned long", "unsigned long long", "uint8_t",
                                       "uint16_t", "uint32_t", "uint64_t", "size_t",
                                       "uintptr_t"};
  for (size_t i = 0; i < sizeof(sign) / sizeof(sign[0]); ++i)
    if (!strcmp(t, sign[i]))
      return LIT_SIGNED;
  for (size_t i = 0; i < sizeof(unsign) / sizeof(unsign[0]); ++i)
    if (!strcmp(t, unsign[i]))
      return LIT_UNSIGNED;
  return LIT_NONE;
}

/* The shortest decimal text of a finite, nonzero float or double that
 * converts back to the same bits, as a double literal converted to the
 * element's type does; 0 when none within the type's digits. */
static int decimal(double v, int as_float, char *out, size_t size) {
  for (int prec = 1; prec <= (as_float ? 9 : 17); ++prec) {
    snprintf(out, size, "%.*g", prec, v);
    double back = strtod(out, NULL);
    if (as_float ? (float)back == (float)v : back == v)
      return 1;
  }
  return 0;
}

int ompdp_fill_literal(const char *type, uint32_t elem_size, uint64_t pattern, uint32_t period,
                       char *out, size_t size) {
  if (!type || !out || size < 32 || !period ||
      !(elem_size == 1 || elem_size == 2 || elem_size == 4 || elem_size == 8) ||
      elem_size % period)
    return 0;
  enum lit_kind k = kind_of(type, elem_size);
  uint64_t bits = elem_size == 8 ? pattern : pattern & ((1ULL << (8 * elem_size)) - 1);
  switch (k) {
  case LIT_NONE:
    return 0;
  case LIT_FLOAT: {
    float f;
    uint32_t b = (uint32_t)bits;
    memcpy(&f, &b, sizeof(f));
    /* Zero has a fill of its own; -0.0, infinities and NaNs keep bytes. */
    return isfinite(f) && f != 0.0f && decimal(f, 1, out, size);
  }
  case LIT_DOUBLE: {
    double d;
    memcpy(&d, &bits, sizeof(d));
    return isfinite(d) && d != 0.0 && decimal(d, 0, out, size);
  }
  case LIT_CHAR:
    if (bits & 0x80)
      return 0;
    snprintf(out, size, "%u", (unsigned)bits);
    return 1;
  case LIT_SIGNED: {
    unsigned shift = 64 - 8 * elem_size;
    int64_t v = (int64_t)(bits << shift) >> shift;
    if (v == INT64_MIN)
      return 0; /* no literal spells it */
    snprintf(out, size, "%lld", (long long)v);
    return 1;
  }
  case LIT_UNSIGNED:
    if ((!strcmp(type, "_Bool") || !strcmp(type, "bool")) && bits > 1)
      return 0; /* not a value a bool holds */
    snprintf(out, size, "%llu%s", (unsigned long long)bits, bits > INT64_MAX ? "ULL" : "");
    return 1;
  }
  return 0;
}
