/* Write overlays of global memory, one per SM, for the epochs in which
 * several SMs run (run.h): during such an epoch an SM reads global memory
 * as it was when the epoch began plus its own writes, which go to private
 * copies of the pages they touch, each with a byte mask of the bytes
 * written. At the epoch's end the overlays are merged into the shared pages
 * in SM order (where two SMs wrote the same byte, the later SM's value
 * stays), whatever host thread ran which SM. With the MMU on the pages are
 * physical frames (mmu_sim.c), with it off global pages. */
#ifndef VT_SIM_OVERLAY_H
#define VT_SIM_OVERLAY_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "mem.h"

typedef struct vt_ovl_slot {
  uint32_t key;  /* page number + 1; 0 = empty */
  uint8_t *data; /* VT_PAGE_SIZE bytes of the page, then VT_PAGE_SIZE mask bytes */
} vt_ovl_slot;

typedef struct vt_ovl {
  vt_ovl_slot *slots; /* open addressing on the page number */
  unsigned cap, n;
  uint32_t *order;    /* page numbers in creation order */
  uint8_t **spare;    /* blocks of merged pages, reused */
  unsigned nspare, spare_cap;
  /* called when a page gets an overlay: the SM's warps drop their
   * translations of that page (they read the shared page) */
  void (*drop)(void *ctx, uint32_t vpn);
  void *drop_ctx;
} vt_ovl;

/* The overlay copy of page vpn, or NULL. */
uint8_t *vt_ovl_find(const vt_ovl *o, uint32_t vpn);
/* A new overlay copy of page vpn holding 'shared' (NULL: zeros), no byte
 * written yet; NULL when out of memory. */
uint8_t *vt_ovl_add(vt_ovl *o, uint32_t vpn, const uint8_t *shared);
/* n bytes at p (inside an overlay copy's page) were written. */
static inline void vt_ovl_mark(uint8_t *p, unsigned n) {
  memset(p + VT_PAGE_SIZE, 0xff, n);
}
/* Whether the overlay wrote the byte at addr. */
bool vt_ovl_wrote(const vt_ovl *o, uint32_t addr);
bool vt_ovl_empty(const vt_ovl *o);
/* Merge the written bytes into 'shared' (pages allocated as needed) and
 * empty the overlay; -1 when out of host memory. */
int vt_ovl_merge(vt_ovl *o, vt_pages *shared);
/* Empty the overlay without merging. */
void vt_ovl_clear(vt_ovl *o);
void vt_ovl_free(vt_ovl *o);
#endif
