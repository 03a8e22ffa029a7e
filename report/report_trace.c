/*===- report_trace.c - the timeline as a Chrome trace ------------------===*\
|*
|* `ompdp report --format=trace`: the Trace Event Format's JSON object form
|* ({"traceEvents": [...], "displayTimeUnit", "otherData"}), which Perfetto
|* UI and chrome://tracing open. Processes and threads are tracks:
|*   - pid 1, "host": one thread per host thread that issued operations,
|*     each operation as a complete ("X") event;
|*   - pid 2, "ompdp findings": one thread per finding, a slice from its
|*     first to its last operation on the timeline (an instant at 0 when it
|*     has none there), with the finding's location, counts, verdict
|*     (OMPDP_VERDICT), suggestion and rewrites in its args;
|*   - pid 100 + N, "device N": one thread per kind of operation (to
|*     device, from device, ..., kernels) and host thread that issued it
|*     (so that the slices of a track never overlap, which viewers need),
|*     each operation again, avoidable ones with the findings they belong to
|*     in args, and counters ("C") of the operations that are not kept one
|*     by one, per time bin;
|*   - per device (and rank, in a merged report) that allocated memory, a
|*     counter ("C") of the bytes in use over time, "device memory in use"
|*     (report/memory.h: the series the report keeps, each value the most
|*     in use until the next), and an instant ("i") at the peak with what
|*     held it in its args;
|*   - flows ("s"/"f") from the operation a finding repeats or undoes to
|*     each avoidable operation after it (round trips: the copy back to the
|*     copy out again; repeated allocations: the first one to each repeat).
|* Times are microseconds with nanosecond digits, written without printf's
|* %f (no locale can put a comma in them).
|*
\*===----------------------------------------------------------------------===*/
#include "memory.h"
#include "report_views.h"
#include "timeline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { PID_HOST = 1, PID_FINDINGS = 2, PID_DEVICE0 = 100 };

static void put_us(FILE *out, uint64_t ns) {
  fprintf(out, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static long device_pid(int32_t dev) { return (long)PID_DEVICE0 + dev; }
/* A device of a merged report's rank: a process of its own. */
static long memory_pid(const ompdp_device_memory_t *m) {
  return m->rank < 0 ? device_pid(m->device) : 100000L * (m->rank + 1) + device_pid(m->device);
}
/* The device's track of a kind of operation from one host thread. */
static long lane_tid(int type, uint32_t thread) { return (long)(type + 1) * 1000 + thread; }

static void put_meta(FILE *out, int *first, const char *what, long pid, long tid,
                     const char *name, long sort) {
  fprintf(out, "%s\n{\"ph\": \"M\", \"name\": \"%s_name\", \"pid\": %ld, \"tid\": %ld, "
               "\"args\": {\"name\": ",
          *first ? "" : ",", what, pid, tid);
  ompdp_json_put_string(out, name);
  fputs("}}", out);
  *first = 0;
  fprintf(out, ",\n{\"ph\": \"M\", \"name\": \"%s_sort_index\", \"pid\": %ld, \"tid\": %ld, "
               "\"args\": {\"sort_index\": %ld}}",
          what, pid, tid, sort);
}

/* "round_trip a2 listings.c:32:1" */
static void finding_name(char *buf, size_t size, const ompdp_finding_t *f) {
  const char *file = f->loc.file ? strrchr(f->loc.file, '/') : NULL;
  file = file ? file + 1 : f->loc.file ? f->loc.file : "?";
  snprintf(buf, size, "%s %s %s:%u:%u", ompdp_finding_kind_json(f->kind),
           f->variable ? f->variable : "", file, f->loc.line, f->loc.column);
}

static void put_op(FILE *out, const ompdp_report_t *r, const ompdp_tl_op_t *o, const long *pos,
                   long pid, long tid) {
  const ompdp_timeline_t *t = r->timeline;
  int avoid = 0;
  for (size_t k = o->first_link; k < o->first_link + o->num_links; ++k)
    avoid |= pos && pos[k] >= 0 && !t->links[k].related;
  char bytes[OMPDP_UNIT_BUF];
  fprintf(out, ",\n{\"ph\": \"X\", \"name\": \"%s%s%s\", \"cat\": \"%s\", \"pid\": %ld, "
               "\"tid\": %ld, \"ts\": ",
          ompdp_tl_type_json(o->type), o->type == OMPDP_TL_KERNEL ? "" : " ",
          o->type == OMPDP_TL_KERNEL ? "" : ompdp_format_bytes(bytes, o->bytes),
          avoid ? "avoidable" : "operation", pid, tid);
  put_us(out, o->start_ns);
  fputs(", \"dur\": ", out);
  put_us(out, o->dur_ns);
  if (avoid)
    fputs(", \"cname\": \"terrible\"", out);
  fprintf(out, ", \"args\": {\"seq\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"device\": %" PRId32
               ", \"src_device\": %" PRId32 ", \"host_thread\": %" PRIu32,
          o->seq, o->bytes, o->device, o->src_device, o->thread);
  for (int related = 0; related < 2; ++related) {
    int any = 0;
    for (size_t k = o->first_link; k < o->first_link + o->num_links; ++k) {
      if (!pos || pos[k] < 0 || (int)t->links[k].related != related)
        continue;
      char name[512];
      finding_name(name, sizeof(name), &r->findings[pos[k]]);
      fprintf(out, "%s", any ? ", " : related ? ", \"repeated_or_undone_by\": [" : ", \"avoidable\": [");
      ompdp_json_put_string(out, name);
      any = 1;
    }
    if (any)
      fputc(']', out);
  }
  fputs("}}", out);
}

static void put_finding_args(FILE *out, const ompdp_finding_t *f, uint64_t shown) {
  fputs("{\"location\": ", out);
  char loc[1024];
  snprintf(loc, sizeof(loc), "%s:%u:%u%s%s", f->loc.file ? f->loc.file : "<unknown file>",
           f->loc.line, f->loc.column, f->loc.function ? " in " : "",
           f->loc.function ? f->loc.function : "");
  ompdp_json_put_string(out, loc);
  fputs(", \"variable\": ", out);
  ompdp_json_put_string(out, f->variable);
  fputs(", \"clause\": ", out);
  ompdp_json_put_string(out, f->clause);
  if (f->call) {
    fputs(", \"call\": ", out);
    ompdp_json_put_string(out, f->call);
  }
  fprintf(out, ", \"count\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"time_ns\": %" PRIu64
               ", \"time_saved_ns\": %" PRIu64 ", \"operations_on_timeline\": %" PRIu64,
          f->count, f->bytes, f->time_ns, f->time_saved_ns, shown);
  fputs(", \"verdict\": ", out);
  ompdp_json_put_string(out, ompdp_verdict_json(f->verdict));
  fputs(", \"suggestion\": ", out);
  ompdp_json_put_string(out, f->suggestion);
  fputs(", \"rewrites\": [", out);
  for (size_t i = 0; i < f->num_rewrites; ++i) {
    fputs(i ? ", " : "", out);
    ompdp_json_put_string(out, f->rewrites[i].description);
  }
  fputs("]}", out);
}

/* Device memory in use: a counter per device, and the peak as an instant
 * with what held it. */
static void put_memory(FILE *out, const ompdp_report_t *r) {
  char b[OMPDP_UNIT_BUF];
  for (size_t i = 0; i < r->num_device_memory; ++i) {
    const ompdp_device_memory_t *m = &r->device_memory[i];
    for (size_t k = 0; k <= m->num_series; ++k) {
      /* The last value lasts until the run's end, where what was never
       * freed is left. */
      uint64_t ts = k < m->num_series ? m->series[k].t_ns : m->end_ns;
      uint64_t bytes = k < m->num_series ? m->series[k].bytes : m->final_bytes;
      if (k == m->num_series && m->num_series && ts < m->series[k - 1].t_ns)
        break;
      fprintf(out, ",\n{\"ph\": \"C\", \"name\": \"device memory in use\", \"pid\": %ld, "
                   "\"tid\": 0, \"ts\": ",
              memory_pid(m));
      put_us(out, ts);
      fprintf(out, ", \"args\": {\"bytes\": %" PRIu64 "}}", bytes);
    }
    fprintf(out, ",\n{\"ph\": \"i\", \"s\": \"p\", \"name\": \"peak device memory %s\", "
                 "\"cat\": \"memory\", \"pid\": %ld, \"tid\": 0, \"ts\": ",
            ompdp_format_bytes(b, m->peak_bytes), memory_pid(m));
    put_us(out, m->peak_time_ns);
    fprintf(out, ", \"args\": {\"bytes\": %" PRIu64 ", \"allocations\": %" PRIu64
                 ", \"saved_by_the_fixes\": %" PRIu64 ", \"held_by\": [",
            m->peak_bytes, m->peak_allocations, m->peak_saved_bytes);
    for (size_t k = 0; k < m->num_holders; ++k) {
      const ompdp_mem_holder_t *h = &m->holders[k];
      char what[1024];
      snprintf(what, sizeof(what), "%s%s%s %s:%u: %" PRIu64 " bytes", h->variable ? h->variable : "",
               h->variable ? " " : "", h->clause ? h->clause : h->call ? h->call : "",
               h->loc.file ? h->loc.file : "<unknown file>", h->loc.line, h->bytes);
      fputs(k ? ", " : "", out);
      ompdp_json_put_string(out, what);
    }
    fputs("]}}", out);
  }
}

int ompdp_report_write_trace(const ompdp_report_t *r, FILE *out) {
  const ompdp_timeline_t *t = r->timeline;
  long *pos = t ? ompdp_timeline_link_positions(r) : NULL;
  uint64_t *shown = calloc(r->num_findings ? r->num_findings : 1, sizeof(*shown));
  if ((t && t->num_links && !pos) || !shown) {
    free(pos);
    free(shown);
    errno = ENOMEM;
    return -1;
  }
  ompdp_timeline_count_shown(r, shown);

  fputs("{\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"tool\": \"ompdp\", \"program\": ", out);
  char prog[1024] = "";
  for (size_t i = 0, n = 0; i < r->argc && n + 1 < sizeof(prog); ++i)
    n += (size_t)snprintf(prog + n, sizeof(prog) - n, "%s%s", i ? " " : "",
                          r->argv[i] ? r->argv[i] : "");
  ompdp_json_put_string(out, prog);
  fprintf(out, ", \"time_saved_ns\": %" PRIu64 ", \"excluded_time_ns\": %" PRIu64
               ", \"wall_time_ns\": %" PRIu64
               ", \"partial\": %s, \"timeline\": \"%s\"},\n\"traceEvents\": [",
          r->time_saved_ns, r->excluded_time_ns, r->wall_time_ns, r->partial ? "true" : "false",
          !t ? "none" : t->full ? "every event" : "bounded: findings' operations and the first "
                                                  "events; the rest as counters");
  int first = 1;
  put_meta(out, &first, "process", PID_HOST, 0, "host", 0);
  put_meta(out, &first, "process", PID_FINDINGS, 0, "ompdp findings", 1);
  for (uint32_t th = 0; t && th < t->threads; ++th) {
    char name[48];
    snprintf(name, sizeof(name), "host thread %u", th);
    put_meta(out, &first, "thread", PID_HOST, th + 1, name, th);
  }
  for (size_t i = 0; i < r->num_findings; ++i) {
    char name[512];
    finding_name(name, sizeof(name), &r->findings[i]);
    put_meta(out, &first, "thread", PID_FINDINGS, (long)i + 1, name, (long)i);
  }
  /* Devices and their tracks, as they occur. */
  typedef struct track {
    int32_t device;
    long tid; /* 0: the device's process itself */
  } track_t;
  track_t *seen = NULL;
  size_t nseen = 0;
  for (size_t i = 0; t && i < t->num_ops + t->num_lanes; ++i) {
    int lane = i >= t->num_ops;
    const ompdp_tl_op_t *o = lane ? NULL : &t->ops[i];
    int32_t d = lane ? t->lanes[i - t->num_ops].device : o->device;
    for (int pass = 0; pass < 1 + !lane; ++pass) {
      long tid = pass ? lane_tid(o->type, o->thread) : 0;
      size_t k = 0;
      while (k < nseen && (seen[k].device != d || seen[k].tid != tid))
        ++k;
      if (k < nseen)
        continue;
      track_t *v = realloc(seen, (nseen + 1) * sizeof(*v));
      if (!v)
        break;
      seen = v;
      seen[nseen++] = (track_t){d, tid};
      char name[80];
      if (!tid)
        snprintf(name, sizeof(name), "device %" PRId32, d);
      else if (t->threads > 1)
        snprintf(name, sizeof(name), "%s (host thread %u)", ompdp_tl_type_title(o->type),
                 o->thread);
      else
        snprintf(name, sizeof(name), "%s", ompdp_tl_type_title(o->type));
      put_meta(out, &first, tid ? "thread" : "process", device_pid(d), tid, name,
               tid ? tid : 10 + d);
    }
  }
  free(seen);
  /* Devices that allocated memory but whose operations the timeline does
   * not hold (no timeline, a merged report's ranks). */
  for (size_t i = 0; i < r->num_device_memory; ++i) {
    const ompdp_device_memory_t *m = &r->device_memory[i];
    int drawn = 0;
    for (size_t k = 0; t && m->rank < 0 && k < t->num_ops + t->num_lanes && !drawn; ++k)
      drawn = (k < t->num_ops ? t->ops[k].device : t->lanes[k - t->num_ops].device) == m->device;
    if (drawn)
      continue;
    char name[64];
    if (m->rank >= 0)
      snprintf(name, sizeof(name), "rank %d device %" PRId32, m->rank, m->device);
    else
      snprintf(name, sizeof(name), "device %" PRId32, m->device);
    put_meta(out, &first, "process", memory_pid(m), 0, name, 10 + memory_pid(m));
  }

  /* Operations, on their device and on their host thread. */
  for (size_t i = 0; t && i < t->num_ops; ++i) {
    const ompdp_tl_op_t *o = &t->ops[i];
    put_op(out, r, o, pos, device_pid(o->device), lane_tid(o->type, o->thread));
    put_op(out, r, o, pos, PID_HOST, (long)o->thread + 1);
  }

  /* Findings: a slice over their operations, and flows. */
  uint64_t flow = 0;
  for (size_t fi = 0; fi < r->num_findings; ++fi) {
    const ompdp_finding_t *f = &r->findings[fi];
    uint64_t a = UINT64_MAX, b = 0;
    const ompdp_tl_op_t *rel = NULL;
    for (size_t i = 0; t && i < t->num_ops; ++i) {
      const ompdp_tl_op_t *o = &t->ops[i];
      for (size_t k = o->first_link; k < o->first_link + o->num_links; ++k) {
        if (!pos || pos[k] != (long)fi)
          continue;
        if (o->start_ns < a)
          a = o->start_ns;
        if (o->start_ns + o->dur_ns > b)
          b = o->start_ns + o->dur_ns;
        if (t->links[k].related) {
          rel = o;
        } else if (rel) {
          ++flow;
          fprintf(out, ",\n{\"ph\": \"s\", \"name\": \"%s\", \"cat\": \"finding\", \"id\": %" PRIu64
                       ", \"pid\": %ld, \"tid\": %ld, \"ts\": ",
                  ompdp_finding_kind_json(f->kind), flow, device_pid(rel->device),
                  lane_tid(rel->type, rel->thread));
          put_us(out, rel->start_ns);
          fprintf(out, "},\n{\"ph\": \"f\", \"bp\": \"e\", \"name\": \"%s\", \"cat\": \"finding\", "
                       "\"id\": %" PRIu64 ", \"pid\": %ld, \"tid\": %ld, \"ts\": ",
                  ompdp_finding_kind_json(f->kind), flow, device_pid(o->device),
                  lane_tid(o->type, o->thread));
          put_us(out, o->start_ns);
          fputc('}', out);
        }
      }
    }
    char name[512];
    finding_name(name, sizeof(name), f);
    fputs(",\n{\"ph\": ", out);
    fputs(a == UINT64_MAX ? "\"i\", \"s\": \"t\"" : "\"X\"", out);
    fputs(", \"name\": ", out);
    ompdp_json_put_string(out, name);
    fprintf(out, ", \"cat\": \"finding\", \"cname\": \"terrible\", \"pid\": %d, \"tid\": %ld, "
                 "\"ts\": ",
            PID_FINDINGS, (long)fi + 1);
    put_us(out, a == UINT64_MAX ? 0 : a);
    if (a != UINT64_MAX) {
      fputs(", \"dur\": ", out);
      put_us(out, b - a);
    }
    fputs(", \"args\": ", out);
    put_finding_args(out, f, shown[fi]);
    fputc('}', out);
  }

  /* What is not kept one by one: a counter per device and kind. */
  for (size_t i = 0; t && i < t->num_lanes; ++i) {
    const ompdp_tl_lane_t *l = &t->lanes[i];
    for (size_t bi = 0; bi < t->num_bins; ++bi) {
      if (!l->bins[bi] && (!bi || !l->bins[bi - 1]))
        continue; /* a zero only to end a run */
      fprintf(out, ",\n{\"ph\": \"C\", \"name\": \"not drawn one by one: %s\", \"pid\": %ld, "
                   "\"tid\": 0, \"ts\": ",
              ompdp_tl_type_title(l->type), device_pid(l->device));
      put_us(out, (uint64_t)(t->bin_ns * (double)bi));
      fprintf(out, ", \"args\": {\"operations\": %" PRIu64 "}}", l->bins[bi]);
    }
  }
  put_memory(out, r);
  fputs("\n]}\n", out);
  free(pos);
  free(shown);
  if (fflush(out) || ferror(out)) {
    if (!errno)
      errno = EIO;
    return -1;
  }
  return 0;
}
