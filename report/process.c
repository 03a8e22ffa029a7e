/*===- process.c - the rank of a process, from its launcher ---------*- C -*-===*\
|*
|* Lifetime of the process, merge and spread records (process.h), and the
|* launcher's environment read into a rank. The driver reads it to expand
|* %r in `ompdp run -o`, the runtime to say in the report which rank wrote
|* it; both through ompdp_process_from_env, so they cannot disagree.
|*
|* A launcher is recognised by its rank variable; the first of the table
|* that is set wins (Open MPI also sets PMIX_RANK, and srun with PMI also
|* sets SLURM_PROCID). A value that is not a plain decimal number, or a
|* rank not below the size, is refused with one line: a rank guessed wrong
|* would make two processes write one file.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "process.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ompdp_process_init(ompdp_process_t *p) {
  memset(p, 0, sizeof(*p));
  p->rank = p->size = p->local_rank = -1;
  p->pid = -1;
}

void ompdp_process_free(ompdp_process_t *p) {
  if (!p)
    return;
  free(p->launcher);
  free(p->job);
  free(p->host);
  free(p->devices);
  free(p->executable);
  free(p->build_id);
  free(p);
}

void ompdp_merge_info_free(ompdp_merge_info_t *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->num_ranks; ++i) {
    free(m->ranks[i].file);
    free(m->ranks[i].host);
    free(m->ranks[i].devices);
  }
  free(m->ranks);
  free(m->launcher);
  free(m->job);
  free(m->executable);
  free(m->build_id);
  free(m);
}

void ompdp_spread_free(ompdp_spread_t *s) {
  if (!s)
    return;
  free(s->ranks);
  for (size_t i = 0; i < s->num_rewrite_ranks; ++i)
    free(s->rewrite_ranks[i].ranks);
  free(s->rewrite_ranks);
  free(s);
}

static const char *const StatusJson[] = {"complete", "partial", "recovered", "missing"};

const char *ompdp_rank_status_json(ompdp_rank_status_t s) {
  return (unsigned)s < sizeof(StatusJson) / sizeof(StatusJson[0]) ? StatusJson[s] : "missing";
}

int ompdp_rank_status_from_json(const char *name) {
  for (size_t i = 0; name && i < sizeof(StatusJson) / sizeof(StatusJson[0]); ++i)
    if (!strcmp(name, StatusJson[i]))
      return (int)i;
  return -1;
}

/*--- the launcher -----------------------------------------------------------===*/

typedef struct launcher {
  const char *name;
  const char *rank, *size, *local_rank;
  const char *job, *job_step; /* job id, and a step appended as ".step" */
  const char *requires;       /* must be set too (NULL: nothing) */
} launcher_t;

static const launcher_t Launchers[] = {
    {"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
     "OMPI_MCA_ess_base_jobid", NULL, NULL},
    {"mvapich", "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE", "MV2_COMM_WORLD_LOCAL_RANK", NULL,
     NULL, NULL},
    {"pmi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", NULL, NULL, NULL},
    {"pmix", "PMIX_RANK", NULL, NULL, "PMIX_NAMESPACE", NULL, NULL},
    {"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_JOB_ID", "SLURM_STEP_ID",
     "SLURM_STEP_ID"},
};

/* A launcher's job id when it gives none of its own: a PMIx namespace, or
 * Slurm's job and step. */
static const launcher_t JobFallbacks[] = {
    {NULL, NULL, NULL, NULL, "PMIX_NAMESPACE", NULL, NULL},
    {NULL, NULL, NULL, NULL, "SLURM_JOB_ID", "SLURM_STEP_ID", "SLURM_STEP_ID"},
};

/* A plain decimal number below 2^31; -1 otherwise. */
static int parse_count(const char *s) {
  if (!s || !*s)
    return -1;
  long v = 0;
  for (const char *c = s; *c; ++c) {
    if (*c < '0' || *c > '9' || c - s >= 10)
      return -1;
    v = v * 10 + (*c - '0');
  }
  return v <= 0x7fffffffL ? (int)v : -1;
}

/* A job id: printable, without white space, at most 128 bytes. */
static char *job_id(ompdp_getenv_fn get, const launcher_t *l) {
  const char *job = l->job ? get(l->job) : NULL;
  const char *step = l->job_step ? get(l->job_step) : NULL;
  if (!job || !*job || strlen(job) > 128 || (step && strlen(step) > 32))
    return NULL;
  for (const char *c = job; *c; ++c)
    if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f)
      return NULL;
  char buf[168];
  snprintf(buf, sizeof(buf), step && *step ? "%s.%s" : "%s", job, step);
  return ompdp_strdup(buf);
}

int ompdp_process_from_env(ompdp_getenv_fn get, ompdp_process_t *p, char *err,
                           size_t errlen) {
  if (err && errlen)
    err[0] = '\0';
  for (size_t i = 0; i < sizeof(Launchers) / sizeof(Launchers[0]); ++i) {
    const launcher_t *l = &Launchers[i];
    const char *rank = get(l->rank);
    if (!rank || (l->requires && !get(l->requires)))
      continue;
    const char *size = l->size ? get(l->size) : NULL;
    if (!size && !strcmp(l->name, "slurm"))
      size = get("SLURM_NPROCS");
    int r = parse_count(rank), s = size ? parse_count(size) : -1;
    if (r < 0) {
      ompdp_errf(err, errlen, "%s='%.40s' is not a rank", l->rank, rank);
      return -1;
    }
    if (size && (s <= 0 || r >= s)) {
      ompdp_errf(err, errlen,
                 "%s='%.40s' is not a rank of %s='%.40s'", l->rank, rank, l->size, size);
      return -1;
    }
    p->rank = r;
    p->size = s;
    p->local_rank = l->local_rank ? parse_count(get(l->local_rank)) : -1;
    p->launcher = ompdp_strdup(l->name);
    p->job = job_id(get, l);
    for (size_t j = 0; !p->job && j < sizeof(JobFallbacks) / sizeof(JobFallbacks[0]); ++j)
      if (!JobFallbacks[j].requires || get(JobFallbacks[j].requires))
        p->job = job_id(get, &JobFallbacks[j]);
    return 1;
  }
  return 0;
}

char *ompdp_process_host_name(void) {
  char buf[256];
  if (gethostname(buf, sizeof(buf) - 1) != 0)
    return NULL;
  buf[sizeof(buf) - 1] = '\0';
  return buf[0] ? ompdp_strdup(buf) : NULL;
}

const char *ompdp_format_ranks(char *buf, size_t size, const int *ranks, size_t n) {
  size_t off = 0;
  if (!size)
    return buf;
  buf[0] = '\0';
  for (size_t i = 0; i < n;) {
    size_t j = i; /* the run ranks[i..j] of consecutive ranks */
    while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
      ++j;
    if (j < i + 2)
      j = i; /* two in a row read better as "3,4" */
    char piece[32];
    if (j > i)
      snprintf(piece, sizeof(piece), "%s%d-%d", i ? "," : "", ranks[i], ranks[j]);
    else
      snprintf(piece, sizeof(piece), "%s%d", i ? "," : "", ranks[i]);
    size_t len = strlen(piece);
    if (off + len + 4 > size) {
      snprintf(buf + off, size - off, "%s", off + 4 <= size ? "..." : "");
      return buf;
    }
    memcpy(buf + off, piece, len + 1);
    off += len;
    i = j + 1;
  }
  return buf;
}
