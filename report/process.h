/*===- process.h - which rank of a parallel job a report comes from -*- C -*-===*\
|*
|* An MPI program runs as many processes (ranks), and each writes its own
|* report. This is what a report says about its process when a launcher
|* started it (mpirun, mpiexec, srun): the rank, the job's size, the host
|* and the offload devices it used, and which build of which program it
|* was, so that `ompdp merge` can refuse to mix reports of different
|* programs, builds or runs. A merged report carries instead one entry per
|* rank (complete, partial, recovered from a journal, or missing) and, per
|* finding, which ranks have it and its spread over them (min, median,
|* max). Without a launcher none of this exists, and the report is exactly
|* what it was before (report_t.process and .merge stay NULL).
|*
|* The launcher is found from the environment it gives each rank: Open MPI
|* (OMPI_COMM_WORLD_*), MVAPICH (MV2_COMM_WORLD_*), MPICH's Hydra and Intel
|* MPI (PMI_RANK, PMI_SIZE), PMIx launchers (PMIX_RANK) and Slurm's srun
|* (SLURM_PROCID, only inside a job step: a batch script has SLURM_PROCID=0
|* without being a rank of anything).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_PROCESS_H
#define OMPDP_PROCESS_H

#include "report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One process of a parallel job. Strings are owned (malloc'd), NULL when
 * unknown; integers are -1 when unknown. */
typedef struct ompdp_process {
  int rank;          /* 0-based rank in the job */
  int size;          /* ranks in the job */
  int local_rank;    /* rank among those on the same host */
  char *launcher;    /* "openmpi", "mvapich", "pmi", "pmix", "slurm" */
  char *job;         /* the launcher's id of the run (ranks of one run share it) */
  char *host;
  int64_t pid;
  int *devices;      /* offload devices the process used, ascending */
  size_t num_devices;
  char *executable;  /* the program's file */
  char *build_id;    /* its GNU build ID, hex */
} ompdp_process_t;

typedef enum ompdp_rank_status {
  OMPDP_RANK_COMPLETE,  /* its report covers the whole run */
  OMPDP_RANK_PARTIAL,   /* its report is incomplete (a fatal signal, dropped events) */
  OMPDP_RANK_RECOVERED, /* it wrote no report: this is its journal's */
  OMPDP_RANK_MISSING,   /* no report and no journal */
} ompdp_rank_status_t;

/* One rank of a merged report. */
typedef struct ompdp_rank_entry {
  int rank;
  ompdp_rank_status_t status;
  char *file;  /* the report it came from; NULL when missing */
  char *host;
  int64_t pid;
  int *devices;
  size_t num_devices;
  int has_exit_status;
  int exit_status;
  uint64_t wall_time_ns;
  uint64_t time_saved_ns;
  uint64_t findings;
} ompdp_rank_entry_t;

/* What a merged report says about the job. */
typedef struct ompdp_merge_info {
  int size;  /* ranks in the job */
  char *launcher, *job, *executable, *build_id;
  ompdp_rank_entry_t *ranks; /* ascending, the missing included */
  size_t num_ranks;
} ompdp_merge_info_t;

typedef struct ompdp_stat {
  uint64_t min, median, max;
} ompdp_stat_t;

/* Ascending ranks. */
typedef struct ompdp_rank_list {
  int *ranks;
  size_t num_ranks;
} ompdp_rank_list_t;

/* A finding of a merged report over the ranks that have it. The median
 * of an even number of values is the mean of the middle two, rounded
 * down. Ranks may make different rewrites of one finding (the code around
 * it differs): rewrite_ranks[i] says which made the finding's i-th. */
typedef struct ompdp_spread {
  int *ranks; /* ascending */
  size_t num_ranks;
  ompdp_stat_t count, bytes, time_saved_ns;
  ompdp_rank_list_t *rewrite_ranks; /* one per rewrite of the finding */
  size_t num_rewrite_ranks;
} ompdp_spread_t;

/*--- lifetime (process.c) -------------------------------------------------===*/

/* A process with nothing known (every integer -1). */
void ompdp_process_init(ompdp_process_t *p);
void ompdp_process_free(ompdp_process_t *p); /* and the struct itself */
void ompdp_merge_info_free(ompdp_merge_info_t *m);
void ompdp_spread_free(ompdp_spread_t *s);
const char *ompdp_rank_status_json(ompdp_rank_status_t s);
/* Returns -1 when the name is unknown. */
int ompdp_rank_status_from_json(const char *name);

/*--- the launcher (process.c) ---------------------------------------------===*/

typedef const char *(*ompdp_getenv_fn)(const char *name);

/* Fills rank, size, local_rank, launcher and job from the environment that
 * get reads (getenv). Returns 1 when a launcher started this process, 0
 * when none did (p untouched), -1 when its variables hold no valid rank:
 * then err says which in one line, and the process counts as not started
 * by a launcher. */
int ompdp_process_from_env(ompdp_getenv_fn get, ompdp_process_t *p, char *err,
                           size_t errlen);

/* This host's name, malloc'd; NULL when unknown. */
char *ompdp_process_host_name(void);

/* "0-3,5,7": ascending ranks, runs of three or more as ranges, into buf
 * (cut with "..." when too long). Returns buf. */
const char *ompdp_format_ranks(char *buf, size_t size, const int *ranks, size_t n);

/*--- the formats (process_write.c) ----------------------------------------===*/

/* JSON: `  "process": {...},\n` or `  "ranks": {...},\n` after "program",
 * nothing when the report has neither. */
void ompdp_json_put_process(FILE *out, const ompdp_report_t *r);
/* `,\n      "ranks": {...}` inside a merged finding; nothing otherwise. */
void ompdp_json_put_spread(FILE *out, const ompdp_finding_t *f);

/* Text: lines after the program's exit status: the rank, or the ranks. */
void ompdp_text_put_process(FILE *out, const ompdp_report_t *r);
/* The line of time to save for a merged report (which sums ranks that ran
 * side by side). Returns 0 when r is not merged (nothing written). */
int ompdp_text_put_merged_saving(FILE *out, const ompdp_report_t *r);
/* `    ranks: ...` under a merged finding. */
void ompdp_text_put_spread(FILE *out, const ompdp_finding_t *f);

/* SARIF: members of the invocation (machine, processId), of the run's
 * properties (rank or ranks; each written with a leading ", "), and of a
 * result's properties. */
void ompdp_sarif_put_invocation_process(FILE *out, const ompdp_report_t *r);
void ompdp_sarif_put_run_process(FILE *out, const ompdp_report_t *r);
void ompdp_sarif_put_spread(FILE *out, const ompdp_finding_t *f);

/*--- reading (process_read.c) ---------------------------------------------===*/

/* Reads "process", "ranks" and the findings' "ranks" of the JSON report
 * text into r, whose findings the report reader has filled from the same
 * text. Returns 0 (also when there are none), or -1 after a one-line
 * reason in err. */
int ompdp_process_read_json(const char *text, size_t len, ompdp_report_t *r, char *err,
                            size_t errlen);
/* The same from a jansson document of the whole report (a json_t *), for a
 * report reader that has one already. doc: the text the tree was loaded
 * from by report/json_load.c, which keeps the integers of 10^18 and more
 * aside and gives jansson placeholders for them (NULL: a tree of
 * jansson's own, whose integers are what they say). */
struct json_t;
struct ompdp_json_doc;
int ompdp_process_read_json_root(const struct json_t *root, const struct ompdp_json_doc *doc,
                                 ompdp_report_t *r, char *err, size_t errlen);
/* A finding's "spread" (its ranks, in a merged report) from the finding's
 * own tree, into f, whose rewrites are read already: for a reader that
 * reads findings one at a time, whose whole tree holds none. doc: as
 * above. */
int ompdp_process_read_finding_json(const struct json_t *finding,
                                    const struct ompdp_json_doc *doc, ompdp_finding_t *f,
                                    char *err, size_t errlen);

#endif /* OMPDP_PROCESS_H */
