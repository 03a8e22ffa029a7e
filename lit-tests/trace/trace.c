//===- trace.c - the timeline as a Chrome trace for Perfetto --------------===//
//
// Two host threads each map their own array tofrom on every step of a loop
// (round trips and repeated allocations); the two arrays hold the same
// bytes, so each thread's copy duplicates the other's. TRACE, `ompdp report --format=trace`
// gives a file with every field the trace-event format requires, no
// partially overlapping slices on a track, and flows whose finish lies in a
// slice: a host process with one track per thread, a device process with a
// track per kind of operation and thread, a findings process with one track
// per finding (a slice over its operations, its verdict in args), counters
// of what is not kept one by one, flows from each outgoing copy to the copy
// that repeats it, a counter of the device's memory in use and its peak as
// an instant with what held it. NOTIMELINE, a report without a timeline
// still gives a valid trace: the findings as instants, and the device's
// memory in use (its process, its counter). The validator itself refuses what
// the format forbids (BAD-*).
//
// REQUIRES: plugin
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %clang-ompdp %s -o prog
// RUN: %ompdp run --format=json --option timeline_first=40 -o r.json -- ./prog
// RUN: %ompdp report --format=trace r.json -o r.trace.json
// RUN: %validate-trace --summary r.trace.json | FileCheck %s --check-prefix=TRACE
// RUN: FileCheck %s --check-prefix=EVENTS < r.trace.json
// RUN: %ompdp run --format=trace -o run.trace.json -- ./prog
// RUN: %validate-trace run.trace.json | FileCheck %s --check-prefix=VALID
// RUN: %ompdp run --format=json --option timeline=off -o off.json -- ./prog
// RUN: %ompdp report --format=trace off.json > off.trace.json
// RUN: %validate-trace --summary off.trace.json | FileCheck %s --check-prefix=NOTIMELINE
// RUN: FileCheck %s --check-prefix=INSTANT < off.trace.json
//
// RUN: %python -c "import json; d=json.load(open('r.trace.json')); x=[e for e in d['traceEvents'] if e['ph']=='X' and e['pid']>=100]; x[1]['ts']=x[0]['ts']+x[0]['dur']/2; x[1]['tid']=x[0]['tid']; x[1]['pid']=x[0]['pid']; x[1]['dur']=x[0]['dur']; json.dump(d, open('overlap.json','w'))"
// RUN: not %validate-trace overlap.json | FileCheck %s --check-prefix=BAD-OVERLAP
// RUN: %python -c "import json; d=json.load(open('r.trace.json')); [e.pop('dur') for e in d['traceEvents'] if e['ph']=='X'][:1]; json.dump(d, open('nodur.json','w'))"
// RUN: not %validate-trace nodur.json | FileCheck %s --check-prefix=BAD-DUR
// RUN: %python -c "import json; d=json.load(open('r.trace.json')); d['traceEvents']=[e for e in d['traceEvents'] if e['ph']!='f']; json.dump(d, open('noflow.json','w'))"
// RUN: not %validate-trace noflow.json | FileCheck %s --check-prefix=BAD-FLOW
// RUN: echo '{"traceEvents": [{"ph": "X", "name": "a", "pid": "1", "tid": 1, "ts": 0, "dur": 1}]}' > pid.json
// RUN: not %validate-trace pid.json | FileCheck %s --check-prefix=BAD-PID
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

#define N 1024
#define STEPS 6

static int a[2][N];

int main(void) {
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
    int *x = a[t];
    for (int s = 0; s < STEPS; ++s) {
#pragma omp target map(tofrom : x[0:N])
      for (int i = 0; i < N; ++i)
        x[i] += i;
    }
  }
  printf("%d %d\n", a[0][N - 1], a[1][N - 1]);
  return 0;
}

// TRACE: valid: {{[0-9]+}} events, {{[0-9]+}} processes, {{[0-9]+}} tracks, {{[1-9][0-9]*}} flows
// TRACE-DAG: process device 0
// TRACE-DAG: process host
// TRACE-DAG: process ompdp findings
// TRACE-DAG: thread host thread 0
// TRACE-DAG: thread host thread 1
// TRACE-DAG: thread to device (host thread 0)
// TRACE-DAG: thread to device (host thread 1)
// TRACE-DAG: thread from device (host thread 1)
// TRACE-DAG: thread kernel (host thread 0)
// TRACE-DAG: thread round_trip x trace.c:55:1
// TRACE-DAG: thread repeated_alloc x trace.c:55:1
// TRACE-DAG: thread duplicate_transfer x trace.c:55:1

// EVENTS: "displayTimeUnit": "ns"
// EVENTS: "traceEvents": [
// EVENTS-DAG: {"ph": "X", "name": "h2d 4.0 KiB", "cat": "avoidable", "pid": 100, "tid": {{[0-9]+}}, "ts": {{[0-9]+\.[0-9][0-9][0-9]}}, "dur": {{[0-9]+\.[0-9][0-9][0-9]}}, "cname": "terrible", "args": {"seq": {{[0-9]+}}, "bytes": 4096, "device": 0, "src_device": 0, "host_thread": {{[01]}}, "avoidable": ["{{[a-z_]+}} x trace.c:
// EVENTS-DAG: {"ph": "s", "name": "round_trip", "cat": "finding", "id": {{[0-9]+}}, "pid": 100,
// EVENTS-DAG: {"ph": "f", "bp": "e", "name": "round_trip", "cat": "finding",
// EVENTS-DAG: {"ph": "C", "name": "device memory in use", "pid": 100, "tid": 0, "ts": {{[0-9]+\.[0-9][0-9][0-9]}}, "args": {"bytes": 4096}}
// EVENTS-DAG: {"ph": "C", "name": "device memory in use", "pid": 100, "tid": 0, "ts": {{[0-9]+\.[0-9][0-9][0-9]}}, "args": {"bytes": 0}}
// EVENTS-DAG: {"ph": "i", "s": "p", "name": "peak device memory {{[0-9.]+ K?i?B}}", "cat": "memory", "pid": 100, "tid": 0, "ts": {{[0-9]+\.[0-9][0-9][0-9]}}, "args": {"bytes": {{[0-9]+}}, "allocations": {{[12]}}, "saved_by_the_fixes": 0, "held_by": ["x map(tofrom : x[0:N]) {{.*}}trace.c:55: {{[0-9]+}} bytes"
// EVENTS-DAG: {"ph": "X", "name": "round_trip x trace.c:55:1", "cat": "finding", "cname": "terrible", "pid": 2, "tid": {{[0-9]+}}, "ts": {{.*}}, "dur": {{.*}}, "args": {"location": "{{.*}}trace.c:55:1 in {{.*}}", "variable": "x", "clause": "map(tofrom : x[0:N])", "count": {{[0-9]+}}
// EVENTS-DAG: {"ph": "C", "name": "not drawn one by one: {{[a-z ]+}}", "pid": 100, "tid": 0, "ts": {{.*}}, "args": {"operations": {{[0-9]+}}}}

// VALID: valid:

// NOTIMELINE: valid: {{[0-9]+}} events, 3 processes, 0 tracks, 0 flows
// NOTIMELINE: process host
// NOTIMELINE: process device 0
// NOTIMELINE: process ompdp findings
// INSTANT: {"ph": "i", "s": "t", "name": "round_trip x trace.c:55:1"

// BAD-OVERLAP: invalid: traceEvents[{{[0-9]+}}]: overlaps traceEvents[{{[0-9]+}}] on track
// BAD-DUR: invalid: traceEvents[{{[0-9]+}}]: an X event needs dur >= 0
// BAD-FLOW: invalid: flow ('finding', {{.*}}): needs one start and one finish
// BAD-PID: invalid: traceEvents[0]: pid must be an integer
