/*===- test_merge.c - the merge of the ranks' reports -----------------------===*\
|*
|* report/report_merge.c and the rank of a report (report/process.c): the
|* same finding on N ranks becomes one with sums and a spread, disjoint
|* findings stay apart and say their ranks, identical rewrites are one,
|* the result does not depend on the order of the inputs, reports of other
|* programs, builds or runs are refused with one line, and partial,
|* recovered and missing ranks are said. The merged report and a rank's
|* report survive the JSON round trip. The launcher's environment gives
|* the rank, or nothing, or a refusal.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "process.h"
#include "report.h"
#include "report_merge.h"

#include <stdlib.h>
#include <string.h>

static char *render(const ompdp_report_t *r, int (*fn)(const ompdp_report_t *, FILE *),
                    size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f)
    return NULL;
  int rc = fn(r, f);
  fclose(f);
  if (rc) {
    free(buf);
    return NULL;
  }
  if (len)
    *len = n;
  return buf;
}

static int write_sarif(const ompdp_report_t *r, FILE *f) {
  return ompdp_report_write_sarif(r, f, "test");
}

/* A rank's report: rank r of size, device r, build and job as given. */
static void rank_report(ompdp_report_t *rep, int rank, int size, const char *build,
                        const char *job) {
  ompdp_report_init(rep);
  rep->argc = 2;
  rep->argv = calloc(2, sizeof(char *));
  rep->argv[0] = ompdp_strdup("./prog");
  rep->argv[1] = ompdp_strdup(rank ? "other" : "first");
  rep->has_exit_status = 1;
  rep->wall_time_ns = 1000000 + 1000 * (uint64_t)rank;
  rep->num_transfers = 10;
  rep->bytes_transferred = 4096;
  ompdp_process_t *p = malloc(sizeof(*p));
  ompdp_process_init(p);
  p->rank = rank;
  p->size = size;
  p->launcher = ompdp_strdup("openmpi");
  p->job = ompdp_strdup(job);
  p->host = ompdp_strdup(rank % 2 ? "node1" : "node0");
  p->pid = 100 + rank;
  p->devices = malloc(sizeof(int));
  p->devices[0] = rank;
  p->num_devices = 1;
  p->executable = ompdp_strdup("/bin/prog");
  p->build_id = ompdp_strdup(build);
  rep->process = p;
}

/* A round trip finding of region `region`, map item 0, on rank's device,
 * with a rewrite whose edit is the same on every rank. */
static ompdp_finding_t *add_trip(ompdp_report_t *rep, uint64_t region, uint64_t count,
                                 const char *variable) {
  ompdp_finding_t *f = ompdp_report_add_finding(rep, OMPDP_FK_ROUND_TRIP);
  f->count = count;
  f->bytes = 1024 * count;
  f->time_ns = 10 * count;
  f->time_saved_ns = 10 * count;
  f->devices = malloc(sizeof(int));
  f->devices[0] = rep->process->devices[0];
  f->num_devices = 1;
  f->loc.file = ompdp_strdup("prog.c");
  f->loc.function = ompdp_strdup("main");
  f->loc.line = 10;
  f->loc.column = 1;
  f->variable = ompdp_strdup(variable);
  char s[64];
  snprintf(s, sizeof(s), "keep it on device %d", rep->process->devices[0]);
  f->suggestion = ompdp_strdup(s);
  f->region_id = region;
  f->item = 0;
  rep->counts[OMPDP_FK_ROUND_TRIP] += count;
  rep->time_saved_ns += f->time_saved_ns;
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_KEEP_RESIDENT);
  snprintf(s, sizeof(s), "keep `%s` on device %d", variable, rep->process->devices[0]);
  rw->description = ompdp_strdup(s);
  rw->time_saved_ns = 10 * count;
  rw->transfers_removed = count;
  ompdp_edit_t *e = ompdp_rewrite_add_edit(rw);
  e->file = ompdp_strdup("prog.c");
  e->range = (ompdp_range_t){9, 1, 9, 4, -1, -1};
  e->original = ompdp_strdup("for");
  e->replacement = ompdp_strdup("#pragma omp target data map(tofrom: a)\nfor");
  return f;
}

/* Merges reps (taken over) in the order given. */
static int merge(ompdp_report_t *reps, size_t n, const size_t *order, ompdp_report_t *out,
                 char *err, size_t errlen) {
  ompdp_merger_t *m = ompdp_merger_create();
  int rc = 0;
  for (size_t i = 0; i < n && !rc; ++i) {
    char name[32];
    size_t k = order ? order[i] : i;
    snprintf(name, sizeof(name), "report.%zu.json", k);
    rc = ompdp_merger_add(m, &reps[k], name, err, errlen);
  }
  if (!rc)
    rc = ompdp_merger_finish(m, out, err, errlen);
  else
    ompdp_report_init(out);
  ompdp_merger_destroy(m);
  for (size_t i = 0; i < n; ++i)
    ompdp_report_free(&reps[i]);
  return rc;
}

static void test_same_finding(void) {
  char err[512];
  ompdp_report_t reps[4], out, out2;
  for (int order = 0; order < 2; ++order) {
    for (int r = 0; r < 4; ++r) {
      rank_report(&reps[r], r, 4, "ab12", "77");
      add_trip(&reps[r], 0x1234, (uint64_t)(r + 1), "a");
    }
    static const size_t Rev[] = {3, 1, 0, 2};
    CHECK(merge(reps, 4, order ? Rev : NULL, order ? &out2 : &out, err, sizeof(err)) == 0);
  }
  REQUIRE(out.num_findings == 1);
  const ompdp_finding_t *f = &out.findings[0];
  CHECK_EQ_U64(f->count, 1 + 2 + 3 + 4);
  CHECK_EQ_U64(f->bytes, 1024 * 10);
  CHECK(f->num_devices == 4 && f->devices[0] == 0 && f->devices[3] == 3);
  CHECK(f->spread && f->spread->num_ranks == 4 && f->spread->ranks[3] == 3);
  CHECK(f->spread && f->spread->count.min == 1 && f->spread->count.max == 4 &&
        f->spread->count.median == 2); /* (2 + 3) / 2, rounded down */
  CHECK(f->spread && f->spread->time_saved_ns.median == 25);
  /* One rewrite, the savings of all, rank 0's words. */
  CHECK(f->num_rewrites == 1);
  CHECK(f->num_rewrites == 1 && f->rewrites[0].transfers_removed == 10 &&
        !strcmp(f->rewrites[0].description, "keep `a` on device 0"));
  CHECK(!strcmp(f->suggestion, "keep it on device 0"));
  CHECK(f->spread && f->spread->num_rewrite_ranks == 1 &&
        f->spread->rewrite_ranks[0].num_ranks == 4);
  CHECK_EQ_U64(out.counts[OMPDP_FK_ROUND_TRIP], 10);
  CHECK_EQ_U64(out.wall_time_ns, 1003000); /* the slowest rank */
  CHECK_EQ_U64(out.num_transfers, 40);
  CHECK(out.argc == 2 && !strcmp(out.argv[1], "first"));
  CHECK(!out.partial && out.merge && out.merge->size == 4 && out.merge->num_ranks == 4);
  CHECK(out.merge && !strcmp(out.merge->build_id, "ab12") && !strcmp(out.merge->job, "77"));
  CHECK(out.has_exit_status && out.exit_status == 0);
  /* The job's speedup: the slowest rank over the longest any would take. */
  CHECK(out.predicted_speedup > 1.0 && out.predicted_speedup < 1.001);

  /* The order of the inputs does not matter. */
  size_t l1, l2;
  char *j1 = render(&out, ompdp_report_write_json, &l1);
  char *j2 = render(&out2, ompdp_report_write_json, &l2);
  CHECK(j1 && j2 && l1 == l2 && !memcmp(j1, j2, l1));

  /* JSON round trip, spread and ranks included. */
  ompdp_report_t back;
  CHECK(j1 && ompdp_report_read_json(j1, l1, &back, err, sizeof(err)) == 0);
  size_t l3;
  char *j3 = render(&back, ompdp_report_write_json, &l3);
  CHECK(j3 && l3 == l1 && !memcmp(j1, j3, l1));
  CHECK(back.merge && back.merge->num_ranks == 4 && back.num_findings == 1 &&
        back.findings[0].spread && back.findings[0].spread->count.max == 4);
  CHECK(j1 && strstr(j1, "\"spread\": {\"ranks\": [0, 1, 2, 3], \"count\": {\"min\": 1, "
                         "\"median\": 2, \"max\": 4}"));
  CHECK(j1 && strstr(j1, "\"merged\": [0, 1, 2, 3], \"partial\": [], \"missing\": []"));

  char *t = render(&out, ompdp_report_write_text, NULL);
  CHECK(t && strstr(t, "ranks: 4 of 4 merged (0-3) from openmpi job 77\n"));
  CHECK(t && strstr(t, "    ranks: 0-3 (4)  per rank min/median/max: count=1/2/4 "));
  CHECK(t && strstr(t, "  rank 1: complete host=node1 devices=1 exit=0 "));
  CHECK(t && strstr(t, "summed over 4 ranks; the slowest rank ran 1.0 ms"));
  char *s = render(&out, write_sarif, NULL);
  CHECK(s && strstr(s, "\"spread\": {\"ranks\": [0, 1, 2, 3]"));
  free(j1);
  free(j2);
  free(j3);
  free(t);
  free(s);
  ompdp_report_free(&back);
  ompdp_report_free(&out);
  ompdp_report_free(&out2);
}

static void test_disjoint(void) {
  char err[512];
  ompdp_report_t reps[3], out;
  ompdp_finding_t *f;
  for (int r = 0; r < 3; ++r)
    rank_report(&reps[r], r, 3, "ab12", "77");
  add_trip(&reps[0], 0x1, 5, "a");
  f = add_trip(&reps[2], 0x1, 7, "a");
  f->rewrites[0].edits[0].range.line = 8;
  add_trip(&reps[1], 0x2, 3, "b");
  /* Without region IDs: the location and variable are the key. */
  f = add_trip(&reps[1], 0, 2, "c");
  f->region_id = 0;
  f = add_trip(&reps[1], 0, 2, "c"); /* twice on one rank: summed */
  f->region_id = 0;
  CHECK(merge(reps, 3, NULL, &out, err, sizeof(err)) == 0);
  CHECK(out.num_findings == 3);
  int seen = 0;
  for (size_t i = 0; i < out.num_findings; ++i) {
    const ompdp_finding_t *x = &out.findings[i];
    if (x->region_id == 0x1) {
      seen |= 1;
      REQUIRE(x->spread != NULL);
      CHECK(x->spread->num_ranks == 2 && x->spread->ranks[0] == 0 && x->spread->ranks[1] == 2);
      CHECK(x->count == 12 && x->spread->count.median == 6);
      /* Rank 2's rewrite differs: both are kept, each with its ranks. */
      CHECK(x->num_rewrites == 2 && x->spread->num_rewrite_ranks == 2 &&
            x->spread->rewrite_ranks[0].num_ranks == 1 &&
            x->spread->rewrite_ranks[0].ranks[0] == 0 &&
            x->spread->rewrite_ranks[1].ranks[0] == 2 && x->rewrites[1].transfers_removed == 7);
    } else if (x->region_id == 0x2) {
      seen |= 2;
      CHECK(x->spread && x->spread->num_ranks == 1 && x->spread->ranks[0] == 1);
    } else {
      seen |= 4;
      CHECK(!strcmp(x->variable, "c") && x->count == 4 && x->spread && x->spread->num_ranks == 1 &&
            x->spread->count.max == 4 && x->num_rewrites == 1 &&
            x->rewrites[0].transfers_removed == 4);
    }
  }
  CHECK(seen == 7);
  char *t = render(&out, ompdp_report_write_text, NULL);
  CHECK(t && strstr(t, "    ranks: 0,2 (2)  per rank"));
  CHECK(t && strstr(t, "    rewrites by rank: 1. ranks 0; 2. ranks 2\n"));
  CHECK(t && strstr(t, "    ranks: 1 (1)  per rank"));
  free(t);
  ompdp_report_free(&out);
}

/* Two reports that must not be merged: the error names what differs. */
static void expect_refused(ompdp_report_t *a, ompdp_report_t *b, const char *what) {
  char err[512] = "";
  ompdp_report_t reps[2] = {*a, *b}, out;
  CHECK(merge(reps, 2, NULL, &out, err, sizeof(err)) == -1);
  if (!strstr(err, what))
    fprintf(stderr, "  expected '%s' in: %s\n", what, err);
  CHECK(strstr(err, what) != NULL);
  CHECK(!strchr(err, '\n'));
  ompdp_report_free(&out);
}

static void test_refused(void) {
  ompdp_report_t a, b;
  rank_report(&a, 0, 2, "ab12", "77");
  rank_report(&b, 1, 2, "cd34", "77");
  expect_refused(&a, &b, "report.0.json and report.1.json are reports of different builds of "
                         "prog (build IDs ab12 and cd34)");
  rank_report(&a, 0, 2, "ab12", "77");
  rank_report(&b, 1, 2, "ab12", "77");
  free(b.process->executable);
  b.process->executable = ompdp_strdup("/bin/other");
  expect_refused(&a, &b, "are reports of different programs (/bin/prog and /bin/other)");
  rank_report(&a, 0, 2, "ab12", "77");
  rank_report(&b, 1, 2, "ab12", "78");
  expect_refused(&a, &b, "are reports of different runs (openmpi job 77 and openmpi job 78)");
  rank_report(&a, 0, 2, "ab12", "77");
  rank_report(&b, 1, 4, "ab12", "77");
  expect_refused(&a, &b, "are reports of different runs (of 2 and 4 ranks)");
  rank_report(&a, 1, 2, "ab12", "77");
  rank_report(&b, 1, 2, "ab12", "77");
  expect_refused(&a, &b, "report.0.json and report.1.json are both the report of rank 1");
  rank_report(&a, 0, 2, "ab12", "77");
  rank_report(&b, 1, 2, "ab12", "77");
  ompdp_process_free(b.process);
  b.process = NULL;
  expect_refused(&a, &b, "report.1.json has no rank (it was not written under an MPI launcher");
  /* A merged report is not merged again. */
  ompdp_report_t reps[2], merged;
  char err[512];
  rank_report(&reps[0], 0, 2, "ab12", "77");
  rank_report(&reps[1], 1, 2, "ab12", "77");
  CHECK(merge(reps, 2, NULL, &merged, err, sizeof(err)) == 0);
  rank_report(&b, 1, 2, "ab12", "77");
  expect_refused(&merged, &b, "report.0.json is already a merged report");
  /* One report without a rank is rank 0 of 1: merged as it is. */
  rank_report(&reps[0], 0, 1, "ab12", "77");
  ompdp_process_free(reps[0].process);
  reps[0].process = NULL;
  CHECK(merge(reps, 1, NULL, &merged, err, sizeof(err)) == 0);
  CHECK(merged.merge && merged.merge->size == 1 && !merged.partial);
  ompdp_report_free(&merged);
  /* Nothing to merge. */
  CHECK(merge(reps, 0, NULL, &merged, err, sizeof(err)) == -1 && strstr(err, "no report"));
}

static void test_partial(void) {
  char err[512];
  ompdp_report_t reps[3], out;
  for (int r = 0; r < 3; ++r) {
    rank_report(&reps[r], r, 4, "ab12", "77");
    add_trip(&reps[r], 0x9, 2, "a");
  }
  reps[1].partial = 1;
  reps[1].recovered_reason = ompdp_strdup("the program was killed by signal 9 (Killed)");
  reps[1].recovered_flushed_at_ns = 1;
  reps[1].has_exit_status = 1;
  reps[1].exit_status = 137;
  reps[2].partial = 1;
  ompdp_report_add_warning(&reps[2], "the program was stopped by signal 15 (Terminated)");
  ompdp_report_add_warning(&reps[0], "a warning every rank gives");
  ompdp_report_add_warning(&reps[2], "a warning every rank gives");
  CHECK(merge(reps, 3, NULL, &out, err, sizeof(err)) == 0);
  CHECK(out.partial && !out.has_exit_status);
  CHECK(out.merge && out.merge->num_ranks == 4 && out.merge->size == 4);
  if (out.merge && out.merge->num_ranks == 4) {
    CHECK(out.merge->ranks[0].status == OMPDP_RANK_COMPLETE);
    CHECK(out.merge->ranks[1].status == OMPDP_RANK_RECOVERED);
    CHECK(out.merge->ranks[2].status == OMPDP_RANK_PARTIAL);
    CHECK(out.merge->ranks[3].status == OMPDP_RANK_MISSING && !out.merge->ranks[3].file);
  }
  char *j = render(&out, ompdp_report_write_json, NULL);
  CHECK(j && strstr(j, "\"merged\": [0, 1, 2], \"partial\": [1, 2], \"missing\": [3]"));
  CHECK(j && strstr(j, "\"rank 3 of 4 is missing: no report or journal of it was merged\""));
  CHECK(j && strstr(j, "\"ranks 0,2: a warning every rank gives\""));
  CHECK(j && strstr(j, "\"rank 1: partial: recovered from the journal flushed at 1970-01-01 "
                       "00:00:00 UTC (0 events); what happened after it is lost: the program "
                       "was killed by signal 9 (Killed)\""));
  CHECK(j && strstr(j, "\"rank 2: partial: the report is incomplete\""));
  CHECK(j && strstr(j, "{\"rank\": 3, \"status\": \"missing\", \"file\": null"));
  char line[256];
  CHECK(ompdp_merge_summary_line(&out, line, sizeof(line)) == 1 &&
        !strcmp(line, "merged 3 of 4 ranks; missing: 3; partial: 1,2"));
  char *t = render(&out, ompdp_report_write_text, NULL);
  CHECK(t && strstr(t, "ranks: 3 of 4 merged (0-2) from openmpi job 77; partial: 1,2; "
                       "missing: 3\n"));
  CHECK(t && strstr(t, "  rank 3: missing (no report or journal)\n"));
  char *s = render(&out, write_sarif, NULL);
  CHECK(s && strstr(s, "{\"text\": \"rank 3 of 4 is missing"));
  free(j);
  free(t);
  free(s);
  ompdp_report_free(&out);
}

/* A rank's own report: its process in every format, and back. */
static void test_rank_report(void) {
  ompdp_report_t r, back;
  char err[512];
  rank_report(&r, 2, 4, "ab12", "77");
  size_t len, len2;
  char *j = render(&r, ompdp_report_write_json, &len);
  CHECK(j && strstr(j, "  \"process\": {\"rank\": 2, \"size\": 4, \"local_rank\": null, "
                       "\"launcher\": \"openmpi\", \"job\": \"77\", \"host\": \"node0\", "
                       "\"pid\": 102, \"devices\": [2], \"executable\": \"/bin/prog\", "
                       "\"build_id\": \"ab12\"},\n"));
  CHECK(j && ompdp_report_read_json(j, len, &back, err, sizeof(err)) == 0);
  char *j2 = render(&back, ompdp_report_write_json, &len2);
  CHECK(j2 && len2 == len && !memcmp(j, j2, len));
  char *t = render(&r, ompdp_report_write_text, NULL);
  CHECK(t && strstr(t, "rank: 2 of 4 (openmpi job 77) on node0, pid 102, devices 2\n"));
  char *s = render(&r, write_sarif, NULL);
  CHECK(s && strstr(s, "\"machine\": \"node0\", \"processId\": 102"));
  free(j);
  free(j2);
  free(t);
  free(s);
  ompdp_report_free(&back);
  /* Without a process, nothing of it is written. */
  ompdp_process_free(r.process);
  r.process = NULL;
  j = render(&r, ompdp_report_write_json, NULL);
  CHECK(j && !strstr(j, "process") && !strstr(j, "ranks"));
  free(j);
  ompdp_report_free(&r);

  /* Bad members are refused with one line. */
  static const char *const Bad[] = {
      "\"process\": {\"rank\": 4, \"size\": 4}",
      "\"process\": {\"rank\": -1}",
      "\"process\": {\"rank\": \"0\"}",
      "\"process\": {\"rank\": 0, \"devices\": [1, 0]}",
      "\"process\": 3",
      ("\"ranks\": {\"size\": 2, \"per_rank\": [{\"rank\": 1, \"status\": \"complete\"}, "
       "{\"rank\": 0, \"status\": \"complete\"}]}"),
      "\"ranks\": {\"size\": 1, \"per_rank\": [{\"rank\": 0, \"status\": \"lost\"}]}",
      "\"ranks\": {\"size\": 0, \"per_rank\": []}",
  };
  for (size_t i = 0; i < sizeof(Bad) / sizeof(Bad[0]); ++i) {
    char text[512];
    snprintf(text, sizeof(text),
             "{\"ompdp_report_version\": 2, \"program\": {\"argv\": []}, %s, \"summary\": {}, "
             "\"findings\": []}",
             Bad[i]);
    err[0] = 0;
    int rc = ompdp_report_read_json(text, strlen(text), &back, err, sizeof(err));
    CHECK(rc == -1 && err[0] && !strchr(err, '\n'));
    if (rc == 0)
      ompdp_report_free(&back);
  }
  /* A spread belongs to the n-th finding of a known kind. */
  const char *text = "{\"ompdp_report_version\": 2, \"program\": {\"argv\": []}, \"summary\": {},"
                     " \"findings\": [{\"kind\": \"future_kind\", \"spread\": 1},"
                     " {\"kind\": \"round_trip\", \"spread\": {\"ranks\": [3], \"count\": "
                     "{\"min\": 1, \"median\": 1, \"max\": 1}, \"bytes\": {\"min\": 0, "
                     "\"median\": 0, \"max\": 0}, \"time_saved_ns\": {\"min\": 0, \"median\": 0, "
                     "\"max\": 0}}}]}";
  CHECK(ompdp_report_read_json(text, strlen(text), &back, err, sizeof(err)) == 0);
  CHECK(back.num_findings == 1 && back.findings[0].spread &&
        back.findings[0].spread->ranks[0] == 3);
  ompdp_report_free(&back);
}

/* The environments of the launchers, as a fake getenv. */
static const char *const *fake_env;
static const char *fake_getenv(const char *name) {
  for (size_t i = 0; fake_env[i]; i += 2)
    if (!strcmp(fake_env[i], name))
      return fake_env[i + 1];
  return NULL;
}

static int from_env(const char *const *env, ompdp_process_t *p, char *err) {
  fake_env = env;
  ompdp_process_init(p);
  return ompdp_process_from_env(fake_getenv, p, err, 256);
}

static void free_fields(ompdp_process_t *p) {
  free(p->launcher);
  free(p->job);
}

static void test_env(void) {
  ompdp_process_t p;
  char err[256];
  static const char *const Ompi[] = {"OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4",
                                     "OMPI_COMM_WORLD_LOCAL_RANK", "0", "PMIX_RANK", "2",
                                     "OMPI_MCA_ess_base_jobid", "276430849", NULL};
  CHECK(from_env(Ompi, &p, err) == 1 && p.rank == 2 && p.size == 4 && p.local_rank == 0 &&
        !strcmp(p.launcher, "openmpi") && !strcmp(p.job, "276430849"));
  free_fields(&p);
  static const char *const Hydra[] = {"PMI_RANK", "1", "PMI_SIZE", "3", NULL};
  CHECK(from_env(Hydra, &p, err) == 1 && p.rank == 1 && p.size == 3 && !p.job &&
        !strcmp(p.launcher, "pmi"));
  free_fields(&p);
  static const char *const Srun[] = {"SLURM_PROCID", "5", "SLURM_NTASKS", "8",
                                     "SLURM_STEP_ID", "0", "SLURM_JOB_ID", "991", NULL};
  CHECK(from_env(Srun, &p, err) == 1 && p.rank == 5 && p.size == 8 &&
        !strcmp(p.job, "991.0") && !strcmp(p.launcher, "slurm"));
  free_fields(&p);
  /* A batch script is no rank of anything. */
  static const char *const Batch[] = {"SLURM_PROCID", "0", "SLURM_NTASKS", "8",
                                      "SLURM_JOB_ID", "991", NULL};
  CHECK(from_env(Batch, &p, err) == 0 && p.rank == -1 && !p.launcher);
  static const char *const None[] = {"HOME", "/root", NULL};
  CHECK(from_env(None, &p, err) == 0 && p.rank == -1);
  static const char *const BadRank[] = {"PMI_RANK", "-1", "PMI_SIZE", "3", NULL};
  CHECK(from_env(BadRank, &p, err) == -1 && !strcmp(err, "PMI_RANK='-1' is not a rank") &&
        !p.launcher);
  static const char *const TooBig[] = {"OMPI_COMM_WORLD_RANK", "4", "OMPI_COMM_WORLD_SIZE",
                                       "4", NULL};
  CHECK(from_env(TooBig, &p, err) == -1 &&
        !strcmp(err, "OMPI_COMM_WORLD_RANK='4' is not a rank of OMPI_COMM_WORLD_SIZE='4'"));
  static const char *const Junk[] = {"OMPI_COMM_WORLD_RANK", "1x", NULL};
  CHECK(from_env(Junk, &p, err) == -1);
  static const char *const Huge[] = {"PMI_RANK", "99999999999", NULL};
  CHECK(from_env(Huge, &p, err) == -1);

  char buf[64];
  int ranks[] = {0, 1, 2, 3, 5, 7, 8, 10, 11, 12};
  CHECK(!strcmp(ompdp_format_ranks(buf, sizeof(buf), ranks, 10), "0-3,5,7,8,10-12"));
  CHECK(!strcmp(ompdp_format_ranks(buf, 8, ranks, 10), "0-3..."));
  CHECK(!strcmp(ompdp_format_ranks(buf, sizeof(buf), ranks, 0), ""));
}

/* Numbers of 10^18 and more (which the JSON reader keeps aside from
 * jansson) in the ranks' entries and the findings' spreads read back as
 * written: a merged report's per-rank time_saved_ns of 6.4e18 once read
 * back as 10^18 (found by fuzz_merge). */
static void test_big_numbers(void) {
  char err[512];
  ompdp_report_t reps[2], out;
  for (int r = 0; r < 2; ++r) {
    rank_report(&reps[r], r, 2, "ab12", "77");
    reps[r].wall_time_ns = 7000000000000000000ull + (uint64_t)r;
    ompdp_finding_t *f = add_trip(&reps[r], 0x1234, 1, "a");
    f->time_saved_ns = 6376000025893024522ull - (uint64_t)r;
    f->rewrites[0].time_saved_ns = f->time_saved_ns;
    reps[r].time_saved_ns = f->time_saved_ns;
  }
  CHECK(merge(reps, 2, NULL, &out, err, sizeof(err)) == 0);
  size_t l1 = 0, l2 = 0;
  char *j1 = render(&out, ompdp_report_write_json, &l1);
  CHECK(j1 && strstr(j1, "\"time_saved_ns\": 6376000025893024522"));
  ompdp_report_t back;
  CHECK(j1 && ompdp_report_read_json(j1, l1, &back, err, sizeof(err)) == 0);
  char *j2 = render(&back, ompdp_report_write_json, &l2);
  CHECK(j1 && j2 && l1 == l2 && !memcmp(j1, j2, l1));
  CHECK(back.merge && back.merge->num_ranks == 2 &&
        back.merge->ranks[0].time_saved_ns == 6376000025893024522ull &&
        back.merge->ranks[1].wall_time_ns == 7000000000000000001ull);
  CHECK(back.num_findings == 1 && back.findings[0].spread &&
        back.findings[0].spread->time_saved_ns.max == 6376000025893024522ull);
  free(j1);
  free(j2);
  ompdp_report_free(&back);
  ompdp_report_free(&out);
}

int main(void) {
  test_same_finding();
  test_big_numbers();
  test_disjoint();
  test_refused();
  test_partial();
  test_rank_report();
  test_env();
  return CHECK_DONE();
}
