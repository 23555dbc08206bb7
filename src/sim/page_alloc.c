/* Host memory for simulated pages (mem.h): 4 KiB pages carved from chunks
 * that double from 4 KiB to 2 MiB, the 2 MiB ones mapped 2 MiB-aligned
 * with transparent huge pages requested, and released pages kept on a free
 * list for reuse. One calloc per page made the kernel take a page fault per
 * 4 KiB on first touch (about 10 ms of system time for the 12 MiB of a
 * 1 M-element vecadd on a VM); a chunk costs one (or, with huge pages, a
 * single fault per 2 MiB). Under AddressSanitizer every page is its own
 * heap block again, so an access past a page's end is still caught. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mem.h"

#if defined(__SANITIZE_ADDRESS__)
#define VT_PAGE_PER_BLOCK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VT_PAGE_PER_BLOCK 1
#endif
#endif

#define CHUNK_MIN (4u << 10)
#define CHUNK_MAX (2u << 20)

#ifdef VT_PAGE_PER_BLOCK
uint8_t *vt_page_alloc(vt_pages *p) {
  (void)p;
  return calloc(1, VT_PAGE_SIZE);
}
void vt_page_release(vt_pages *p, uint8_t *page) {
  (void)p;
  free(page);
}
void vt_page_chunks_free(vt_pages *p) { (void)p; }
#else

/* a 2 MiB-aligned mapping of CHUNK_MAX bytes (zero), or NULL */
static uint8_t *map_huge_chunk(void) {
  size_t len = 2 * (size_t)CHUNK_MAX;
  uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
  uintptr_t a = ((uintptr_t)m + CHUNK_MAX - 1) & ~(uintptr_t)(CHUNK_MAX - 1);
  size_t head = a - (uintptr_t)m, tail = len - head - CHUNK_MAX;
  if (head) munmap(m, head);
  if (tail) munmap((uint8_t *)a + CHUNK_MAX, tail);
#ifdef MADV_HUGEPAGE
  madvise((void *)a, CHUNK_MAX, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#endif
  return (uint8_t *)a;
}

static int new_chunk(vt_pages *p) {
  if (p->nchunks == p->cap_chunks) {
    size_t cap = p->cap_chunks ? 2 * p->cap_chunks : 8;
    vt_page_chunk *c = realloc(p->chunks, cap * sizeof *c);
    if (!c) return -1;
    p->chunks = c;
    p->cap_chunks = cap;
  }
  size_t size = p->nchunks ? 2 * p->chunks[p->nchunks - 1].size : CHUNK_MIN;
  if (size > CHUNK_MAX) size = CHUNK_MAX;
  uint8_t *base = NULL;
  if (size == CHUNK_MAX) {
    base = map_huge_chunk();
  } else {
    base = aligned_alloc(VT_PAGE_SIZE, size);
    if (base) memset(base, 0, size);
  }
  if (!base) return -1;
  p->chunks[p->nchunks++] = (vt_page_chunk){base, size};
  p->next = base;
  p->left = size;
  return 0;
}

uint8_t *vt_page_alloc(vt_pages *p) {
  if (p->free_list) { /* a released page: cleared again */
    uint8_t *page = p->free_list;
    memcpy(&p->free_list, page, sizeof p->free_list);
    memset(page, 0, VT_PAGE_SIZE);
    return page;
  }
  if (p->left < VT_PAGE_SIZE && new_chunk(p) != 0) return NULL;
  uint8_t *page = p->next; /* fresh chunk memory is zero */
  p->next += VT_PAGE_SIZE;
  p->left -= VT_PAGE_SIZE;
  return page;
}

void vt_page_release(vt_pages *p, uint8_t *page) {
  memcpy(page, &p->free_list, sizeof p->free_list);
  p->free_list = page;
}

void vt_page_chunks_free(vt_pages *p) {
  for (size_t i = 0; i < p->nchunks; i++) {
    if (p->chunks[i].size == CHUNK_MAX)
      munmap(p->chunks[i].base, CHUNK_MAX);
    else
      free(p->chunks[i].base);
  }
  free(p->chunks);
  p->chunks = NULL;
  p->nchunks = p->cap_chunks = 0;
  p->next = p->free_list = NULL;
  p->left = 0;
}
#endif
