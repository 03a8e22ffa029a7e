/*===- detections.c - the table of detections ------------------------*- C -*-===*\
|*
|* Every detection the engine runs, one ompdp_detection_t each (defined at
|* the end of its detect_*.c), in the order the engine hands each event to
|* them: a new detection is one file, one line in each list below, and its
|* finding kinds in include/ompdp/OmpdpFormat.inc (docs/architecture.md).
|* Duplicates come first so that the prefetch of their table line has time
|* to land; allocations before unused transfers, as the paper's algorithms
|* are numbered.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

extern const ompdp_detection_t ompdp_detect_duplicate;
extern const ompdp_detection_t ompdp_detect_round_trip;
extern const ompdp_detection_t ompdp_detect_allocs;
extern const ompdp_detection_t ompdp_detect_unused_transfer;
extern const ompdp_detection_t ompdp_detect_zero;
extern const ompdp_detection_t ompdp_detect_overbroad;

const ompdp_detection_t *const ompdp_detections[] = {
    &ompdp_detect_duplicate,       /* Algorithm 1 */
    &ompdp_detect_round_trip,      /* Algorithm 2 */
    &ompdp_detect_allocs,          /* Algorithms 3 and 4 */
    &ompdp_detect_unused_transfer, /* Algorithm 5 */
    &ompdp_detect_zero,
    &ompdp_detect_overbroad,
};
const size_t ompdp_num_detections = sizeof(ompdp_detections) / sizeof(ompdp_detections[0]);

const ompdp_detection_kind_t *ompdp_detection_kind(ompdp_finding_kind_t kind) {
  for (size_t i = 0; i < ompdp_num_detections; ++i)
    for (size_t k = 0; k < ompdp_detections[i]->num_kinds; ++k)
      if (ompdp_detections[i]->kinds[k].kind == kind)
        return &ompdp_detections[i]->kinds[k];
  return NULL;
}
