/*===- engine.h - the analysis engine and what it reads -------------*- C -*-===*\
|*
|* The input of the analysis and its entry points: the events the OMPT
|* callbacks record (rt/), as 24-byte records (ompdp_rec_t) whose
|* operation -- what, between which addresses and devices, how many bytes,
|* from which call site, region and map item -- is interned once in a table
|* (ompdp_op_t, intern.c) that every thread reads through a private cache;
|* ompdp_event_t is the expanded view of one event, for code that wants all
|* of it at once (tests, the rewrite facts). The engine (analysis.c) is fed
|* records in analysis order and fills the report model (report/report.h).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_ENGINE_H
#define OMPDP_ENGINE_H

#include "report.h"

#include <stddef.h>
#include <stdint.h>

#define OMPDP_NONE UINT32_MAX

/* What an event records. */
typedef enum ompdp_event_type {
  OMPDP_EV_ALLOC,    /* device allocation: src = host address, dst = device address */
  OMPDP_EV_DELETE,   /* device free: src = device address */
  OMPDP_EV_TRANSFER, /* copy from src (device src_dev) to dst (device dst_dev) */
  OMPDP_EV_KERNEL,   /* kernel execution on dst_dev */
  /* A kernel launch used a device allocation (its map arguments point into
   * it): dst_dev, dst = the allocation's device address; region, item and
   * codeptr are the launch's (rt/uses.c). Not an OMPT event: the runtime
   * records it right after the kernel whose operation says so
   * (OMPDP_KERNEL_USES_RECORDED), at most once per allocation between two
   * allocations or deletes on its device. */
  OMPDP_EV_USE,
  OMPDP_EV_TARGET,   /* an offload construct (views only; never stored) */
} ompdp_event_type_t;
/* The last type a record stores. */
#define OMPDP_EV_STORED_LAST OMPDP_EV_USE

/* A kernel operation's src_addr: 1 when the runtime records which device
 * allocations the launch uses (OMPDP_EV_USE records follow the kernel), 0
 * when it does not know (a launch without the compiler plugin's map
 * arguments): such a kernel may use every allocation on its device. */
#define OMPDP_KERNEL_USES_RECORDED 1

enum ompdp_event_flags {
  OMPDP_EVF_COMPLETE = 1 << 0, /* the end callback has been seen */
  OMPDP_EVF_HASHED = 1 << 1,   /* hash holds the XXH3 of the host-side bytes */
};
/* Data ops and kernels keep the ompt_target_t kind of their construct in the
 * upper four bits of flags (attribution reads the line table differently
 * for kernel launches and data constructs). */
#define OMPDP_EVF_CONSTRUCT_SHIFT 4
#define OMPDP_EV_CONSTRUCT(e) ((int)((e)->flags >> OMPDP_EVF_CONSTRUCT_SHIFT))

/* One event, expanded. Times are in the clock's ticks for analysis input and
 * in CLOCK_MONOTONIC-based nanoseconds in ompdp_log_expand() output. Kernel
 * intervals run from the launch until the end of the enclosing construct,
 * which over-approximates an asynchronous launch safely (the kernel is done
 * when the construct ends). */
typedef struct ompdp_event {
  uint64_t t_begin;
  uint64_t t_end;
  uint64_t hash;
  uint64_t src_addr;
  uint64_t dst_addr;
  uint64_t bytes;
  const void *codeptr; /* return address of the offload call in user code */
  int32_t src_dev;
  int32_t dst_dev;
  uint32_t region;     /* compiler region handle, 0 when unknown */
  int16_t item;        /* map item within the region, -1 when unknown */
  uint8_t type;        /* ompdp_event_type_t */
  uint8_t flags;       /* ompdp_event_flags | construct << OMPDP_EVF_CONSTRUCT_SHIFT */
} ompdp_event_t;

/* Ticks of the runtime's clock to nanoseconds: ns = ticks * mult >> 32
 * (mult 1 << 32: ticks are nanoseconds). */
static inline uint64_t ompdp_ticks_to_ns(uint64_t ticks, uint64_t mult) {
  return (uint64_t)(((unsigned __int128)ticks * mult) >> 32);
}
/*===- operations (intern.c) ----------------------------------------------===*/

/* Everything about an event except its time and content. Zero-padded, 48
 * bytes; equal fields make the same id. */
typedef struct ompdp_op {
  uint64_t src_addr;
  uint64_t dst_addr;
  uint64_t bytes;
  const void *codeptr;
  int32_t src_dev;
  int32_t dst_dev;
  uint32_t region;
  int16_t item;
  uint8_t type;      /* ompdp_event_type_t */
  uint8_t construct; /* ompt_target_t of the construct, 0 when unknown */
} ompdp_op_t;

#define OMPDP_OP_ID_BITS 27
#define OMPDP_OP_MAX ((1u << OMPDP_OP_ID_BITS) - 1)

/* The id of op (inserting it when new), or OMPDP_NONE when the table is full
 * or out of memory. Lock-free when this thread has seen op recently; a
 * striped lock otherwise, so threads seldom wait for each other. */
uint32_t ompdp_op_intern(const ompdp_op_t *op);
/* Called with each operation interned for the first time, under its
 * shard's lock, when set (the runtime's MPI rank notes its devices:
 * rt/rank_linux.c). Set once, before any operation is interned. */
typedef void (*ompdp_op_new_hook_fn)(const ompdp_op_t *op);
extern ompdp_op_new_hook_fn ompdp_op_new_hook;
/* The same, first checking the two operations this thread interned last
 * with no hashing at all (the callbacks' path). */
typedef struct ompdp_op_mru {
  ompdp_op_t op[2];
  uint32_t id[2];
  uint32_t valid, next;
} ompdp_op_mru_t;
/* Only a pointer in TLS: the tool is dlopen'ed, and initial-exec TLS comes
 * out of the small static surplus glibc keeps for such libraries. */
extern _Thread_local ompdp_op_mru_t *ompdp_op_mru __attribute__((tls_model("initial-exec")));
uint32_t ompdp_op_intern_slow(const ompdp_op_t *op);
/* Field by field, each read as wide as it was written: b is most often an
 * operation the callback has just stored field by field on its stack, and
 * an 8-byte load of fields written by two or more narrower stores still
 * in the store buffer cannot be forwarded from them (it waits for them to
 * reach the cache: two such waits an operation, 8-byte words compared). The
 * struct has no padding (48 bytes of fields), so this compares every byte. */
static inline int ompdp_op_same(const ompdp_op_t *a, const ompdp_op_t *b) {
  return !((a->src_addr ^ b->src_addr) | (a->dst_addr ^ b->dst_addr) | (a->bytes ^ b->bytes) |
           ((uint64_t)(uintptr_t)a->codeptr ^ (uint64_t)(uintptr_t)b->codeptr) |
           (uint32_t)(a->src_dev ^ b->src_dev) | (uint32_t)(a->dst_dev ^ b->dst_dev) |
           (a->region ^ b->region) | (uint16_t)(a->item ^ b->item) |
           (uint8_t)(a->type ^ b->type) | (uint8_t)(a->construct ^ b->construct));
}
_Static_assert(sizeof(ompdp_op_t) == 48, "ompdp_op_same compares every field, no padding");
static inline uint32_t ompdp_op_intern_fast(const ompdp_op_t *op) {
  ompdp_op_mru_t *m = ompdp_op_mru;
  if (__builtin_expect(!m, 0))
    return ompdp_op_intern_slow(op);
  if ((m->valid & 1) && ompdp_op_same(&m->op[0], op))
    return m->id[0];
  if ((m->valid & 2) && ompdp_op_same(&m->op[1], op))
    return m->id[1];
  return ompdp_op_intern_slow(op);
}
/* The operation of an id that ompdp_op_intern returned. */
const ompdp_op_t *ompdp_op_get(uint32_t id);
/* Operations interned so far, and whether any came from a region table. */
size_t ompdp_op_count(void);
int ompdp_op_any_region(void);
size_t ompdp_op_memory(void);
/* Where the table keeps its entries (rt/shm_linux.c: in the crash log):
 * chunk gives room for 1024 entries of a shard (NULL: malloc), added is
 * told of each new operation before its id is returned. Set once, before
 * any operation. Hooks set by the runtime: analysis/ knows no rt/. */
void ompdp_op_set_store(ompdp_op_t *(*chunk)(uint32_t shard, uint32_t index),
                        void (*added)(const ompdp_op_t *op));

/*===- records ------------------------------------------------------------===*/

/* One stored event: 24 bytes. `op` holds the operation id in its low
 * OMPDP_OP_ID_BITS bits and the event type (three bits), HASHED and
 * COMPLETE above them;
 * COMPLETE is stored last, with release order, by whoever finishes it. */
typedef struct ompdp_rec {
  uint64_t t_begin; /* ticks */
  uint64_t x;       /* transfer: content hash; others: t_end (ticks) */
  uint32_t dur;     /* transfer: duration, see ompdp_rec_dur_encode */
  uint32_t op;
} ompdp_rec_t;

#define OMPDP_REC_TYPE_SHIFT OMPDP_OP_ID_BITS
#define OMPDP_REC_HASHED (1u << 30)
#define OMPDP_REC_COMPLETE (1u << 31)

static inline uint32_t ompdp_rec_op_id(uint32_t w) { return w & OMPDP_OP_MAX; }
static inline int ompdp_rec_type(uint32_t w) { return (int)((w >> OMPDP_REC_TYPE_SHIFT) & 7); }
static inline uint32_t ompdp_rec_word(uint32_t id, int type, int hashed, int complete) {
  return id | (uint32_t)type << OMPDP_REC_TYPE_SHIFT | (hashed ? OMPDP_REC_HASHED : 0) |
         (complete ? OMPDP_REC_COMPLETE : 0);
}
/* Transfer durations: exact below 2^31 ticks, in units of 1024 ticks above
 * (a transfer of over half a second measured to a microsecond). */
static inline uint32_t ompdp_rec_dur_encode(uint64_t d) {
  if (d < (1ull << 31))
    return (uint32_t)d;
  d >>= 10;
  return (uint32_t)(1u << 31) | (uint32_t)(d < (1ull << 31) ? d : (1ull << 31) - 1);
}
static inline uint64_t ompdp_rec_dur_decode(uint32_t v) {
  return v >> 31 ? (uint64_t)(v & 0x7fffffffu) << 10 : v;
}
static inline uint64_t ompdp_rec_end(const ompdp_rec_t *r, uint32_t w) {
  return ompdp_rec_type(w) == OMPDP_EV_TRANSFER ? r->t_begin + ompdp_rec_dur_decode(r->dur)
                                                : r->x;
}
/* The expanded view of a record; times converted with mult (ticks * mult
 * >> 32; pass 1 << 32 to keep ticks). */
void ompdp_rec_expand(const ompdp_rec_t *r, uint32_t w, uint64_t mult, ompdp_event_t *out);
/* A record for an expanded event (interns its operation). Returns 0, or -1
 * when the operation table is full. */
int ompdp_rec_from_event(const ompdp_event_t *e, ompdp_rec_t *out);

/*===- analysis (analysis.c) ----------------------------------------------===*/

/* Where an operation comes from: fills loc and, when site is not NULL (the
 * operation is a finding's site), what the finding says of its map item:
 * variable, clause, the compiler's region_id and the item's range. Strings
 * are malloc'd. The runtime answers from the region tables and DWARF
 * (rt/tool.c), so that a finding is placed where its event is attributed. */
typedef void (*ompdp_attribute_fn)(const ompdp_op_t *op, ompdp_loc_t *loc,
                                   ompdp_finding_t *site);

/* The online analysis: fed records in analysis order, one at a time, it
 * runs all five detections as it goes and keeps only aggregates and what
 * later events can still change, so that feeding records while the program
 * runs and feeding them all at exit give the same report. */
typedef struct ompdp_engine ompdp_engine_t;

/* The zero_min_bytes option's default: the smallest all-zero copy in that
 * is a zero_transfer finding (rt/options.inc). */
#define OMPDP_ZERO_MIN_BYTES 64

typedef struct ompdp_engine_config {
  int host_device;
  /* The smallest host-to-device copy (bytes) whose all-zero content is a
   * finding; 0: OMPDP_ZERO_MIN_BYTES (an empty copy never is one). */
  uint64_t zero_min_bytes;
  /* 0: keep every content hash; else the bytes that the content tables of
   * the duplicate and round-trip detections may use before they forget the
   * oldest half (the report then says how many were forgotten). */
  uint64_t content_limit;
  /* Test hook: when not NULL, every match is also appended here, by kind
   * (an array of OMPDP_FK_COUNT vectors; see detect.h). */
  struct ompdp_matches *matches;
  /* Keep the operations of a timeline for the report (0: none), as the
   * runtime's options timeline, timeline_first and timeline_per_finding
   * say (analysis/timeline_collect.h). */
  int timeline;
  enum { OMPDP_TIMELINE_BOUNDED, OMPDP_TIMELINE_FULL, OMPDP_TIMELINE_OFF } timeline_mode;
  uint64_t timeline_first, timeline_per_finding;
  /* The host thread (0 for the first that logged) of the record being fed,
   * for the timeline's tracks; NULL: 0. */
  uint32_t (*sink_thread)(void);
  /* Where the region tables are read (the runtime's
   * ompdp_regions_describe; tests their own): the overbroad maps' map items
   * and the words of every finding at its item. NULL: no table, no
   * overbroad findings. */
  ompdp_describe_fn describe;
  /* For an operation of an item the compiler gave SECTION_END (an array
   * section whose loops it bounded): the section's lower bound in bytes
   * (its first element's offset from the array's), as the run saw it; 0,
   * or -1 when unknown. NULL: never known (no shrunk-section findings). */
  int (*section_lower)(uint32_t op, uint64_t *bytes);
  /* early_alloc and late_release (detect_lifetime.c): the least a fix must
   * lower its device's peak by to be a finding (bytes; 0:
   * OMPDP_PEAK_MIN_BYTES), and lifetime_all 1 to report every allocation
   * kept unused while another construct allocated on its device, whatever
   * its fix saves. */
  uint64_t peak_min_bytes;
  int lifetime_all;
} ompdp_engine_config_t;

/* The peak_min_bytes option's default (rt/options.inc). */
#define OMPDP_PEAK_MIN_BYTES 4096

typedef struct ompdp_engine_result {
  uint64_t wall_time_ns;
  uint64_t tick_mult; /* ns = ticks * tick_mult >> 32 */
  ompdp_attribute_fn attribute; /* NULL: leave locations unset */
} ompdp_engine_result_t;

ompdp_engine_t *ompdp_engine_create(const ompdp_engine_config_t *cfg);
/* Feeds one complete record (seq: its position in analysis order). Returns
 * 0, or -1 when out of memory (the engine then ignores what follows). A
 * kernel record without COMPLETE in word is a kernel in flight (begun,
 * never seen to end: a process that died in it): it is not counted, but
 * what it may read is used; any other incomplete record is ignored. */
int ompdp_engine_feed(ompdp_engine_t *g, const ompdp_rec_t *r, uint32_t word, uint64_t seq);
/* Ends the stream and fills the report's summary and findings. */
int ompdp_engine_finish(ompdp_engine_t *g, ompdp_report_t *r, const ompdp_engine_result_t *res);
/* The same for a run that ended early (a death, a fatal signal): what only
 * the end of a run decides is not decided. An allocation still alive, or a
 * transfer nothing overwrote, is not called unused (the process might yet
 * have used it, or a kernel in flight did); only what the log proves is:
 * an allocation freed, or a transfer overwritten, with no kernel that could
 * use it in between. */
int ompdp_engine_finish_early(ompdp_engine_t *g, ompdp_report_t *r,
                              const ompdp_engine_result_t *res);
/* Fills the report with what is decided so far (the journal, rt/journal.c):
 * findings that only the end of the run decides are left out, and the
 * engine can still be fed and finished. Costs time in the findings, not the
 * events. */
int ompdp_engine_snapshot(ompdp_engine_t *g, ompdp_report_t *r,
                          const ompdp_engine_result_t *res);
void ompdp_engine_destroy(ompdp_engine_t *g);
/* Bytes the engine holds now; content hashes it had to forget. */
size_t ompdp_engine_memory(const ompdp_engine_t *g);
uint64_t ompdp_engine_forgotten(const ompdp_engine_t *g);
/* Adapters for ompdp_log_*: ctx is the engine. */
int ompdp_engine_sink(void *ctx, const ompdp_rec_t *r, uint32_t word, uint64_t seq);
void ompdp_engine_ahead(void *ctx, const ompdp_rec_t *r);

/* All detections over an array of expanded events (in analysis order,
 * times in ticks), for tests and tools: the same engine, fed from memory. */
typedef struct ompdp_analysis_input {
  const ompdp_event_t *events;
  size_t num_events;
  int host_device;
  uint64_t wall_time_ns;
  uint64_t tick_mult; /* 0: ticks are nanoseconds */
  ompdp_describe_fn describe; /* as the engine's config */
  int (*section_lower)(uint32_t op, uint64_t *bytes); /* as the engine's config */
} ompdp_analysis_input_t;

int ompdp_analyze(const ompdp_analysis_input_t *in, ompdp_report_t *r,
                  ompdp_attribute_fn attribute);

#endif /* OMPDP_ENGINE_H */
