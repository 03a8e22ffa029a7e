// ===- nvptx-no-gpu.c - an NVIDIA build run where there is no GPU ----------===//
//
// The program carries an sm_XX image; without a GPU (or without the NVIDIA
// driver) libomptarget runs its target regions on the host, nothing is
// mapped, and the report must say so at its top instead of "no inefficient
// data movement found". Where there is a GPU, gpu/nvptx-run.c runs it.
//
// REQUIRES: plugin, cuda
// UNSUPPORTED: gpu
// RUN: %clang --config=%nvptx-cfg -O1 %S/../gpu/Inputs/sum.c -o %t -Wl,-rpath,%llvm-libdir
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s -DARCH=%nvptx-arch
// CHECK: sum=102
// CHECK-NEXT: === ompdp report ===
// CHECK-NEXT: warning: no device activity: the program carries offload images for nvptx64-nvidia-cuda ([[ARCH]]), but no kernel ran and no data moved on any device, so nothing was checked: the NVIDIA driver (libcuda.so.1) was not loaded: no NVIDIA GPU here
// CHECK: nothing was checked: no data moved on any device
// CHECK-NOT: no inefficient data movement found
