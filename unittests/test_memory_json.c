/*===- test_memory_json.c - device memory in a report, written and read ---*- C -*-===*/
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "check.h"
#include "memory.h"

#include <stdlib.h>
#include <string.h>

/* A report with one device's peak, two holders and a short series, and a
 * finding that lowers it. */
static void build(ompdp_report_t *r) {
  ompdp_report_init(r);
  ompdp_device_memory_t *m = ompdp_report_add_memory(r, 2);
  m->peak_bytes = 3 << 20;
  m->peak_time_ns = 1500;
  m->peak_allocations = 3;
  m->final_bytes = 1024;
  m->allocated_bytes = 5 << 20;
  m->allocations = 5;
  m->end_ns = 9000;
  m->holders = calloc(2, sizeof(*m->holders));
  m->num_holders = 2;
  m->holders[0] = (ompdp_mem_holder_t){{NULL, ompdp_strdup("p.c"), 10, 3}, ompdp_strdup("big"),
                                       ompdp_strdup("map(to: big[0:n])"), NULL, 2 << 20, 1};
  m->holders[1] = (ompdp_mem_holder_t){{ompdp_strdup("main"), ompdp_strdup("p.c"), 12, 3}, NULL,
                                       NULL, ompdp_strdup("omp_target_alloc(n, d)"), 1 << 20, 2};
  m->other_bytes = 7;
  m->other_allocations = 1;
  m->series = calloc(3, sizeof(*m->series));
  m->series[0] = (ompdp_mem_point_t){100, 2 << 20};
  m->series[1] = (ompdp_mem_point_t){1500, 3 << 20};
  m->series[2] = (ompdp_mem_point_t){4000, 1024};
  m->num_series = 3;
  ompdp_finding_t *f = ompdp_report_add_finding(r, OMPDP_FK_EARLY_ALLOC);
  f->count = 1;
  f->bytes = 2 << 20;
  f->peak = 1;
  f->peak_saved_bytes = 1 << 20;
  f->devices = malloc(sizeof(int));
  f->devices[0] = 2;
  f->num_devices = 1;
  f->verdict = OMPDP_V_ADVICE;
  ompdp_report_memory_savings(r);
}

static char *render(const ompdp_report_t *r, int (*w)(const ompdp_report_t *, FILE *)) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return NULL;
  int rc = w(r, f);
  fclose(f);
  if (rc) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* The text line, the JSON, and the JSON read back: the same model. */
static void round_trip(void) {
  ompdp_report_t r;
  build(&r);
  CHECK_EQ_U64(r.device_memory[0].peak_saved_bytes, 1 << 20);
  char *t = render(&r, ompdp_report_write_text);
  REQUIRE(t != NULL);
  CHECK(strstr(t, "peak device memory: 3.0 MiB on device 2 at 1.5 us, 3 allocations live: big "
                  "2.0 MiB (map(to: big[0:n]) at p.c:10), 1.0 MiB in 2 allocations "
                  "(omp_target_alloc(n, d) at p.c:12 in main), and 1 more allocation (7 B)\n") !=
        NULL);
  CHECK(strstr(t, "peak device memory with the fixes: at most 2.0 MiB on device 2 (1.0 MiB "
                  "less)\n") != NULL);
  CHECK(strstr(t, "early_alloc  ") && strstr(t, " peak_saved=1.0 MiB\n"));
  free(t);
  char *j = render(&r, ompdp_report_write_json);
  REQUIRE(j != NULL);
  ompdp_report_t back;
  char err[256];
  int rc = ompdp_report_read_json(j, strlen(j), &back, err, sizeof(err));
  if (rc)
    fprintf(stderr, "read back: %s\n", err);
  REQUIRE(rc == 0);
  REQUIRE_EQ_U64(back.num_device_memory, 1);
  const ompdp_device_memory_t *m = &back.device_memory[0];
  CHECK_EQ_U64(m->device, 2);
  CHECK_EQ_U64(m->rank, (uint64_t)-1);
  CHECK_EQ_U64(m->peak_bytes, 3 << 20);
  CHECK_EQ_U64(m->peak_time_ns, 1500);
  CHECK_EQ_U64(m->peak_allocations, 3);
  CHECK_EQ_U64(m->peak_saved_bytes, 1 << 20);
  CHECK_EQ_U64(m->final_bytes, 1024);
  CHECK_EQ_U64(m->allocated_bytes, 5 << 20);
  CHECK_EQ_U64(m->allocations, 5);
  CHECK_EQ_U64(m->end_ns, 9000);
  CHECK_EQ_U64(m->other_bytes, 7);
  REQUIRE_EQ_U64(m->num_holders, 2);
  CHECK(m->holders[0].variable && !strcmp(m->holders[0].variable, "big"));
  CHECK(m->holders[1].call && !strcmp(m->holders[1].call, "omp_target_alloc(n, d)"));
  CHECK_EQ_U64(m->holders[1].allocations, 2);
  CHECK(m->holders[1].loc.function && !strcmp(m->holders[1].loc.function, "main"));
  REQUIRE_EQ_U64(m->num_series, 3);
  CHECK_EQ_U64(m->series[1].t_ns, 1500);
  CHECK_EQ_U64(m->series[2].bytes, 1024);
  REQUIRE_EQ_U64(back.num_findings, 1);
  CHECK(back.findings[0].peak);
  CHECK_EQ_U64(back.findings[0].peak_saved_bytes, 1 << 20);
  /* Written again: the same text. */
  char *j2 = render(&back, ompdp_report_write_json);
  CHECK(j2 && !strcmp(j, j2));
  free(j2);
  free(j);
  ompdp_report_free(&back);
  ompdp_report_free(&r);
}

/* Hostile device memory: one line, the report refused. */
static void refused(void) {
  static const struct {
    const char *member, *reason;
  } Cases[] = {
      {"\"device_memory\": 3", "\"device_memory\" must be an array"},
      {"\"device_memory\": [3]", "\"device_memory\" must be an array of objects"},
      {"\"device_memory\": [{\"peak_bytes\": 1}]", "has no \"device\""},
      {"\"device_memory\": [{\"device\": 0, \"peak_bytes\": -1}]",
       "\"peak_bytes\" must be a non-negative integer"},
      {"\"device_memory\": [{\"device\": 0, \"rank\": -2}]", "\"rank\" must not be negative"},
      {"\"device_memory\": [{\"device\": 0, \"peak_bytes\": 1, \"peak_saved_bytes\": 2}]",
       "\"peak_saved_bytes\" is more than \"peak_bytes\""},
      {"\"device_memory\": [{\"device\": 0, \"series\": [[2, 1], [1, 1]]}]",
       "not in time order"},
      {"\"device_memory\": [{\"device\": 0, \"series\": [[2]]}]", "[time_ns, bytes]"},
      {"\"device_memory\": [{\"device\": 0, \"holders\": {}}]", "\"holders\" must be an array"},
      {"\"device_memory\": [{\"device\": 0, \"holders\": [{\"bytes\": \"x\"}]}]",
       "\"bytes\" must be a non-negative integer"},
  };
  for (size_t i = 0; i < sizeof(Cases) / sizeof(Cases[0]); ++i) {
    char text[512];
    snprintf(text, sizeof(text),
             "{\"ompdp_report_version\": 2, \"program\": {\"argv\": []}, \"summary\": {}, "
             "%s, \"findings\": []}",
             Cases[i].member);
    ompdp_report_t r;
    char err[256] = "";
    int rc = ompdp_report_read_json(text, strlen(text), &r, err, sizeof(err));
    CHECK(rc == -1);
    if (!strstr(err, Cases[i].reason))
      fprintf(stderr, "case %zu: reason \"%s\", expected \"%s\"\n", i, err, Cases[i].reason);
    CHECK(strstr(err, Cases[i].reason) != NULL);
  }
  /* More points than a writer keeps. */
  size_t n = OMPDP_MEM_SERIES_MAX + 1, cap = 256 + n * 16;
  char *big = malloc(cap);
  REQUIRE(big != NULL);
  size_t off = (size_t)snprintf(big, cap,
                                "{\"ompdp_report_version\": 2, \"program\": {\"argv\": []}, "
                                "\"summary\": {}, \"findings\": [], \"device_memory\": "
                                "[{\"device\": 0, \"series\": [");
  for (size_t i = 0; i < n; ++i)
    off += (size_t)snprintf(big + off, cap - off, "%s[%zu, 1]", i ? "," : "", i);
  snprintf(big + off, cap - off, "]}]}");
  ompdp_report_t r;
  char err[256] = "";
  CHECK(ompdp_report_read_json(big, strlen(big), &r, err, sizeof(err)) == -1);
  CHECK(strstr(err, "has more than") != NULL);
  free(big);
  /* A report without it (an older ompdp's) has none. */
  const char *old = "{\"ompdp_report_version\": 2, \"program\": {\"argv\": []}, \"summary\": {}, "
                    "\"findings\": []}";
  CHECK(ompdp_report_read_json(old, strlen(old), &r, err, sizeof(err)) == 0);
  CHECK_EQ_U64(r.num_device_memory, 0);
  ompdp_report_free(&r);
}

/* A merged report keeps each rank's own saving: the findings (of no rank)
 * change only entries of no rank. */
static void ranks_keep_theirs(void) {
  ompdp_report_t r;
  build(&r);
  ompdp_report_t m;
  ompdp_report_init(&m);
  REQUIRE(ompdp_report_copy_memory(&m, &r.device_memory[0], 3) == 0);
  m.device_memory[0].peak_saved_bytes = 5;
  ompdp_report_memory_savings(&m);
  CHECK_EQ_U64(m.device_memory[0].peak_saved_bytes, 5);
  CHECK_EQ_U64(m.device_memory[0].rank, 3);
  REQUIRE_EQ_U64(m.device_memory[0].num_holders, 2);
  CHECK(m.device_memory[0].holders[0].variable != r.device_memory[0].holders[0].variable);
  ompdp_report_free(&m);
  ompdp_report_free(&r);
}

int main(void) {
  round_trip();
  refused();
  ranks_keep_theirs();
  return CHECK_DONE();
}
