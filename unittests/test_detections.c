/*===- test_detections.c - every finding kind has all it needs ------*- C -*-===*\
|*
|* A new finding kind is three places (docs/architecture.md): its row in
|* each table of OmpdpFormat.inc, its detect_*.c, its line in detections.c.
|* The build refuses a kind that misses one of them; this checks what the
|* build cannot: that each kind's line in detections.c and its detection's
|* kinds[] agree, that its names go to JSON and back, and that the hooks the
|* engine calls without a test for NULL are there. scripts/new_kind_check.py
|* runs it on a tree with one kind more.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "detect.h"

#include <string.h>

static int known(const char *s) { return s && s[0] && strcmp(s, "unknown") != 0; }

int main(void) {
  for (int k = 0; k < OMPDP_FK_COUNT; ++k) {
    ompdp_finding_kind_t fk = (ompdp_finding_kind_t)k;
    const ompdp_detection_t *d = ompdp_kind_detection(fk);
    const ompdp_detection_kind_t *dk = ompdp_detection_kind(fk);
    CHECK(d != NULL);
    CHECK(dk != NULL);
    if (!d || !dk)
      continue;
    CHECK(dk->kind == fk);
    CHECK(dk >= d->kinds && dk < d->kinds + d->num_kinds);
    /* Its detection runs: it is in the engine's table. */
    int listed = 0;
    for (size_t i = 0; i < ompdp_num_detections; ++i)
      listed += ompdp_detections[i] == d;
    CHECK_EQ_U64(listed, 1);
    CHECK(d->create && d->memory && d->destroy && d->text);
    /* Its words and names, from OmpdpFormat.inc. */
    CHECK(known(ompdp_finding_kind_json(fk)));
    CHECK(ompdp_finding_kind_from_json(ompdp_finding_kind_json(fk)) == fk);
    CHECK(known(ompdp_finding_kind_summary_key(fk)));
    CHECK(known(ompdp_finding_kind_title(fk)));
    CHECK(known(ompdp_finding_kind_explanation(fk)));
    CHECK(known(ompdp_finding_kind_rule_name(fk)));
    CHECK(known(ompdp_finding_kind_warning_group(fk)));
    CHECK(known(ompdp_finding_kind_help(fk)));
    CHECK(known(ompdp_finding_kind_name(fk)));
    CHECK(known(ompdp_finding_kind_noun(fk, 0)) && known(ompdp_finding_kind_noun(fk, 1)));
    CHECK((unsigned)ompdp_finding_kind_op_class(fk) < (unsigned)OMPDP_OC_COUNT);
    /* The rewrites its words propose are rewrite kinds. */
    CHECK((dk->rewrites & ~((1u << OMPDP_RK_COUNT) - 1)) == 0);
    CHECK((dk->rewrites & 1u << OMPDP_RK_OTHER) == 0);
  }
  /* Every kind a detection names is its own in detections.c. */
  for (size_t i = 0; i < ompdp_num_detections; ++i) {
    const ompdp_detection_t *d = ompdp_detections[i];
    CHECK(d->num_kinds >= 1 && d->num_kinds <= sizeof(d->kinds) / sizeof(d->kinds[0]));
    for (size_t k = 0; k < d->num_kinds; ++k)
      CHECK(ompdp_kind_detection(d->kinds[k].kind) == d);
  }
  /* Out of range: no detection, and names that say so. */
  CHECK(ompdp_kind_detection(OMPDP_FK_COUNT) == NULL);
  CHECK(ompdp_detection_kind(OMPDP_FK_COUNT) == NULL);
  CHECK(!known(ompdp_finding_kind_json(OMPDP_FK_COUNT)));
  CHECK(ompdp_finding_kind_op_class(OMPDP_FK_COUNT) == OMPDP_OC_H2D);
  return CHECK_DONE();
}
