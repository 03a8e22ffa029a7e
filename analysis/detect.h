/*===- detect.h - the online detections -----------------------------*- C -*-===*\
|*
|* Algorithms 1-5 of the OMPDataPerf paper (PPoPP'26, section 5), with the
|* corrections listed in docs/detections.md, and the zero-transfer and
|* overbroad-map detections, run online: the engine
|* (analysis.c) is fed the events in analysis order and each detection
|* updates its state per event, keeping aggregates and what a later event
|* can still change, never the events themselves. Shared here between the
|* engine and the detections; unit tests reach them through
|* ompdp_find_matches.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_DETECT_H
#define OMPDP_DETECT_H

#include "engine.h"
#include "region_view.h"
#include "op_account.h"

/* One avoidable operation, by position in the analysis order (seq).
 * Meaning of ref and aux by detection:
 *   duplicate transfer: avoid = the repeat, ref = first transfer of the same
 *                       bytes to that device, aux = 1 if the repeat re-sends
 *                       the same host buffer as ref, else 0
 *   round trip:         avoid = the returning transfer, ref = the outgoing one
 *   repeated alloc:     avoid = a later allocation, ref = the first one with
 *                       the same key, aux = avoid's delete (or OMPDP_NONE)
 *   unused alloc:       avoid = the allocation, aux = its delete (or NONE)
 *   unused transfer:    avoid = the transfer, ref = the transfer that
 *                       overwrote it (OMPDP_NONE: no kernel ran afterwards)
 *   zero transfer:      avoid = the transfer, ref = OMPDP_NONE
 *   overbroad map:      avoid = the allocation or transfer, ref = OMPDP_NONE,
 *                       aux = the rule (OMPDP_OVERBROAD_*; for
 *                       OMPDP_OVERBROAD_SECTION the finding counts only
 *                       the bytes the region never touches, and a copy
 *                       with none is in its count, not in the matches)
 *   early alloc:        avoid = the allocation, ref = its first use (a transfer or
 *                       a kernel's use)
 *   late release:       avoid = the allocation, ref = its last use */
typedef struct ompdp_match {
  uint32_t avoid;
  uint32_t ref;
  uint32_t aux;
} ompdp_match_t;

typedef struct ompdp_matches {
  ompdp_match_t *v;
  size_t n, cap;
} ompdp_matches_t;

int ompdp_matches_push(ompdp_matches_t *m, uint32_t avoid, uint32_t ref, uint32_t aux);
void ompdp_matches_free(ompdp_matches_t *m);

/* Runs an engine configured as cfg over ev[0..n) (times in ticks) and
 * returns its matches by kind in out[0..OMPDP_FK_COUNT), each in the order
 * the engine decided them. For tests. */
int ompdp_find_matches(const ompdp_event_t *ev, size_t n, const ompdp_engine_config_t *cfg,
                       ompdp_matches_t out[OMPDP_FK_COUNT]);

/*===- a small open-addressing hash map, keys of three words ---------------===*/

typedef struct ompdp_hmap_slot {
  uint64_t k[3];
  uint64_t value;
  int used;
} ompdp_hmap_slot_t;

typedef struct ompdp_hmap {
  ompdp_hmap_slot_t *slots;
  size_t cap; /* power of two */
  size_t n;
} ompdp_hmap_t;

int ompdp_hmap_init(ompdp_hmap_t *m, size_t expected);
void ompdp_hmap_free(ompdp_hmap_t *m);
/* The value slot for the key, inserted as 0 (and *inserted = 1) when new.
 * NULL when out of memory. The pointer is valid until the next insertion. */
uint64_t *ompdp_hmap_upsert(ompdp_hmap_t *m, uint64_t a, uint64_t b, uint64_t c, int *inserted);
uint64_t *ompdp_hmap_find(const ompdp_hmap_t *m, uint64_t a, uint64_t b, uint64_t c);
/* Removes the key if present (backward-shift deletion: no tombstones). */
void ompdp_hmap_remove(ompdp_hmap_t *m, uint64_t a, uint64_t b, uint64_t c);
size_t ompdp_hmap_memory(const ompdp_hmap_t *m);

/*===- content tables: big maps keyed by content hash ----------------------===*/

/* Open addressing over 16 sub-tables picked by the key's top bits, each
 * doubling on its own, so that growing never holds two copies of the whole
 * table (the duplicate detection keeps one entry per distinct content). A
 * key is the content hash mixed with the devices it concerns; an entry
 * stores that key and one or two 32-bit values in 12 or 16 bytes, so one
 * probe touches one cache line. Sub-tables of 2 MiB and more are mapped
 * with transparent huge pages: lookups are random, and with 4 KiB pages
 * nearly every one would also miss the TLB. Whether an entry with an equal
 * key really has the same devices is asked of `same` (the devices live in
 * the operation table). */
#define OMPDP_CTAB_SHIFT 60
#define OMPDP_CTAB_SUBS (1 << (64 - OMPDP_CTAB_SHIFT))
typedef struct ompdp_ctab_sub {
  unsigned char *e; /* entries of t->esize bytes: key, a[, b] */
  uint32_t cap, n;
} ompdp_ctab_sub_t;

typedef struct ompdp_ctab {
  ompdp_ctab_sub_t sub[OMPDP_CTAB_SUBS];
  uint32_t esize; /* 12 or 16 */
  size_t n;
  size_t bytes;
} ompdp_ctab_t;

typedef int (*ompdp_ctab_same_fn)(const void *ctx, uint32_t a);

void ompdp_ctab_init(ompdp_ctab_t *t, int with_b);
void ompdp_ctab_free(ompdp_ctab_t *t);
/* Values `a` are stored as a + 1 (0 marks an empty slot): readers of *a
 * subtract one, writers add one.
 * The entry for key k whose `a` satisfies same, as pointers to its values
 * (b is NULL without with_b); 0 if found, -1 if not. */
int ompdp_ctab_find(ompdp_ctab_t *t, uint64_t k, ompdp_ctab_same_fn same, const void *ctx,
                    uint32_t **a, uint32_t **b);
/* The entry for k, inserted with values a and b when absent: 0 if it was
 * there, 1 if inserted, -1 when out of memory (then *va is not set). */
int ompdp_ctab_upsert(ompdp_ctab_t *t, uint64_t k, ompdp_ctab_same_fn same, const void *ctx,
                      uint32_t a, uint32_t b, uint32_t **va, uint32_t **vb);
/* Inserts a new entry (the caller knows the key is absent). -1 when out of
 * memory. */
int ompdp_ctab_insert(ompdp_ctab_t *t, uint64_t k, uint32_t a, uint32_t b);
/* Removes the entry whose values ompdp_ctab_find returned in a. */
void ompdp_ctab_remove(ompdp_ctab_t *t, uint64_t k, uint32_t *a);
/* Starts loading the line where key k would be. */
static inline void ompdp_ctab_prefetch(const ompdp_ctab_t *t, uint64_t k) {
  const ompdp_ctab_sub_t *s = &t->sub[k >> OMPDP_CTAB_SHIFT];
  if (s->cap)
    __builtin_prefetch(s->e + (size_t)((uint32_t)k & (s->cap - 1)) * t->esize);
}

/*===- the engine's view of an event -----------------------------------------===*/

typedef struct ompdp_xev {
  uint64_t seq;
  uint64_t start, end; /* ticks, end >= start */
  uint64_t hash;
  uint32_t op;
  int type;
  int hashed; /* a complete, hashed, non-empty transfer */
  const ompdp_op_t *d;
  uint32_t member; /* index in the open cluster (data operations), else OMPDP_NONE */
} ompdp_xev_t;

/* An earlier event as a detection remembers it. */
typedef struct ompdp_xref {
  uint64_t seq;
  uint32_t op;
} ompdp_xref_t;

/* The host-side address of a transfer (its source or destination on host). */
uint64_t ompdp_host_addr(const ompdp_op_t *o, int host_device);

/* A selection that is decided after its event's interval was accounted:
 * points into a cluster until that cluster closes; if it closed with this
 * event alone, holds what selecting it would add. Embedded in the pending
 * entity that will decide it. */
typedef struct ompdp_late ompdp_late_t;
typedef struct ompdp_engine ompdp_engine_t;
/* Called by the engine when a cluster closes with the event alone while it
 * is late-pending: the owner converts lr (now holding len, gdelta); bsel:
 * ompdp_g_late_mark was called. */
typedef void (*ompdp_late_single_fn)(ompdp_engine_t *g, void *owner, ompdp_late_t *lr,
                                     int bsel);
struct ompdp_late {
  struct ompdp_cluster *cl;
  uint32_t idx;
  uint64_t len;    /* singleton: its interval's length */
  uint64_t gdelta; /* singleton: what it adds to the total when selected */
  ompdp_late_single_fn single; /* NULL: nothing to convert */
};

/* Selection of an event into the finding of (kind, its operation's site)
 * now, by the engine; ref may be NULL. Returns the finding, or OMPDP_NONE
 * when out of memory. */
uint32_t ompdp_g_select(ompdp_engine_t *g, int kind, const ompdp_xev_t *e,
                        const ompdp_xref_t *ref, uint32_t aux);
/* Selection of part of a transfer (bytes of it, the rest still needed)
 * into the finding of (kind, its operation's site): its count, those
 * bytes and the share of its time they take, which is also the
 * finding's saving; the event's interval stays out of the run's union of
 * saved time (the transfer still happens, maybe selected whole by another
 * finding). Returns
 * the finding, or OMPDP_NONE when out of memory. */
uint32_t ompdp_g_select_part(ompdp_engine_t *g, int kind, const ompdp_xev_t *e, uint32_t aux,
                             uint64_t bytes);
/* Adds an event's interval to finding f for the union (and its duration to
 * f's time), as the delete of a repeated allocation. */
int ompdp_g_add_interval(ompdp_engine_t *g, uint32_t f, const ompdp_xev_t *e);
/* Makes e's member (in the open cluster) late-pending on behalf of lr,
 * whose owner is told through single (may be NULL) if the cluster closes
 * with the member alone. */
void ompdp_g_late_begin(ompdp_engine_t *g, const ompdp_xev_t *e, ompdp_late_t *lr,
                        ompdp_late_single_fn single, void *owner);
/* Decides a late selection: f = the finding, or OMPDP_NONE for no. */
int ompdp_g_late_decide(ompdp_engine_t *g, ompdp_late_t *lr, uint32_t f);
/* Remembers, on a member whose cluster is still open or pending, that the
 * B outcome of its segment selects it (ompdp_g_late_marked reads it). */
void ompdp_g_late_mark(ompdp_late_t *lr);
int ompdp_g_late_marked(const ompdp_late_t *lr);
/* The finding of (kind, site of op), created with the given first event
 * when new; OMPDP_NONE when out of memory. */
uint32_t ompdp_g_finding(ompdp_engine_t *g, int kind, uint32_t op, uint64_t seq);
/* Count, bytes, time, devices and related operation of one selection of
 * operation o (of duration dur) into finding f. */
int ompdp_g_account(ompdp_engine_t *g, uint32_t f, const ompdp_op_t *o, uint64_t dur,
                    const ompdp_xref_t *ref, uint32_t aux);
/* Moves ticks of finding f's allocation time to the delete they belong to
 * (an unused allocation is accounted with its delete's time). */
void ompdp_g_move_to_delete(ompdp_engine_t *g, uint32_t f, uint64_t bytes, uint64_t ticks);
/* Adds to the union over all findings (selections accounted elsewhere). */
void ompdp_g_add_saved(ompdp_engine_t *g, uint64_t ticks);

/* What one outcome of a pending decision would add to one finding. */
typedef struct ompdp_agg {
  uint32_t op; /* the site, from the first operation */
  uint64_t first_seq;
  uint64_t count, bytes, time, saved;
  ompdp_oc_t oc; /* by class */
  int *devs;
  size_t ndevs;
  uint32_t ref_op; /* OMPDP_NONE: none */
  uint64_t ref_seq;
  uint32_t f; /* the finding once committed */
} ompdp_agg_t;
/* Adds one selection of operation o (duration dur) to a. */
int ompdp_agg_note(ompdp_agg_t *a, const ompdp_op_t *o, uint64_t dur, int host);
/* Commits a into the finding of (kind, a's site); returns it (a->f), or
 * OMPDP_NONE when out of memory. */
uint32_t ompdp_g_commit(ompdp_engine_t *g, int kind, ompdp_agg_t *a);
void ompdp_agg_free(ompdp_agg_t *a);
/* Test hook: whether matches are collected, and one match. */
int ompdp_g_collecting(const ompdp_engine_t *g);
/* Device memory in use, as the engine follows it (mem_track.h). */
struct ompdp_memtrack *ompdp_g_memory(ompdp_engine_t *g);
/* One allocation (operation op at position seq) into the finding of (kind,
 * op's site), a finding about device memory held while unused: count 1,
 * its bytes, its device, ref the use that bounds it (NULL: none); the
 * finding's peak saving is the largest of its allocations' saved. No time,
 * no operation removed. Returns the finding, or OMPDP_NONE when out of
 * memory. */
uint32_t ompdp_g_peak_select(ompdp_engine_t *g, int kind, uint32_t op, uint64_t seq,
                             const ompdp_xref_t *ref, uint64_t saved);
/* A match that a detection reports only later (when its decision comes):
 * kept in m for the tests' matches (all of them) or the timeline (the last
 * few: older events are gone from its window). 0, or -1 when out of
 * memory. */
int ompdp_g_collect(ompdp_engine_t *g, ompdp_matches_t *m, uint32_t avoid, uint32_t ref,
                    uint32_t aux);
void ompdp_g_match(ompdp_engine_t *g, int kind, uint64_t avoid, uint64_t ref, uint64_t aux);
int ompdp_g_host(const ompdp_engine_t *g);
/* Whether the run ended early (ompdp_engine_finish_early): a detection's
 * finish then decides only what the events so far prove. */
int ompdp_g_ended_early(const ompdp_engine_t *g);

/*===- the table of detections ------------------------------------------------===*/

/* What the aux of a match means for its finding (ompdp_g_account) and its
 * timeline. (A match's ref, when not OMPDP_NONE, is always the position of
 * the operation it repeats or undoes.) */
typedef enum ompdp_aux_use {
  OMPDP_AUX_NONE,        /* nothing */
  OMPDP_AUX_SAME_BUFFER, /* 1: the same host buffer as ref, 0: another one */
  OMPDP_AUX_RULE,        /* the rule that found it (overbroad maps) */
  OMPDP_AUX_DELETE,      /* the position of avoid's delete, avoidable with it
                            (OMPDP_NONE: none) */
} ompdp_aux_use_t;

/* Which rewrite the planner tries for findings of a kind (rewrite_policy.c;
 * the rules are in docs/fixes.md). */
typedef enum ompdp_rewrite_rule {
  OMPDP_RR_NONE,            /* the suggestion in words only */
  OMPDP_RR_KEEP_RESIDENT,   /* target data around the loop or the row of constructs */
  OMPDP_RR_REMOVE_MAPPING,  /* the item of an unused mapping goes */
  OMPDP_RR_SKIP_COPY_IN,    /* unused copies in: the update item goes, or the map copies nothing */
  OMPDP_RR_NARROW_MAP,      /* the item goes, or tofrom becomes to or from */
  OMPDP_RR_ALLOC_AND_FILL,  /* map(alloc:) and a device loop that writes the zeros */
  OMPDP_RR_SHRINK_LIFETIME, /* enter/exit data moved to the first/last use, or a target
                               data region left for enter/exit data around the uses */
} ompdp_rewrite_rule_t;

/* A finding's site as a call of a device memory routine (omp_target_memcpy,
 * omp_target_alloc, ...; routine_text.c), for the words of a kind there. */
typedef struct ompdp_routine_call {
  const ompdp_region_info_t *it; /* the call, as the region table has it */
  const char *routine;           /* its name */
  const char *variable;          /* the buffer's ("the buffer" when unknown) */
  const char *plural;            /* "s" for several devices, else "" */
  const char *devices;           /* the finding's devices, as a list */
  int loop;                      /* a loop of its function is around the call */
} ompdp_routine_call_t;
/* Argument k (from 0) of the call as written, into buf[n]; "" when the call
 * has fewer. */
const char *ompdp_routine_argument(const ompdp_routine_call_t *c, unsigned k, char *buf,
                                   size_t n);

struct ompdp_verdict_facts; /* verdict.h */

/* One finding kind a detection reports, and how: everything the engine,
 * the planner and the verdicts need to know of the kind (the words of its
 * report sections, SARIF rule and warning group are OmpdpFormat.inc's). */
typedef struct ompdp_detection_kind {
  ompdp_finding_kind_t kind;
  /* Devices of a finding: both ends of each operation but the host (else
   * the operation's destination device). */
  int transfer_devices;
  ompdp_aux_use_t aux;
  ompdp_rewrite_rule_t rewrite;
  /* The rewrite kinds (1u << OMPDP_RK_*) that its words propose: a finding
   * fixed by a rewrite of another kind says what that rewrite does instead
   * (verdict.c); routine calls of a kind whose rewrites include
   * OMPDP_RK_HOIST_ALLOC are hoisted out of their loop (rewrite_routine.c). */
  unsigned rewrites;
  /* Its verdict when no rewrite fixes it, from the run's facts (verdict.c);
   * NULL: advice. */
  ompdp_verdict_t (*verdict)(const ompdp_finding_t *f, const struct ompdp_verdict_facts *in);
  /* Its words at a call of a device memory routine, which moving or
   * replacing calls fixes, not map clauses (malloc'd; NULL when out of
   * memory); NULL: the detection's text. */
  char *(*routine_text)(const ompdp_finding_t *f, const ompdp_routine_call_t *call);
} ompdp_detection_kind_t;

/* A detection's hook for one event. */
typedef int (*ompdp_detection_event_fn)(void *d, ompdp_engine_t *g, const ompdp_xev_t *e);

/* One detection, as the engine sees it: its state is created with the
 * engine and given every event of the kinds it has a hook for, in analysis
 * order; NULL hooks are skipped. Hooks return 0, or -1 when out of memory
 * (the engine then stops). */
typedef struct ompdp_detection {
  const char *name;
  ompdp_detection_kind_t kinds[2];
  size_t num_kinds;
  void *(*create)(const ompdp_engine_config_t *cfg);
  /* Before each event (and before the event joins its cluster), with its
   * begin time. */
  int (*advance)(void *d, ompdp_engine_t *g, uint64_t now);
  ompdp_detection_event_fn on_alloc;
  ompdp_detection_event_fn on_delete;
  ompdp_detection_event_fn on_transfer;
  ompdp_detection_event_fn on_kernel;
  /* A kernel launch's use of a device allocation (OMPDP_EV_USE). */
  ompdp_detection_event_fn on_use;
  /* A hashed transfer of hash to device dev is a few events ahead. */
  void (*ahead)(void *d, uint64_t hash, int dev);
  /* The end of the events: decides what only the end can. */
  int (*finish)(void *d, ompdp_engine_t *g);
  size_t (*memory)(const void *d);
  /* Content hashes it had to forget to stay within content_limit. */
  uint64_t (*forgotten)(const void *d);
  void (*destroy)(void *d);
  /* The fix in words for one of its findings (malloc'd; NULL when out of
   * memory): item is its map item as the region table describes it (NULL:
   * no table, or no item), related the item of the operation it repeats or
   * undoes (f->related; NULL likewise), rule the finding's aux rule,
   * devices its device list. */
  char *(*text)(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                const ompdp_region_info_t *related, uint32_t rule, const char *devices);
} ompdp_detection_t;

/* The table (detections.c): every detection, in the order the engine
 * gives each event to them. */
extern const ompdp_detection_t *const ompdp_detections[];
extern const size_t ompdp_num_detections;
/* The detection that reports kind, and how (NULL for a kind out of range;
 * detections.c does not build with a kind no detection reports). */
const ompdp_detection_t *ompdp_kind_detection(ompdp_finding_kind_t kind);
const ompdp_detection_kind_t *ompdp_detection_kind(ompdp_finding_kind_t kind);

/*===- what detections share --------------------------------------------------===*/

/* Zero-filled transfers (detect_zero.c): XXH3-64 of n zero bytes, in
 * constant memory. */
uint64_t ompdp_zero_hash(uint64_t n);
/* Its cache of sizes: the hashes of zero buffers of the sizes seen so far
 * (and the kept state of the largest size); min_bytes as the detection's. */
typedef struct ompdp_zero ompdp_zero_t;
ompdp_zero_t *ompdp_zero_create(uint64_t min_bytes);
void ompdp_zero_destroy(ompdp_zero_t *z);
/* ompdp_zero_hash(n) through z's cache; 0, or -1 when out of memory. */
int ompdp_zero_lookup(ompdp_zero_t *z, uint64_t n, uint64_t *out);

/* Overbroad maps (detect_overbroad.c): operations of a `target` construct's
 * map item that the region's access (from the compiler's region table)
 * makes useless, copies back of any construct that the host never
 * reads (OMPDP_IA_HOST_UNREAD), or copies in of a `target` or `target
 * data` that its kernels overwrite before reading (OMPDP_IA_WRITES_FIRST).
 * The rule, also the aux of its matches: */
enum {
  OMPDP_OVERBROAD_NONE = 0,
  OMPDP_OVERBROAD_REMOVE = 1, /* never touched: every allocation and transfer */
  OMPDP_OVERBROAD_TO = 2,     /* tofrom, only read: the copies back */
  OMPDP_OVERBROAD_FROM = 3,   /* tofrom, only written: the copies in */
  OMPDP_OVERBROAD_UNREAD = 4, /* from, tofrom, update from: the copies back */
  OMPDP_OVERBROAD_OVERWRITTEN = 5, /* to, tofrom written before read: the copies in */
  OMPDP_OVERBROAD_SECTION = 6, /* a section longer than its loops (SECTION_END): the
                                  elements of each transfer the region never touches */
};
/* For an item with SECTION_END, `x[lower + skip : length + end - (lower +
 * skip)]` with the parentheses its text needs and the constants folded
 * (malloc'd; NULL when out of memory): the section the region uses. */
char *ompdp_section_shrunk(const ompdp_region_info_t *it);
/* Whether the shorter section holds the region's elements at a transfer
 * of such an item whose section's lower bound was lower_bytes and whose
 * bytes were bytes (the region's elements inside the section, some of
 * them): 1, with the bytes of it the region never touches in *spare (0
 * for a lower bound of 0), else 0 (the rewrite would not be right there). */
int ompdp_section_spare(const ompdp_region_info_t *it, uint64_t lower_bytes, uint64_t bytes,
                        uint64_t *spare);
/* The words of a finding whose item the compiler says is a new host buffer
 * at each repetition, whatever address malloc gave it: the loop around the
 * construct points it at a new one (OMPDP_IA_BASE_STORED), or, outside
 * loops, its function allocates it at each call (OMPDP_IA_FRESH_HOST) or
 * has it on its stack (OMPDP_IA_AUTOMATIC, when the construct repeated
 * itself: two constructs of one call may map the same variable).
 * item: f's, as the region table describes it (NULL: unknown); happened:
 * what the run saw, with the devices; once: the verb of the fix
 * ("allocate", "fill"); map: the enter data's clause. NULL when the item
 * is not such a buffer (or out of memory). */
char *ompdp_detect_fresh_text(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                              const ompdp_region_info_t *related, const char *happened,
                              const char *once, const char *map);
/* The words of a finding at a call of a device memory routine
 * (routine_text.c, from its kind's routine_text): moving or replacing
 * calls, never map clauses. NULL when f's site (item, as for a detection's
 * text) is no such call, its kind has no words there (or out of memory). */
char *ompdp_routine_text(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                         const char *devices);
/* The rule for one item as the region table describes it. */
int ompdp_overbroad_rule(const ompdp_region_info_t *it);

#endif /* OMPDP_DETECT_H */
