/*===- memory.c - device memory in use, in the report ---------------------===*\
|*
|* The report's device memory entries (memory.h): their lifetime, the peak
|* savings the findings predict, and the text and JSON writers, which the
|* runtime uses too. One line of text per device says the peak, when it
|* came and who held it; a second says how much lower the fixes make it.
|* The JSON keeps the series of bytes in use for the views (HTML page,
|* Chrome trace), which the text leaves out.
|*
\*===----------------------------------------------------------------------===*/
#include "memory.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void holder_free(ompdp_mem_holder_t *h) {
  ompdp_loc_free(&h->loc);
  free(h->variable);
  free(h->clause);
  free(h->call);
  memset(h, 0, sizeof(*h));
}

void ompdp_device_memory_free(ompdp_device_memory_t *m) {
  for (size_t i = 0; i < m->num_holders; ++i)
    holder_free(&m->holders[i]);
  free(m->holders);
  free(m->series);
  memset(m, 0, sizeof(*m));
  m->rank = -1;
}

void ompdp_report_memory_free(ompdp_report_t *r) {
  for (size_t i = 0; i < r->num_device_memory; ++i)
    ompdp_device_memory_free(&r->device_memory[i]);
  free(r->device_memory);
  r->device_memory = NULL;
  r->num_device_memory = 0;
}

ompdp_device_memory_t *ompdp_report_add_memory(ompdp_report_t *r, int32_t device) {
  ompdp_device_memory_t *v =
      realloc(r->device_memory, (r->num_device_memory + 1) * sizeof(*v));
  if (!v)
    return NULL;
  r->device_memory = v;
  ompdp_device_memory_t *m = &v[r->num_device_memory++];
  memset(m, 0, sizeof(*m));
  m->device = device;
  m->rank = -1;
  return m;
}

static int copy_loc(ompdp_loc_t *dst, const ompdp_loc_t *src) {
  *dst = *src;
  dst->file = ompdp_strdup(src->file);
  dst->function = ompdp_strdup(src->function);
  return (src->file && !dst->file) || (src->function && !dst->function) ? -1 : 0;
}

int ompdp_report_copy_memory(ompdp_report_t *r, const ompdp_device_memory_t *src, int rank) {
  ompdp_device_memory_t *m = ompdp_report_add_memory(r, src->device);
  if (!m)
    return -1;
  *m = *src;
  m->rank = rank;
  m->holders = NULL;
  m->num_holders = 0;
  m->series = NULL;
  m->num_series = 0;
  if (src->num_series) {
    if (!(m->series = malloc(src->num_series * sizeof(*m->series))))
      return -1;
    memcpy(m->series, src->series, src->num_series * sizeof(*m->series));
    m->num_series = src->num_series;
  }
  if (src->num_holders && !(m->holders = calloc(src->num_holders, sizeof(*m->holders))))
    return -1;
  for (size_t i = 0; i < src->num_holders; ++i) {
    const ompdp_mem_holder_t *s = &src->holders[i];
    ompdp_mem_holder_t *h = &m->holders[m->num_holders++];
    h->bytes = s->bytes;
    h->allocations = s->allocations;
    h->variable = ompdp_strdup(s->variable);
    h->clause = ompdp_strdup(s->clause);
    h->call = ompdp_strdup(s->call);
    if (copy_loc(&h->loc, &s->loc) || (s->variable && !h->variable) ||
        (s->clause && !h->clause) || (s->call && !h->call))
      return -1;
  }
  return 0;
}

void ompdp_report_memory_savings(ompdp_report_t *r) {
  for (size_t i = 0; i < r->num_device_memory; ++i)
    if (r->device_memory[i].rank < 0)
      r->device_memory[i].peak_saved_bytes = 0;
  for (size_t k = 0; k < r->num_findings; ++k) {
    const ompdp_finding_t *f = &r->findings[k];
    if (!f->peak || !f->peak_saved_bytes || !ompdp_verdict_saves(f->verdict))
      continue;
    for (size_t d = 0; d < f->num_devices; ++d)
      for (size_t i = 0; i < r->num_device_memory; ++i) {
        ompdp_device_memory_t *m = &r->device_memory[i];
        /* A merged report's findings have no rank: its entries keep theirs. */
        if (m->device == f->devices[d] && m->rank < 0 &&
            f->peak_saved_bytes > m->peak_saved_bytes)
          m->peak_saved_bytes = f->peak_saved_bytes < m->peak_bytes ? f->peak_saved_bytes
                                                                     : m->peak_bytes;
      }
  }
}

/*===- text -------------------------------------------------------------------===*/

static void put_holder(FILE *out, const ompdp_mem_holder_t *h) {
  char b[OMPDP_UNIT_BUF];
  const char *what = h->clause ? h->clause : h->call;
  if (h->variable) {
    ompdp_text_put_str(out, h->variable);
    fputc(' ', out);
  }
  fputs(ompdp_format_bytes(b, h->bytes), out);
  if (h->allocations > 1)
    fprintf(out, " in %" PRIu64 " allocations", h->allocations);
  fputs(" (", out);
  if (what) {
    ompdp_text_put_str(out, what);
    fputs(" at ", out);
  }
  ompdp_text_put_str(out, h->loc.file ? h->loc.file : "<unknown file>");
  if (h->loc.line)
    fprintf(out, ":%" PRIu32, h->loc.line);
  if (!h->variable && h->loc.function) {
    fputs(" in ", out);
    ompdp_text_put_str(out, h->loc.function);
  }
  fputc(')', out);
}

void ompdp_text_put_memory(FILE *out, const ompdp_report_t *r) {
  char b1[OMPDP_UNIT_BUF], b2[OMPDP_UNIT_BUF], b3[OMPDP_UNIT_BUF];
  for (size_t i = 0; i < r->num_device_memory; ++i) {
    const ompdp_device_memory_t *m = &r->device_memory[i];
    char rank[32] = "";
    if (m->rank >= 0)
      snprintf(rank, sizeof(rank), "rank %d: ", m->rank);
    fprintf(out, "peak device memory: %s%s on device %" PRId32 " at %s, %" PRIu64
                 " allocation%s live",
            rank, ompdp_format_bytes(b1, m->peak_bytes), m->device,
            ompdp_format_time(b2, m->peak_time_ns), m->peak_allocations,
            m->peak_allocations == 1 ? "" : "s");
    for (size_t k = 0; k < m->num_holders; ++k) {
      fputs(k ? ", " : ": ", out);
      put_holder(out, &m->holders[k]);
    }
    if (m->other_allocations)
      fprintf(out, ", and %" PRIu64 " more allocation%s (%s)", m->other_allocations,
              m->other_allocations == 1 ? "" : "s", ompdp_format_bytes(b3, m->other_bytes));
    fputc('\n', out);
    if (m->peak_saved_bytes)
      fprintf(out, "peak device memory with the fixes: %sat most %s on device %" PRId32
                   " (%s less)\n",
              rank, ompdp_format_bytes(b1, m->peak_bytes - m->peak_saved_bytes), m->device,
              ompdp_format_bytes(b2, m->peak_saved_bytes));
  }
}

/*===- JSON -------------------------------------------------------------------===*/

static void put_json_holder(FILE *out, const ompdp_mem_holder_t *h) {
  fputs("{\"variable\": ", out);
  ompdp_json_put_string(out, h->variable);
  fputs(", \"clause\": ", out);
  ompdp_json_put_string(out, h->clause);
  if (h->call) {
    fputs(", \"call\": ", out);
    ompdp_json_put_string(out, h->call);
  }
  fputs(", \"file\": ", out);
  ompdp_json_put_string(out, h->loc.file);
  fprintf(out, ", \"line\": %" PRIu32 ", \"column\": %" PRIu32 ", \"function\": ", h->loc.line,
          h->loc.column);
  ompdp_json_put_string(out, h->loc.function);
  fprintf(out, ", \"bytes\": %" PRIu64 ", \"allocations\": %" PRIu64 "}", h->bytes,
          h->allocations);
}

void ompdp_json_put_memory(FILE *out, const ompdp_report_t *r) {
  if (!r->num_device_memory)
    return;
  fputs("  \"device_memory\": [", out);
  for (size_t i = 0; i < r->num_device_memory; ++i) {
    const ompdp_device_memory_t *m = &r->device_memory[i];
    fprintf(out, "%s\n    {\"device\": %" PRId32, i ? "," : "", m->device);
    if (m->rank >= 0)
      fprintf(out, ", \"rank\": %d", m->rank);
    fprintf(out,
            ", \"peak_bytes\": %" PRIu64 ", \"peak_time_ns\": %" PRIu64
            ", \"peak_allocations\": %" PRIu64 ", \"peak_saved_bytes\": %" PRIu64
            ",\n     \"final_bytes\": %" PRIu64 ", \"allocated_bytes\": %" PRIu64
            ", \"allocations\": %" PRIu64 ", \"end_ns\": %" PRIu64,
            m->peak_bytes, m->peak_time_ns, m->peak_allocations, m->peak_saved_bytes,
            m->final_bytes, m->allocated_bytes, m->allocations, m->end_ns);
    fputs(",\n     \"holders\": [", out);
    for (size_t k = 0; k < m->num_holders; ++k) {
      fputs(k ? ",\n       " : "\n       ", out);
      put_json_holder(out, &m->holders[k]);
    }
    fputs(m->num_holders ? "\n     ]" : "]", out);
    fprintf(out, ",\n     \"other_bytes\": %" PRIu64 ", \"other_allocations\": %" PRIu64,
            m->other_bytes, m->other_allocations);
    fputs(",\n     \"series\": [", out);
    for (size_t k = 0; k < m->num_series; ++k)
      fprintf(out, "%s[%" PRIu64 ", %" PRIu64 "]", k ? (k % 8 ? ", " : ",\n       ") : "",
              m->series[k].t_ns, m->series[k].bytes);
    fputs("]}", out);
  }
  fputs("\n  ],\n", out);
}
