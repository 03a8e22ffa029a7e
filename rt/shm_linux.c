/*===- shm_linux.c - the event log, in a file that outlives us --*- C -*-===*\
|*
|* A report written by the dying process is best effort: a fault in a libomp
|* thread, SIGKILL, the OOM killer or _exit() leave it no time. But `ompdp
|* run` outlives the program, and the kernel keeps the pages of a shared
|* file mapping whatever ends the process. So under `ompdp run` the chunks
|* of the event log, the operation table, and what attributing operations
|* needs (the objects holding call sites, with their load biases, and the
|* compiler's description of each region item seen) live in one file that
|* `ompdp run` named, in a tmpfs it made (option crash_log). The records are
|* the log's own (no copy on the hot path): a record counts once its
|* operation word is stored with COMPLETE, by one release store, so one
|* half-written at death is ignored. When the program dies without a report,
|* `ompdp run` replays the file through the same analysis engine
|* (driver/recover.c). The format is include/ompdp/crashlog.h.
|*
|* The file grows by blocks (fallocate, then a shared mapping of just that
|* block, populated at once unless it is the first of its series). A
|* consumed event chunk is copied to the end of the file with pwrite, and
|* its mapped pages take the thread's next chunk: on a VM, mapping fresh
|* pages was most of what the file cost the program (ompdp_shm_alloc);
|* when it cannot be copied it is unmapped and stays where it is. Space is
|* reserved before a block is mapped, so a full tmpfs is an error here,
|* never a SIGBUS in the program (a pwrite that finds no room fails).
|* When the file cannot grow (a full file system, the crash_log_mb cap), it
|* stops: the time is noted, the callers fall back to their own memory, and
|* the journal and the signal handler take over as without `ompdp run`.
|*
|* A child made by fork() inherits the mappings, and must not write into its
|* parent's file: it copies every block it has mapped into a file of its
|* own and maps the copies at the same addresses, before fork() returns.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "shm.h"
#include "ompdp/crashlog.h"
#include "ompdp_rt.h"
#include "rank.h"
#include "regions.h"
#include "tool.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define META_BLOCK (64u << 10)
#define EVENT_BLOCK (128u << 10) /* as eventlog.c's anonymous chunks */
/* The first META block and each thread's first event block are smaller: a
 * short run writes a few hundred bytes into each, and on tmpfs fallocate
 * takes about a microsecond for every page it reserves (32 us of a
 * one-region run for the 32 pages of a first event block, 17 for a META
 * block's 16; issue 30). Readers take each block's size from its header. */
#define META_FIRST (16u << 10)
#define EVENT_FIRST (16u << 10)
#define MAX_STRING 4096u

static int cl_fd = -1;
static dev_t cl_dev; /* the file cl_fd must still be (a program may close */
static ino_t cl_ino; /* our descriptor and open another file on its number) */
static ompdp_cl_header_t *cl_hdr;
static pthread_mutex_t cl_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t cl_cap; /* bytes; 0: none */
static uint64_t cl_keep_free; /* bytes the file system keeps for the program */

/* The blocks mapped now (for fork), under cl_lock. */
typedef struct mapping {
  void *addr;
  uint64_t size, off;
} mapping_t;
static mapping_t *maps;
static size_t num_maps, cap_maps;

/* The META block being filled, under cl_lock. */
static ompdp_cl_block_t *meta;
static uint32_t num_meta;

/* Call sites and region items already described: a small set of keys,
 * under seen_lock (taken only for operations new to the table). */
typedef struct seen {
  uint64_t *k; /* pairs; {0, 0} empty */
  size_t cap, n;
} seen_t;
static seen_t seen_code, seen_site;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

static inline int healthy(void) {
  return cl_hdr && !__atomic_load_n(&cl_hdr->stopped, __ATOMIC_ACQUIRE);
}

int ompdp_shm_active(void) { return healthy(); }

static uint64_t round_page(uint64_t n) {
  return (n + OMPDP_CL_PAGE - 1) / OMPDP_CL_PAGE * OMPDP_CL_PAGE;
}

/* Under cl_lock. From now on the file no longer holds every event. */
static void stop(uint32_t why) {
  if (!healthy())
    return;
  __atomic_store_n(&cl_hdr->stopped_at_ticks, ompdp_ticks_ordered(), __ATOMIC_RELAXED);
  __atomic_store_n(&cl_hdr->stopped, why, __ATOMIC_RELEASE);
  if (ompdp_opts.verbose && ompdp_stderr_usable())
    dprintf(STDERR_FILENO, "ompdp: the crash log stopped growing (%s); the journal takes over\n",
            why == OMPDP_CL_STOP_CAP ? "crash_log_mb reached" : strerror(errno));
}

static int track(void *addr, uint64_t size, uint64_t off) {
  if (num_maps == cap_maps) {
    size_t ncap = cap_maps ? 2 * cap_maps : 64;
    mapping_t *v = realloc(maps, ncap * sizeof(*v));
    if (!v)
      return -1;
    maps = v;
    cap_maps = ncap;
  }
  maps[num_maps++] = (mapping_t){addr, size, off};
  return 0;
}

/* Under cl_lock: whether the file may grow to off + size: 0, or an errno.
 * The file must still be ours; it must not take the space the program may
 * want in the same file system (a /dev/shm of its own segments), nor grow
 * past the program's RLIMIT_FSIZE (which would raise SIGXFSZ). */
static int file_has_room(uint64_t off, uint64_t size) {
  struct stat st;
  struct statvfs vfs;
  struct rlimit fsize;
  if (fstat(cl_fd, &st) || st.st_dev != cl_dev || st.st_ino != cl_ino)
    return EBADF;
  if ((fstatvfs(cl_fd, &vfs) == 0 &&
       (uint64_t)vfs.f_bavail * vfs.f_frsize < size + cl_keep_free) ||
      (getrlimit(RLIMIT_FSIZE, &fsize) == 0 && fsize.rlim_cur != RLIM_INFINITY &&
       off + size > (uint64_t)fsize.rlim_cur))
    return ENOSPC;
  return 0;
}

/* Under cl_lock: a new block of the file, mapped, its header written and
 * published. NULL (and the log stopped) when the file cannot grow. */
static ompdp_cl_block_t *new_block_timed(uint32_t kind, uint32_t a, uint32_t b, size_t want);

static ompdp_cl_block_t *new_block(uint32_t kind, uint32_t a, uint32_t b, size_t want) {
  uint64_t t0 = ompdp_now_ns();
  ompdp_cl_block_t *blk = new_block_timed(kind, a, b, want);
  ompdp_cost_add(OMPDP_COST_LOG_BLOCKS, ompdp_now_ns() - t0);
  return blk;
}

static ompdp_cl_block_t *new_block_timed(uint32_t kind, uint32_t a, uint32_t b, size_t want) {
  if (!healthy())
    return NULL;
  uint64_t size = round_page(want + sizeof(ompdp_cl_block_t));
  uint64_t off = cl_hdr->next_off;
  if (cl_cap && off + size > cl_cap) {
    stop(OMPDP_CL_STOP_CAP);
    return NULL;
  }
  int err = file_has_room(off, size);
  if (err) {
    errno = err;
    stop(OMPDP_CL_STOP_FULL);
    return NULL;
  }
  err = posix_fallocate(cl_fd, (off_t)off, (off_t)size);
  if (err) {
    errno = err;
    stop(OMPDP_CL_STOP_FULL);
    return NULL;
  }
  /* The first block of a series (a thread's first event chunk, the first
   * operation chunk of a shard, the first META block) is not populated: the
   * space is reserved (above), so a page is mapped when first written, and
   * a short run touches a few of each block's 32 (populating every block
   * cost 150 us of a one-region program's 1.2 ms). A later block will be
   * filled, as the one before it was: populated at once, one call for its
   * pages instead of a fault per page (benchmarks/faultbench: 6.6 against
   * 11.6 us a page on a VM whose faults leave the guest). */
  int populate = (kind == OMPDP_CL_META ? a : b) > 0;
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | (populate ? MAP_POPULATE : 0),
                 cl_fd, (off_t)off);
  if (p == MAP_FAILED) {
    stop(OMPDP_CL_STOP_MEMORY);
    return NULL;
  }
  if (track(p, size, off)) {
    munmap(p, size);
    errno = ENOMEM;
    stop(OMPDP_CL_STOP_MEMORY);
    return NULL;
  }
  ompdp_cl_block_t *blk = p;
  blk->magic = OMPDP_CL_BLOCK_MAGIC;
  blk->kind = kind;
  blk->size = size;
  blk->a = a;
  blk->b = b;
  __atomic_store_n(&cl_hdr->next_off, off + size, __ATOMIC_RELEASE);
  return blk;
}

/* Consumed event blocks whose pages are mapped and can take a later chunk
 * (under cl_lock). Mapping fresh pages of the file is what the crash log
 * cost the program: 11-17 us a page on the PVM guests of issue 30, about
 * 70 ns an event of small_events, where writing the same bytes into the
 * file with pwrite costs 1.2 us a page (no page of ours is mapped). So a
 * consumed block is copied to the end of the file (on the thread that
 * consumed it: the stream consumer) and its pages take the thread's next
 * chunk. The copy is published before the block is reused, and a reused
 * block says it has begun no record before its header names its new chunk:
 * a reader keeps, of two blocks of one chunk, the one with more records
 * (crashlog.h). */
#define RING_MAX 16u
static ompdp_cl_block_t *ring[RING_MAX];
static unsigned num_ring;
static uint64_t ring_copied, ring_reused; /* ompdp_shm_reuse_stats */

/* Under cl_lock: blk (consumed, complete) copied to the end of the file and
 * published there; 0, or -1 (nothing published: the block must stay). */
static int copy_to_end(const ompdp_cl_block_t *blk) {
  uint64_t size = blk->size, off = cl_hdr->next_off;
  if ((cl_cap && off + size > cl_cap) || file_has_room(off, size))
    return -1;
  for (uint64_t done = 0; done < size;) {
    ssize_t n = pwrite(cl_fd, (const char *)blk + done, size - done, (off_t)(off + done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1; /* a partial copy beyond next_off is never read */
    done += (uint64_t)n;
  }
  __atomic_store_n(&cl_hdr->next_off, off + size, __ATOMIC_RELEASE);
  ++ring_copied;
  return 0;
}

void *ompdp_shm_alloc(int kind, uint32_t a, uint32_t b, size_t want, size_t *got) {
  if (!healthy())
    return NULL;
  pthread_mutex_lock(&cl_lock);
  ompdp_cl_block_t *blk = NULL;
  if (kind == OMPDP_CL_EVENTS && num_ring &&
      round_page(want + sizeof(ompdp_cl_block_t)) == ring[num_ring - 1]->size) {
    uint64_t t0 = ompdp_now_ns();
    blk = ring[--num_ring];
    /* No record begun, then the chunk it now holds; the old records stay
     * until overwritten, past what `used` counts. */
    __atomic_store_n((uint32_t *)((char *)(blk + 1) + OMPDP_CL_EVENTS_USED_OFFSET), 0,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&blk->a, a, __ATOMIC_RELEASE);
    __atomic_store_n(&blk->b, b, __ATOMIC_RELEASE);
    ++ring_reused;
    ompdp_cost_add(OMPDP_COST_LOG_BLOCKS, ompdp_now_ns() - t0);
  } else {
    blk = new_block((uint32_t)kind, a, b, want);
  }
  pthread_mutex_unlock(&cl_lock);
  if (!blk)
    return NULL;
  *got = blk->size - sizeof(*blk);
  return blk + 1;
}

void ompdp_shm_free(void *payload, int reuse) {
  ompdp_cl_block_t *blk = (ompdp_cl_block_t *)payload - 1;
  uint64_t size = blk->size;
  pthread_mutex_lock(&cl_lock);
  if (reuse && blk->kind == OMPDP_CL_EVENTS && size == EVENT_BLOCK && num_ring < RING_MAX &&
      healthy()) {
    uint64_t t0 = ompdp_now_ns();
    int kept = copy_to_end(blk) == 0;
    if (kept)
      ring[num_ring++] = blk;
    ompdp_cost_add(OMPDP_COST_LOG_BLOCKS, ompdp_now_ns() - t0);
    if (kept) {
      pthread_mutex_unlock(&cl_lock);
      return;
    }
  }
  for (size_t i = 0; i < num_maps; ++i)
    if (maps[i].addr == blk) {
      maps[i] = maps[--num_maps];
      break;
    }
  pthread_mutex_unlock(&cl_lock);
  munmap(blk, size);
}

/*===- META records ---------------------------------------------------------===*/

/* Appends a record: fixed bytes, then the strings (each cut at MAX_STRING).
 * Under cl_lock. Returns 0, or -1 when there is no room. */
static int append(uint16_t type, const void *fixed, size_t fixed_len, const char *const *strs,
                  size_t nstrs) {
  size_t size = sizeof(ompdp_cl_meta_t) + fixed_len;
  for (size_t i = 0; i < nstrs; ++i)
    size += (strs[i] ? strnlen(strs[i], MAX_STRING - 1) : 0) + 1;
  size = (size + 7) & ~(size_t)7;
  size_t room = META_BLOCK - sizeof(ompdp_cl_block_t);
  if (size > room)
    return -1;
  if (!meta || meta->used + size > meta->size - sizeof(ompdp_cl_block_t)) {
    size_t want = num_meta ? room : META_FIRST - sizeof(ompdp_cl_block_t);
    ompdp_cl_block_t *blk = new_block(OMPDP_CL_META, num_meta, 0, size > want ? room : want);
    if (!blk)
      return -1;
    meta = blk;
    ++num_meta;
  }
  char *p = (char *)(meta + 1) + meta->used;
  ompdp_cl_meta_t h = {(uint32_t)size, type, 0};
  memcpy(p, &h, sizeof(h));
  size_t at = sizeof(h);
  if (fixed_len)
    memcpy(p + at, fixed, fixed_len);
  at += fixed_len;
  for (size_t i = 0; i < nstrs; ++i) {
    size_t len = strs[i] ? strnlen(strs[i], MAX_STRING - 1) : 0;
    if (len)
      memcpy(p + at, strs[i], len);
    p[at + len] = 0;
    at += len + 1;
  }
  __atomic_store_n(&meta->used, meta->used + size, __ATOMIC_RELEASE);
  return 0;
}

static void append_locked(uint16_t type, const void *fixed, size_t fixed_len,
                          const char *const *strs, size_t nstrs) {
  pthread_mutex_lock(&cl_lock);
  if (healthy())
    append(type, fixed, fixed_len, strs, nstrs);
  pthread_mutex_unlock(&cl_lock);
}

void ompdp_shm_note_warning(const char *msg) {
  if (cl_hdr)
    append_locked(OMPDP_CL_WARNING, NULL, 0, &msg, 1);
}

void ompdp_shm_note_host(int host_device) {
  if (cl_hdr)
    __atomic_store_n(&cl_hdr->host_device, host_device, __ATOMIC_RELEASE);
}

void ompdp_shm_note_dropped(void) {
  if (cl_hdr)
    __atomic_fetch_add(&cl_hdr->dropped, 1, __ATOMIC_RELAXED);
}

void ompdp_shm_note_alloc_failure(void) {
  if (cl_hdr)
    __atomic_fetch_add(&cl_hdr->alloc_failures, 1, __ATOMIC_RELAXED);
}

/* Inserts {a, b} (not {0, 0}); 1 if it was new, 0 if known, -1 no memory. */
static int seen_add(seen_t *s, uint64_t a, uint64_t b) {
  if (2 * (s->n + 1) > s->cap) {
    size_t ncap = s->cap ? 2 * s->cap : 64;
    uint64_t *k = calloc(ncap, 2 * sizeof(*k));
    if (!k)
      return -1;
    for (size_t i = 0; i < s->cap; ++i)
      if (s->k[2 * i] | s->k[2 * i + 1]) {
        size_t j = (s->k[2 * i] * 0x9E3779B97F4A7C15ull ^ s->k[2 * i + 1]) & (ncap - 1);
        while (k[2 * j] | k[2 * j + 1])
          j = (j + 1) & (ncap - 1);
        k[2 * j] = s->k[2 * i];
        k[2 * j + 1] = s->k[2 * i + 1];
      }
    free(s->k);
    s->k = k;
    s->cap = ncap;
  }
  size_t j = (a * 0x9E3779B97F4A7C15ull ^ b) & (s->cap - 1);
  for (; s->k[2 * j] | s->k[2 * j + 1]; j = (j + 1) & (s->cap - 1))
    if (s->k[2 * j] == a && s->k[2 * j + 1] == b)
      return 0;
  s->k[2 * j] = a;
  s->k[2 * j + 1] = b;
  s->n++;
  return 1;
}

/* An operation new to the table (intern.c), before its id is returned, so
 * before any record names it: what attributing it will need. */
static _Thread_local uint64_t last_code, last_site;

static void on_new_op(const ompdp_op_t *op) {
  if (!healthy())
    return;
  uint64_t code = (uint64_t)(uintptr_t)op->codeptr;
  uint64_t site = op->region ? (uint64_t)op->region << 20 | (uint16_t)op->item : 0;
  /* New operations of a known site (new addresses): no lock. */
  if (code == last_code && site == last_site)
    return;
  last_code = code;
  last_site = site;
  pthread_mutex_lock(&seen_lock);
  int new_code = code ? seen_add(&seen_code, code, 1) : 0;
  int new_site = op->region ? seen_add(&seen_site, op->region, (uint64_t)(op->item + 2)) : 0;
  ompdp_region_info_t info;
  int have_info = new_site == 1 && ompdp_regions_describe(op->region, op->item, &info) == 0;
  pthread_mutex_unlock(&seen_lock);
  if (have_info) {
    ompdp_cl_site_t s = {.region = op->region,
                         .item = op->item,
                         .line = info.line,
                         .column = info.column,
                         .region_id = info.id};
    if (info.item_line) {
      s.range_line = info.item_line;
      s.range_column = info.item_column;
      s.range_end_line = info.item_end_line;
      s.range_end_column = info.item_end_column;
    } else if (info.clause_line) {
      s.range_line = info.clause_line;
      s.range_column = info.clause_column;
      s.range_end_line = info.clause_end_line;
      s.range_end_column = info.clause_end_column;
    }
    int item = op->item >= 0;
    int routine = ompdp_construct_is_routine(info.construct);
    const char *strs[5] = {info.file, info.function, item ? info.variable : "",
                           item && !routine ? info.clause : "",
                           item && routine ? info.directive : ""};
    append_locked(OMPDP_CL_SITE, &s, sizeof(s), strs, 5);
  }
  if (new_code == 1) {
    /* No lock held here: dladdr1 takes the dynamic linker's. */
    Dl_info dl;
    struct link_map *lm = NULL;
    char exe[PATH_MAX];
    if (dladdr1((void *)(uintptr_t)code, &dl, (void **)&lm, RTLD_DL_LINKMAP) && lm) {
      const char *file = lm->l_name;
      if (!file || !file[0]) { /* the main program */
        ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        exe[n > 0 ? n : 0] = 0;
        file = exe;
      }
      ompdp_cl_code_t c = {code, (uint64_t)lm->l_addr};
      append_locked(OMPDP_CL_CODE, &c, sizeof(c), &file, 1);
    }
  }
}

static void *event_chunk(uint32_t log, uint32_t index, size_t *got) {
  return ompdp_shm_alloc(OMPDP_CL_EVENTS, log, index,
                         (index ? EVENT_BLOCK : EVENT_FIRST) - sizeof(ompdp_cl_block_t), got);
}

static ompdp_op_t *op_chunk(uint32_t shard, uint32_t chunk) {
  size_t got = 0;
  void *p = ompdp_shm_alloc(OMPDP_CL_OPS, shard, chunk,
                            OMPDP_CL_OPS_PER_BLOCK * sizeof(ompdp_op_t), &got);
  return p;
}

/*===- start, fork, end -----------------------------------------------------===*/

static char cl_path[PATH_MAX];

/* Makes the file at the crash_log path for this process and maps its
 * header. Returns the fd, or -1. */
static int create_file(ompdp_cl_header_t **hdr) {
  if (ompdp_output_expand(ompdp_opts.crash_log, cl_path, sizeof(cl_path)))
    return -1;
  const int flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = open(cl_path, flags, 0600);
  if (fd < 0 && errno == EEXIST) {
    unlink(cl_path); /* an earlier image of this pid (exec) */
    fd = open(cl_path, flags, 0600);
  }
  if (fd < 0)
    return -1;
  /* Out of the way of the low numbers a program reuses. */
  int high = fcntl(fd, F_DUPFD_CLOEXEC, 512);
  if (high >= 0) {
    close(fd);
    fd = high;
  }
  struct stat st;
  if (fstat(fd, &st) == 0) {
    cl_dev = st.st_dev;
    cl_ino = st.st_ino;
  }
  int err = posix_fallocate(fd, 0, OMPDP_CL_PAGE);
  void *p = err ? MAP_FAILED
                : mmap(NULL, OMPDP_CL_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    if (err)
      errno = err;
    err = errno;
    close(fd);
    unlink(cl_path);
    errno = err;
    return -1;
  }
  *hdr = p;
  return fd;
}

static void fill_header(ompdp_cl_header_t *h) {
  h->version = OMPDP_CL_VERSION;
  h->header_size = OMPDP_CL_PAGE;
  h->block_header_size = sizeof(ompdp_cl_block_t);
  h->rec_size = sizeof(ompdp_rec_t);
  h->op_size = sizeof(ompdp_op_t);
  h->events_offset = OMPDP_CL_EVENTS_OFFSET;
  h->pid = (int32_t)getpid();
  h->clock_is_tsc = (uint32_t)ompdp_clock_is_tsc;
  h->content_limit =
      ompdp_opts.memory_cap_mb > 0 ? (uint64_t)ompdp_opts.memory_cap_mb << 19 : 0;
  h->zero_min_bytes = (uint64_t)(ompdp_opts.zero_min_bytes > 0 ? ompdp_opts.zero_min_bytes : 0);
  h->peak_min_bytes = (uint64_t)(ompdp_opts.peak_min_bytes > 0 ? ompdp_opts.peak_min_bytes : 0);
  h->lifetime_all = ompdp_opts.lifetime_all != 0;
  h->next_off = OMPDP_CL_PAGE;
}

static void on_prepare(void) {
  pthread_mutex_lock(&seen_lock);
  pthread_mutex_lock(&cl_lock);
}
static void on_parent(void) {
  pthread_mutex_unlock(&cl_lock);
  pthread_mutex_unlock(&seen_lock);
}

/* Leaves the parent's file alone: our copies of its blocks become private. */
static void detach_private(int old_fd, size_t from) {
  for (size_t i = from; i < num_maps; ++i)
    mmap(maps[i].addr, maps[i].size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, old_fd,
         (off_t)maps[i].off);
}

static void on_child(void) {
  /* This thread is the one on_prepare locked them in (the child's only
   * thread is the forking one): released as on_parent releases them, not
   * re-initialised while held, which ThreadSanitizer takes as held for
   * good (a lock-order inversion with the interning shards' locks, in the
   * child of a single-threaded parent, where TSan checks everything). */
  pthread_mutex_unlock(&cl_lock);
  pthread_mutex_unlock(&seen_lock);
  if (!cl_hdr)
    return;
  ompdp_cl_header_t *old = cl_hdr, *h = NULL;
  int old_fd = cl_fd;
  int fd = create_file(&h);
  size_t done = 0;
  if (fd >= 0) {
    fill_header(h);
    h->magic = OMPDP_CL_MAGIC;
    h->parent_pid = old->pid;
    h->host_device = __atomic_load_n(&old->host_device, __ATOMIC_ACQUIRE);
    h->start_ticks = old->start_ticks;
    h->start_ns = old->start_ns;
    h->start_realtime_ns = old->start_realtime_ns;
    h->skip_before_ticks = ompdp_ticks_ordered();
    if (old->stopped) { /* the parent's log is not whole: nor is ours */
      h->stopped_at_ticks = h->skip_before_ticks;
      h->stopped = old->stopped;
    }
    /* Every block mapped here, copied into our file at the same address. */
    for (; done < num_maps; ++done) {
      mapping_t *m = &maps[done];
      uint64_t off = h->next_off;
      if (posix_fallocate(fd, (off_t)off, (off_t)m->size) ||
          pwrite(fd, m->addr, m->size, (off_t)off) != (ssize_t)m->size ||
          mmap(m->addr, m->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
               (off_t)off) == MAP_FAILED)
        break;
      m->off = off;
      h->next_off = off + m->size;
    }
    if (done < num_maps) {
      h->stopped_at_ticks = h->skip_before_ticks;
      h->stopped = OMPDP_CL_STOP_FULL;
    }
  }
  detach_private(old_fd, done);
  munmap(old, OMPDP_CL_PAGE);
  close(old_fd);
  cl_fd = fd;
  cl_hdr = fd >= 0 ? h : NULL;
  if (fd < 0)
    num_maps = 0;
}

int ompdp_shm_init(void) {
  if (!ompdp_opts.crash_log || !ompdp_opts.crash_log[0] || ompdp_opts.crash_log_mb <= 0)
    return -1;
  ompdp_cl_header_t *h;
  int fd = create_file(&h);
  if (fd < 0) {
    if (ompdp_stderr_usable())
      dprintf(STDERR_FILENO, "ompdp: cannot create the crash log '%s': %s; a SIGKILL would lose "
                             "what came after the last journal\n", cl_path, strerror(errno));
    return -1;
  }
  fill_header(h);
  h->host_device = OMPDP_CL_HOST_UNKNOWN;
  uint64_t t0 = ompdp_ticks_ordered();
  h->start_ns = ompdp_now_ns();
  uint64_t t1 = ompdp_ticks_ordered();
  h->start_ticks = t0 + (t1 - t0) / 2;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  h->start_realtime_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  cl_cap = (uint64_t)ompdp_opts.crash_log_mb << 20;
  /* The bounded-memory mode bounds this memory too. */
  if (ompdp_opts.memory_cap_mb > 0 && (uint64_t)ompdp_opts.memory_cap_mb << 20 < cl_cap)
    cl_cap = (uint64_t)ompdp_opts.memory_cap_mb << 20;
  /* A quarter of the file system stays free for the program, up to 8 GiB:
   * on a large disk three quarters full, a quarter of it free would be
   * hundreds of GiB no log could take, and the log would stop at once. */
  struct statvfs vfs;
  if (fstatvfs(fd, &vfs) == 0) {
    cl_keep_free = (uint64_t)vfs.f_blocks * vfs.f_frsize / 4;
    if (cl_keep_free > (8ULL << 30))
      cl_keep_free = 8ULL << 30;
  }
  __atomic_store_n(&h->magic, OMPDP_CL_MAGIC, __ATOMIC_RELEASE);
  cl_fd = fd;
  cl_hdr = h;
  pthread_atfork(on_prepare, on_parent, on_child);
  /* The command line, for a report without the program's help. */
  char buf[8192];
  int cfd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  ssize_t n = cfd >= 0 ? read(cfd, buf, sizeof(buf) - 1) : -1;
  if (cfd >= 0)
    close(cfd);
  if (n > 0) {
    buf[n] = 0;
    const char *args[256];
    uint32_t argc = 0;
    for (ssize_t i = 0; i < n && argc < 256; i += (ssize_t)strlen(buf + i) + 1)
      args[argc++] = buf + i;
    append_locked(OMPDP_CL_ARGV, &argc, sizeof(argc), args, argc);
  }
  /* The rank, so that a report rebuilt from the file says which it was
   * (driver/recover.c), even where the launcher's environment is gone. */
  const ompdp_process_t *self = ompdp_rank_self(ompdp_stderr_usable());
  if (self) {
    ompdp_cl_process_t cp = {self->rank, self->size, self->local_rank, 0};
    const char *strs[] = {self->launcher, self->job, self->host, self->executable,
                          self->build_id};
    append_locked(OMPDP_CL_PROCESS, &cp, sizeof(cp), strs, 5);
  }
  ompdp_op_set_store(op_chunk, on_new_op);
  ompdp_log_store_t store = {event_chunk, ompdp_shm_free, ompdp_shm_note_dropped,
                             ompdp_shm_active};
  ompdp_log_set_store(&store);
  return 0;
}

int ompdp_shm_abandon(uint32_t why) {
  if (!healthy())
    return 0;
  __atomic_store_n(&cl_hdr->gave_up, why, __ATOMIC_RELEASE);
  return 1;
}

void ompdp_shm_reuse_stats(uint64_t *copied, uint64_t *reused) {
  pthread_mutex_lock(&cl_lock);
  *copied = ring_copied;
  *reused = ring_reused;
  pthread_mutex_unlock(&cl_lock);
}

uint64_t ompdp_shm_bytes(void) {
  return cl_hdr ? __atomic_load_n(&cl_hdr->next_off, __ATOMIC_ACQUIRE) : 0;
}

void ompdp_shm_remove(void) {
  if (cl_hdr && cl_path[0])
    unlink(cl_path);
}
