/* Address spaces: Sv39 page tables built in the device's physical memory.
 * A range mapped through vt_aspace_map gets fresh physical frames for the
 * pages it touches (4 KiB leaves: V, the rights asked for, U, A, D); tables
 * are made as needed. Ranges are counted like the simulator's regions: a
 * page stays mapped while any range touches it. */
#include <stdlib.h>
#include <string.h>

#include "mmu_internal.h"
#include "util/error.h"

#define PAGE VT_SV39_PAGE
#define LEAF_BITS (VT_PTE_V | VT_PTE_U | VT_PTE_A | VT_PTE_D)

static void write_pte(vt_mmu *m, uint64_t pa, uint64_t v) {
  uint8_t *p = vt_pages_get(m->phys, (uint32_t)pa); /* the table's page exists: it was zeroed */
  if (!p) return;
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t ppn_of(uint64_t pte) { return (pte >> VT_PTE_PPN_SHIFT) & ((1ull << 44) - 1); }

static int no_memory(vt_error *err) {
  vt_err_set(err, VT_ERR_NOMEM, "physical memory is full (setting phys_bytes)");
  return VT_ERR_NOMEM;
}

vt_aspace *vt_aspace_create(vt_mmu *m, uint16_t asid, vt_error *err) {
  unsigned id = 1;
  while (id < 65536 && (m->ids[id >> 3] >> (id & 7) & 1)) id++;
  vt_aspace *as = id < 65536 ? calloc(1, sizeof *as) : NULL;
  if (!as) {
    vt_err_set(err, VT_ERR_NOMEM, "too many address spaces");
    return NULL;
  }
  as->id = (uint16_t)id;
  as->asid = asid;
  uint64_t fn = vt_frame_alloc(m, as->id);
  if (!fn) {
    free(as);
    no_memory(err);
    return NULL;
  }
  m->ids[id >> 3] |= (uint8_t)(1u << (id & 7));
  as->root = fn * PAGE;
  as->next = m->all;
  m->all = as;
  return as;
}

void vt_aspace_destroy(vt_mmu *m, vt_aspace *as) {
  if (!as) return;
  for (uint64_t f = 1; f < m->frames.nframes; f++)
    if (m->frames.owner[f] == as->id) vt_frame_free(m, f, as->id);
  m->ids[as->id >> 3] &= (uint8_t)~(1u << (as->id & 7));
  for (vt_aspace **p = &m->all; *p; p = &(*p)->next)
    if (*p == as) {
      *p = as->next;
      break;
    }
  free(as->ranges);
  free(as);
  vt_mmu_changed(m);
}

/* The physical address of va's level-0 PTE, making tables when 'make';
 * 0 when there is none (or a superpage leaf is in the way, *blocked). */
static uint64_t leaf_slot(vt_mmu *m, vt_aspace *as, uint64_t va, bool make, bool *blocked) {
  uint64_t table = as->root;
  *blocked = false;
  for (int level = 2; level > 0; level--) {
    uint64_t slot = table + ((va >> (12 + 9 * level)) & 511) * 8, pte = vt_mmu_read_pte(m, slot);
    if (pte & VT_PTE_V) {
      if (pte & (VT_PTE_R | VT_PTE_X)) {
        *blocked = true;
        return 0;
      }
      table = ppn_of(pte) * PAGE;
      if (table >= m->phys_bytes) {
        *blocked = true;
        return 0;
      }
      continue;
    }
    if (!make) return 0;
    uint64_t fn = vt_frame_alloc(m, as->id);
    if (!fn) return 0;
    write_pte(m, slot, fn << VT_PTE_PPN_SHIFT | VT_PTE_V);
    table = fn * PAGE;
  }
  return table + ((va >> 12) & 511) * 8;
}

/* does a range other than ranges[skip] touch the page at va? */
static bool page_used(const vt_aspace *as, uint64_t va, size_t skip) {
  for (size_t i = 0; i < as->nranges; i++) {
    const vt_vrange *r = &as->ranges[i];
    if (i != skip && r->base < va + PAGE && va < r->base + r->size) return true;
  }
  return false;
}

static int unmap_pages(vt_mmu *m, vt_aspace *as, uint64_t va, uint64_t size, size_t skip) {
  for (uint64_t a = va & ~(uint64_t)(PAGE - 1); a < va + size; a += PAGE) {
    bool blocked;
    if (page_used(as, a, skip)) continue;
    uint64_t slot = leaf_slot(m, as, a, false, &blocked);
    if (!slot) continue;
    uint64_t pte = vt_mmu_read_pte(m, slot);
    if (!(pte & VT_PTE_V)) continue;
    vt_frame_free(m, ppn_of(pte), as->id);
    write_pte(m, slot, 0);
  }
  vt_mmu_changed(m);
  return VT_OK;
}

static int check_range(uint64_t va, uint64_t size, vt_error *err) {
  if (size == 0 || va >= (1ull << 38) || size > (1ull << 38) - va) {
    vt_err_set(err, VT_ERR_ARG, "[0x%llx, +0x%llx) is not a range of the lower half of the Sv39 "
               "address space", (unsigned long long)va, (unsigned long long)size);
    return VT_ERR_ARG;
  }
  return VT_OK;
}

int vt_aspace_add(vt_mmu *m, vt_aspace *as, uint64_t va, uint64_t size, unsigned prot,
                  vt_error *err) {
  int rc = check_range(va, size, err);
  if (rc) return rc;
  if (as->nranges == as->capranges) {
    size_t cap = as->capranges ? 2 * as->capranges : 16;
    vt_vrange *r = realloc(as->ranges, cap * sizeof *r);
    if (!r) return no_memory(err);
    as->ranges = r;
    as->capranges = cap;
  }
  as->ranges[as->nranges++] = (vt_vrange){va, size};
  prot &= VT_PTE_R | VT_PTE_W | VT_PTE_X;
  if (prot & VT_PTE_W) prot |= VT_PTE_R; /* W without R is reserved */
  for (uint64_t a = va & ~(uint64_t)(PAGE - 1); a < va + size; a += PAGE) {
    bool blocked;
    uint64_t slot = leaf_slot(m, as, a, true, &blocked), pte = slot ? vt_mmu_read_pte(m, slot) : 0;
    uint64_t fn = slot && !(pte & VT_PTE_V) ? vt_frame_alloc(m, as->id) : 0;
    if (slot && (pte & VT_PTE_V)) {
      write_pte(m, slot, pte | prot);
      continue;
    }
    if (!fn) {
      unmap_pages(m, as, va, size, --as->nranges); /* undo this range */
      if (blocked) {
        vt_err_set(err, VT_ERR_ARG, "0x%llx is inside a superpage of the address space",
                   (unsigned long long)a);
        return VT_ERR_ARG;
      }
      return no_memory(err);
    }
    write_pte(m, slot, fn << VT_PTE_PPN_SHIFT | LEAF_BITS | prot);
  }
  vt_mmu_changed(m);
  return VT_OK;
}

int vt_aspace_remove(vt_mmu *m, vt_aspace *as, uint64_t va, uint64_t size, vt_error *err) {
  size_t i = as->nranges;
  while (i > 0 && !(as->ranges[i - 1].base == va && as->ranges[i - 1].size == size)) i--;
  if (i == 0) {
    vt_err_set(err, VT_ERR_ARG, "nothing is mapped at exactly [0x%llx, +0x%llx)",
               (unsigned long long)va, (unsigned long long)size);
    return VT_ERR_ARG;
  }
  i--;
  int rc = unmap_pages(m, as, va, size, i);
  memmove(&as->ranges[i], &as->ranges[i + 1], (as->nranges - i - 1) * sizeof *as->ranges);
  as->nranges--;
  return rc;
}

bool vt_aspace_has(const vt_aspace *as, uint64_t va, uint64_t size) {
  for (size_t i = 0; i < as->nranges; i++)
    if (as->ranges[i].base == va && as->ranges[i].size == size) return true;
  return false;
}

uint64_t vt_aspace_root(const vt_aspace *as) { return as ? as->root : 0; }
uint16_t vt_aspace_asid(const vt_aspace *as) { return as ? as->asid : 0; }
