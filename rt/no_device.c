/*===- no_device.c - a run in which no device did anything -----------*- C -*-===*\
|*
|* A program built for a GPU that runs where the GPU cannot be used (no
|* GPU, no driver, OMP_TARGET_OFFLOAD=DISABLED, an image the runtime
|* rejected) falls back to the host: its target regions run as host code,
|* nothing is mapped, and a report of it would say "no inefficient data
|* movement found", which is true and useless. When the run recorded no
|* kernel, no allocation and no transfer on any device, the loaded objects
|* are read for the device images they carry (offload-images/), and the
|* report's first warning says that nothing was checked and the likeliest
|* cause. The report writers show a warning that starts with
|* OMPDP_NO_DEVICE_MARK at the top (report.h).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp_rt.h"
#include "offload_images.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int scan_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  const char *name = info->dlpi_name;
  if (!name || !name[0])
    name = "/proc/self/exe"; /* the program itself */
  else if (strstr(name, "linux-vdso") || strstr(name, "libLLVM") || strstr(name, "libc.so") ||
           strstr(name, "libstdc++"))
    return 0; /* large and never built by the user */
  (void)ompdp_offload_scan_file(name, data);
  return 0;
}

/* A device that libomptarget started, of the given kind, or -1. */
static int started_device(int kind) {
  for (int d = 0; d < 64; ++d)
    if (ompdp_device_kind(d) == kind)
      return d;
  return -1;
}

static void cause_for_gpu(char *buf, size_t len, const char *vendor, const char *driver,
                          int kind) {
  const char *visible = getenv(kind == OMPDP_DEVKIND_CUDA ? "CUDA_VISIBLE_DEVICES"
                                                          : "ROCR_VISIBLE_DEVICES");
  int dev = started_device(kind);
  void *h = dlopen(driver, RTLD_NOW | RTLD_NOLOAD);
  if (h)
    dlclose(h);
  if (dev >= 0)
    snprintf(buf, len,
             "%s device %d started, but libomptarget ran none of the program's kernels on it: it "
             "found no image it could load (\"No images found compatible\" with "
             "LIBOMPTARGET_INFO=-1; for NVIDIA, a cubin that a CUDA newer than LLVM 19 reads "
             "was written: build with the config scripts/setup.sh makes, README, NVIDIA), or "
             "the target regions did not run",
             vendor, dev);
  else if (!h)
    snprintf(buf, len,
             "the %s driver (%s) was not loaded: no %s GPU here, or its driver library is not "
             "on the library path; every target region ran on the host instead "
             "(OMP_TARGET_OFFLOAD=MANDATORY makes that an error)",
             vendor, driver, vendor);
  else
    snprintf(buf, len,
             "the %s driver found no usable GPU%s%s%s; every target region ran on the host "
             "instead (OMP_TARGET_OFFLOAD=MANDATORY makes that an error)",
             vendor, visible ? " (" : "", visible ? (kind == OMPDP_DEVKIND_CUDA
                                                         ? "CUDA_VISIBLE_DEVICES is set"
                                                         : "ROCR_VISIBLE_DEVICES is set")
                                                  : "",
             visible ? ")" : "");
}

int ompdp_no_device_warn(ompdp_report_t *r) {
  if (r->num_transfers || r->num_allocs || r->num_kernels || r->num_deletes)
    return 0;
  ompdp_offload_info_t info;
  memset(&info, 0, sizeof(info));
  dl_iterate_phdr(scan_object, &info);
  char images[512], cause[640], text[1400];
  if (info.num_images) {
    ompdp_offload_describe(&info, images, sizeof(images));
    const char *offload = getenv("OMP_TARGET_OFFLOAD");
    if (offload && !strcasecmp(offload, "disabled"))
      snprintf(cause, sizeof(cause),
               "OMP_TARGET_OFFLOAD=DISABLED is set, so every target region ran on the host");
    else if (ompdp_offload_has_triple(&info, "nvptx"))
      cause_for_gpu(cause, sizeof(cause), "NVIDIA", "libcuda.so.1", OMPDP_DEVKIND_CUDA);
    else if (ompdp_offload_has_triple(&info, "amdgcn"))
      cause_for_gpu(cause, sizeof(cause), "AMD", "libhsa-runtime64.so.1", OMPDP_DEVKIND_OTHER);
    else
      snprintf(cause, sizeof(cause),
               "no target region ran, or each one fell back to the host (LIBOMPTARGET_INFO=-1 "
               "says why)");
    snprintf(text, sizeof(text),
             OMPDP_NO_DEVICE_MARK "the program carries offload images for %s, but no kernel ran "
                                  "and no data moved on any device, so nothing was checked: %s",
             images, cause);
  } else if (info.target_functions) {
    snprintf(text, sizeof(text),
             OMPDP_NO_DEVICE_MARK "the program was built without -fopenmp-targets: its %u target "
                                  "region%s compiled for the host only and ran as plain host "
                                  "code, moving no data, so nothing was checked; build with "
                                  "-fopenmp-targets=nvptx64-nvidia-cuda (or x86_64-pc-linux-gnu "
                                  "for offload to the host)",
             info.target_functions, info.target_functions == 1 ? " was" : "s were");
  } else {
    return 0; /* no target region anywhere: nothing to say */
  }
  return ompdp_report_add_warning_first(r, text);
}
