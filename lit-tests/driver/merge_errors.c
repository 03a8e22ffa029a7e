//===- merge_errors.c - what `ompdp merge` refuses, in one line each ------===//
//
// The ranks' reports come from runs under faked launcher environments
// (lit-tests/mpi/ runs real mpirun). Reports of different builds of one
// program, of different programs, of different runs (job ids, or job
// sizes), two reports of one rank, a report without a rank among several,
// an already merged report, a corrupt file and a missing one are refused
// with one line and exit status 1; usage errors exit 2. A journal given
// beside its own report is left out, with a line. The merge of the good
// reports works, one report without a rank is merged as rank 0 of 1, and
// `ompdp report` of a single report is as before.
//
// RUN: rm -rf %t.d && mkdir -p %t.d/a %t.d/b %t.d/o
// RUN: %clang-offload -g %s -o %t.d/a/prog
// RUN: %clang-offload -g -DOTHER %s -o %t.d/b/prog
// RUN: %clang-offload -g -DOTHER %s -o %t.d/o/other
// RUN: env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=42 %ompdp run --format=json -o %t.d/r%r.json -- %t.d/a/prog
// RUN: env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=42 %ompdp run --format=json -o %t.d/r%r.json -- %t.d/a/prog
// RUN: env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=42 %ompdp run --format=json -o %t.d/build.%r.json -- %t.d/b/prog
// RUN: env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=42 %ompdp run --format=json -o %t.d/prog.%r.json -- %t.d/o/other
// RUN: env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=43 %ompdp run --format=json -o %t.d/job.%r.json -- %t.d/a/prog
// RUN: env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=3 OMPI_MCA_ess_base_jobid=42 %ompdp run --format=json -o %t.d/size.%r.json -- %t.d/a/prog
// RUN: %ompdp run --format=json -o %t.d/plain.json -- %t.d/a/prog
//
// RUN: %ompdp merge -o %t.d/merged.json %t.d/r0.json %t.d/r1.json
// RUN: FileCheck %s --check-prefix=GOOD < %t.d/merged.json
// RUN: not %ompdp merge %t.d/r0.json %t.d/build.1.json 2>&1 | FileCheck %s --check-prefix=BUILD
// RUN: not %ompdp report %t.d/r0.json %t.d/build.1.json 2>&1 | FileCheck %s --check-prefix=BUILD
// RUN: not %ompdp merge %t.d/r0.json %t.d/prog.1.json 2>&1 | FileCheck %s --check-prefix=PROG
// RUN: not %ompdp merge %t.d/r0.json %t.d/job.1.json 2>&1 | FileCheck %s --check-prefix=JOB
// RUN: not %ompdp merge %t.d/r0.json %t.d/size.1.json 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not %ompdp merge %t.d/r1.json %t.d/r0.json %t.d/r1.json 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not %ompdp merge %t.d/r0.json %t.d/plain.json 2>&1 | FileCheck %s --check-prefix=NORANK
// RUN: not %ompdp merge %t.d/merged.json %t.d/r1.json 2>&1 | FileCheck %s --check-prefix=MERGED
// RUN: printf '{"ompdp_report_version": 2, "process": ' > %t.d/bad.json
// RUN: not %ompdp merge %t.d/r0.json %t.d/bad.json 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: not %ompdp merge %t.d/r0.json %t.d/none.json 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not %ompdp merge 2>&1 | FileCheck %s --check-prefix=NOINPUT
// RUN: not %ompdp merge --bogus %t.d/r0.json 2>&1 | FileCheck %s --check-prefix=BADOPT
//
// RUN: printf 'not a journal' > %t.d/r1.json.journal
// RUN: %ompdp merge %t.d/r0.json %t.d/r1.json %t.d/r1.json.journal 2>&1 >/dev/null | FileCheck %s --check-prefix=STALE
// RUN: %ompdp merge --format=text %t.d/plain.json | FileCheck %s --check-prefix=ONE
// RUN: %ompdp report %t.d/plain.json | FileCheck %s --check-prefix=PLAIN
//===----------------------------------------------------------------------===//

// GOOD: "merged": [0, 1], "partial": [], "missing": [],
// BUILD: ompdp: cannot merge: {{.*}}r0.json and {{.*}}build.1.json are reports of different builds of prog (build IDs {{[0-9a-f]+}} and {{[0-9a-f]+}})
// PROG: ompdp: cannot merge: {{.*}}r0.json and {{.*}}prog.1.json are reports of different programs ({{.*}}a/prog and {{.*}}o/other)
// JOB: ompdp: cannot merge: {{.*}}r0.json and {{.*}}job.1.json are reports of different runs (openmpi job 42 and openmpi job 43)
// SIZE: ompdp: cannot merge: {{.*}}r0.json and {{.*}}size.1.json are reports of different runs (of 2 and 3 ranks)
// TWICE: ompdp: cannot merge: {{.*}}r1.json and {{.*}}r1.json are both the report of rank 1
// NORANK: ompdp: cannot merge: {{.*}}plain.json has no rank (it was not written under an MPI launcher such as mpirun or srun): ompdp merges the reports of the ranks of one MPI run
// MERGED: ompdp: cannot merge: {{.*}}merged.json is already a merged report (merge the reports of the ranks instead)
// CORRUPT: ompdp: {{.*}}bad.json: invalid JSON at line 1, column {{[0-9]+}}
// NOFILE: ompdp: cannot read '{{.*}}none.json': No such file or directory
// NOINPUT: ompdp: no report given (usage: ompdp merge [--format=text|json|sarif|html|trace] [-o FILE] REPORT...)
// BADOPT: ompdp: unknown option '--bogus' (see 'ompdp merge --help')
// STALE: ompdp: {{.*}}r1.json.journal is left out: the report beside it supersedes it
// STALE-NOT: ompdp:
// ONE: ranks: 1 of 1 merged (0) from unknown launcher
// PLAIN: === ompdp report ===
// PLAIN-NOT: ranks:

static int a[256];

int main(void) {
#ifdef OTHER
  a[1] = 1;
#endif
  for (int k = 0; k < 2; ++k) {
#pragma omp target map(to : a)
    a[0] += 0;
  }
  return 0;
}
