/* Sparse paged memory and the mapped-region list. */
#include "mem.h"

#include <stdlib.h>
#include <string.h>

void vt_pages_free(vt_pages *p) {
  for (unsigned i = 0; i < 1024 && p->ndir; i++) {
    if (!p->dir[i]) continue;
    p->ndir--;
    for (unsigned j = 0; j < 1024; j++)
      if (p->dir[i][j]) vt_page_release(p, p->dir[i][j]);
    free(p->dir[i]);
    p->dir[i] = NULL;
  }
  p->npages = 0;
  vt_page_chunks_free(p);
}

uint8_t *vt_pages_get(vt_pages *p, uint32_t addr) {
  uint8_t **l2 = p->dir[addr >> 22];
  if (!l2) {
    l2 = calloc(1024, sizeof *l2);
    if (!l2) return NULL;
    p->dir[addr >> 22] = l2;
    p->ndir++;
  }
  uint8_t **slot = &l2[(addr >> VT_PAGE_BITS) & 1023];
  if (!*slot) {
    *slot = vt_page_alloc(p);
    if (!*slot) return NULL;
    p->npages++;
  }
  return *slot + (addr & (VT_PAGE_SIZE - 1));
}

void vt_pages_zero(vt_pages *p, uint32_t addr, uint32_t n) {
  uint64_t a = addr, end = (uint64_t)addr + n;
  while (a < end) {
    uint64_t page_end = (a | (VT_PAGE_SIZE - 1)) + 1, stop = end < page_end ? end : page_end;
    uint8_t **l2 = p->dir[a >> 22];
    if (!l2) { /* no page in this 4 MiB block */
      a = ((a >> 22) + 1) << 22;
      continue;
    }
    uint8_t **slot = &l2[(a >> VT_PAGE_BITS) & 1023];
    if (*slot && stop - a == VT_PAGE_SIZE) {
      vt_page_release(p, *slot);
      *slot = NULL;
      p->npages--;
      p->gen++;
    } else if (*slot) {
      memset(*slot + (a & (VT_PAGE_SIZE - 1)), 0, (size_t)(stop - a));
    }
    a = stop;
  }
}

void vt_mem_init(vt_mem *m) { memset(m, 0, sizeof *m); }

void vt_mem_destroy(vt_mem *m) {
  vt_pages_free(&m->global);
  free(m->regions);
  memset(m, 0, sizeof *m);
}

int vt_mem_add_region(vt_mem *m, uint32_t base, uint32_t size) {
  if (size == 0) return 0;
  if (m->nregions == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 16;
    vt_region *r = realloc(m->regions, cap * sizeof *r);
    if (!r) return -1;
    m->regions = r;
    m->cap = cap;
  }
  size_t i = m->nregions;
  while (i > 0 && m->regions[i - 1].base > base) {
    m->regions[i] = m->regions[i - 1];
    i--;
  }
  m->regions[i].base = base;
  m->regions[i].size = size;
  m->nregions++;
  m->global.gen++;
  return 0;
}

bool vt_mem_mapped(const vt_mem *m, uint32_t addr, uint32_t n) {
  uint64_t a = addr, end = (uint64_t)addr + n;
  /* regions may overlap or touch: walk them in order extending coverage */
  for (size_t i = 0; i < m->nregions && a < end; i++) {
    uint64_t b = m->regions[i].base, e = b + m->regions[i].size;
    if (b <= a && a < e) a = e;
  }
  return a >= end;
}

void vt_mem_page_extent(const vt_mem *m, uint32_t addr, uint32_t *lo, uint32_t *hi) {
  uint64_t page = addr & ~(uint64_t)(VT_PAGE_SIZE - 1), end = page + VT_PAGE_SIZE;
  uint64_t a = addr, e = (uint64_t)addr + 1;
  /* grow [a, e) through touching or overlapping regions, within the page */
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < m->nregions; i++) {
      uint64_t rb = m->regions[i].base, re = rb + m->regions[i].size;
      if (a > page && rb < a && a <= re) { /* the region holds byte a - 1 */
        a = rb > page ? rb : page;
        grew = true;
      }
      if (e < end && rb <= e && e < re) { /* the region holds byte e */
        e = re < end ? re : end;
        grew = true;
      }
    }
  }
  *lo = (uint32_t)(a - page);
  *hi = (uint32_t)(e - page);
}

bool vt_mem_extent(vt_mem *m, uint32_t addr, uint32_t n, uint32_t *lo, uint32_t *hi) {
  uint32_t vpn = addr >> VT_PAGE_BITS, in = addr & (VT_PAGE_SIZE - 1);
  vt_extent_memo *e = &m->memo[vpn % VT_EXTENT_MEMOS];
  if (e->key == vpn + 1 && e->gen == m->global.gen && in >= e->lo && in + n <= e->hi) {
    *lo = e->lo;
    *hi = e->hi;
    return true;
  }
  if (!vt_mem_mapped(m, addr, n)) return false;
  vt_mem_page_extent(m, addr, lo, hi);
  *e = (vt_extent_memo){vpn + 1, m->global.gen, (uint16_t)*lo, (uint16_t)*hi};
  return true;
}

int vt_mem_remove_region(vt_mem *m, uint32_t base, uint32_t size) {
  size_t i;
  for (i = 0; i < m->nregions; i++)
    if (m->regions[i].base == base && m->regions[i].size == size) break;
  if (i == m->nregions) return -1;
  memmove(&m->regions[i], &m->regions[i + 1], (m->nregions - i - 1) * sizeof *m->regions);
  m->nregions--;
  m->global.gen++;
  /* release pages no remaining region touches, so a later mapping of the
   * same addresses starts from zero */
  uint64_t end = (uint64_t)base + size;
  for (uint64_t a = base & ~(uint64_t)(VT_PAGE_SIZE - 1); a < end; a += VT_PAGE_SIZE) {
    bool used = false;
    for (size_t k = 0; k < m->nregions && !used; k++) {
      uint64_t b = m->regions[k].base, e = b + m->regions[k].size;
      used = b < a + VT_PAGE_SIZE && a < e;
    }
    uint8_t **l2 = m->global.dir[a >> 22];
    if (used || !l2) continue;
    uint8_t **slot = &l2[(a >> VT_PAGE_BITS) & 1023];
    if (*slot) {
      vt_page_release(&m->global, *slot);
      *slot = NULL;
      m->global.npages--;
    }
  }
  return 0;
}
