/* Per-SM write overlays of global memory (overlay.h): a small hash table of
 * page copies with byte masks, merged into the shared pages at an epoch's
 * end. */
#include "overlay.h"

#include <stdlib.h>
#include <string.h>

static unsigned hash(uint32_t vpn, unsigned cap) {
  return (unsigned)((vpn * 0x9e3779b1u) >> 8) & (cap - 1);
}

uint8_t *vt_ovl_find(const vt_ovl *o, uint32_t vpn) {
  if (!o->n) return NULL;
  for (unsigned i = hash(vpn, o->cap);; i = (i + 1) & (o->cap - 1)) {
    if (o->slots[i].key == vpn + 1) return o->slots[i].data;
    if (o->slots[i].key == 0) return NULL;
  }
}

bool vt_ovl_empty(const vt_ovl *o) { return o->n == 0; }

bool vt_ovl_wrote(const vt_ovl *o, uint32_t addr) {
  const uint8_t *p = vt_ovl_find(o, addr >> VT_PAGE_BITS);
  return p && p[VT_PAGE_SIZE + (addr & (VT_PAGE_SIZE - 1))];
}

/* a table with room for one more page (kept at most half full) */
static int grow(vt_ovl *o) {
  if (2 * (o->n + 1) <= o->cap) return 0;
  unsigned cap = o->cap ? 2 * o->cap : 64;
  vt_ovl_slot *s = calloc(cap, sizeof *s);
  uint32_t *order = realloc(o->order, cap * sizeof *order);
  if (!s || !order) {
    free(s);
    if (order) o->order = order;
    return -1;
  }
  o->order = order;
  for (unsigned i = 0; i < o->cap; i++) {
    if (!o->slots[i].key) continue;
    unsigned j = hash(o->slots[i].key - 1, cap);
    while (s[j].key) j = (j + 1) & (cap - 1);
    s[j] = o->slots[i];
  }
  free(o->slots);
  o->slots = s;
  o->cap = cap;
  return 0;
}

uint8_t *vt_ovl_add(vt_ovl *o, uint32_t vpn, const uint8_t *shared) {
  if (grow(o) != 0) return NULL;
  uint8_t *data = o->nspare ? o->spare[--o->nspare] : malloc(2 * VT_PAGE_SIZE);
  if (!data) return NULL;
  if (shared)
    memcpy(data, shared, VT_PAGE_SIZE);
  else
    memset(data, 0, VT_PAGE_SIZE);
  memset(data + VT_PAGE_SIZE, 0, VT_PAGE_SIZE);
  unsigned i = hash(vpn, o->cap);
  while (o->slots[i].key) i = (i + 1) & (o->cap - 1);
  o->slots[i].key = vpn + 1;
  o->slots[i].data = data;
  o->order[o->n++] = vpn;
  if (o->drop) o->drop(o->drop_ctx, vpn);
  return data;
}

/* keep a block for the next page (or free it) */
static void recycle(vt_ovl *o, uint8_t *data) {
  if (o->nspare == o->spare_cap) {
    unsigned cap = o->spare_cap ? 2 * o->spare_cap : 16;
    uint8_t **s = cap <= 1024 ? realloc(o->spare, cap * sizeof *s) : NULL;
    if (!s) {
      free(data);
      return;
    }
    o->spare = s;
    o->spare_cap = cap;
  }
  o->spare[o->nspare++] = data;
}

/* dst = mask ? src : dst, byte by byte (a loop the compiler vectorises) */
static void blend(uint8_t *restrict dst, const uint8_t *restrict src, const uint8_t *restrict mask) {
  for (unsigned i = 0; i < VT_PAGE_SIZE; i++)
    dst[i] = (uint8_t)((src[i] & mask[i]) | (dst[i] & (uint8_t)~mask[i]));
}

int vt_ovl_merge(vt_ovl *o, vt_pages *shared) {
  int rc = 0;
  for (unsigned k = 0; k < o->n; k++) {
    uint32_t vpn = o->order[k];
    const uint8_t *data = vt_ovl_find(o, vpn);
    uint8_t *page = vt_pages_get(shared, vpn << VT_PAGE_BITS);
    if (!page) {
      rc = -1;
      break;
    }
    blend(page, data, data + VT_PAGE_SIZE);
  }
  vt_ovl_clear(o);
  return rc;
}

void vt_ovl_clear(vt_ovl *o) {
  if (!o->n) return;
  for (unsigned i = 0; i < o->cap; i++) {
    if (!o->slots[i].key) continue;
    recycle(o, o->slots[i].data);
    o->slots[i].key = 0;
    o->slots[i].data = NULL;
  }
  o->n = 0;
}

void vt_ovl_free(vt_ovl *o) {
  for (unsigned i = 0; i < o->cap; i++) free(o->slots[i].data);
  for (unsigned i = 0; i < o->nspare; i++) free(o->spare[i]);
  free(o->slots);
  free(o->order);
  free(o->spare);
  memset(o, 0, sizeof *o);
}
