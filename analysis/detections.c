/*===- detections.c - the table of detections ------------------------*- C -*-===*\
|*
|* Every detection the engine runs, one ompdp_detection_t each (defined at
|* the end of its detect_*.c), in the order the engine hands each event to
|* them: a new detection is one file, one line in OMPDP_DETECTIONS below,
|* and its finding kinds in include/ompdp/OmpdpFormat.inc
|* (docs/architecture.md). Duplicates come first so that the prefetch of
|* their table line has time to land; allocations before unused transfers,
|* as the paper's algorithms are numbered.
|*
|* Each line also names the kinds its detection reports (K), so that a kind
|* of OmpdpFormat.inc that no line names stops the build here, and the
|* kind's detection is found without a search.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

/* D(name): the detection ompdp_detect_<name>; K(name, Kind): it reports
 * OMPDP_FK_<Kind>, one of its kinds[]. */
#define OMPDP_DETECTIONS(D, K)                                                                   \
  D(duplicate) K(duplicate, DUPLICATE_TRANSFER)             /* Algorithm 1 */                   \
  D(round_trip) K(round_trip, ROUND_TRIP)                   /* Algorithm 2 */                   \
  D(allocs) K(allocs, REPEATED_ALLOC) K(allocs, UNUSED_ALLOC) /* Algorithms 3 and 4 */          \
  D(unused_transfer) K(unused_transfer, UNUSED_TRANSFER)    /* Algorithm 5 */                   \
  D(zero) K(zero, ZERO_TRANSFER) K(zero, SINGLE_VALUE_TRANSFER)                                 \
  D(overbroad) K(overbroad, OVERBROAD_MAP)                                                       \
  D(lifetime) K(lifetime, EARLY_ALLOC) K(lifetime, LATE_RELEASE)

#define OMPDP_NO_KIND(name, kind)
#define OMPDP_NO_DETECTION(name)

#define OMPDP_EXTERN(name) extern const ompdp_detection_t ompdp_detect_##name;
OMPDP_DETECTIONS(OMPDP_EXTERN, OMPDP_NO_KIND)
#undef OMPDP_EXTERN

const ompdp_detection_t *const ompdp_detections[] = {
#define OMPDP_ENTRY(name) &ompdp_detect_##name,
    OMPDP_DETECTIONS(OMPDP_ENTRY, OMPDP_NO_KIND)
#undef OMPDP_ENTRY
};
const size_t ompdp_num_detections = sizeof(ompdp_detections) / sizeof(ompdp_detections[0]);

static const ompdp_detection_t *const KindDetection[OMPDP_FK_COUNT] = {
#define OMPDP_KIND_ENTRY(name, kind) [OMPDP_FK_##kind] = &ompdp_detect_##name,
    OMPDP_DETECTIONS(OMPDP_NO_DETECTION, OMPDP_KIND_ENTRY)
#undef OMPDP_KIND_ENTRY
};

/* Every finding kind is named above: a kind no line names is an
 * undeclared identifier detections_c_names_<Kind> below. */
enum {
#define OMPDP_KIND_NAMED(name, kind) detections_c_names_##kind,
  OMPDP_DETECTIONS(OMPDP_NO_DETECTION, OMPDP_KIND_NAMED)
#undef OMPDP_KIND_NAMED
};
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Ops, Title, Expl)                                \
  _Static_assert(detections_c_names_##Enum + 1,                                                   \
                 "OMPDP_FK_" #Enum " needs a detection in OMPDP_DETECTIONS (detections.c)");
#include "ompdp/OmpdpFormat.inc"

const ompdp_detection_t *ompdp_kind_detection(ompdp_finding_kind_t kind) {
  return (unsigned)kind < (unsigned)OMPDP_FK_COUNT ? KindDetection[kind] : NULL;
}

const ompdp_detection_kind_t *ompdp_detection_kind(ompdp_finding_kind_t kind) {
  const ompdp_detection_t *d = ompdp_kind_detection(kind);
  for (size_t k = 0; d && k < d->num_kinds; ++k)
    if (d->kinds[k].kind == kind)
      return &d->kinds[k];
  return NULL; /* a line of OMPDP_DETECTIONS that its detection does not confirm */
}
