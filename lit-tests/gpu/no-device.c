// ===- no-device.c - a GPU build whose kernels never reach the GPU ---------===//
//
// On a machine with a GPU, two ways for the program's target regions to run
// on the host instead: OMP_TARGET_OFFLOAD=DISABLED, and an image for
// another GPU only (sm_52 code, Maxwell's, runs on no newer GPU, so
// libomptarget finds no compatible image). Each report says at its top
// that nothing was checked, with the cause.
//
// REQUIRES: plugin, cuda, gpu
// RUN: %clang --config=%nvptx-cfg -O1 %S/Inputs/sum.c -o %t -Wl,-rpath,%llvm-libdir
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=DISABLED
// DISABLED: sum=102
// DISABLED-NEXT: === ompdp report ===
// DISABLED-NEXT: warning: no device activity: the program carries offload images for nvptx64-nvidia-cuda ({{sm_[0-9]+}}), but no kernel ran and no data moved on any device, so nothing was checked: OMP_TARGET_OFFLOAD=DISABLED is set
// RUN: %clang --config=%nvptx-cfg --no-offload-arch=%nvptx-arch --offload-arch=sm_52 --libomptarget-nvptx-bc-path=%llvm-libdir/libomptarget-nvptx-sm_52.bc -O1 %S/Inputs/sum.c -o %t.sm52 -Wl,-rpath,%llvm-libdir
// RUN: env OMP_TARGET_OFFLOAD=DEFAULT %ompdp run -- %t.sm52 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: sum=102
// OTHER-NEXT: === ompdp report ===
// OTHER-NEXT: warning: no device activity: the program carries offload images for nvptx64-nvidia-cuda (sm_52), but no kernel ran and no data moved on any device, so nothing was checked: the NVIDIA
