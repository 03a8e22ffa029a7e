/*===- devhash.c - hashing a transfer's bytes where they are --------*- C -*-===*\
|*
|* On a GPU the host would have to read every transferred byte to hash it:
|* the source of a copy to the device, the destination of a copy back. The
|* bytes are also in device memory, which a kernel reads at terabytes per
|* second. Here a large transfer's device copy is hashed on the device: the
|* kernel of rt/devhash_kernel.c (PTX, compiled by the CUDA driver for the
|* GPU it runs on) writes each 64 KiB chunk's XXH3-64, and the host combines
|* them exactly as include/ompdp/content_hash.h defines: the value is the
|* host path's to the bit, so a run may mix both.
|*
|* The copy must be complete before its device copy is read, and nothing may
|* change it before the kernel is done. OMPT does not say which CUDA stream
|* a copy went to (libomptarget's streams do not synchronise with others),
|* so the context is synchronised: at the end of the copy, on the copying
|* thread, while no construct runs on another thread (callbacks.c decides).
|* The same synchronisation makes the recorded time of a copy its
|* completion rather than its enqueue, and one before a copy back keeps the
|* wait for the kernel before it out of the copy's time (ompdp_device_sync).
|*
|* The CUDA driver is not linked: it is used only when libomptarget has
|* loaded it already (dlopen RTLD_NOLOAD), through the handful of entry
|* points below, declared here so that no CUDA header is needed to build.
|* A device whose memory is the host's (libomptarget's host plugin) runs the
|* same lanes of include/ompdp/xxh3_lanes.h on the host over the device
|* copy, when asked (device_hash=1): that is how CI, which has no GPU,
|* exercises the device path and checks it against the host's hash.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "callbacks.h"
#include "ompdp_rt.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "ompdp/content_hash.h"
#include "ompdp/xxh3_lanes.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef OMPDP_HAVE_DEVHASH_PTX
#include "devhash_ptx.h" /* ompdp_devhash_ptx[]: rt/devhash_kernel.c as PTX */
#endif

/*===- the device kinds ------------------------------------------------------===*/

#define MAX_DEVICES 64
static _Atomic uint8_t kinds[MAX_DEVICES];

void ompdp_devhash_note_device(int device_num, const char *type) {
  if (device_num < 0 || device_num >= MAX_DEVICES || !type)
    return;
  /* LLVM 19 names a device by its processor: sm_90 for NVIDIA, gfx90a for
   * AMD, generic-64bit (or the triple's arch) for the host plugin. */
  int k = OMPDP_DEVKIND_OTHER;
  if (!strncmp(type, "sm_", 3))
    k = OMPDP_DEVKIND_CUDA;
  else if (!strncmp(type, "generic", 7) || !strncmp(type, "x86_64", 6) ||
           !strncmp(type, "aarch64", 7) || !strncmp(type, "ppc64", 5))
    k = OMPDP_DEVKIND_HOSTMEM;
  atomic_store_explicit(&kinds[device_num], (uint8_t)k, memory_order_relaxed);
}

int ompdp_device_kind(int device_num) {
  if (device_num < 0 || device_num >= MAX_DEVICES)
    return OMPDP_DEVKIND_UNKNOWN;
  return atomic_load_explicit(&kinds[device_num], memory_order_relaxed);
}

/*===- the CUDA driver, as libomptarget loaded it ------------------------------===*/

typedef int CUresult;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;
enum { CU_POINTER_ATTRIBUTE_CONTEXT = 1, CU_STREAM_NON_BLOCKING = 1, CU_MEMHOSTALLOC_DEVICEMAP = 2 };

#define CUDA_FUNCTIONS(X)                                                                     \
  X(cuPointerGetAttribute, "cuPointerGetAttribute", CUresult, (void *, int, CUdeviceptr))     \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", CUresult, (CUcontext))                          \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", CUresult, (CUcontext *))                          \
  X(cuCtxSynchronize, "cuCtxSynchronize", CUresult, (void))                                  \
  X(cuModuleLoadData, "cuModuleLoadData", CUresult, (CUmodule *, const void *))              \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUresult, (CUfunction *, CUmodule, const char *)) \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr *, size_t))                          \
  X(cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr))                                      \
  X(cuMemHostAlloc, "cuMemHostAlloc", CUresult, (void **, size_t, unsigned))                 \
  X(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2", CUresult,                      \
    (CUdeviceptr *, void *, unsigned))                                                        \
  X(cuMemFreeHost, "cuMemFreeHost", CUresult, (void *))                                      \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", CUresult, (CUdeviceptr, const void *, size_t))          \
  X(cuStreamCreate, "cuStreamCreate", CUresult, (CUstream *, unsigned))                      \
  X(cuStreamSynchronize, "cuStreamSynchronize", CUresult, (CUstream))                        \
  X(cuLaunchKernel, "cuLaunchKernel", CUresult,                                              \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,        \
     CUstream, void **, void **))                                                             \
  X(cuGetErrorString, "cuGetErrorString", CUresult, (CUresult, const char **))

static struct {
#define X(Name, Sym, Ret, Args) Ret(*Name) Args;
  CUDA_FUNCTIONS(X)
#undef X
} cu;

enum { CU_UNTRIED, CU_READY, CU_ABSENT };
static _Atomic int cu_state;
static pthread_mutex_t cu_lock = PTHREAD_MUTEX_INITIALIZER;

/* The driver's entry points, if libomptarget loaded the driver. */
static int cuda_ready(void) {
  int s = atomic_load_explicit(&cu_state, memory_order_acquire);
  if (s != CU_UNTRIED)
    return s == CU_READY;
  pthread_mutex_lock(&cu_lock);
  s = atomic_load_explicit(&cu_state, memory_order_relaxed);
  if (s == CU_UNTRIED) {
    /* LLVM 19's CUDA plugin opens "libcuda.so"; its soname is libcuda.so.1. */
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h)
      h = dlopen("libcuda.so", RTLD_NOW | RTLD_NOLOAD);
    s = CU_READY;
#define X(Name, Sym, Ret, Args)                                                               \
  if (!h || !(*(void **)&cu.Name = dlsym(h, Sym)))                                            \
    s = CU_ABSENT;
    CUDA_FUNCTIONS(X)
#undef X
    atomic_store_explicit(&cu_state, s, memory_order_release);
  }
  pthread_mutex_unlock(&cu_lock);
  return s == CU_READY;
}

/* What the kernel needs in one CUDA context (one per GPU, the primary
 * context libomptarget uses), made at the context's first large transfer. */
typedef struct cu_ctx {
  CUcontext ctx;
  int broken; /* setting it up failed once: the host hashes for it */
  CUmodule mod;
  CUfunction fn;
  CUstream stream;
  CUdeviceptr secret, out; /* out: host_out as the device sees it */
  uint64_t *host_out;       /* pinned and mapped: the kernel writes it */
  size_t cap;               /* chunks host_out holds */
  pthread_mutex_t lock;     /* setting up */
  /* The one job in flight: claimed by ompdp_devhash_start, released by
   * ompdp_devhash_finish (on any thread), 0 when free. */
  _Atomic(const void *) job;
  size_t job_n;
} cu_ctx_t;

#define MAX_CTX 16
static cu_ctx_t ctxs[MAX_CTX];
static int num_ctxs;

static _Atomic unsigned long long n_device_hashed, n_verified, n_differed, n_synced;
/* What device hashing and synchronisation cost the program's threads. */
static _Atomic unsigned long long ns_synced, ns_hashing;

static uint64_t clock_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static char first_error[160];

static void note_error(const char *what, CUresult rc) {
  pthread_mutex_lock(&cu_lock);
  if (!first_error[0]) {
    const char *msg = NULL;
    if (cu.cuGetErrorString)
      cu.cuGetErrorString(rc, &msg);
    snprintf(first_error, sizeof(first_error), "%s failed (CUDA error %d%s%s)", what, rc,
             msg ? ": " : "", msg ? msg : "");
  }
  pthread_mutex_unlock(&cu_lock);
}

/* The context that owns device address p, or NULL. */
static CUcontext context_of(const void *p) {
  CUcontext c = NULL;
  if (cu.cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT,
                               (CUdeviceptr)(uintptr_t)p) != 0)
    return NULL;
  return c;
}

static cu_ctx_t *entry_of(CUcontext c) {
  pthread_mutex_lock(&cu_lock);
  cu_ctx_t *e = NULL;
  for (int i = 0; i < num_ctxs && !e; ++i)
    if (ctxs[i].ctx == c)
      e = &ctxs[i];
  if (!e && num_ctxs < MAX_CTX) {
    e = &ctxs[num_ctxs++];
    memset(e, 0, sizeof(*e));
    e->ctx = c;
    pthread_mutex_init(&e->lock, NULL);
  }
  pthread_mutex_unlock(&cu_lock);
  return e;
}

int ompdp_device_sync(int device_num, const void *device_addr) {
  if (ompdp_device_kind(device_num) != OMPDP_DEVKIND_CUDA || !cuda_ready())
    return -1;
  CUcontext c = context_of(device_addr);
  if (!c || cu.cuCtxPushCurrent(c) != 0)
    return -1;
  uint64_t t0 = clock_ns();
  CUresult rc = cu.cuCtxSynchronize();
  CUcontext popped;
  cu.cuCtxPopCurrent(&popped);
  atomic_fetch_add_explicit(&ns_synced, clock_ns() - t0, memory_order_relaxed);
  if (rc != 0) {
    note_error("cuCtxSynchronize", rc);
    return -1;
  }
  atomic_fetch_add_explicit(&n_synced, 1, memory_order_relaxed);
  return 0;
}

#ifdef OMPDP_HAVE_DEVHASH_PTX
/* Module, stream, secret and result buffers of e, once. Caller holds e->lock
 * with e->ctx current. */
static int set_up(cu_ctx_t *e, size_t chunks) {
  CUresult rc;
  if (!e->mod) {
    if ((rc = cu.cuModuleLoadData(&e->mod, ompdp_devhash_ptx)) != 0) {
      e->mod = NULL;
      note_error("loading the device-hash kernel (cuModuleLoadData)", rc);
      return -1;
    }
    if ((rc = cu.cuModuleGetFunction(&e->fn, e->mod, "ompdp_devhash_chunks")) != 0 ||
        (rc = cu.cuStreamCreate(&e->stream, CU_STREAM_NON_BLOCKING)) != 0 ||
        (rc = cu.cuMemAlloc(&e->secret, OMPDP_X3_SECRET_SIZE)) != 0 ||
        (rc = cu.cuMemcpyHtoD(e->secret, XXH3_kSecret, OMPDP_X3_SECRET_SIZE)) != 0) {
      note_error("setting up the device-hash kernel", rc);
      return -1;
    }
  }
  if (chunks > e->cap) {
    /* Mapped: the kernel writes the chunk hashes into host memory, no copy
     * to wait for after it. */
    size_t cap = chunks < 1024 ? 1024 : chunks * 2;
    CUdeviceptr out = 0;
    void *host = NULL;
    if ((rc = cu.cuMemHostAlloc(&host, cap * sizeof(uint64_t), CU_MEMHOSTALLOC_DEVICEMAP)) != 0 ||
        (rc = cu.cuMemHostGetDevicePointer(&out, host, 0)) != 0) {
      if (host)
        cu.cuMemFreeHost(host);
      note_error("allocating the device-hash results", rc);
      return -1;
    }
    if (e->host_out)
      cu.cuMemFreeHost(e->host_out);
    e->out = out;
    e->host_out = host;
    e->cap = cap;
  }
  return 0;
}

#define THREADS_PER_BLOCK 256

/* Launches the chunk hashes of n bytes at device address p into
 * e->host_out, on the entry's stream; the caller waits for the stream. */
static int launch(cu_ctx_t *e, const void *p, size_t n, size_t chunks) {
  CUdeviceptr dp = (CUdeviceptr)(uintptr_t)p;
  uint64_t len = n;
  void *args[] = {&dp, &len, &e->secret, &e->out};
  size_t threads = chunks * 32; /* a warp per chunk (devhash_kernel.c) */
  unsigned blocks = (unsigned)((threads + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK);
  CUresult rc = cu.cuLaunchKernel(e->fn, blocks, 1, 1, THREADS_PER_BLOCK, 1, 1, 0, e->stream,
                                  args, NULL);
  if (rc != 0) {
    note_error("launching the device-hash kernel", rc);
    return -1;
  }
  return 0;
}
#endif

/* The entry of the GPU that owns p, ready to hash n bytes, with its
 * context current (the caller pops it); NULL when the host must hash. */
static cu_ctx_t *cuda_entry(const void *p, size_t n) {
#ifdef OMPDP_HAVE_DEVHASH_PTX
  if (!cuda_ready())
    return NULL;
  CUcontext c = context_of(p);
  cu_ctx_t *e = c ? entry_of(c) : NULL;
  if (!e || e->broken || cu.cuCtxPushCurrent(c) != 0)
    return NULL;
  pthread_mutex_lock(&e->lock);
  int ok = set_up(e, ompdp_hash_chunks(n)) == 0;
  if (!ok)
    e->broken = 1;
  pthread_mutex_unlock(&e->lock);
  if (ok)
    return e;
  CUcontext popped;
  cu.cuCtxPopCurrent(&popped);
#else
  (void)p, (void)n;
#endif
  return NULL;
}

/* Claims e for one job, launches it: 0, or -1 (busy, or the launch failed). */
static int cuda_start(cu_ctx_t *e, const void *p, size_t n, const void *owner) {
  const void *none = NULL;
  if (!atomic_compare_exchange_strong(&e->job, &none, owner))
    return -1; /* another thread's transfer has it: the host hashes this one */
  e->job_n = n;
  if (launch(e, p, n, ompdp_hash_chunks(n)) == 0)
    return 0;
  e->broken = 1;
  atomic_store(&e->job, NULL);
  return -1;
}

/* Waits for e's job, combines its chunks, releases e. */
static int cuda_finish(cu_ctx_t *e, uint64_t *h) {
  CUresult rc = cu.cuStreamSynchronize(e->stream);
  int ok = rc == 0;
  if (ok)
    *h = ompdp_hash_combine(e->host_out, e->job_n);
  else
    note_error("the device-hash kernel", rc), e->broken = 1;
  atomic_store(&e->job, NULL);
  return ok ? 0 : -1;
}

/*===- device memory that is the host's --------------------------------------===*/

typedef struct lanes_buf {
  const unsigned char *p;
  size_t n;
} lanes_buf_t;

/* Chunk i as the GPU computes it: the eight lanes, then the merge. */
static uint64_t lanes_chunk(const void *ctx, size_t i) {
  const lanes_buf_t *b = ctx;
  return ompdp_x3_hash(b->p + i * OMPDP_HASH_CHUNK, ompdp_hash_chunk_len(b->n, i), XXH3_kSecret);
}

/*===- the entry points ---------------------------------------------------------===*/

int ompdp_devhash_wanted(int device_num, size_t n) {
  if (n < OMPDP_DEVHASH_MIN)
    return 0;
  switch (ompdp_opts.device_hash) {
  case 0:
    return 0;
  case 1:
    return ompdp_device_kind(device_num) == OMPDP_DEVKIND_CUDA ||
           ompdp_device_kind(device_num) == OMPDP_DEVKIND_HOSTMEM;
  default:
    return ompdp_device_kind(device_num) == OMPDP_DEVKIND_CUDA &&
           n >= (size_t)ompdp_opts.device_hash_min_kb << 10;
  }
}

int ompdp_devhash_start(int device_num, const void *device_addr, size_t n, const void *owner) {
  if (ompdp_device_kind(device_num) != OMPDP_DEVKIND_CUDA)
    return -1;
  uint64_t t0 = clock_ns();
  cu_ctx_t *e = cuda_entry(device_addr, n);
  int rc = e ? cuda_start(e, device_addr, n, owner) : -1;
  if (e) {
    CUcontext popped;
    cu.cuCtxPopCurrent(&popped);
  }
  atomic_fetch_add_explicit(&ns_hashing, clock_ns() - t0, memory_order_relaxed);
  return rc;
}

int ompdp_devhash_finish(const void *device_addr, const void *owner, uint64_t *h) {
  if (!cuda_ready())
    return -1;
  uint64_t t0 = clock_ns();
  CUcontext c = context_of(device_addr);
  cu_ctx_t *e = c ? entry_of(c) : NULL;
  int rc = -1;
  if (e && atomic_load(&e->job) == owner && cu.cuCtxPushCurrent(c) == 0) {
    rc = cuda_finish(e, h);
    CUcontext popped;
    cu.cuCtxPopCurrent(&popped);
  }
  atomic_fetch_add_explicit(&ns_hashing, clock_ns() - t0, memory_order_relaxed);
  if (rc == 0)
    atomic_fetch_add_explicit(&n_device_hashed, 1, memory_order_relaxed);
  return rc;
}

int ompdp_devhash(int device_num, const void *device_addr, size_t n, uint64_t *h) {
  int rc = -1;
  switch (ompdp_device_kind(device_num)) {
  case OMPDP_DEVKIND_CUDA:
    if (ompdp_devhash_start(device_num, device_addr, n, h) == 0)
      return ompdp_devhash_finish(device_addr, h, h);
    return -1;
  case OMPDP_DEVKIND_HOSTMEM: {
    lanes_buf_t b = {device_addr, n};
    *h = ompdp_hash_chunked(n, lanes_chunk, &b);
    rc = 0;
    break;
  }
  default:
    break;
  }
  if (rc == 0)
    atomic_fetch_add_explicit(&n_device_hashed, 1, memory_order_relaxed);
  return rc;
}

void ompdp_devhash_verify(uint64_t device_hash, const void *host_addr, size_t n) {
  if (ompdp_hash(host_addr, n) == device_hash)
    atomic_fetch_add_explicit(&n_verified, 1, memory_order_relaxed);
  else
    atomic_fetch_add_explicit(&n_differed, 1, memory_order_relaxed);
}

int ompdp_devhash_warn(ompdp_report_t *r) {
  unsigned long long d = atomic_load(&n_differed), v = atomic_load(&n_verified);
  char buf[320];
  if (d) {
    snprintf(buf, sizeof(buf),
             "verify_hashes: %llu of %llu hashes made on the device differ from the host's hash "
             "of the same bytes: findings that rest on them may be wrong (device_hash=0 turns "
             "device hashing off)",
             d, d + v);
    if (ompdp_report_add_warning(r, buf))
      return -1;
  }
  pthread_mutex_lock(&cu_lock);
  int have = first_error[0] != 0;
  if (have)
    snprintf(buf, sizeof(buf), "device hashing stopped on a GPU, the host hashed instead: %s",
             first_error);
  pthread_mutex_unlock(&cu_lock);
  if (have && ompdp_report_add_warning(r, buf))
    return -1;
  return 0;
}

void ompdp_devhash_say(FILE *out) {
  unsigned long long n = atomic_load(&n_device_hashed), s = atomic_load(&n_synced);
  if (n || s || ompdp_opts.verify_hashes)
    fprintf(out,
            "ompdp: device_hash=%d: %llu transfers hashed on their device (%llu verified equal "
            "to the host's hash, %llu differed, %.1f ms launching and waiting); %llu device "
            "synchronisations (%.1f ms)\n",
            ompdp_opts.device_hash, n, (unsigned long long)atomic_load(&n_verified),
            (unsigned long long)atomic_load(&n_differed), atomic_load(&ns_hashing) / 1e6, s,
            atomic_load(&ns_synced) / 1e6);
}

/* A forked child has no CUDA context of its parent's. */
static void after_fork_child(void) {
  memset(ctxs, 0, sizeof(ctxs));
  num_ctxs = 0;
  atomic_store(&cu_state, CU_UNTRIED);
  pthread_mutex_init(&cu_lock, NULL);
}

__attribute__((constructor)) static void register_fork_handler(void) {
  pthread_atfork(NULL, NULL, after_fork_child);
}
