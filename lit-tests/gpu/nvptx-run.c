// ===- nvptx-run.c - a report from a real NVIDIA GPU -----------------------===//
//
// Built with lib/ompdp-nvptx.cfg and run on the GPU: the three launches each
// copy `a` both ways, and ompdp names the variable and the clause of the
// round trips. Only where an NVIDIA GPU is present.
//
// REQUIRES: plugin, cuda, gpu
// RUN: %clang --config=%nvptx-cfg -O1 %S/Inputs/sum.c -o %t -Wl,-rpath,%llvm-libdir
// RUN: %ompdp run -- %t 2> %t.err | FileCheck %s --check-prefix=OUT
// OUT: sum=102
// RUN: FileCheck %s < %t.err
// CHECK: observed: 6 transfers
// CHECK: round_trips=2
// CHECK: variable: a  clause: map(tofrom : a)
