//===- neovim.c - a real client: Neovim's built-in LSP client ----------------===//
//
// Listing 2 (as lit-tests/fixes/keep-resident-round-trip.c), compiled with
// the plugin and run under ompdp; Neovim (headless, without any user
// configuration) opens it with its built-in LSP client and `ompdp lsp`,
// the report named in the client's init_options
// (Inputs/nvim_client.lua). The client stores the findings as diagnostics
// at the map item, shows the hover, lists the quick fix and the
// whole-file action, applies the quick fix chosen from its menu (two edits
// in one WorkspaceEdit, in UTF-16 positions) and tells the server of the
// change, which then drops the findings the fix answers. The file written
// is the one `ompdp fix --apply` makes.
//
// REQUIRES: plugin, nvim
// RUN: rm -rf %t && mkdir -p %t/expected && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o prog
// RUN: cd %t && %ompdp run --format=json -o run.json -- ./prog > /dev/null
// RUN: cp %t/prog.c %t/expected/prog.c && %ompdp fix --root %t/expected --apply %t/run.json
// Neovim's exit status goes to the end of the log, checked last, so that a
// failure shows the log first (FAIL and the step, or the lines missing).
// RUN: cd %t && env OMPDP=%ompdp SRC=%t/prog.c REPORT=run.json OUT=%t/nvim.log sh -c 'timeout 120 %nvim -c "luafile %S/Inputs/nvim_client.lua" > %t/nvim.out 2>&1; echo "nvim exit status: $?" >> %t/nvim.log'
// RUN: FileCheck %s < %t/nvim.log
// RUN: diff %t/expected/prog.c %t/prog.c
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256
#define ITERS 5

int main(void) {
  static int b[N];
  long seen = 0;
  for (int it = 0; it < ITERS; ++it) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; ++j)
      b[j] += j + it;
    seen += b[it]; // the host reads b in the loop: it must stay current
  }
  printf("b[1]=%d b[N-1]=%d seen=%ld\n", b[1], b[N - 1], seen);
  return 0;
}

// CHECK:      client: ompdp, offset encoding utf-16
// CHECK-NEXT: opened: 3 diagnostic(s)
// CHECK-NEXT:   [[#LINE:]]:0-{{[0-9]+}}:48 severity={{[234]}} ompdp ompdp-repeated-alloc: repeated allocation: 'b' in implicit map(tofrom: b) is allocated on the device again, 4 times
// CHECK-NEXT:   [[#LINE]]:0-[[#LINE]]:48 severity={{[234]}} ompdp ompdp-round-trip: round trip: 'b' in implicit map(tofrom: b) goes to the device and comes back unchanged 4 times
// CHECK-NEXT:   [[#LINE]]:0-[[#LINE]]:48 severity={{[234]}} ompdp ompdp-zero-transfer: zero-filled transfer: 'b' in implicit map(tofrom: b) copies only zero bytes to the device, once
// CHECK-NEXT: hover: **ompdp: round trip** of `b` in `implicit map(tofrom: b)`
// CHECK-NEXT: action: quickfix ompdp: keep `b` on device 0 for the whole for loop at prog.c:[[#LINE]] (saves {{.*}})
// CHECK-NEXT: action: source.fixAll.ompdp ompdp: apply every rewrite in this file (1)
// CHECK-NEXT: applied: the buffer changed
// CHECK-NEXT: after the fix: 1 diagnostic(s)
// CHECK-NEXT:   [[#LINE+1]]:0-[[#LINE+1]]:{{[0-9]+}} severity={{[234]}} ompdp ompdp-zero-transfer: zero-filled transfer: 'b' {{.*}}
// CHECK-NEXT: written
// CHECK-NEXT: stopped
// CHECK-NEXT: nvim exit status: 0
