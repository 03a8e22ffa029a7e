/*===- verdict.h - what each finding is worth ----------------------*- C -*-===*\
|*
|* Verdicts (OMPDP_VERDICT in OmpdpFormat.inc) are decided after the rewrites
|* are planned, from the report's plan (verdict.c). The decision for a
|* duplicate transfer is a pure function of the facts below, so that the unit
|* tests can state each case.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_VERDICT_H
#define OMPDP_VERDICT_H

#include "report.h"

/* What the plan says about a finding's buffer and construct. */
typedef struct ompdp_verdict_facts {
  int with_facts;    /* the plan has the finding's site (else all below are 0) */
  int d2h;           /* its repeats are copies back to the host */
  int dev_changed;   /* a copy back of its buffer differed from what was sent */
  int back_hashed;   /* some copy back of the buffer was compared at all */
  int kernel_writes; /* the compiler saw a kernel write the buffer's item */
  int region_writes; /* the finding's construct (a `target`, or a kernel of a `target
                        data`'s body) may write its item, as the compiler bounds it */
  int body_host_changes; /* a `target data` item its body's kernels at most read, which
                            its body's host code may change (no OMPDP_IA_BODY_HOST_READS) */
  int no_loop;       /* the site's construct is in no loop of its function */
  /* Why keeping the item resident was not rewritten (advice words), the
   * first that holds: */
  int other_function; /* another function's construct, or another call,
                         used the buffer too (the caller would need it) */
  int call_unknown;   /* the run knows no call the construct ran in (a caller built
                         without the plugin, or in another file; a call through a
                         pointer) */
  int call_mixed;     /* ... it also ran outside the calls the run followed */
  /* interleaved: other constructs used the buffer between its executions,
   * outside its own allocations (not a `target update` in its body) */
  int multi_buf, interleaved, sizes_differ, base_stored, to_written, nowait;
  int firstprivate; /* the item is passed firstprivate (implicit or not):
                       libomptarget's own buffer at each launch */
  int update_to; /* the site is a `target update to` item */
  int update_from; /* ... a `target update from` item */
  int update_resets; /* ... device code between two executions of a
                        `target update to` of it (OMPDP_IA_DEVICE_WRITTEN, or
                        kernel_use_writes) */
  int device_written; /* update_resets from OMPDP_IA_DEVICE_WRITTEN (the compiler of
                         this file saw it) */
  int kernel_use_writes; /* a kernel the run saw use the buffer's device allocation
                            (plan site kuse_region) writes its item, as its compiler
                            saw (a kernel of another file that found it present) */
  int copy_of_other; /* host code copies another variable into the item
                        (OMPDP_IA_COPY_OF_OTHER) */
  int host_written;  /* host code of the loops around the construct writes the item
                        (OMPDP_IA_HOST_WRITTEN) */
  int host_reads;    /* host code in the loop around the construct reads the item */
  int caller_reads;  /* a copy back by a construct in no loop of its function, run from one
                        call in a loop of the caller, which reads the argument there */
  int host_writes;   /* ... writes it (resets it) */
  int host_writes_named; /* ... in a statement that names it (a write, or a call it is
                            handed to that nobody can see into), not only one whose
                            opaque call might reach it through another pointer */
  int back_repeated; /* some construct copies the buffer back more than once */
  int site_copies;   /* the finding's own construct copies the item */
  int site_resends;  /* ... copies it in again and again, never other bytes */
  int back_new;      /* ... copies it back, every time other bytes than it held then */
  int inputs_same;   /* the construct copied in again, and never other bytes than before */
  int own_inputs;    /* a duplicate copy in of its function's own storage (automatic or
                        freshly allocated), the bytes sent before by other functions' own
                        storage at that address: each an input of its own */
  int fresh_host;    /* the item is a buffer its function allocates anew at each call
                        (OMPDP_IA_FRESH_HOST): with multi_buf, an earlier buffer with the
                        same bytes may be an earlier allocation of the same variable */
  int fresh_sizes;   /* a repeated allocation of new host buffers (the construct's
                        function allocates them, OMPDP_IA_FRESH_HOST) of different sizes */
  int own_variables; /* a repeated allocation whose construct allocated once, of storage
                        its function has anew at each call (OMPDP_IA_AUTOMATIC or
                        OMPDP_IA_FRESH_HOST), every other allocation of the buffer
                        being another function's own: different variables that got
                        the same host address */
  int back_rerun;    /* its site's copies back that returned the bytes of the buffer's
                        previous copy back, a kernel having run on the device since and
                        no transfer having brought it bytes it did not have, are at
                        least as many as the finding counts (d2h_recomputed) */
  int back_idle;     /* ... with neither a kernel nor such a transfer since (d2h_idle) */
  uint64_t site_h2d; /* the copies in at the finding's site, used or not */
  /* The item's section has a base pointer held in memory, which its map
   * attaches (ompdp_rw_attached_base): that pointer's text, else "". */
  char attached[64];
  int local_reduction; /* the item is its kernel's reduction variable and an automatic
                          variable of a function with no loop around the construct */
  int host_values;   /* host code stores values the compiler cannot evaluate into the
                        item (OMPDP_FILL_HOST_VALUES): what one run copied says nothing
                        of other inputs */
} ompdp_verdict_facts_t;

/* The verdict of finding f (its kind, rewrites, and for a duplicate
 * transfer same_buffer and other_buffer) given the facts:
 * fix with a rewrite, else its kind's verdict rule (the table of
 * detections), advice for a kind without one. */
ompdp_verdict_t ompdp_verdict_decide(const ompdp_finding_t *f, const ompdp_verdict_facts_t *v);
/* The verdict rules of the kinds that have one (without a rewrite). */
ompdp_verdict_t ompdp_verdict_duplicate(const ompdp_finding_t *f, const ompdp_verdict_facts_t *v);
ompdp_verdict_t ompdp_verdict_round_trip(const ompdp_finding_t *f,
                                         const ompdp_verdict_facts_t *v);
ompdp_verdict_t ompdp_verdict_repeated_alloc(const ompdp_finding_t *f,
                                             const ompdp_verdict_facts_t *v);
ompdp_verdict_t ompdp_verdict_fill_values(const ompdp_finding_t *f,
                                          const ompdp_verdict_facts_t *v);

/* Gives every finding of r its verdict from plan (the report's, before the
 * planner drops it; NULL or absent: fix or advice by the rewrites alone),
 * puts the suggestion of a finding without a rewrite in words that match
 * the verdict, and takes the saving of the findings that save nothing out
 * of the summary (into excluded_time_ns). Call once, after the rewrites are
 * planned. Returns 0, or -1 when out of memory (verdicts are still set). */
int ompdp_assign_verdicts(ompdp_report_t *r, const ompdp_plan_t *plan);

#endif /* OMPDP_VERDICT_H */
