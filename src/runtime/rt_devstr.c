/* Strings in device memory as the host can see them after a launch, for
 * printf formats and %s arguments (docs/printf.md): the program image's
 * loaded segments (string literals in .rodata) from the ELF the runtime
 * uploaded, and driver buffers through vt_copy_from_dev. */
#include <string.h>

#include "rt_internal.h"

#define PT_LOAD 1u

/* -2: the address is in no loaded segment */
static long image_string(const vt_rt_program *prog, uint32_t addr, char *buf, size_t max) {
  size_t n = prog ? vt_elf_segment_count(prog->elf) : 0;
  for (size_t i = 0; i < n; i++) {
    const vt_elf_segment *s = vt_elf_segment_at(prog->elf, i);
    if (s->type != PT_LOAD || addr - s->vaddr >= s->memsz) continue;
    uint32_t off = addr - s->vaddr;
    for (size_t k = 0; k < max; k++, off++) {
      if (off >= s->memsz) return -1; /* runs off the segment without a NUL */
      char c = off < s->filesz && s->data ? (char)s->data[off] : 0;
      if (!c) return (long)k;
      buf[k] = c;
    }
    return (long)max;
  }
  return -2;
}

/* Reads in pieces that do not cross a 64-byte boundary (a string may end
 * just before the end of its buffer), byte by byte when a piece fails. */
static long buffer_string(vt_rt *rt, uint32_t addr, char *buf, size_t max) {
  size_t k = 0;
  while (k < max) {
    uint64_t a = (uint64_t)addr + k;
    if (a > 0xffffffffull) return -1;
    size_t piece = 64 - (size_t)(a & 63);
    if (piece > max - k) piece = max - k;
    if (vt_copy_from_dev(rt->dev, a, buf + k, piece, rt->task, 0) != 0) {
      if (vt_copy_from_dev(rt->dev, a, buf + k, 1, rt->task, 0) != 0) return -1;
      piece = 1;
    }
    char *nul = memchr(buf + k, 0, piece);
    if (nul) return (long)(nul - buf);
    k += piece;
  }
  return (long)max;
}

long rt_read_device_string(vt_rt *rt, const vt_rt_program *prog, uint32_t addr, char *buf,
                           size_t max) {
  if (max == 0) return 0;
  long n = image_string(prog, addr, buf, max);
  return n != -2 ? n : buffer_string(rt, addr, buf, max);
}
