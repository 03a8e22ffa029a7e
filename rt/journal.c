/*===- journal.c - saving the analysis so far, for SIGKILL ----------*- C -*-===*\
|*
|* SIGKILL, _exit() and the OOM killer give a process no chance to write its
|* report. So, in stream mode, the consumer thread that feeds the analysis
|* also saves a snapshot of it (ompdp_engine_snapshot: the findings decided
|* so far, without disturbing the engine) at most every journal_ms, into
|* <report>.journal beside the report (rt/eventlog.c schedules it; the
|* format is in journal.h). The report written at exit removes it; `ompdp
|* run` and `ompdp report` turn one that is left into a partial report.
|*
|* A flush costs time in the findings, not in the events: the snapshot
|* walks the findings, renders them as JSON and writes one small file. What
|* the findings' locations cost is paid once per site: the attribution of
|* each operation is kept here, and DWARF is read only for sites not seen
|* before (its handle is then closed again, so that the report at exit sees
|* the libraries loaded by then). The file is written whole, through a
|* temporary file renamed over it, never through a symlink, with the user's
|* umask (rt/output.c), and not synced: what SIGKILL leaves in the page
|* cache is there for the reader; a crash of the machine is not covered.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "journal.h"
#include "attribution.h"
#include "detect.h" /* ompdp_hmap */
#include "ompdp_rt.h"
#include "tool.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char journal_path[PATH_MAX];
static int journal_on;
static int journal_failed_said;
static ompdp_journal_attribute_fn attribute_under;

/* The attribution of each operation seen in a snapshot: the table maps
 * its address (operations never move) to an index in `sites`. */
typedef struct site {
  ompdp_loc_t loc;
  char *variable, *clause, *call;
  uint64_t region_id;
  ompdp_range_t range;
} site_t;
static ompdp_hmap_t site_index;
static int site_index_ready;
static site_t *sites;
static size_t num_sites, cap_sites;
static int dwarf_used; /* this flush read DWARF: close it afterwards */

int ompdp_journal_init(int start_pid, ompdp_journal_attribute_fn under) {
  attribute_under = under;
  journal_on = ompdp_output_journal_path((pid_t)start_pid, journal_path,
                                         sizeof(journal_path)) == 0;
  return journal_on ? 0 : -1;
}

static void copy_loc(ompdp_loc_t *dst, const ompdp_loc_t *src) {
  dst->file = ompdp_strdup(src->file);
  dst->function = ompdp_strdup(src->function);
  dst->line = src->line;
  dst->column = src->column;
}

void ompdp_journal_attribute(const struct ompdp_op *op, ompdp_loc_t *loc,
                             ompdp_finding_t *site) {
  memset(loc, 0, sizeof(*loc));
  if (!attribute_under)
    return;
  if (!site_index_ready)
    site_index_ready = ompdp_hmap_init(&site_index, 64) == 0;
  uint64_t *slot = NULL;
  int inserted = 0;
  if (site_index_ready)
    slot = ompdp_hmap_upsert(&site_index, (uint64_t)(uintptr_t)op, site != NULL, 0, &inserted);
  if (slot && !inserted) {
    const site_t *s = &sites[*slot];
    copy_loc(loc, &s->loc);
    if (site) {
      site->variable = ompdp_strdup(s->variable);
      site->clause = ompdp_strdup(s->clause);
      site->call = ompdp_strdup(s->call);
      site->region_id = s->region_id;
      site->range = s->range;
    }
    return;
  }
  /* Not seen before (or no memory for the table): ask, and keep it. */
  attribute_under(op, loc, site);
  dwarf_used = 1;
  if (!slot)
    return;
  if (num_sites == cap_sites) {
    size_t ncap = cap_sites ? 2 * cap_sites : 16;
    site_t *ns = realloc(sites, ncap * sizeof(*ns));
    if (!ns) {
      ompdp_hmap_remove(&site_index, (uint64_t)(uintptr_t)op, site != NULL, 0);
      return;
    }
    sites = ns;
    cap_sites = ncap;
  }
  site_t *s = &sites[num_sites];
  memset(s, 0, sizeof(*s));
  copy_loc(&s->loc, loc);
  if (site) {
    s->variable = ompdp_strdup(site->variable);
    s->clause = ompdp_strdup(site->clause);
    s->call = ompdp_strdup(site->call);
    s->region_id = site->region_id;
    s->range = site->range;
  }
  *slot = num_sites++;
}

void ompdp_journal_save(const ompdp_report_t *snapshot, uint64_t events) {
  if (dwarf_used) {
    ompdp_attribution_done();
    dwarf_used = 0;
  }
  if (!journal_on)
    return;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  uint64_t at = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
  char *data;
  size_t len;
  if (ompdp_journal_encode(snapshot, at, events, &data, &len) == 0) {
    if (ompdp_output_journal(journal_path, data, len) && !journal_failed_said) {
      /* Once: the program goes on, and so does the analysis. */
      journal_failed_said = 1;
      if (ompdp_stderr_usable())
        dprintf(STDERR_FILENO, "ompdp: cannot write the journal '%s': %s; a SIGKILL would "
                               "lose the whole report\n", journal_path, strerror(errno));
    }
    free(data);
  }
}

void ompdp_journal_remove(void) {
  if (journal_on)
    unlink(journal_path);
}
