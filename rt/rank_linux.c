/*===- rank_linux.c - which rank of an MPI job this process is -----*- C -*-===*\
|*
|* Under a launcher (mpirun, srun: report/process.c reads its environment)
|* every report says which rank wrote it, on which host, with which offload
|* devices, and which build of which program it was, so that `ompdp merge`
|* can put the ranks' reports together and refuse reports of another
|* program, build or run. Without a launcher nothing is added.
|*
|* What does not change while the program runs (the rank, the host, the
|* executable and its GNU build ID, read from the program's own PT_NOTE
|* segments in memory) is found once. The devices are those of every
|* operation the tool interned: intern.c notes the devices of each new
|* operation here, which costs a few atomic ORs per distinct operation and
|* nothing per event.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "rank.h"
#include "process.h"

#include <elf.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Devices 0 to 255; a program with more names only those. */
#define MAX_DEVICES 256
static _Atomic uint64_t devices_seen[MAX_DEVICES / 64];

static void note(int32_t dev) {
  if (dev >= 0 && dev < MAX_DEVICES)
    atomic_fetch_or_explicit(&devices_seen[dev / 64], 1ull << (dev % 64),
                             memory_order_relaxed);
}

/* The device fields that mean something for the type, as the detections
 * read them: a delete's other device, for one, is whatever libomptarget
 * passed (0). */
void ompdp_rank_note_devices(const ompdp_op_t *op) {
  switch ((ompdp_event_type_t)op->type) {
  case OMPDP_EV_TRANSFER:
    note(op->src_dev);
    note(op->dst_dev);
    break;
  case OMPDP_EV_DELETE:
    note(op->src_dev);
    break;
  case OMPDP_EV_ALLOC:
  case OMPDP_EV_KERNEL:
  case OMPDP_EV_USE:
  case OMPDP_EV_TARGET:
    note(op->dst_dev);
    break;
  }
}

static pthread_once_t detect_once = PTHREAD_ONCE_INIT;
static ompdp_process_t self;
static int under_launcher;

static const char *get_env(const char *name) { return getenv(name); }

/* The GNU build ID of the main program, from its notes in memory. */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *ctx) {
  char **out = ctx;
  (void)size;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    const unsigned char *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
      size_t name = (n->n_namesz + 3) & ~(size_t)3, desc = (n->n_descsz + 3) & ~(size_t)3;
      const unsigned char *d = p + sizeof(*n) + name;
      if (d + desc > end)
        break;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
          !memcmp(p + sizeof(*n), "GNU", 4) && n->n_descsz && n->n_descsz <= 64) {
        char hex[129];
        for (size_t k = 0; k < n->n_descsz; ++k)
          snprintf(hex + 2 * k, 3, "%02x", d[k]);
        *out = ompdp_strdup(hex);
        return 1;
      }
      p = d + desc;
    }
  }
  return 1; /* the first object is the main program: stop there */
}

static atomic_int detect_stderr_ok; /* set by whoever asks first */

static void detect(void) {
  ompdp_process_init(&self);
  char err[256];
  int rc = ompdp_process_from_env(get_env, &self, err, sizeof(err));
  if (rc < 0 && atomic_load_explicit(&detect_stderr_ok, memory_order_relaxed))
    fprintf(stderr, "ompdp: the launcher's rank is ignored: %s\n", err);
  if (rc != 1)
    return;
  under_launcher = 1;
  self.host = ompdp_process_host_name();
  char exe[PATH_MAX]; /* not realpath's own malloc: ours is counted (alloc_linux.c) */
  if (realpath("/proc/self/exe", exe))
    self.executable = strdup(exe);
  dl_iterate_phdr(find_build_id, &self.build_id);
}

/* Device numbers seen, ascending, without the host's unless it is the only
 * one (as a finding's devices). */
static void fill_devices(ompdp_process_t *p, int host) {
  int list[MAX_DEVICES];
  size_t n = 0;
  int host_seen = 0;
  for (int d = 0; d < MAX_DEVICES; ++d) {
    if (!(atomic_load_explicit(&devices_seen[d / 64], memory_order_relaxed) >> (d % 64) & 1))
      continue;
    if (d == host)
      host_seen = 1;
    else
      list[n++] = d;
  }
  if (!n && host_seen)
    list[n++] = host;
  if (n && (p->devices = malloc(n * sizeof(*p->devices)))) {
    memcpy(p->devices, list, n * sizeof(*list));
    p->num_devices = n;
  }
}

const char *ompdp_rank_path_part(char which, char *buf, size_t size, int stderr_ok) {
  atomic_store_explicit(&detect_stderr_ok, stderr_ok, memory_order_relaxed);
  pthread_once(&detect_once, detect);
  if (which == 'r') {
    snprintf(buf, size, "%d", under_launcher ? self.rank : 0);
  } else {
    char *host = self.host ? NULL : ompdp_process_host_name();
    snprintf(buf, size, "%s", self.host ? self.host : host ? host : "unknown-host");
    free(host);
  }
  return buf;
}

const ompdp_process_t *ompdp_rank_self(int stderr_ok) {
  atomic_store_explicit(&detect_stderr_ok, stderr_ok, memory_order_relaxed);
  pthread_once(&detect_once, detect);
  return under_launcher ? &self : NULL;
}

void ompdp_rank_forget_devices(void) {
  for (size_t i = 0; i < MAX_DEVICES / 64; ++i)
    atomic_store_explicit(&devices_seen[i], 0, memory_order_relaxed);
}

void ompdp_rank_fill_as(ompdp_report_t *r, const ompdp_process_t *who, int64_t pid,
                        int host_device) {
  if (r->process)
    return;
  ompdp_process_t *p = malloc(sizeof(*p));
  if (!p)
    return;
  *p = *who;
  p->launcher = ompdp_strdup(who->launcher);
  p->job = ompdp_strdup(who->job);
  p->host = ompdp_strdup(who->host);
  p->executable = ompdp_strdup(who->executable);
  p->build_id = ompdp_strdup(who->build_id);
  p->devices = NULL;
  p->num_devices = 0;
  p->pid = pid;
  fill_devices(p, host_device);
  r->process = p;
}

void ompdp_rank_fill(ompdp_report_t *r, int host_device, int stderr_ok) {
  if (ompdp_rank_self(stderr_ok))
    ompdp_rank_fill_as(r, &self, (int64_t)getpid() /* a forked child's own */, host_device);
}
