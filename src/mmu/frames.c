/* Physical memory of a device with the MMU on: the frame allocator, PTE
 * reads, the walk over the device's pages, and invalidation. */
#include <stdlib.h>
#include <string.h>

#include "mmu_internal.h"

int vt_frames_init(vt_frames *f, uint64_t phys_bytes) {
  memset(f, 0, sizeof *f);
  f->nframes = phys_bytes / VT_SV39_PAGE;
  f->fresh = f->nframes;
  f->owner = calloc(f->nframes ? f->nframes : 1, sizeof *f->owner);
  return f->owner ? 0 : -1;
}

void vt_frames_destroy(vt_frames *f) {
  free(f->free);
  free(f->owner);
  memset(f, 0, sizeof *f);
}

uint64_t vt_frame_alloc(vt_mmu *m, uint16_t owner) {
  vt_frames *f = &m->frames;
  uint64_t fn;
  if (f->nfree) {
    fn = f->free[--f->nfree];
  } else if (f->fresh > 1) { /* frame 0 stays reserved */
    fn = --f->fresh;
  } else {
    return 0;
  }
  f->owner[fn] = owner;
  /* whatever the host or a kernel wrote there before reads as zero */
  vt_pages_zero(m->phys, (uint32_t)(fn * VT_SV39_PAGE), VT_SV39_PAGE);
  return fn;
}

void vt_frame_free(vt_mmu *m, uint64_t fn, uint16_t owner) {
  vt_frames *f = &m->frames;
  if (fn == 0 || fn >= f->nframes || f->owner[fn] != owner || owner == 0) return;
  if (f->nfree == f->capfree) {
    size_t cap = f->capfree ? 2 * f->capfree : 256;
    uint32_t *p = realloc(f->free, cap * sizeof *p);
    if (!p) return; /* the frame is lost, not reused: still correct */
    f->free = p;
    f->capfree = cap;
  }
  f->owner[fn] = 0;
  f->free[f->nfree++] = (uint32_t)fn;
  vt_pages_zero(m->phys, (uint32_t)(fn * VT_SV39_PAGE), VT_SV39_PAGE); /* release the host page */
}

uint64_t vt_mmu_read_pte(vt_mmu *m, uint64_t pa) {
  if (pa >= m->phys_bytes || (pa & 7)) return 0;
  const uint8_t *p = vt_pages_peek(m->phys, (uint32_t)pa);
  if (!p) return 0;
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static uint64_t read_cb(void *ctx, uint64_t pa) { return vt_mmu_read_pte(ctx, pa); }

void vt_mmu_walk_in(vt_mmu *m, uint64_t root, uint64_t va, vt_mmu_access kind, vt_mmu_walk *out) {
  vt_sv39_walk(root, va, kind, m->phys_bytes, read_cb, m, out);
}

void vt_mmu_changed(vt_mmu *m) {
  m->epoch++;
  (*m->gen)++;
}
