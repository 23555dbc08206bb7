/* Sparse device memory: 4 KiB pages allocated on first touch, in a two-level
 * table over the 32-bit address space. A page exists only inside mapped
 * regions (program window, driver buffers); the local-memory window
 * [0x70000000, 0x80000000) is a separate sparse store per workgroup
 * (spec README decision 14). */
#ifndef VT_SIM_MEM_H
#define VT_SIM_MEM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VT_PAGE_BITS 12
#define VT_PAGE_SIZE (1u << VT_PAGE_BITS)

typedef struct vt_page_chunk {
  uint8_t *base;
  size_t size;
} vt_page_chunk;

/* All zero is an empty store. */
typedef struct vt_pages {
  uint8_t **dir[1024]; /* dir[a >> 22][(a >> 12) & 1023] -> page */
  unsigned ndir;       /* second-level blocks allocated (freeing scans none without) */
  size_t npages;
  uint32_t gen; /* changes when a page is released or the mapping changes */
  /* host memory of the pages (page_alloc.c) */
  vt_page_chunk *chunks;
  size_t nchunks, cap_chunks;
  uint8_t *next;      /* the current chunk's next unused page */
  size_t left;        /* ... and its unused bytes */
  uint8_t *free_list; /* released pages, linked through their first bytes */
} vt_pages;

/* A zeroed page of the store's host memory, or NULL when out of memory;
 * released pages return to the store (page_alloc.c) */
uint8_t *vt_page_alloc(vt_pages *p);
void vt_page_release(vt_pages *p, uint8_t *page);
void vt_page_chunks_free(vt_pages *p);

typedef struct vt_region {
  uint32_t base, size;
} vt_region;

/* a page's mapped extent as vt_mem_page_extent found it (vt_mem_extent) */
typedef struct vt_extent_memo {
  uint32_t key, gen; /* page number + 1 (0: none), global.gen it holds for */
  uint16_t lo, hi;
} vt_extent_memo;
#define VT_EXTENT_MEMOS 64

typedef struct vt_mem {
  vt_pages global;
  vt_region *regions; /* mapped regions, sorted by base */
  size_t nregions, cap;
  vt_extent_memo memo[VT_EXTENT_MEMOS];
} vt_mem;

void vt_pages_free(vt_pages *p);
/* Host pointer to the byte at 'addr' (page allocated on demand), or NULL when
 * out of memory. The page holds VT_PAGE_SIZE bytes from addr & ~0xfff. */
uint8_t *vt_pages_get(vt_pages *p, uint32_t addr);
/* Like vt_pages_get but never allocates: NULL for an untouched page. */
static inline uint8_t *vt_pages_peek(const vt_pages *p, uint32_t addr) {
  uint8_t **l2 = p->dir[addr >> 22];
  if (!l2) return NULL;
  uint8_t *page = l2[(addr >> VT_PAGE_BITS) & 1023];
  return page ? page + (addr & (VT_PAGE_SIZE - 1)) : NULL;
}

/* Make [addr, addr + n) read as zero without allocating: pages wholly
 * inside are released, the touched parts of the pages at its ends cleared. */
void vt_pages_zero(vt_pages *p, uint32_t addr, uint32_t n);

void vt_mem_init(vt_mem *m);
void vt_mem_destroy(vt_mem *m);
int vt_mem_add_region(vt_mem *m, uint32_t base, uint32_t size);
/* Remove the region [base, base+size); -1 if there is none. Pages no other
 * region covers are released. */
int vt_mem_remove_region(vt_mem *m, uint32_t base, uint32_t size);
/* Whether [addr, addr+n) lies in one or more mapped regions. */
bool vt_mem_mapped(const vt_mem *m, uint32_t addr, uint32_t n);
/* The bytes [*lo, *hi) of addr's page (offsets in the page) that are
 * mapped without a gap around the mapped byte addr. */
void vt_mem_page_extent(const vt_mem *m, uint32_t addr, uint32_t *lo, uint32_t *hi);
/* vt_mem_mapped(addr, n) for an access inside one page, with that page's
 * extent around addr when mapped; remembered per page until the mapping
 * changes (the translation fills of the run loop ask for the same pages
 * again and again). */
bool vt_mem_extent(vt_mem *m, uint32_t addr, uint32_t n, uint32_t *lo, uint32_t *hi);
#endif
