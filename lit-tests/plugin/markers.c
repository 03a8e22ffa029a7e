//===- markers.c - how offload calls are matched to regions ---------------===//
//
// With MARK, the host compile from source (what the offload driver's first
// cc1 run does: -disable-llvm-passes) calls, before each directive, the
// no-op marker with the region's index and the address of each item's
// variable; no location strings (no -g). -fpass-plugin names the module
// too, as ompdp.cfg does, so the tagging waits for the compile from IR
// (with -fplugin alone it happens in this run: plugin/fplugin-alone.c).
// With TAG, the pass tags every offload call: a descriptor per call (the
// region's record, the constant parts of its map arguments, the item of
// each argument) in one constant, passed with the call's other arguments;
// the kernel's firstprivate scalar has no item; the nowait update is tagged
// in its task; the markers and their function are gone. When the code is
// optimized (TAG-O2), the helpers keep the caller's registers.
// With NOTARGET, -fopenmp alone: Clang emits no offload calls: no markers,
// nothing tagged, the table is still there and the program runs.
//
// REQUIRES: plugin
// RUN: %clang -fplugin=%ompdp-so -fpass-plugin=%ompdp-so -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu --offload-host-only -S -emit-llvm -Xclang -disable-llvm-passes %s -o - | FileCheck %s --check-prefix=MARK
// RUN: %clang %ompdp-plugin-flags %offload-flags --offload-host-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=TAG
// RUN: %clang %ompdp-plugin-flags %offload-flags --offload-host-only -S -emit-llvm -O2 %s -o - | FileCheck %s --check-prefix=TAG-O2
// RUN: %clang %ompdp-plugin-flags -fopenmp -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOTARGET
// RUN: %clang %ompdp-plugin-flags -fopenmp %s -o %t
// RUN: %t
//===----------------------------------------------------------------------===//

// MARK-NOT: ;markers.c;
// MARK: call void (i32, ...) @__ompdp_marker(i32 noundef 0, ptr noundef %[[A:[0-9]+]])
// MARK: call void @__tgt_target_data_begin_mapper(
// MARK: call void (i32, ...) @__ompdp_marker(i32 noundef 1, ptr noundef %[[S:[0-9]+]], ptr noundef %[[A]])
// MARK: call i32 @__tgt_target_kernel(
// MARK: call void (i32, ...) @__ompdp_marker(i32 noundef 2, ptr noundef %[[A]])
// MARK: call ptr @__kmpc_omp_target_task_alloc(
// MARK: call void (i32, ...) @__ompdp_marker(i32 noundef 3, ptr noundef %[[A]])
// MARK: call void @__tgt_target_data_end_mapper(
// MARK: define internal void @__ompdp_marker(i32 noundef %0, ...)

// Region records follow the header: region I is at HDR + (R2 - HDR) * I
// (the sizes are the format's, OmpdpFormat.inc). A descriptor: record, types, names, sizes, mappers (the
// constant ones), items, number of arguments, flags (1: kernel launch), the
// function that holds the call.
// TAG: @__ompdp_call_items = private constant [6 x i16] [i16 0, i16 -1, i16 0, i16 1, i16 0, i16 0]
// TAG: @__ompdp_calls = private constant [4 x
// TAG-SAME: { ptr getelementptr inbounds (i8, ptr @__ompdp_region_table, i64 [[#HDR:]]), ptr @.offload_maptypes, ptr null, ptr @.offload_sizes, ptr null, ptr @__ompdp_call_items, i32 1, i32 0, ptr @main },
// TAG-SAME: { ptr getelementptr inbounds (i8, ptr @__ompdp_region_table, i64 [[#R2:]]), ptr null, ptr null, ptr null, ptr null, ptr getelementptr inbounds ([6 x i16], ptr @__ompdp_call_items, i64 0, i64 1), i32 3, i32 1, ptr @main },
// TAG-SAME: { ptr getelementptr inbounds (i8, ptr @__ompdp_region_table, i64 [[#sub(mul(2,R2),HDR)]]), ptr @.offload_maptypes.{{[0-9]+}}, ptr null, ptr null, ptr null, ptr getelementptr inbounds ([6 x i16], ptr @__ompdp_call_items, i64 0, i64 4), i32 1, i32 0, ptr @.omp_outlined. },
// TAG-SAME: { ptr getelementptr inbounds (i8, ptr @__ompdp_region_table, i64 [[#sub(mul(3,R2),mul(2,HDR))]]), ptr @.offload_maptypes.{{[0-9]+}}, ptr null, ptr @.offload_sizes.{{[0-9]+}}, ptr null, ptr getelementptr inbounds ([6 x i16], ptr @__ompdp_call_items, i64 0, i64 5), i32 1, i32 0, ptr @main }]
// TAG-NOT: __ompdp_marker
// TAG: call void @__ompdp_tag2(i32 0, ptr %{{[0-9]+}})
// TAG-NEXT: call void @__tgt_target_data_begin_mapper(
// TAG: call void @__ompdp_tag2(i32 1, ptr %{{[0-9]+}})
// TAG-NEXT: call i32 @__tgt_target_kernel(
// TAG: call void @__ompdp_tag2(i32 3, ptr %{{[0-9]+}})
// TAG-NEXT: call void @__tgt_target_data_end_mapper(
// TAG: define internal {{.*}}@.omp_task_entry.(
// The nowait update's sizes are a copy in the task: passed, not constant.
// TAG: call void @__ompdp_tag3(i32 2, ptr %{{[0-9]+}}, ptr %{{[0-9]+}})
// TAG-NEXT: call void @__tgt_target_data_update_nowait_mapper(
// TAG: !ompdp.tagged = !{}
// TAG-O2: call preserve_mostcc void @__ompdp_tag2(i32 1, ptr

// NOTARGET: @__ompdp_region_table = internal global {{.*}} section "ompdp_regions", align 8
// NOTARGET: section ".note.ompdp"
// NOTARGET-NOT: __ompdp_marker
// NOTARGET-NOT: call void @__ompdp_tag

int main(void) {
  int n = 8, s = 0;
  double a[8] = {0};
  #pragma omp target enter data map(to: a)
  #pragma omp target map(tofrom: s) map(to: a)
  for (int i = 0; i < n; ++i)
    s += a[i];
  #pragma omp target update from(a) nowait
  #pragma omp taskwait
  #pragma omp target exit data map(release: a)
  return s;
}
