/*===- plan_json.c - the planner's input, written as JSON ------------*- C -*-===*\
|*
|* The "plan" member of a runtime's report (report.h, OmpdpFormat.inc):
|* every field of every site, buffer and region record, one site or record
|* per line, named as the X-macro tables name them. Region records write
|* their enums as spellings and 64-bit values as hex strings, as the rest of
|* the report does.
|*
\*===----------------------------------------------------------------------===*/
#include "report.h"

#include <inttypes.h>
#include <stdio.h>

static void put_signed(FILE *out, const char *name, int64_t v) {
  fprintf(out, "\"%s\": %" PRId64, name, v);
}
static void put_unsigned(FILE *out, const char *name, uint64_t v) {
  fprintf(out, "\"%s\": %" PRIu64, name, v);
}

static void put_site(FILE *out, const ompdp_plan_site_t *s) {
  const char *sep = "{";
#define OMPDP_PLAN_SITE_FIELD(Type, Name, Desc)                                                   \
  fputs(sep, out);                                                                               \
  sep = ", ";                                                                                    \
  _Generic(s->Name, int32_t: put_signed, default: put_unsigned)(out, #Name, s->Name);
#include "ompdp/OmpdpFormat.inc"
  fputc('}', out);
}

static void put_buf(FILE *out, const ompdp_plan_buf_t *b) {
  fprintf(out, "{\"device\": %" PRId32 ", \"sites\": ", b->device);
  if (b->num_sites < 0) {
    fputs("null}", out);
    return;
  }
  fputc('[', out);
  for (int32_t i = 0; i < b->num_sites && i < OMPDP_PLAN_BUF_SITES; ++i)
    fprintf(out, "%s%" PRIu32, i ? ", " : "", b->sites[i]);
  fputs("]}", out);
}

/* One field of a region record, by its kind. */
#define PUT_U32(Name) fprintf(out, ", \"%s\": %" PRIu32, #Name, it->Name);
#define PUT_U64(Name) fprintf(out, ", \"%s\": \"%016" PRIx64 "\"", #Name, it->Name);
#define PUT_INT(Name) fprintf(out, ", \"%s\": %d", #Name, it->Name);
#define PUT_STR(Name)                                                                             \
  fprintf(out, ", \"%s\": ", #Name);                                                             \
  ompdp_json_put_string(out, it->Name ? it->Name : "");
#define PUT_SPELLING(Name, Spell)                                                                 \
  fprintf(out, ", \"%s\": ", #Name);                                                             \
  ompdp_json_put_string(out, Spell(it->Name));
#define PUT_CONSTRUCT(Name) PUT_SPELLING(Name, ompdp_construct_kind_name)
#define PUT_LOOP(Name) PUT_SPELLING(Name, ompdp_loop_kind_name)
#define PUT_MAP_TYPE(Name) PUT_SPELLING(Name, ompdp_map_type_name)
#define PUT_ACCESS(Name) PUT_SPELLING(Name, ompdp_access_name)

static void put_region_fields(FILE *out, const ompdp_region_info_t *it) {
#define OMPDP_VIEW_REGION_FIELD(Kind, Name, Desc) PUT_##Kind(Name)
#include "ompdp/OmpdpFormat.inc"
  fputs(", \"exits\": [", out);
  for (uint32_t k = 0; k < it->num_exits; ++k) {
    const ompdp_exit_t *x = &it->exits[k];
    const char *sep = "{";
#define OMPDP_EXIT_FIELD(Type, Name, Desc)                                                        \
  fprintf(out, "%s\"%s\": %" PRIu64, sep, #Name, (uint64_t)x->Name);                             \
  sep = ", ";
#include "ompdp/OmpdpFormat.inc"
    fputs(k + 1 < it->num_exits ? "}, " : "}", out);
  }
  fputc(']', out);
}

static void put_item(FILE *out, const ompdp_region_info_t *it) {
  fputs("{\"host_accesses\": [", out);
  for (uint32_t k = 0; k < it->num_host_accesses; ++k) {
    const ompdp_host_access_t *h = &it->host_accesses[k];
    const char *sep = "{";
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc)                                                 \
  fprintf(out, "%s\"%s\": %" PRIu64, sep, #Name, (uint64_t)h->Name);                             \
  sep = ", ";
#include "ompdp/OmpdpFormat.inc"
    fputs(k + 1 < it->num_host_accesses ? "}, " : "}", out);
  }
  fputc(']', out);
#define OMPDP_VIEW_ITEM_FIELD(Kind, Name, Desc) PUT_##Kind(Name)
#include "ompdp/OmpdpFormat.inc"
  fputc('}', out);
}

void ompdp_plan_write_json(const ompdp_plan_t *p, FILE *out) {
  fprintf(out, "  \"plan\": {\n    \"host_device\": %" PRId32 ",\n    \"tick_mult\": %" PRIu64
               ",\n    \"sites\": [",
          p->host_device, p->tick_mult);
  for (size_t i = 0; i < p->num_sites; ++i) {
    fputs(i ? ",\n      " : "\n      ", out);
    put_site(out, &p->sites[i]);
  }
  fputs(p->num_sites ? "\n    ],\n    \"buffers\": [" : "],\n    \"buffers\": [", out);
  for (size_t i = 0; i < p->num_bufs; ++i) {
    fputs(i ? ",\n      " : "\n      ", out);
    put_buf(out, &p->bufs[i]);
  }
  fputs(p->num_bufs ? "\n    ],\n    \"regions\": [" : "],\n    \"regions\": [", out);
  for (size_t i = 0; i < p->num_regions; ++i) {
    const ompdp_plan_region_t *g = &p->regions[i];
    fprintf(out, "%s{\"handle\": %" PRIu32, i ? ",\n      " : "\n      ", g->handle);
    put_region_fields(out, &g->head);
    fputs(", \"items\": [", out);
    for (uint32_t j = 0; j < g->head.num_items; ++j) {
      fputs(j ? ",\n        " : "\n        ", out);
      put_item(out, &g->items[j]);
    }
    fputs(g->head.num_items ? "\n      ]}" : "]}", out);
  }
  fputs(p->num_regions ? "\n    ]\n  }\n" : "]\n  }\n", out);
}
