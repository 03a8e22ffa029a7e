/*===- single_value.c - copies whose every element held one value --*- C -*-===*\
|*
|* ValueExpert's "single value" beside "single zero": a host-to-device copy
|* whose bytes repeat one short pattern (a hash table initialised to 0xFF,
|* an array of ones) could be allocated and filled on the device instead.
|* Zeros are told from their content hash alone (detect_zero.c); another
|* value has to be seen in the bytes, so the runtime looks at each copy's
|* source while it has it (ompdp_single_value_check, one pass that stops at
|* the first byte out of pattern, which for most data is one of the first)
|* and notes the pattern under the copy's content hash. The detection and
|* the rewrite facts then find it by that hash: equal bytes have equal
|* hashes, so the registry needs one entry per distinct content, and only
|* contents that are single values are entered, a few in any program. A
|* registry that is full forgets nothing and takes no more (those copies
|* are simply not found).
|*
\*===----------------------------------------------------------------------===*/
#include "single_value.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define SLOTS 4096 /* a power of two */

typedef struct slot {
  uint64_t hash;
  uint64_t pattern;
  uint32_t period; /* 0: empty */
} slot_t;

static slot_t table[SLOTS];
static atomic_uint used;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int ompdp_single_value_check(const void *p, size_t n, uint64_t *pattern, uint32_t *period) {
  const unsigned char *b = p;
  /* The longest period that divides n, up to 8 bytes: elements of 1, 2, 4
   * or 8 bytes that all hold one value repeat with it. */
  size_t k = n % 8 == 0 ? 8 : n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1;
  if (!b || n < 2 * k)
    return 0;
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i)
    v |= (uint64_t)b[i % k] << (8 * i);
  if (!v || memcmp(b, b + k, n - k))
    return 0; /* zeros are the zero detection's, from their hash */
  /* The shortest period of the value (an int of -1 repeats every byte). */
  while (k > 1 && ((v ^ (v >> (8 * (k / 2)))) & ((1ull << (8 * (k / 2))) - 1)) == 0)
    k /= 2;
  *pattern = v;
  *period = (uint32_t)k;
  return 1;
}

static size_t home(uint64_t hash) { return (size_t)(hash ^ (hash >> 29)) & (SLOTS - 1); }

void ompdp_single_value_note(uint64_t hash, uint64_t pattern, uint32_t period) {
  if (!period || atomic_load_explicit(&used, memory_order_relaxed) >= SLOTS / 2)
    return;
  pthread_mutex_lock(&lock);
  for (size_t j = home(hash), probes = 0; probes < SLOTS; j = (j + 1) & (SLOTS - 1), ++probes) {
    if (table[j].period && table[j].hash == hash)
      break; /* the same content: the same pattern */
    if (!table[j].period) {
      table[j].hash = hash;
      table[j].pattern = pattern;
      table[j].period = period;
      atomic_fetch_add_explicit(&used, 1, memory_order_relaxed);
      break;
    }
  }
  pthread_mutex_unlock(&lock);
}

int ompdp_single_value_find(uint64_t hash, uint64_t *pattern, uint32_t *period) {
  if (!atomic_load_explicit(&used, memory_order_relaxed))
    return 0;
  int found = 0;
  pthread_mutex_lock(&lock);
  for (size_t j = home(hash), probes = 0; probes < SLOTS && table[j].period;
       j = (j + 1) & (SLOTS - 1), ++probes)
    if (table[j].hash == hash) {
      *pattern = table[j].pattern;
      *period = table[j].period;
      found = 1;
      break;
    }
  pthread_mutex_unlock(&lock);
  return found;
}

static atomic_int perturb = -1;

void ompdp_single_value_set_perturb(int byte) {
  atomic_store_explicit(&perturb, byte < 0 ? -1 : byte & 0xff, memory_order_relaxed);
}

int ompdp_single_value_uninitialised(uint64_t pattern, uint32_t period) {
  int b = atomic_load_explicit(&perturb, memory_order_relaxed);
  unsigned low = (unsigned)(pattern & 0xff);
  return b >= 0 && period == 1 && (low == (unsigned)b || low == ((unsigned)b ^ 0xffu));
}

void ompdp_single_value_reset(void) {
  pthread_mutex_lock(&lock);
  memset(table, 0, sizeof(table));
  atomic_store_explicit(&used, 0, memory_order_relaxed);
  pthread_mutex_unlock(&lock);
}
