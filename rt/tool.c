/*===- tool.c - ompdp as an OMPT tool: start, initialise, finalise --*- C -*-===*\
|*
|* libomp finds ompt_start_tool in the library named by OMP_TOOL_LIBRARIES.
|* Initialisation registers the EMI callbacks and says, once, which ones the
|* OpenMP runtime refused and what is lost. The report is written exactly
|* once: at ompt_finalize (normal exit, also exit() from any thread), or from
|* the fallback exit hook, or from a fatal signal (best effort).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "callbacks.h"
#include "ompdp_rt.h"
#include "regions.h"
#include "tool.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static uint64_t start_ns;
static pid_t start_pid;
static _Atomic int report_written;
static int kernels_from_targets;
static char *warnings[8];
static size_t num_warnings;

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

static int ompdp_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                            ompt_data_t *tool_data) {
  start_ns = ompdp_now_ns();
  start_pid = getpid();
  ompdp_hash_init();
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
  kernels_from_targets = !have_submit;
  if (!have_target && !have_data)
    return 0;
  ompdp_regions_init();
  ompdp_signals_install();
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
}

/* Where an event comes from: the compiler's region table when the code was
 * built with the plugin (exact, no -g needed, names the map item), else
 * DWARF. */
static void attribute_event(const ompdp_event_t *e, ompdp_loc_t *loc, char **variable,
                            char **clause) {
  ompdp_region_info_t info;
  if (e->region && ompdp_regions_describe(e->region, e->item, &info) == 0) {
    memset(loc, 0, sizeof(*loc));
    loc->file = ompdp_strdup(info.file);
    loc->function = ompdp_strdup(info.function);
    loc->line = info.line;
    loc->column = info.column;
    if (e->item >= 0 && variable && clause && info.variable && info.variable[0]) {
      *variable = ompdp_strdup(info.variable);
      *clause = ompdp_strdup(info.clause);
    }
    return;
  }
  ompdp_attribute(e->codeptr, OMPDP_EV_CONSTRUCT(e), loc);
}

void ompdp_write_report_once(int signo) {
  if (atomic_exchange(&report_written, 1))
    return;
  ompdp_report_t r;
  ompdp_report_init(&r);
  set_argv(&r);
  for (size_t i = 0; i < num_warnings; ++i)
    ompdp_report_add_warning(&r, warnings[i]);
  if (signo) {
    char buf[128];
    snprintf(buf, sizeof(buf), "the program was stopped by signal %d (%s); events after it are lost",
             signo, strsignal(signo));
    ompdp_report_add_warning(&r, buf);
    r.partial = 1;
  }
  if (ompdp_log_dropped()) {
    char buf[128];
    snprintf(buf, sizeof(buf), "%llu events were dropped for lack of memory",
             (unsigned long long)ompdp_log_dropped());
    ompdp_report_add_warning(&r, buf);
    r.partial = 1;
  }
  ompdp_event_t *ev = NULL;
  size_t n = 0;
  if (ompdp_log_collect(&ev, &n)) {
    fprintf(stderr, "ompdp: out of memory while collecting events; no report\n");
    ompdp_report_free(&r);
    return;
  }
  ompdp_analysis_input_t in = {
      .events = ev,
      .num_events = n,
      .host_device = ompdp_host_device(),
      .wall_time_ns = ompdp_now_ns() - start_ns,
      .kernels_from_targets = kernels_from_targets,
  };
  if (ompdp_analyze(&in, &r, attribute_event))
    fprintf(stderr, "ompdp: out of memory during analysis; the report is incomplete\n");
  r.hash_collisions = ompdp_hash_collisions();
  free(ev);
  ompdp_attribution_done();
  ompdp_output_report(&r, start_pid);
  ompdp_report_free(&r);
}

EXPORT ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                 const char *runtime_version) {
  static ompt_start_tool_result_t result = {ompdp_initialize, ompdp_finalize, {0}};
  ompdp_options_reset();
  ompdp_options_parse(getenv("OMPDP_OPTIONS"));
  return &result;
}
