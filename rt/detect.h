/*===- detect.h - the detection algorithms -----------------------*- C -*-===*\
|*
|* Algorithms 1-5 of the OMPDataPerf paper (PPoPP'26, section 5), with the
|* corrections listed in docs/detections.md. Each works on one chronological
|* array of events and reports matches by index into that array, so unit
|* tests can drive them with hand-written event sequences.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_DETECT_H
#define OMPDP_DETECT_H

#include "ompdp_rt.h"

/* One avoidable operation. Meaning of ref and aux by detection:
 *   duplicate transfer: avoid = the repeat, ref = first transfer of the same
 *                       bytes to that device, aux = 1 if the repeat re-sends
 *                       the same host buffer as ref, else 0
 *   round trip:         avoid = the returning transfer, ref = the outgoing one
 *   repeated alloc:     avoid = a later allocation, ref = the first one with
 *                       the same key, aux = avoid's delete (or OMPDP_NONE)
 *   unused alloc:       avoid = the allocation, aux = its delete (or NONE)
 *   unused transfer:    avoid = the transfer, ref = the transfer that
 *                       overwrote it (OMPDP_NONE: no kernel ran afterwards) */
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

/* An allocation and the delete that ends it (del == OMPDP_NONE: never freed
 * while the program ran). */
typedef struct ompdp_alloc_pair {
  uint32_t alloc;
  uint32_t del;
} ompdp_alloc_pair_t;

/* GETALLOCDELETEPAIRS: pairs each allocation with the first later delete of
 * the same device address on the same device. */
int ompdp_alloc_pairs(const ompdp_event_t *ev, size_t n, ompdp_alloc_pair_t **pairs,
                      size_t *num_pairs);

/* A transfer the content detections can use: complete, hashed, non-empty. */
int ompdp_is_hashed_transfer(const ompdp_event_t *e);
/* The host-side address of a transfer (its source or destination on host). */
uint64_t ompdp_host_addr(const ompdp_event_t *e, int host_device);

/* Algorithm 1. */
int ompdp_find_duplicate_transfers(const ompdp_event_t *ev, size_t n, int host_device,
                                   ompdp_matches_t *out);
/* Algorithm 2, corrected: a return pairs only with an earlier outgoing
 * transfer, and each transfer takes part in at most one trip. */
int ompdp_find_round_trips(const ompdp_event_t *ev, size_t n, ompdp_matches_t *out);
/* Algorithm 3: key (host address, device, bytes). */
int ompdp_find_repeated_allocs(const ompdp_event_t *ev, const ompdp_alloc_pair_t *pairs,
                               size_t num_pairs, ompdp_matches_t *out);
/* Algorithm 4: allocations whose lifetime meets no kernel on their device. */
int ompdp_find_unused_allocs(const ompdp_event_t *ev, size_t n, const ompdp_alloc_pair_t *pairs,
                             size_t num_pairs, ompdp_matches_t *out);
/* Algorithm 5: transfers to a device overwritten before a kernel ran there,
 * or sent after its last kernel. */
int ompdp_find_unused_transfers(const ompdp_event_t *ev, size_t n, int host_device,
                                ompdp_matches_t *out);

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

#endif /* OMPDP_DETECT_H */
