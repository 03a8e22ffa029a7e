/*===- offload_images.h - what a program file says about offloading -*- C -*-===*\
|*
|* Reads an ELF file (a program or shared library) for what decides whether
|* its target regions can run on a device: the device images it carries
|* (the `.llvm.offloading` section that clang 19's offload link writes: one
|* OffloadBinary per image, with its triple and arch), the host functions
|* of target regions (`__omp_offloading_*`), which a build without
|* -fopenmp-targets also has, and whether it links an OpenMP runtime.
|*
|* Used where a run saw no device activity, to say why: by the runtime at
|* exit (rt/no_device.c, over every loaded object) and by `ompdp run` when
|* the program never started the runtime (driver/run.c). Plain C over
|* pread(): no libelf, so the runtime can link it; every size and offset
|* read from the file is checked before use.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_OFFLOAD_IMAGES_H
#define OMPDP_OFFLOAD_IMAGES_H

#include <stddef.h>

#define OMPDP_MAX_IMAGES 16

typedef struct ompdp_offload_image {
  char triple[64]; /* nvptx64-nvidia-cuda, amdgcn-amd-amdhsa, x86_64-pc-linux-gnu */
  char arch[32];   /* sm_90, gfx90a; empty for the host's */
} ompdp_offload_image_t;

typedef struct ompdp_offload_info {
  unsigned num_images; /* distinct (triple, arch), at most OMPDP_MAX_IMAGES */
  ompdp_offload_image_t images[OMPDP_MAX_IMAGES];
  unsigned target_functions; /* host versions of target regions (symbol table) */
  int links_openmp;          /* DT_NEEDED libomp, libgomp or libiomp5 */
} ompdp_offload_info_t;

/* Adds what the ELF file at path says to *info (images are merged with
 * those already there, counts added), so several objects can be summed.
 * 0, or -1 if the file cannot be read or is no 64-bit little-endian ELF
 * (then *info is unchanged). */
int ompdp_offload_scan_file(const char *path, ompdp_offload_info_t *info);

/* "nvptx64-nvidia-cuda (sm_90), x86_64-pc-linux-gnu" into buf. */
void ompdp_offload_describe(const ompdp_offload_info_t *info, char *buf, size_t len);

/* Whether one of the images is for the given triple prefix ("nvptx64"). */
int ompdp_offload_has_triple(const ompdp_offload_info_t *info, const char *prefix);

#endif /* OMPDP_OFFLOAD_IMAGES_H */
