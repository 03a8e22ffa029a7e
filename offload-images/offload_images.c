/*===- offload_images.c - device images and target regions of an ELF file -*- C -*-===*\
|*
|* See offload_images.h. The OffloadBinary layout is LLVM's
|* (llvm/Object/OffloadBinary.h, version 1): a 32-byte header (magic
|* 10 ff 10 ad, version, size of the whole binary, offset and size of the
|* entry), a 40-byte entry (image kind, offload kind, flags, offset and
|* count of its string pairs, offset and size of the image), and string
|* pairs of key and value offsets, all relative to the header. Binaries
|* follow each other in the section, each `size` bytes long.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "offload_images.h"

#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Symbol and string tables larger than this are not read (the count of
 * target functions is then 0: a warning is only a little less precise). */
#define MAX_TABLE ((size_t)64 << 20)

static int read_at(int fd, void *buf, size_t n, uint64_t off) {
  size_t done = 0;
  while (done < n) {
    ssize_t k = pread(fd, (char *)buf + done, n - done, (off_t)(off + done));
    if (k <= 0)
      return -1;
    done += (size_t)k;
  }
  return 0;
}

/* A NUL-terminated string at off, at most cap-1 bytes, within [0, limit). */
static int read_str(int fd, uint64_t off, uint64_t limit, char *buf, size_t cap) {
  if (off >= limit)
    return -1;
  size_t n = limit - off < cap - 1 ? (size_t)(limit - off) : cap - 1;
  if (read_at(fd, buf, n, off))
    return -1;
  buf[n] = 0;
  return memchr(buf, 0, n) || n == cap - 1 ? 0 : -1;
}

static void add_image(ompdp_offload_info_t *info, const char *triple, const char *arch) {
  for (unsigned i = 0; i < info->num_images; ++i)
    if (!strcmp(info->images[i].triple, triple) && !strcmp(info->images[i].arch, arch))
      return;
  if (info->num_images == OMPDP_MAX_IMAGES)
    return;
  ompdp_offload_image_t *im = &info->images[info->num_images++];
  snprintf(im->triple, sizeof(im->triple), "%s", triple);
  snprintf(im->arch, sizeof(im->arch), "%s", arch);
}

/* The OffloadBinaries of the section at [off, off + size). */
static void scan_offloading(int fd, uint64_t off, uint64_t size, ompdp_offload_info_t *info) {
  uint64_t at = 0;
  for (int guard = 0; at + 32 <= size && guard < 1024; ++guard) {
    unsigned char h[32];
    if (read_at(fd, h, sizeof(h), off + at) || memcmp(h, "\x10\xff\x10\xad", 4))
      return;
    uint64_t bsize, eoff, esize;
    memcpy(&bsize, h + 8, 8);
    memcpy(&eoff, h + 16, 8);
    memcpy(&esize, h + 24, 8);
    if (bsize < 32 || bsize > size - at || eoff > bsize || esize < 40 || esize > bsize - eoff)
      return;
    unsigned char e[40];
    if (read_at(fd, e, sizeof(e), off + at + eoff))
      return;
    uint64_t soff, nstr;
    memcpy(&soff, e + 8, 8);
    memcpy(&nstr, e + 16, 8);
    char triple[64] = "", arch[32] = "";
    for (uint64_t i = 0; i < nstr && i < 64 && soff <= bsize && (bsize - soff) / 16 > i; ++i) {
      uint64_t kv[2];
      if (read_at(fd, kv, sizeof(kv), off + at + soff + 16 * i))
        return;
      char key[16];
      if (read_str(fd, off + at + kv[0], off + at + bsize, key, sizeof(key)))
        continue;
      if (!strcmp(key, "triple"))
        read_str(fd, off + at + kv[1], off + at + bsize, triple, sizeof(triple));
      else if (!strcmp(key, "arch"))
        read_str(fd, off + at + kv[1], off + at + bsize, arch, sizeof(arch));
    }
    if (triple[0])
      add_image(info, triple, arch);
    at += (bsize + 7) & ~(uint64_t)7; /* binaries are 8-byte aligned */
  }
}

static void *read_table(int fd, uint64_t off, uint64_t size) {
  if (size == 0 || size > MAX_TABLE)
    return NULL;
  void *p = malloc((size_t)size + 1);
  if (p && read_at(fd, p, (size_t)size, off)) {
    free(p);
    return NULL;
  }
  if (p)
    ((char *)p)[size] = 0;
  return p;
}

static const char Prefix[] = "__omp_offloading_";

/* Functions named __omp_offloading_*, less the _debug__ twins -g adds. */
static unsigned count_target_functions(int fd, const Elf64_Shdr *sym, const Elf64_Shdr *str) {
  if (sym->sh_entsize != sizeof(Elf64_Sym))
    return 0;
  Elf64_Sym *syms = read_table(fd, sym->sh_offset, sym->sh_size);
  char *names = read_table(fd, str->sh_offset, str->sh_size);
  unsigned n = 0;
  if (syms && names) {
    for (uint64_t i = 0; i < sym->sh_size / sizeof(Elf64_Sym); ++i) {
      if (ELF64_ST_TYPE(syms[i].st_info) != STT_FUNC || syms[i].st_name >= str->sh_size)
        continue;
      const char *nm = names + syms[i].st_name;
      size_t len = strlen(nm);
      if (!strncmp(nm, Prefix, sizeof(Prefix) - 1) &&
          !(len > 8 && !strcmp(nm + len - 8, "_debug__")))
        ++n;
    }
  }
  free(syms);
  free(names);
  return n;
}

static int needs_openmp(int fd, const Elf64_Shdr *dyn, const Elf64_Shdr *str) {
  if (dyn->sh_entsize != sizeof(Elf64_Dyn))
    return 0;
  Elf64_Dyn *d = read_table(fd, dyn->sh_offset, dyn->sh_size);
  char *names = read_table(fd, str->sh_offset, str->sh_size);
  int found = 0;
  for (uint64_t i = 0; d && names && i < dyn->sh_size / sizeof(Elf64_Dyn) && !found; ++i) {
    if (d[i].d_tag == DT_NULL)
      break;
    if (d[i].d_tag != DT_NEEDED || d[i].d_un.d_val >= str->sh_size)
      continue;
    const char *nm = names + d[i].d_un.d_val;
    found = !strncmp(nm, "libomp.so", 9) || !strncmp(nm, "libgomp.so", 10) ||
            !strncmp(nm, "libiomp5.so", 11);
  }
  free(d);
  free(names);
  return found;
}

int ompdp_offload_scan_file(const char *path, ompdp_offload_info_t *info) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  Elf64_Ehdr eh;
  int rc = -1;
  Elf64_Shdr *sh = NULL;
  char *shstr = NULL;
  if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum)
    goto out;
  if (!(sh = read_table(fd, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr))))
    goto out;
  const Elf64_Shdr *names = &sh[eh.e_shstrndx];
  if (!(shstr = read_table(fd, names->sh_offset, names->sh_size)))
    goto out;
  ompdp_offload_info_t found = *info;
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    if (sh[i].sh_name >= names->sh_size)
      continue;
    const char *nm = shstr + sh[i].sh_name;
    int linked = sh[i].sh_link < eh.e_shnum;
    if (!strcmp(nm, ".llvm.offloading") && sh[i].sh_type != SHT_NOBITS)
      scan_offloading(fd, sh[i].sh_offset, sh[i].sh_size, &found);
    else if (sh[i].sh_type == SHT_SYMTAB && linked)
      found.target_functions += count_target_functions(fd, &sh[i], &sh[sh[i].sh_link]);
    else if (sh[i].sh_type == SHT_DYNAMIC && linked)
      found.links_openmp |= needs_openmp(fd, &sh[i], &sh[sh[i].sh_link]);
  }
  *info = found;
  rc = 0;
out:
  free(sh);
  free(shstr);
  close(fd);
  return rc;
}

void ompdp_offload_describe(const ompdp_offload_info_t *info, char *buf, size_t len) {
  size_t at = 0;
  if (len)
    buf[0] = 0;
  for (unsigned i = 0; i < info->num_images && at < len; ++i) {
    const ompdp_offload_image_t *im = &info->images[i];
    int k = snprintf(buf + at, len - at, "%s%s%s%s%s", i ? ", " : "", im->triple,
                     im->arch[0] ? " (" : "", im->arch, im->arch[0] ? ")" : "");
    if (k < 0)
      break;
    at += (size_t)k;
  }
}

int ompdp_offload_has_triple(const ompdp_offload_info_t *info, const char *prefix) {
  for (unsigned i = 0; i < info->num_images; ++i)
    if (!strncmp(info->images[i].triple, prefix, strlen(prefix)))
      return 1;
  return 0;
}
