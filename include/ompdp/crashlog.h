/*===- crashlog.h - the event log that outlives the program ------*- C -*-===*\
|*
|* Under `ompdp run`, the runtime keeps its event log, its table of
|* operations and what attributing them needs in one file, mapped shared,
|* that `ompdp run` named (option crash_log; rt/shm_linux.c writes it). The
|* kernel keeps a shared file mapping's pages whatever ends the process
|* (SIGKILL, the OOM killer, _exit, a fault in any thread), so when the
|* program dies without a report, `ompdp run` reads the file and runs the
|* analysis over it (driver/recover.c). Nothing the dying process would
|* have had to write is needed: every record is committed by one store.
|*
|* The file: a header page (ompdp_cl_header_t), then blocks, each starting
|* with an ompdp_cl_block_t and a whole number of pages long. A block is
|* written in full (zeroed by the file system, header filled) before
|* next_off is moved past it with a release store, so a reader that stops
|* at next_off sees only whole block headers.
|*
|*   EVENTS  one chunk of a thread's event log: a = the log's id, b = the
|*           chunk's number in that log. The records (ompdp_rec_t, 24
|*           bytes) start OMPDP_CL_EVENTS_OFFSET bytes after the block
|*           header; the uint32_t OMPDP_CL_EVENTS_USED_OFFSET bytes after
|*           it counts the records begun (release), and only those are
|*           read. A record counts when its operation word has
|*           OMPDP_REC_COMPLETE (bit 31), stored last, with release order,
|*           by whoever completes it: a record half-written at death, or
|*           never finished (the operation in flight), is not complete.
|*           A block whose records have all been analysed is copied
|*           whole to the end of the file (published by next_off), and
|*           then takes a later chunk: its count set to 0 first, then its
|*           a and b; the earlier chunk's records stay in it, past the
|*           count. So one chunk may be in two blocks, a copy and the
|*           block not yet reused (or being reused, count 0): readers keep
|*           the one with the larger count (the copies are the same).
|*   OPS     1024 operations (ompdp_op_t, 48 bytes) of one shard of the
|*           operation table: a = shard, b = chunk number. Operation id =
|*           (b * 1024 + index) << 4 | a. An entry is written before any
|*           record names it.
|*   META    records of ompdp_cl_meta_t, appended; `used` (release) says
|*           how many bytes are whole. a = the block's number.
|*
|* Records begun before skip_before_ticks belong to the parent of a forked
|* child (whose file holds copies of its parent's blocks); readers skip
|* them. After `stopped` (the file could not grow: disk full, or the cap of
|* crash_log_mb), only records begun before stopped_at_ticks are complete
|* in the file.
|*
|* Everything here is written by the program's process, which may have
|* written anywhere in memory before it died: readers check every field.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_CRASHLOG_H
#define OMPDP_CRASHLOG_H

#include <stdint.h>

#define OMPDP_CL_MAGIC 0x474f4c4850444d4full /* "OMDPHLOG" little-endian */
/* 2: a record's event type has three bits (OMPDP_EV_USE), its operation
 * id 27 (analysis/engine.h); header fields peak_min_bytes and
 * lifetime_all (were reserved). 3: an EVENTS block's count of records
 * begun bounds its records; a chunk may be in two blocks (reused blocks,
 * above). */
#define OMPDP_CL_VERSION 3
#define OMPDP_CL_PAGE 4096u
#define OMPDP_CL_BLOCK_MAGIC 0x4b4c4250u /* "PBLK" */
#define OMPDP_CL_EVENTS_OFFSET 64u       /* eventlog.c's chunk header */
#define OMPDP_CL_EVENTS_USED_OFFSET 8u   /* ... its count of records begun */
#define OMPDP_CL_OPS_PER_BLOCK 1024u
#define OMPDP_CL_HOST_UNKNOWN INT32_MIN

enum ompdp_cl_block_kind { OMPDP_CL_EVENTS = 1, OMPDP_CL_OPS = 2, OMPDP_CL_META = 3 };

/* Why the file stopped growing (stopped). */
enum ompdp_cl_stop {
  OMPDP_CL_RUNNING = 0,
  OMPDP_CL_STOP_FULL = 1,   /* the file system refused more space */
  OMPDP_CL_STOP_CAP = 2,    /* crash_log_mb reached */
  OMPDP_CL_STOP_MEMORY = 3, /* the runtime could not track a mapping */
};

/* Why the runtime left its report to `ompdp run` (gave_up). */
enum ompdp_cl_gave_up {
  OMPDP_CL_GAVE_UP_MEMORY = 1, /* it ran out of memory analysing the events */
};

typedef struct ompdp_cl_header {
  uint64_t magic;
  uint32_t version;
  uint32_t header_size;       /* OMPDP_CL_PAGE: the first block's offset */
  uint32_t block_header_size; /* sizeof(ompdp_cl_block_t) */
  uint32_t rec_size;          /* sizeof(ompdp_rec_t) */
  uint32_t op_size;           /* sizeof(ompdp_op_t) */
  uint32_t events_offset;     /* OMPDP_CL_EVENTS_OFFSET */
  int32_t pid;
  int32_t parent_pid;         /* a forked child's parent, else 0 */
  uint32_t clock_is_tsc;      /* ticks are TSC cycles, else CLOCK_MONOTONIC ns */
  int32_t host_device;        /* OMPDP_CL_HOST_UNKNOWN until a callback asks */
  uint64_t start_ticks;       /* the clock at start ... */
  uint64_t start_ns;          /* ... and CLOCK_MONOTONIC then */
  uint64_t start_realtime_ns; /* and CLOCK_REALTIME then */
  uint64_t skip_before_ticks;
  uint64_t content_limit;     /* the engine's (memory_cap_mb) */
  uint64_t next_off;          /* end of the last whole block (release) */
  uint32_t stopped;           /* enum ompdp_cl_stop */
  uint32_t pad0;
  uint64_t stopped_at_ticks;
  uint64_t dropped;           /* events the runtime dropped for lack of memory */
  uint64_t alloc_failures;    /* allocations of the runtime that failed */
  uint64_t zero_min_bytes;    /* the zero_transfer option */
  uint32_t gave_up;           /* the runtime left its report to ompdp run: why */
  uint32_t lifetime_all;      /* the lifetime_all option */
  uint64_t peak_min_bytes;    /* the peak_min_bytes option */
  uint64_t reserved[14];
} ompdp_cl_header_t;

typedef struct ompdp_cl_block {
  uint32_t magic; /* OMPDP_CL_BLOCK_MAGIC */
  uint32_t kind;  /* enum ompdp_cl_block_kind */
  uint64_t size;  /* bytes, this header included, a multiple of OMPDP_CL_PAGE */
  uint32_t a, b;
  uint64_t used;  /* META: bytes of whole records after this header */
  uint64_t reserved[4];
} ompdp_cl_block_t;

/* A META record: size (8-aligned, this header included), type, then the
 * payload. Strings are NUL-terminated, one after the other. */
typedef struct ompdp_cl_meta {
  uint32_t size;
  uint16_t type;
  uint16_t reserved;
} ompdp_cl_meta_t;

enum ompdp_cl_meta_type {
  /* The object holding a call site, for DWARF: ompdp_cl_code_t, then its
   * file name. */
  OMPDP_CL_CODE = 1,
  /* A (region, item) of a compiler region table, as the runtime describes
   * it: ompdp_cl_site_t, then file, function, variable, clause and, for a
   * device memory routine's call, the call (a fifth string that a reader
   * which does not know it never reaches). */
  OMPDP_CL_SITE = 2,
  /* The command line: a uint32_t count, then the arguments. */
  OMPDP_CL_ARGV = 3,
  /* A warning for the report: the text. */
  OMPDP_CL_WARNING = 4,
  /* The MPI rank this process is (report/process.h), when a launcher
   * started it: ompdp_cl_process_t, then the launcher, the job, the host,
   * the executable and its build ID ("" for unknown). A reader that does
   * not know it skips it, and its report has no rank. */
  OMPDP_CL_PROCESS = 5,
};

typedef struct ompdp_cl_process {
  int32_t rank, size, local_rank, reserved;
} ompdp_cl_process_t;

typedef struct ompdp_cl_code {
  uint64_t codeptr; /* a call site's return address */
  uint64_t bias;    /* its object's load bias (link_map l_addr) */
} ompdp_cl_code_t;

typedef struct ompdp_cl_site {
  uint32_t region; /* the runtime's region handle */
  int32_t item;    /* -1: the region itself */
  uint32_t line, column;
  uint64_t region_id;
  /* The finding's source range: the item (or else its clause). */
  uint32_t range_line, range_column, range_end_line, range_end_column;
} ompdp_cl_site_t;

_Static_assert(sizeof(ompdp_cl_header_t) <= OMPDP_CL_PAGE, "header page");
_Static_assert(sizeof(ompdp_cl_block_t) == 64, "block header");

#endif /* OMPDP_CRASHLOG_H */
