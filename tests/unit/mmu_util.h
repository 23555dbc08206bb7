/* Helpers for the virtual-memory tests: a page-table builder of their own
 * (independent of vt_aspace: the tests pick the physical frames and write
 * every PTE with vt_phys_write), kernels assembled with vt as and placed in
 * such tables, and a one-workgroup launch. */
#ifndef VT_TEST_MMU_UTIL_H
#define VT_TEST_MMU_UTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/asm.h"
#include "vt/elf.h"
#include "vt/mmu.h"
#include "vt/sim.h"

enum { PV = 1, PR = 2, PW = 4, PX = 8, PU = 16, PG = 32, PA_ = 64, PD = 128 };
#define P_RW (PV | PR | PW | PU | PA_ | PD)
#define P_RX (PV | PR | PX | PU | PA_)

typedef struct ptb {
  vt_device *dev;
  uint64_t root, next; /* frames are handed out upward from 'next' */
} ptb;

static inline uint64_t ptb_rd(ptb *b, uint64_t pa) {
  uint8_t x[8];
  vt_error e;
  if (vt_phys_read(b->dev, pa, x, 8, &e) != VT_OK) return 0;
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | x[i];
  return v;
}
static inline void ptb_wr(ptb *b, uint64_t pa, uint64_t v) {
  uint8_t x[8];
  for (int i = 0; i < 8; i++) x[i] = (uint8_t)(v >> (8 * i));
  vt_error e;
  if (vt_phys_write(b->dev, pa, x, 8, &e) != VT_OK) fprintf(stderr, "ptb_wr: %s\n", e.message);
}
static inline uint64_t ptb_frame(ptb *b) {
  uint64_t pa = b->next;
  b->next += 4096;
  return pa;
}
static inline void ptb_init(ptb *b, vt_device *dev, uint64_t first_frame) {
  b->dev = dev;
  b->next = first_frame;
  b->root = ptb_frame(b);
}
/* physical address of va's entry at 'level' (2 = root), making pointer
 * entries (V only) above it */
static inline uint64_t ptb_slot(ptb *b, uint64_t va, int level) {
  uint64_t table = b->root;
  for (int l = 2; l > level; l--) {
    uint64_t slot = table + ((va >> (12 + 9 * l)) & 511) * 8, e = ptb_rd(b, slot);
    if (!(e & PV)) {
      e = (ptb_frame(b) >> 12) << 10 | PV;
      ptb_wr(b, slot, e);
    }
    table = ((e >> 10) & ((1ull << 44) - 1)) << 12;
  }
  return table + ((va >> (12 + 9 * level)) & 511) * 8;
}
static inline void ptb_set(ptb *b, uint64_t va, int level, uint64_t pte) {
  ptb_wr(b, ptb_slot(b, va, level), pte);
}
static inline void ptb_leaf(ptb *b, uint64_t va, uint64_t pa, int level, uint64_t flags) {
  ptb_set(b, va, level, (pa >> 12) << 10 | flags);
}
/* [va, va + n) on fresh 4 KiB frames with 'flags', holding data (NULL:
 * zeros); the frames are taken in descending order, so consecutive virtual
 * pages are not consecutive physical ones. Returns the frame of va. */
static inline uint64_t ptb_map(ptb *b, uint64_t va, uint64_t n, uint64_t flags, const void *data) {
  uint64_t first = va & ~4095ull, pages = (va + n - first + 4095) / 4096, top = b->next;
  b->next += pages * 4096;
  uint64_t f0 = 0;
  for (uint64_t i = 0; i < pages; i++) {
    uint64_t frame = top + (pages - 1 - i) * 4096;
    if (i == 0) f0 = frame;
    ptb_leaf(b, first + i * 4096, frame, 0, flags);
  }
  for (uint64_t a = va; data && a < va + n;) {
    uint64_t page = a & ~4095ull, stop = page + 4096 < va + n ? page + 4096 : va + n;
    uint64_t frame = top + (pages - 1 - (page - first) / 4096) * 4096;
    vt_error e;
    vt_phys_write(b->dev, frame + (a & 4095), (const uint8_t *)data + (a - va), stop - a, &e);
    a = stop;
  }
  return f0;
}

/* assemble a kernel (vt as); NULL with the errors on stderr */
static inline vt_elf *mmu_asm(const char *src) {
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *image = NULL;
  size_t size = 0;
  if (!as || vt_asm_add_source(as, "k.s", src, strlen(src)) != 0 ||
      vt_asm_link(as, &image, &size) != 0) {
    fprintf(stderr, "assembling failed:\n%s", as ? vt_asm_errors(as) : "");
    vt_asm_free(as);
    return NULL;
  }
  vt_asm_free(as);
  vt_elf *elf = NULL;
  char msg[200];
  if (vt_elf_open_mem(image, size, &elf, msg, sizeof msg) != 0) fprintf(stderr, "%s\n", msg);
  free(image);
  return elf;
}

/* the kernel's segments in b's table (code: read, execute) */
static inline void ptb_program(ptb *b, const vt_elf *elf, uint64_t flags) {
  for (size_t i = 0; i < vt_elf_segment_count(elf); i++) {
    const vt_elf_segment *s = vt_elf_segment_at(elf, i);
    if (s->type != 1 || s->memsz == 0) continue;
    uint8_t *buf = calloc(1, s->memsz);
    memcpy(buf, s->data, s->filesz);
    ptb_map(b, s->paddr, s->memsz, flags, buf);
    free(buf);
  }
}

static inline uint32_t sym(const vt_elf *elf, const char *name) {
  uint32_t v = 0;
  if (vt_elf_find_symbol(elf, name, &v) != 0) fprintf(stderr, "no symbol %s\n", name);
  return v;
}

/* one workgroup of 'warps' warps x 'threads' threads at 0x80000000 */
static inline vt_launch mmu_launch(uint32_t knl, unsigned threads, unsigned warps, uint64_t ptbr,
                                   uint16_t asid) {
  vt_launch l;
  memset(&l, 0, sizeof l);
  l.start_pc = 0x80000000u;
  l.num_wg[0] = l.num_wg[1] = l.num_wg[2] = 1;
  l.threads_per_warp = threads;
  l.warps_per_wg = warps;
  l.knl_addr = knl;
  l.ptbr = ptbr;
  l.asid = asid;
  return l;
}

static inline vt_device *mmu_device(uint64_t phys_bytes) {
  vt_settings s;
  vt_settings_default(&s);
  s.mmu = true;
  if (phys_bytes) s.phys_bytes = phys_bytes;
  return vt_device_new(&s);
}

static inline uint32_t phys_word(vt_device *dev, uint64_t pa) {
  uint8_t x[4] = {0};
  vt_error e;
  vt_phys_read(dev, pa, x, 4, &e);
  return (uint32_t)x[0] | (uint32_t)x[1] << 8 | (uint32_t)x[2] << 16 | (uint32_t)x[3] << 24;
}
static inline void phys_put(vt_device *dev, uint64_t pa, uint32_t v) {
  uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  vt_error e;
  vt_phys_write(dev, pa, x, 4, &e);
}
#endif
