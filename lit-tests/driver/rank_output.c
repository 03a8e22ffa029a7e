//===- rank_output.c - %r, %p, %h in `ompdp run -o`, and the report's rank -===//
//
// A launcher is recognised by its environment, so these runs fake Open
// MPI's, Slurm's and MPICH's variables; lit-tests/mpi/ runs real mpirun.
//
// Without a launcher nothing changes: no rank in the report (JSON or text),
// %r is 0, %h the host, %p the program's own pid, %% a '%'; an unknown
// '%' sequence is one line of error (exit 2) and the program does not run.
// RUN: %clang-offload -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %ompdp run --format=json -o %t.d/r.%r.%h.json -- %t
// RUN: ls %t.d | FileCheck %s --check-prefix=NAMES
// RUN: cat %t.d/r.0.*.json | FileCheck %s --check-prefix=NOPROC --implicit-check-not='"process"' --implicit-check-not='"ranks"'
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: sh -c '%ompdp run --format=json -o %t.d/p.%%p.json -- %t pid > %t.pid && test -s %t.d/p.$(cat %t.pid).json'
// RUN: %ompdp run --format=json -o %t.d/pct.%%%%r.json -- %t && test -s '%t.d/pct.%%r.json'
// RUN: not %ompdp run -o %t.d/bad.%%x.json -- %t ran 2>&1 | FileCheck %s --check-prefix=BADPCT
// RUN: not %ompdp run -o %t.d/bad.%% -- %t ran 2>&1 | FileCheck %s --check-prefix=BADEND
//
// Open MPI's rank 1 of 2: %r is 1, the report says the rank, job, host,
// pid and the device the rank used, in JSON, text and SARIF.
// RUN: env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_LOCAL_RANK=1 OMPI_MCA_ess_base_jobid=42 %ompdp run --format=json -o %t.d/m.%r.json -- %t
// RUN: FileCheck %s --check-prefix=JSON < %t.d/m.1.json
// RUN: %ompdp report %t.d/m.1.json | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp report --format=sarif %t.d/m.1.json | FileCheck %s --check-prefix=SARIF
// RUN: env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=42 %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=TEXT
//
// Ranks given one path without %r or %p: each writes <path>.<rank>, and
// rank 0 says so once.
// RUN: env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 %ompdp run --format=json -o %t.d/shared.json -- %t 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 %ompdp run --format=json -o %t.d/shared.json -- %t 2>&1 | count 0
// RUN: test -s %t.d/shared.json.0 && test -s %t.d/shared.json.1 && test ! -e %t.d/shared.json
// RUN: env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 %ompdp run --format=json -o %t.d/own.%%p.json -- %t 2>&1 | count 0
//
// The runtime's own output option knows %r and %h too.
// RUN: env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json output=%t.d/direct.%r.json" %t
// RUN: FileCheck %s --check-prefix=DIRECT < %t.d/direct.1.json
//
// srun (Slurm, inside a job step) and MPICH's Hydra; a batch script's
// SLURM_PROCID is no rank; variables that hold no rank are said once and
// ignored.
// RUN: env SLURM_PROCID=3 SLURM_NTASKS=4 SLURM_STEP_ID=0 SLURM_JOB_ID=77 %ompdp run --format=json -o %t.d/s.%r.json -- %t
// RUN: FileCheck %s --check-prefix=SLURM < %t.d/s.3.json
// RUN: env SLURM_PROCID=3 SLURM_NTASKS=4 SLURM_JOB_ID=77 %ompdp run --format=json -o %t.d/batch.%r.json -- %t
// RUN: FileCheck %s --check-prefix=NOPROC --implicit-check-not='"process"' < %t.d/batch.0.json
// RUN: env PMI_RANK=2 PMI_SIZE=3 %ompdp run --format=json -o %t.d/h.%r.json -- %t
// RUN: FileCheck %s --check-prefix=HYDRA < %t.d/h.2.json
// RUN: env OMPI_COMM_WORLD_RANK=x OMPI_COMM_WORLD_SIZE=2 %ompdp run --format=json -o %t.d/x.%r.json -- %t 2>&1 | FileCheck %s --check-prefix=BADENV
// RUN: FileCheck %s --check-prefix=NOPROC --implicit-check-not='"process"' < %t.d/x.0.json
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// NAMES: r.0.{{.+}}.json
// A report (the file is there), without a process: no rank.
// NOPROC: "ompdp_report_version":
// NOPROC: "kind": "duplicate_transfer"
// PLAIN: === ompdp report ===
// PLAIN-NOT: {{^}}rank:
// PLAIN: duplicate_transfer
// BADPCT: ompdp: -o '{{.*}}bad.%x.json': '%x' stands for nothing (use %r for the rank, %p for the process id, %h for the host, %% for '%')
// BADPCT-NOT: ran
// BADEND: ompdp: -o '{{.*}}bad.%': '%' stands for nothing
// JSON: "process": {"rank": 1, "size": 2, "local_rank": 1, "launcher": "openmpi", "job": "42", "host": "{{[^"]+}}", "pid": {{[1-9][0-9]*}}, "devices": [1], "executable": "{{.*}}rank_output.c.tmp", "build_id": "{{[0-9a-f]+}}"},
// TEXT: exit status: 0
// TEXT-NEXT: rank: 1 of 2 (openmpi job 42) on {{.+}}, pid {{[0-9]+}}, devices 1
// SARIF: "machine": "{{[^"]+}}", "processId": {{[0-9]+}}
// SARIF: "process": {"rank": 1, "size": 2,
// DIRECT: "process": {"rank": 1, "size": 2,
// SHARED: ompdp: the 2 ranks of this job were all given -o {{.*}}shared.json: each writes {{.*}}shared.json.<rank> (put %r in the path to choose)
// SLURM: "process": {"rank": 3, "size": 4, "local_rank": null, "launcher": "slurm", "job": "77.0",
// HYDRA: "process": {"rank": 2, "size": 3, "local_rank": null, "launcher": "pmi", "job": null,
// BADENV: ompdp: the launcher's rank is ignored: OMPI_COMM_WORLD_RANK='x' is not a rank
// BADENV-NOT: ompdp: the launcher

static int a[256];

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "pid")) {
    printf("%ld", (long)getpid());
    fflush(stdout);
  }
  if (argc > 1 && !strcmp(argv[1], "ran"))
    printf("ran\n");
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  int dev = r ? atoi(r) % omp_get_num_devices() : 0;
  for (int k = 0; k < 3; ++k) {
#pragma omp target map(to : a) device(dev)
    a[0] += 0;
  }
  return 0;
}
