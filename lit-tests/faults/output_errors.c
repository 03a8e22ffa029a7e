//===- output_errors.c - a report that cannot go where asked --------------===//
//
// The program sends `a` twice (1 duplicate transfer), prints its result and
// returns 5: that result and that status must come through every case.
//
// Disk full (-o /dev/full, or output=/dev/full for the runtime alone): one
// clear error, and the report goes to stderr instead.
// An output directory that cannot be written (here a path under a regular
// file: permissions do not stop root): the same.
// An -o that cannot be written is refused before the program starts (it
// would create a file): also when it is a symlink planted at the path.
// A symlink planted at the runtime's output path is replaced by the report,
// never followed: its target is unchanged, a dangling one is not created.
// Report files get mode 0666 less the umask.
// A program that closes its stderr and opens a file of its own as fd 2 must
// not find the report in it; with `ompdp run`, the report still appears.
// A reader of stderr that went away (SIGPIPE) changes nothing either.
//
// RUN: rm -rf %t.d && mkdir -p %t.d && echo 'not a directory' > %t.d/file
// RUN: %clang-offload -g %s -o %t
//
// RUN: sh -c '%ompdp run -o /dev/full -- %t; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefix=DRV-FULL
// RUN: sh -c 'OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS=output=/dev/full %t; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=RT-FULL,REPORT
// RUN: sh -c 'OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS=output=%t.d/file/r.txt %t; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=RT-NODIR,REPORT
//
// RUN: not %ompdp run -o %t.d/file/r.json -- %t touch %t.d/ran 2>&1 | FileCheck %s --check-prefix=DRV-NODIR
// RUN: not test -e %t.d/ran
// RUN: echo victim > %t.d/victim && ln -s %t.d/victim %t.d/link
// RUN: not %ompdp run -o %t.d/link -- %t touch %t.d/ran 2>&1 | FileCheck %s --check-prefix=DRV-LINK
// RUN: not test -e %t.d/ran
// RUN: FileCheck %s --check-prefix=VICTIM < %t.d/victim
//
// RUN: not env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS=output=%t.d/link %t
// RUN: FileCheck %s --check-prefix=VICTIM < %t.d/victim
// RUN: test -f %t.d/link && not test -L %t.d/link
// RUN: FileCheck %s --check-prefix=REPORT < %t.d/link
// RUN: ln -s %t.d/created-by-ompdp %t.d/dangling
// RUN: not env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS=output=%t.d/dangling %t
// RUN: not test -e %t.d/created-by-ompdp
// RUN: FileCheck %s --check-prefix=REPORT < %t.d/dangling
// RUN: ls %t.d | FileCheck %s --check-prefix=NO-TEMP
//
// RUN: sh -c 'umask 077 && OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS=output=%t.d/u077 %t; stat -c %%a %t.d/u077' | FileCheck %s --check-prefix=MODE600
// RUN: sh -c 'umask 022 && OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS=output=%t.d/u022 %t; stat -c %%a %t.d/u022' | FileCheck %s --check-prefix=MODE644
// RUN: sh -c 'umask 027 && %ompdp run -o %t.d/drv027 -- %t; stat -c %%a %t.d/drv027' | FileCheck %s --check-prefix=MODE640
//
// RUN: not env OMP_TOOL_LIBRARIES=%ompdp-rt %t closeerr %t.d/own
// RUN: FileCheck %s --check-prefix=OWN < %t.d/own
// RUN: not %ompdp run -- %t closeerr %t.d/own2 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=OWN < %t.d/own2
// RUN: sh -c 'OMP_TOOL_LIBRARIES=%ompdp-rt %t closeerr; echo "rc=$?"' | FileCheck %s --check-prefix=RC5
//
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt %python %S/Inputs/closed_pipe.py %t | FileCheck %s --check-prefix=RC5
// RUN: %python %S/Inputs/closed_pipe.py %ompdp run -- %t | FileCheck %s --check-prefix=RC5
//===----------------------------------------------------------------------===//
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define N 100

// DRV-FULL: result: 4950 4951
// DRV-FULL: ompdp: cannot write the report to /dev/full: No space left on device
// DRV-FULL-NEXT: ompdp: the report follows on standard error
// DRV-FULL-NEXT: === ompdp report ===
// DRV-FULL: duplicate_transfers=1
// DRV-FULL: rc=5
// RT-FULL: ompdp: cannot write the report to '/dev/full': No space left on device; the report follows on stderr
// RT-NODIR: ompdp: cannot write the report to '{{.*}}/file/r.txt': Not a directory; the report follows on stderr
// REPORT: === ompdp report ===
// REPORT: duplicate_transfers=1

// DRV-NODIR: ompdp: cannot write '{{.*}}/file/r.json': Not a directory
// DRV-LINK: ompdp: cannot write '{{.*}}/link': it is a symbolic link, which ompdp does not follow
// VICTIM: {{^}}victim{{$}}
// VICTIM-NOT: ompdp
// NO-TEMP-NOT: .tmp

// MODE600: {{^}}600{{$}}
// MODE644: {{^}}644{{$}}
// MODE640: {{^}}640{{$}}

// OWN: {{^}}program data{{$}}
// OWN-NOT: {{.}}
// RC5: rc=5

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "touch") && argc > 2) {
    close(open(argv[2], O_WRONLY | O_CREAT, 0644));
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "closeerr")) {
    close(2);
    if (argc > 2) {
      int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644); // becomes fd 2
      if (fd != 2)
        return 9;
      dprintf(fd, "program data\n");
    }
  }
  static int a[N], r[2];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int k = 0; k < 2; ++k) {
#pragma omp target map(to : a) map(from : r[k:1])
    {
      r[k] = k;
      for (int i = 0; i < N; ++i)
        r[k] += a[i];
    }
  }
  printf("result: %d %d\n", r[0], r[1]);
  fflush(stdout);
  return 5;
}
