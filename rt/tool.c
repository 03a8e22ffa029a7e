/*===- tool.c - ompdp as an OMPT tool: start, initialise, finalise --*- C -*-===*\
|*
|* libomp finds ompt_start_tool in the library named by OMP_TOOL_LIBRARIES.
|* Initialisation registers the EMI callbacks and says, once, which ones the
|* OpenMP runtime refused and what is lost. The report is written exactly
|* once: at ompt_finalize (normal exit, also exit() from any thread), or from
|* the fallback exit hook, or from a fatal signal (best effort).
|*
|* The analysis runs in one of three modes (option `mode`): stream (the
|* default), where the engine is fed while the program runs, by a consumer
|* thread, and the log is released as it is read; full, where the log keeps
|* every event and the engine reads it at exit, unmapping it as it goes;
|* check, which does both on the same events and says if their reports
|* differ (they must not: docs/runtime.md).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "attribution.h"
#include "callbacks.h"
#include "detect.h"
#include "journal.h"
#include "ompdp_rt.h"
#include "rank.h"
#include "regions.h"
#include "rewrite.h"
#include "ompdp/crashlog.h"
#include "shm.h"
#include "single_value.h"
#include "tool.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static uint64_t start_ns;
static pid_t start_pid;
static _Atomic int report_written;
enum { MODE_FULL, MODE_STREAM, MODE_CHECK };
static int mode = MODE_STREAM;
/* Stream mode: the first consumer pass creates the engine and the facts
 * (the host device is known by then); see stream_feed. */
static int stream_failed;
static int stream_sink(void *ctx, const ompdp_rec_t *rec, uint32_t word, uint64_t seq);
static void on_fork_child(void);
static void stream_ahead(void *ctx, const ompdp_rec_t *rec);
static void journal_snapshot(uint64_t events);
static void attribute_op(const ompdp_op_t *o, ompdp_loc_t *loc, ompdp_finding_t *site);
static char *warnings[8];
static size_t num_warnings;
/* The rewrites' facts were given up for lack of memory (no rewrites rather
 * than wrong ones): the report must say so. */
static int facts_lost;

/* The status the program exits with, which on_exit() hands to us: the
 * finished report (option final) carries it. The OpenMP runtime finalises
 * the tool from an exit handler registered before ours, so ours runs first
 * (handlers run in the reverse order); if it has not run when the report is
 * written (a runtime that finalises earlier, _exit, a fatal signal), there
 * is no finished report and `ompdp run` completes the report itself. */
static _Atomic int exit_status_known;
static int exit_status;

static void note_exit_status(int status, void *arg) {
  (void)arg;
  exit_status = status & 0xff;
  atomic_store(&exit_status_known, 1);
}

/* Registers one callback; returns 1 if the runtime will deliver it. */
static int register_cb(ompt_set_callback_t set, ompt_callbacks_t which, ompt_callback_t cb,
                       const char *name, const char *lost) {
  int r = set(which, cb);
  if (r >= ompt_set_sometimes)
    return 1;
  char buf[512];
  snprintf(buf, sizeof(buf),
           "the OpenMP runtime does not deliver %s (an OMPT runtime without EMI callbacks?): %s",
           name, lost);
  fprintf(stderr, "ompdp: %s\n", buf);
  if (num_warnings < sizeof(warnings) / sizeof(warnings[0]))
    warnings[num_warnings++] = ompdp_strdup(buf);
  return 0;
}

static _Atomic uint64_t cost_ns[OMPDP_COST_N];

void ompdp_cost_add(int part, uint64_t ns) {
  atomic_fetch_add_explicit(&cost_ns[part], ns, memory_order_relaxed);
}

static void say_costs(FILE *f) {
  double us[OMPDP_COST_N];
  for (int i = 0; i < OMPDP_COST_N; ++i)
    us[i] = atomic_load_explicit(&cost_ns[i], memory_order_relaxed) / 1e3;
  fprintf(f,
          "ompdp: time in the program: start-up %.0f us, crash-log blocks %.0f us, analysis "
          "%.0f us (of which source locations %.0f us), report %.0f us\n",
          us[OMPDP_COST_STARTUP], us[OMPDP_COST_LOG_BLOCKS], us[OMPDP_COST_ANALYSIS],
          us[OMPDP_COST_ATTRIBUTION], us[OMPDP_COST_REPORT]);
}

static int initialize(ompt_function_lookup_t lookup);

static int ompdp_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                            ompt_data_t *tool_data) {
  ompdp_time_init();
  start_ns = ompdp_now_ns();
  int rc = initialize(lookup);
  ompdp_cost_add(OMPDP_COST_STARTUP, ompdp_now_ns() - start_ns);
  return rc;
}

static int initialize(ompt_function_lookup_t lookup) {
  start_pid = getpid();
  ompdp_hash_init();
  ompdp_op_new_hook = ompdp_rank_note_devices; /* MPI: the devices this rank used */
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set) {
    fprintf(stderr, "ompdp: the OpenMP runtime has no ompt_set_callback; ompdp is inactive\n");
    return 0;
  }
  int have_target = register_cb(set, ompt_callback_target_emi,
                                (ompt_callback_t)ompdp_cb_target_emi, "ompt_callback_target_emi",
                                "kernels and constructs are not seen; unused allocations and "
                                "unused transfers are not detected");
  int have_data = register_cb(
      set, ompt_callback_target_data_op_emi, (ompt_callback_t)ompdp_cb_target_data_op_emi,
      "ompt_callback_target_data_op_emi", "no transfer or allocation is seen; nothing is detected");
  int have_submit = register_cb(set, ompt_callback_target_submit_emi,
                                (ompt_callback_t)ompdp_cb_target_submit_emi,
                                "ompt_callback_target_submit_emi",
                                "kernel launches are not seen; each target construct is taken "
                                "as one kernel running for its whole duration");
  ompdp_callbacks_set_submit(have_submit);
  /* Optional: which devices have host memory (hashing overlaps the copy). */
  set(ompt_callback_device_initialize, (ompt_callback_t)ompdp_cb_device_initialize);
  /* Optional: the teams and threads a kernel got on offload to the host. */
  ompdp_provision_init();
  /* Copies of memory that glibc's MALLOC_PERTURB_ filled are nobody's
   * values (single_value.h). */
  const char *perturb = getenv("MALLOC_PERTURB_");
  int perturb_byte = perturb && *perturb ? atoi(perturb) & 0xff : 0;
  ompdp_single_value_set_perturb(perturb_byte ? perturb_byte : -1);
  if (have_submit) {
    set(ompt_callback_parallel_begin, (ompt_callback_t)ompdp_cb_parallel_begin);
    set(ompt_callback_implicit_task, (ompt_callback_t)ompdp_cb_implicit_task);
  }
  if (!have_target && !have_data)
    return 0;
  /* Under `ompdp run`: the event log in a file that outlives us. */
  if (ompdp_shm_init() == 0)
    for (size_t i = 0; i < num_warnings; ++i)
      ompdp_shm_note_warning(warnings[i]);
  ompdp_regions_init();
  ompdp_signals_install();
  pthread_atfork(NULL, NULL, on_fork_child);
  if (ompdp_opts.final[0])
    on_exit(note_exit_status, NULL);
  ompdp_orphan_init(); /* ompdp run's lock: is it still there at the end? */
  /* The journal needs the stream engine: in full mode one runs beside the
   * kept log for the journal alone (journal_ms=0 to do without). */
  int journal = ompdp_opts.journal_ms > 0 && ompdp_journal_init(start_pid, attribute_op) == 0;
  if (mode != MODE_FULL || journal) {
    ompdp_log_set_stream(stream_sink, stream_ahead, NULL, mode != MODE_STREAM);
    ompdp_log_set_background(1);
    if (journal)
      ompdp_log_set_journal(journal_snapshot, (uint64_t)ompdp_opts.journal_ms * 1000000u);
  }
  if (ompdp_opts.verbose)
    fprintf(stderr, "ompdp: tool initialised (hash %s)\n", ompdp_hash_impl_name());
  return 1;
}

static void ompdp_finalize(ompt_data_t *tool_data) { ompdp_write_report_once(0); }

/* Fallback for runtimes that never call ompt_finalize (and for the order of
 * destructors at exit, which is not ours to choose). */
__attribute__((destructor)) static void ompdp_fini(void) {
  if (start_ns)
    ompdp_write_report_once(0);
}

static void set_argv(ompdp_report_t *r) {
  FILE *f = fopen("/proc/self/cmdline", "rb");
  if (!f)
    return;
  char buf[8192];
  size_t n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = 0;
  size_t argc = 0;
  for (size_t i = 0; i < n; i += strlen(buf + i) + 1)
    ++argc;
  r->argv = calloc(argc ? argc : 1, sizeof(char *));
  if (!r->argv)
    return;
  for (size_t i = 0; i < n && r->argc < argc; i += strlen(buf + i) + 1)
    r->argv[r->argc++] = ompdp_strdup(buf + i);
  /* MPI: rank, host, devices (rank_linux.c). The host device is looked up
   * only after an operation: see ompdp_write_report_once. */
  ompdp_rank_fill(r, ompdp_op_count() ? ompdp_host_device() : -1, ompdp_stderr_usable());
}

/* A report of this process, before the engine fills it: its command line
 * and rank, and the warnings the tool gathered at start-up. */
static void begin_report(ompdp_report_t *r) {
  ompdp_report_init(r);
  set_argv(r);
  for (size_t i = 0; i < num_warnings; ++i)
    ompdp_report_add_warning(r, warnings[i]);
}

/* Where an operation comes from: the compiler's region table when the code
 * was built with the plugin (exact, no -g needed, names the map item), else
 * DWARF. */
static void attribute_op_timed(const ompdp_op_t *o, ompdp_loc_t *loc, ompdp_finding_t *site);

static void attribute_op(const ompdp_op_t *o, ompdp_loc_t *loc, ompdp_finding_t *site) {
  uint64_t t0 = ompdp_now_ns();
  attribute_op_timed(o, loc, site);
  ompdp_cost_add(OMPDP_COST_ATTRIBUTION, ompdp_now_ns() - t0);
}

static void attribute_op_timed(const ompdp_op_t *o, ompdp_loc_t *loc, ompdp_finding_t *site) {
  ompdp_region_info_t info;
  if (o->region && ompdp_regions_describe(o->region, o->item, &info) == 0) {
    memset(loc, 0, sizeof(*loc));
    loc->file = ompdp_strdup(info.file);
    loc->function = ompdp_strdup(info.function);
    loc->line = info.line;
    loc->column = info.column;
    if (o->item < 0 || !site)
      return;
    if (ompdp_construct_is_routine(info.construct)) {
      /* A routine call: named by the call, and by the variable behind its
       * host pointer when it has one. */
      if (info.variable && info.variable[0])
        site->variable = ompdp_strdup(info.variable);
      site->call = ompdp_strdup(info.directive);
    } else if (info.variable && info.variable[0]) {
      site->variable = ompdp_strdup(info.variable);
      site->clause = ompdp_strdup(info.clause);
    }
    ompdp_region_info_name_item(&info, site);
    return;
  }
  ompdp_attribute(o->codeptr, o->construct, loc);
}

/*===- feeding the engine -----------------------------------------------------===*/

/* An engine as the options want it; content_limit only for the stream
 * mode's engine (memory_cap_mb). */
static ompdp_engine_config_t engine_config(int host, int capped, int timeline) {
  ompdp_engine_config_t cfg = {.host_device = host, .timeline = timeline,
                               .timeline_first = (uint64_t)ompdp_opts.timeline_first,
                               .timeline_per_finding = (uint64_t)ompdp_opts.timeline_per_finding,
                               .sink_thread = ompdp_log_sink_thread,
                               .describe = ompdp_regions_describe,
                               .section_lower = ompdp_regions_op_lower};
  cfg.timeline_mode = !strcmp(ompdp_opts.timeline, "full")  ? OMPDP_TIMELINE_FULL
                      : !strcmp(ompdp_opts.timeline, "off") ? OMPDP_TIMELINE_OFF
                                                            : OMPDP_TIMELINE_BOUNDED;
  if (capped && ompdp_opts.memory_cap_mb > 0)
    cfg.content_limit = (uint64_t)ompdp_opts.memory_cap_mb << 19; /* half */
  /* The option's 0 means every non-empty copy: the engine's 1. */
  cfg.zero_min_bytes = ompdp_opts.zero_min_bytes > 0 ? (uint64_t)ompdp_opts.zero_min_bytes : 1;
  cfg.peak_min_bytes = ompdp_opts.peak_min_bytes > 0 ? (uint64_t)ompdp_opts.peak_min_bytes : 1;
  cfg.lifetime_all = ompdp_opts.lifetime_all != 0;
  return cfg;
}

typedef struct feed {
  ompdp_engine_t *engine;
  ompdp_rw_facts_t *facts; /* NULL: no rewrites */
} feed_t;

/* The rewrites only concern operations from region tables (the compiler
 * plugin); while there are none, the facts are not fed. */
static int feed_one(feed_t *f, const ompdp_rec_t *rec, uint32_t word, uint64_t seq) {
  if (ompdp_engine_feed(f->engine, rec, word, seq))
    return -1;
  if (f->facts && ompdp_op_any_region()) {
    ompdp_event_t e;
    ompdp_rec_expand(rec, word, 1ull << 32, &e);
    if (ompdp_rw_facts_feed(f->facts, &e)) {
      ompdp_rw_facts_destroy(f->facts);
      f->facts = NULL; /* no rewrites rather than wrong ones */
      facts_lost = 1;
    }
  }
  return 0;
}

static int full_sink(void *ctx, const ompdp_rec_t *rec, uint32_t word, uint64_t seq) {
  return feed_one(ctx, rec, word, seq);
}

static void full_ahead(void *ctx, const ompdp_rec_t *rec) {
  ompdp_engine_ahead(((feed_t *)ctx)->engine, rec);
}

static feed_t stream_feed;

static void stream_ahead(void *ctx, const ompdp_rec_t *rec) {
  (void)ctx;
  if (stream_feed.engine)
    ompdp_engine_ahead(stream_feed.engine, rec);
}

static int stream_sink(void *ctx, const ompdp_rec_t *rec, uint32_t word, uint64_t seq) {
  (void)ctx;
  if (!stream_feed.engine) {
    int host = ompdp_host_device();
    /* Full mode's journal engine keeps no timeline: the log gives it. */
    ompdp_engine_config_t cfg = engine_config(host, 1, mode != MODE_FULL);
    stream_feed.engine = ompdp_engine_create(&cfg);
    if (!stream_feed.engine)
      return stream_failed = -1;
    /* Full mode's journal engine needs no rewrites: the log gives them. */
    stream_feed.facts = mode == MODE_FULL ? NULL : ompdp_rw_facts_create(host);
    if (mode != MODE_FULL && !stream_feed.facts)
      facts_lost = 1;
  }
  if (feed_one(&stream_feed, rec, word, seq))
    return stream_failed = -1;
  return 0;
}

/* A forked child reports only what it does itself: it starts a log
 * position and, in stream mode, an engine of its own. */
static void on_fork_child(void) {
  ompdp_log_skip_before(ompdp_ticks());
  stream_feed.engine = NULL; /* the parent's, copied: left alone */
  stream_feed.facts = NULL;
  if (ompdp_opts.journal_ms > 0)
    ompdp_journal_init(start_pid, attribute_op); /* <output>.<pid>.journal */
}

/* The journal's snapshot (rt/journal.c), on the consumer thread under its
 * lock, so the engine is not being fed meanwhile. */
static void journal_snapshot(uint64_t events) {
  /* While the crash log holds every event, ompdp run needs no journal. */
  if (!stream_feed.engine || ompdp_shm_active())
    return;
  ompdp_report_t r;
  begin_report(&r);
  ompdp_engine_result_t res = {.wall_time_ns = ompdp_now_ns() - start_ns,
                               .tick_mult = ompdp_tick_mult(),
                               .attribute = ompdp_journal_attribute};
  r.partial = 1;
  if (ompdp_engine_snapshot(stream_feed.engine, &r, &res) == 0)
    ompdp_journal_save(&r, events);
  ompdp_report_free(&r);
}

static char *render_json(const ompdp_report_t *r, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  if (!f)
    return NULL;
  int rc = ompdp_report_write_json(r, f);
  if (fclose(f) || rc) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* The one line that says what ompdp lost for want of memory, into buf;
 * returns 0 (and leaves buf empty) when nothing was lost. */
static int oom_warning(char *buf, size_t size, int analysis_stopped, int rewrites_lost) {
  uint64_t failures = ompdp_alloc_failures(), dropped = ompdp_log_dropped();
  buf[0] = 0;
  if (!failures && !dropped && !analysis_stopped && !rewrites_lost)
    return 0;
  size_t n = (size_t)snprintf(buf, size, "ompdp ran out of memory: ");
#define PART(...)                                                                              \
  do {                                                                                         \
    if (n < size)                                                                              \
      n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__);                                   \
  } while (0)
  const char *sep = "";
  if (failures) {
    PART("%llu of its allocations failed", (unsigned long long)failures);
    sep = "; ";
  }
  if (dropped) {
    PART("%s%llu events were dropped", sep, (unsigned long long)dropped);
    sep = "; ";
  }
  if (analysis_stopped) {
    PART("%sthe analysis stopped, so the findings and counts of what followed are missing", sep);
    sep = "; ";
  }
  if (rewrites_lost) {
    PART("%ssome findings have no rewrites", sep);
    sep = "; ";
  }
  if (failures)
    PART("%swhat else needed memory (source locations, findings, rewrites, the timeline) may "
         "be missing", sep);
#undef PART
  return 1;
}

/* The report as `ompdp run` prints it (driver/run.c): its rewrites planned,
 * the exit status set, the findings sorted, in the format asked for. It
 * saves the driver reading the report back, which is most of the time that
 * ompdp adds to a short run. Nothing is lost if it cannot be written: the
 * driver completes the report written before it. */
static int write_final(ompdp_report_t *r, const char *to) {
  /* Any allocation that fails from here on (some only lose a word of the
   * report) leaves the report to the driver, which says what was lost. */
  uint64_t failed = ompdp_alloc_failures();
  if (ompdp_rewrite_report(r) || ompdp_alloc_failures() != failed)
    return -1;
  r->has_exit_status = 1;
  r->exit_status = exit_status;
  ompdp_report_sort(r);
  /* to: where ompdp run would have put it, when it is gone (orphan_linux.c). */
  int rc = to ? ompdp_output_finished(r, to, failed) : ompdp_output_final(r, exit_status, failed);
  if (rc && ompdp_opts.verbose)
    fprintf(stderr, "ompdp: cannot write the finished report: %s\n", strerror(errno));
  return rc;
}

/* A run stopped by a fatal signal ended early: what only its end would
 * decide (an allocation never freed is unused) is not decided. */
static int finish(ompdp_engine_t *g, ompdp_report_t *r, const ompdp_engine_result_t *res,
                  int signo) {
  return signo ? ompdp_engine_finish_early(g, r, res) : ompdp_engine_finish(g, r, res);
}

void ompdp_write_report_once(int signo) {
  if (atomic_exchange(&report_written, 1))
    return;
  uint64_t t_end = ompdp_now_ns();
  ompdp_report_t r;
  begin_report(&r);
  if (!signo)
    ompdp_provision_warn(&r); /* not from a signal handler: it may read DWARF */
  if (signo) {
    char buf[320];
    snprintf(buf, sizeof(buf),
             "the program was stopped by signal %d (%s); events after it are lost, and "
             "unused allocations and transfers are only those its events prove (freed, or "
             "overwritten, with no kernel in between)",
             signo, strsignal(signo));
    ompdp_report_add_warning(&r, buf);
    r.partial = 1;
  }
  uint64_t forked_at = ompdp_fork_time_ns();
  if (forked_at) {
    char buf[160];
    snprintf(buf, sizeof(buf),
             "process %ld is a child that process %ld forked: this report covers only what it "
             "did after the fork",
             (long)getpid(), (long)start_pid);
    ompdp_report_add_warning(&r, buf);
  }
  /* Every event comes from a callback that looked the host device up. With
   * none, do not look it up now: at exit libomptarget may already be torn
   * down, and omp_get_initial_device() would crash in it. */
  int host = ompdp_op_count() ? ompdp_host_device() : -1;
  uint64_t wall = ompdp_now_ns() - start_ns;
  uint64_t mult = ompdp_tick_mult();
  ompdp_engine_result_t res = {.wall_time_ns = wall, .tick_mult = mult, .attribute = attribute_op};
  ompdp_rw_facts_t *facts = NULL;
  int rc = 0;
  if (mode == MODE_FULL) {
    /* The journal's engine, if any: stopped, and of no use any more. */
    ompdp_log_stream_stop();
    ompdp_engine_destroy(stream_feed.engine);
    stream_feed.engine = NULL;
    ompdp_engine_config_t cfg = engine_config(host, 0, 1);
    feed_t fd = {ompdp_engine_create(&cfg), NULL};
    if (fd.engine && ompdp_op_any_region() && !(fd.facts = ompdp_rw_facts_create(host)))
      facts_lost = 1;
    rc = fd.engine ? ompdp_log_replay(full_sink, full_ahead, &fd, 1) : -1;
    if (fd.engine && finish(fd.engine, &r, &res, signo))
      rc = -1;
    ompdp_engine_destroy(fd.engine);
    facts = fd.facts;
  } else {
    if (ompdp_log_stream_finish() || stream_failed)
      rc = -1;
    ompdp_engine_t *stream_engine = stream_feed.engine;
    if (!stream_engine) { /* no event at all */
      ompdp_engine_config_t cfg = engine_config(host, 0, 1);
      stream_engine = ompdp_engine_create(&cfg);
    }
    uint64_t forgotten = stream_engine ? ompdp_engine_forgotten(stream_engine) : 0;
    if (forgotten) {
      char buf[256];
      snprintf(buf, sizeof(buf),
               "stream mode forgot %llu content hashes to stay within memory_cap_mb=%d: "
               "duplicate transfers and round trips of older bytes may be missed",
               (unsigned long long)forgotten, ompdp_opts.memory_cap_mb);
      ompdp_report_add_warning(&r, buf);
    }
    if (!stream_engine || finish(stream_engine, &r, &res, signo))
      rc = -1;
    ompdp_engine_destroy(stream_engine);
    stream_feed.engine = NULL;
    facts = stream_feed.facts;
    stream_feed.facts = NULL;
    if (mode == MODE_CHECK && !rc) {
      /* The same events again, from the kept log, as the full mode would. */
      ompdp_report_t full;
      ompdp_report_init(&full);
      set_argv(&full);
      for (size_t i = 0; i < r.num_warnings; ++i)
        ompdp_report_add_warning(&full, r.warnings[i]);
      full.partial = r.partial;
      ompdp_engine_config_t cfg = engine_config(host, 0, 1);
      feed_t fd = {ompdp_engine_create(&cfg), NULL};
      int frc = fd.engine ? ompdp_log_replay(full_sink, full_ahead, &fd, 1) : -1;
      if (fd.engine && finish(fd.engine, &full, &res, signo))
        frc = -1;
      ompdp_engine_destroy(fd.engine);
      size_t la = 0, lb = 0;
      char *a = frc ? NULL : render_json(&r, &la), *b = frc ? NULL : render_json(&full, &lb);
      const char *verdict = !a || !b ? "could not be compared (out of memory)"
                            : la == lb && !memcmp(a, b, la) ? NULL
                                                            : "DIFFER";
      if (verdict) {
        fprintf(stderr, "ompdp: mode=check: the stream and full-log reports %s\n", verdict);
        ompdp_report_add_warning(&r, !strcmp(verdict, "DIFFER")
                                         ? "mode=check: the stream and full-log reports differ"
                                         : "mode=check: the reports could not be compared");
      } else if (ompdp_opts.verbose) {
        fprintf(stderr, "ompdp: mode=check: the stream and full-log reports are identical\n");
      }
      free(a);
      free(b);
      ompdp_report_free(&full);
    }
  }
  if (rc && ompdp_shm_abandon(OMPDP_CL_GAVE_UP_MEMORY)) {
    /* ompdp run has the events, and memory of its own: it makes the report. */
    fprintf(stderr, "ompdp: out of memory during analysis; ompdp run will rebuild the report "
                    "from the event log\n");
    ompdp_rw_facts_destroy(facts);
    ompdp_attribution_done();
    ompdp_report_free(&r);
    return;
  }
  int rewrites_lost = facts_lost && ompdp_op_any_region();
  if (rc) {
    fprintf(stderr, "ompdp: out of memory during analysis; the report is incomplete\n");
  } else if (facts && ompdp_rw_facts_to_plan(facts, &r, ompdp_regions_describe, ompdp_regions_context,
                                               mult, &r.plan) < 0) {
    /* The rewrites are planned by the driver (`ompdp run`, `ompdp report`),
     * from what the run alone knows, which the report carries as its plan. */
    fprintf(stderr, "ompdp: out of memory while building rewrites; some findings have none\n");
    rewrites_lost = 1;
  }
  ompdp_rw_facts_destroy(facts);
  r.hash_collisions = ompdp_hash_collisions();
  ompdp_devhash_warn(&r);
  if (!signo)
    ompdp_no_device_warn(&r); /* reads the loaded objects' files: not from a handler */
  ompdp_attribution_done();
  /* Last: every allocation that failed, at exit too, is counted by now. */
  static char lost[640];
  char **own = r.warnings, *view[32];
  size_t num_own = r.num_warnings;
  if (oom_warning(lost, sizeof(lost), rc != 0, rewrites_lost)) {
    r.partial = 1;
    /* Saying it needs no memory: when the list of warnings cannot grow, the
     * report is written with a view of it that ends with this line. */
    if (ompdp_report_add_warning(&r, lost)) {
      size_t n = num_own < 31 ? num_own : 31;
      for (size_t i = 0; i < n; ++i)
        view[i] = own[i];
      view[n] = lost;
      r.warnings = view;
      r.num_warnings = n + 1;
    }
  }
  uint64_t t_report = ompdp_now_ns();
  ompdp_cost_add(OMPDP_COST_ANALYSIS, t_report - t_end);
  if (ompdp_output_report(&r, start_pid) == 0) {
    /* The report supersedes the journal (and the crash log, which ompdp
     * run removes after printing the report: freeing it takes time). */
    ompdp_journal_remove();
    /* ompdp run killed: the finished report goes where it would have
     * gone, a forked child's too; else it stays for ompdp recover. */
    int orphan = ompdp_orphan_driver_gone();
    const char *to = orphan ? ompdp_orphan_main_output(forked_at != 0) : NULL;
    int landed = 0;
    if (!signo && !rc && (!forked_at || to) && r.argc && r.warnings != view &&
        ompdp_opts.final[0] && atomic_load(&exit_status_known) && (!orphan || to))
      landed = write_final(&r, to) == 0;
    if (orphan)
      ompdp_orphan_done(start_pid, landed ? to : NULL);
  }
  ompdp_cost_add(OMPDP_COST_REPORT, ompdp_now_ns() - t_report);
  if (r.warnings == view) {
    r.warnings = own;
    r.num_warnings = num_own;
  }
  if (ompdp_opts.verbose) {
    say_costs(stderr);
    ompdp_hash_say_choice(stderr);
    ompdp_devhash_say(stderr);
    fprintf(stderr, "ompdp: the runtime made %llu allocations, %llu failed\n",
            (unsigned long long)ompdp_alloc_calls(), (unsigned long long)ompdp_alloc_failures());
    if (ompdp_shm_bytes()) {
      uint64_t copied, reused;
      ompdp_shm_reuse_stats(&copied, &reused);
      fprintf(stderr,
              "ompdp: crash log: %.1f MiB%s; %llu event blocks copied to its end, their pages "
              "taken %llu times by later chunks\n",
              ompdp_shm_bytes() / 1048576.0, ompdp_shm_active() ? "" : " (stopped growing)",
              (unsigned long long)copied, (unsigned long long)reused);
    }
  }
  if (ompdp_opts.verbose && ompdp_opts.journal_ms > 0) {
    uint64_t n, total, max;
    ompdp_log_journal_stats(&n, &total, &max);
    fprintf(stderr,
            "ompdp: journal: %llu flushes, %.1f us of CPU each on average, %.1f us at most\n",
            (unsigned long long)n, n ? total / 1e3 / (double)n : 0.0, max / 1e3);
  }
  ompdp_report_free(&r);
}

EXPORT ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                 const char *runtime_version) {
  static ompt_start_tool_result_t result = {ompdp_initialize, ompdp_finalize, {0}};
  ompdp_options_reset();
  ompdp_options_parse(getenv("OMPDP_OPTIONS"));
  ompdp_output_reserve();
  ompdp_alloc_arm(ompdp_opts.test_fail_alloc, ompdp_opts.test_fail_alloc_count);
  /* options.c has refused any other value (and put the default back). */
  mode = !strcmp(ompdp_opts.mode, "full")    ? MODE_FULL
         : !strcmp(ompdp_opts.mode, "check") ? MODE_CHECK
                                             : MODE_STREAM;
  return &result;
}
