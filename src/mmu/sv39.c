/* The Sv39 page-table walk of the RISC-V privileged specification
 * ("Virtual Address Translation Process", Sv39: LEVELS = 3, PTESIZE = 8),
 * for a user-mode access with MXR = SUM = 0 and the Svade rule for A and D
 * (a clear bit faults; the walk never writes). Pure: it reads PTEs through
 * a callback and knows nothing of the simulator. */
#include "vt/mmu.h"

#define LEVELS 3
#define PPN_MASK ((1ull << 44) - 1)

bool vt_sv39_canonical(uint64_t va) {
  uint64_t top = va >> 38;
  return top == 0 || top == (UINT64_MAX >> 38);
}

static uint64_t pte_ppn(uint64_t pte) { return (pte >> VT_PTE_PPN_SHIFT) & PPN_MASK; }

static void stop(vt_mmu_walk *out, vt_mmu_fault f, int level, uint64_t pte) {
  out->fault = f;
  out->level = level;
  out->pte = pte;
}

/* step 5: may a user-mode access of this kind use the leaf? */
static bool permitted(uint64_t pte, vt_mmu_access kind) {
  if (kind == VT_MMU_HOST) return true;
  if (!(pte & VT_PTE_U)) return false;
  switch (kind) {
  case VT_MMU_LOAD: return (pte & VT_PTE_R) != 0;
  case VT_MMU_STORE: return (pte & VT_PTE_W) != 0;
  default: return (pte & VT_PTE_X) != 0;
  }
}

void vt_sv39_walk(uint64_t root, uint64_t va, vt_mmu_access kind, uint64_t phys_bytes,
                  vt_pte_reader read, void *ctx, vt_mmu_walk *out) {
  out->nreads = 0;
  out->pa = 0;
  stop(out, VT_MMU_OK, -1, 0);
  if (!vt_sv39_canonical(va)) {
    stop(out, VT_MMU_NONCANONICAL, -1, 0);
    return;
  }
  uint64_t a = root;
  for (int i = LEVELS - 1; i >= 0; i--) {
    uint64_t vpn = (va >> (12 + 9 * i)) & 511, pa = a + vpn * 8; /* step 2 */
    if (pa >= phys_bytes || phys_bytes - pa < 8) {
      stop(out, VT_MMU_PTE_RANGE, i, 0);
      out->pte_addr[out->nreads] = pa; /* named in the message, not read */
      return;
    }
    out->pte_addr[out->nreads++] = pa;
    uint64_t pte = read(ctx, pa);
    bool r = pte & VT_PTE_R, w = pte & VT_PTE_W, x = pte & VT_PTE_X;
    if (!(pte & VT_PTE_V)) { /* step 3 */
      stop(out, VT_MMU_INVALID, i, pte);
      return;
    }
    if ((pte & VT_PTE_RESERVED) || (w && !r)) {
      stop(out, VT_MMU_RESERVED, i, pte);
      return;
    }
    if (!r && !x) { /* step 4: a pointer to the next level */
      if (pte & (VT_PTE_D | VT_PTE_A | VT_PTE_U)) { /* reserved in non-leaf PTEs */
        stop(out, VT_MMU_RESERVED, i, pte);
        return;
      }
      if (i == 0) {
        stop(out, VT_MMU_NO_LEAF, i, pte);
        return;
      }
      a = pte_ppn(pte) * VT_SV39_PAGE;
      continue;
    }
    if (!permitted(pte, kind)) { /* step 5 */
      stop(out, VT_MMU_PERMISSION, i, pte);
      return;
    }
    uint64_t low = (1ull << (9 * i)) - 1; /* step 6: PPN bits a superpage replaces */
    if (pte_ppn(pte) & low) {
      stop(out, VT_MMU_MISALIGNED, i, pte);
      return;
    }
    if (kind != VT_MMU_HOST && (!(pte & VT_PTE_A) || (kind == VT_MMU_STORE && !(pte & VT_PTE_D)))) {
      stop(out, (pte & VT_PTE_A) ? VT_MMU_DIRTY : VT_MMU_ACCESSED, i, pte); /* step 7 */
      return;
    }
    uint64_t ppn = pte_ppn(pte) | ((va >> 12) & low); /* step 8 */
    uint64_t phys = ppn * VT_SV39_PAGE + (va & (VT_SV39_PAGE - 1));
    stop(out, VT_MMU_OK, i, pte);
    if (phys >= phys_bytes) {
      out->fault = VT_MMU_PHYS_RANGE;
      out->pa = phys;
      return;
    }
    out->pa = phys;
    return;
  }
}

const char *vt_mmu_fault_kind(vt_mmu_fault f) {
  return f == VT_MMU_PTE_RANGE || f == VT_MMU_PHYS_RANGE ? "access fault" : "page fault";
}

const char *vt_mmu_fault_name(vt_mmu_fault f) {
  switch (f) {
  case VT_MMU_OK: return "translated";
  case VT_MMU_NONCANONICAL: return "non-canonical address";
  case VT_MMU_PTE_RANGE: return "page-table entry beyond physical memory";
  case VT_MMU_INVALID: return "invalid entry (V = 0)";
  case VT_MMU_RESERVED: return "reserved bits or encoding";
  case VT_MMU_NO_LEAF: return "no leaf at level 0";
  case VT_MMU_PERMISSION: return "permission";
  case VT_MMU_MISALIGNED: return "misaligned superpage";
  case VT_MMU_ACCESSED: return "accessed bit clear (A = 0)";
  case VT_MMU_DIRTY: return "dirty bit clear (D = 0)";
  case VT_MMU_PHYS_RANGE: return "physical address beyond physical memory";
  }
  return "?";
}
