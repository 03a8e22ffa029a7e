/*===- timeline.h - the operations of a run, for people to look at -*- C -*-===*\
|*
|* The report's optional "timeline" section (docs/report-format.md): the
|* device operations of a run (transfers both ways, allocations, deletes,
|* kernels) with their times, devices and host threads, which findings each
|* one is an avoidable operation of, and, for what is not kept one by one,
|* counts per device, kind and time bin. The runtime fills it
|* (analysis/timeline_collect.c) within the stream mode's memory bounds:
|* by default every finding's operations (up to a cap each) and the first
|* events; with the option timeline=full, every event. The HTML page and the
|* Chrome trace are drawn from it (report_html.c, report_trace.c).
|*
|* Findings are named by id (ompdp_finding_t.timeline_id), not by position,
|* so that the report may be sorted after the timeline is made: the runtime
|* uses the analysis engine's index of the finding, a reader the finding's
|* position in the file. The JSON writer turns ids into positions.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_TIMELINE_H
#define OMPDP_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ompdp_report;

/* Version of the "timeline" section ("version" in it). Readers refuse a
 * section of another version with one line. */
#define OMPDP_TIMELINE_VERSION 1

/* Kinds of operations, each a lane of a device's timeline. */
#define OMPDP_TL_TYPES(X)                                                      \
  X(H2D, "h2d", "to device")                                                  \
  X(D2H, "d2h", "from device")                                                \
  X(D2D, "d2d", "device to device")                                           \
  X(ALLOC, "alloc", "allocation")                                             \
  X(DELETE, "delete", "delete")                                               \
  X(KERNEL, "kernel", "kernel")
typedef enum ompdp_tl_type {
#define OMPDP_TL_ENUM(Enum, Json, Title) OMPDP_TL_##Enum,
  OMPDP_TL_TYPES(OMPDP_TL_ENUM)
#undef OMPDP_TL_ENUM
  OMPDP_TL_NTYPES
} ompdp_tl_type_t;

const char *ompdp_tl_type_json(int type);
const char *ompdp_tl_type_title(int type);
/* OMPDP_TL_NTYPES when the name is unknown. */
int ompdp_tl_type_from_json(const char *name);

/* One link between an operation and a finding. */
typedef struct ompdp_tl_link {
  uint32_t finding; /* the finding's timeline_id */
  uint32_t related; /* 0: an avoidable operation of the finding; 1: the
                       operation it repeats or undoes (first sent, outgoing) */
} ompdp_tl_link_t;

typedef struct ompdp_tl_op {
  uint64_t seq;      /* position in the analysis order (begin time, thread) */
  uint64_t start_ns; /* from the begin of the run's first event */
  uint64_t dur_ns;
  uint64_t bytes;
  int32_t device;    /* the device it concerns (a transfer's non-host end;
                        device to device: the destination) */
  int32_t src_device; /* device to device: the source; else equal to device */
  uint32_t thread;   /* host thread that issued it, 0 for the first */
  uint8_t type;      /* ompdp_tl_type_t */
  size_t first_link, num_links; /* in ompdp_timeline_t.links */
} ompdp_tl_op_t;

/* What is not kept one by one, per device and type: totals, and counts in
 * bins of bin_ns from time 0. */
typedef struct ompdp_tl_lane {
  int32_t device;
  uint8_t type;
  uint64_t count, bytes, time_ns;
  uint64_t *bins; /* num_bins counts */
} ompdp_tl_lane_t;

typedef struct ompdp_timeline {
  int full;               /* every event is in ops */
  uint64_t events;        /* events the analysis saw */
  uint64_t first;         /* the first events kept (bounded) */
  uint64_t per_finding;   /* operations kept per finding at most (bounded) */
  int32_t host_device;
  uint32_t threads;       /* host threads that issued operations */
  ompdp_tl_op_t *ops;     /* by seq */
  size_t num_ops;
  ompdp_tl_link_t *links;
  size_t num_links;
  double bin_ns;
  size_t num_bins;
  ompdp_tl_lane_t *lanes;
  size_t num_lanes;
} ompdp_timeline_t;

void ompdp_timeline_free(ompdp_timeline_t *t);

/* The section as JSON (the value of "timeline", no trailing newline), with
 * finding ids turned into positions in r->findings; links to findings that
 * r does not hold are left out. Returns 0, or -1 with errno set. */
int ompdp_timeline_write_json(const struct ompdp_report *r, FILE *out);

/* Reads a JSON report (or a journal, which has no timeline) from path as
 * ompdp_report_or_journal_read_file does, plus its "timeline" section into
 * r->timeline (timeline_read.c, with jansson); findings get their position
 * in the file as timeline_id. Returns 0, or -1 after writing a one-line
 * reason that names the path into err. */
int ompdp_report_read_file_with_timeline(const char *path, const char *reason,
                                         struct ompdp_report *r, char *err, size_t errlen);
/* The same from len bytes in memory; the reason in err names no file. */
int ompdp_report_read_with_timeline(const char *buf, size_t len, const char *reason,
                                    struct ompdp_report *r, char *err, size_t errlen);

/* For each of r->timeline's links, the position in r->findings of the
 * finding it names, or -1 (a finding r does not hold). malloc'd array of
 * num_links entries; NULL when there are none or memory ran out. */
long *ompdp_timeline_link_positions(const struct ompdp_report *r);

/* Per finding (by position in r->findings): how many of its avoidable
 * operations the timeline holds, as the finding counts them (allocations,
 * not their deletes). counts has r->num_findings entries. */
void ompdp_timeline_count_shown(const struct ompdp_report *r, uint64_t *counts);

/* The findings by variable and construct (same variable, file, line,
 * column and function), as the HTML page shows them: group k holds the
 * findings at positions order[first .. first + n), in report order, and
 * what its findings that save (fix, advice) save together, each avoidable
 * operation once, as the run's total counts it: from the timeline's
 * operations, exact (saved_ns == saved_max_ns) when the timeline holds
 * every one of them or one finding saves alone; else at least saved_ns
 * and at most saved_max_ns. Groups are in the order of their findings
 * (variable, then location). 0, or -1 when out of memory (nothing
 * allocated); free *groups and *order. */
typedef struct ompdp_finding_group {
  size_t first, n;
  uint64_t saved_ns, saved_max_ns;
} ompdp_finding_group_t;
int ompdp_report_groups(const struct ompdp_report *r, ompdp_finding_group_t **groups,
                        size_t *ngroups, size_t **order);

#endif /* OMPDP_TIMELINE_H */
