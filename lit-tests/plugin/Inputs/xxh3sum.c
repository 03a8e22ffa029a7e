/*===- xxh3sum.c - XXH3-64 of a file, as a tool checking a profile would -===*/
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  FILE *f = fopen(argv[1], "rb");
  if (!f)
    return 1;
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof(buf), f);
  fclose(f);
  printf("0x%016llx\n", (unsigned long long)XXH3_64bits(buf, n));
  return 0;
}
