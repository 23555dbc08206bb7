/* vt/mmu.h - virtual memory of a device: RISC-V Sv39 translation, address
 * spaces and physical memory (setting mmu; docs/memory.md).
 *
 * With the setting mmu off (the default) none of this is used: device
 * addresses are physical, as they always were. With it on:
 *   - the device has phys_bytes of physical memory; page tables and the
 *     pages of every address space live in it;
 *   - an address space (vt_aspace) is a root page table and an ASID; the
 *     device creates a default one, and vt_mem_map / vt_mem_unmap /
 *     vt_mem_write / vt_mem_read / vt_device_load_elf (vt/sim.h) act on the
 *     device's current address space (vt_device_set_aspace);
 *   - a launch translates every instruction fetch and every global and
 *     private access through the page table of vt_launch.ptbr (0: the
 *     current address space's), as a user-mode access (U = 1 required);
 *     the local-memory window [0x70000000, 0x80000000) is not translated.
 *
 * Levels are numbered as in the RISC-V privileged specification: level 2 is
 * the root table (1 GiB leaves), level 1 holds 2 MiB leaves, level 0 4 KiB
 * pages. vt never sets A or D itself: a leaf with A = 0, or D = 0 for a
 * store, faults (Svade). */
#ifndef VT_MMU_H
#define VT_MMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sv39 page-table entry bits (privileged spec, Sv39) */
#define VT_PTE_V 0x001u
#define VT_PTE_R 0x002u
#define VT_PTE_W 0x004u
#define VT_PTE_X 0x008u
#define VT_PTE_U 0x010u
#define VT_PTE_G 0x020u
#define VT_PTE_A 0x040u
#define VT_PTE_D 0x080u
#define VT_PTE_PPN_SHIFT 10
/* bits 63..54 (N, PBMT and the reserved bits): must be zero */
#define VT_PTE_RESERVED 0xffc0000000000000ull
#define VT_SV39_PAGE 4096u

/* What an access wants of a page. HOST: a copy by the host (driver,
 * vt_mem_read/write), which needs a valid leaf and nothing else. */
typedef enum vt_mmu_access { VT_MMU_LOAD, VT_MMU_STORE, VT_MMU_FETCH, VT_MMU_HOST } vt_mmu_access;

/* Why a translation failed (in the order the walk checks them). */
typedef enum vt_mmu_fault {
  VT_MMU_OK = 0,
  VT_MMU_NONCANONICAL, /* bits 63..39 of the address differ from bit 38 */
  VT_MMU_PTE_RANGE,    /* a PTE's physical address is beyond physical memory (access fault) */
  VT_MMU_INVALID,      /* V = 0 */
  VT_MMU_RESERVED,     /* bits 63..54 set, W without R, or D/A/U in a non-leaf PTE */
  VT_MMU_NO_LEAF,      /* level 0 PTE that points to a further table */
  VT_MMU_PERMISSION,   /* R, W, X or U do not allow the access */
  VT_MMU_MISALIGNED,   /* superpage whose PPN is not aligned to its size */
  VT_MMU_ACCESSED,     /* A = 0 */
  VT_MMU_DIRTY,        /* a store to a leaf with D = 0 */
  VT_MMU_PHYS_RANGE    /* the page is beyond physical memory (access fault) */
} vt_mmu_fault;

/* The outcome of one walk. */
typedef struct vt_mmu_walk {
  vt_mmu_fault fault;
  int level;             /* the leaf's level, or the level of the PTE that failed; -1: none read */
  uint64_t pa;           /* the physical address (fault VT_MMU_OK) */
  uint64_t pte;          /* the leaf PTE, or the PTE that failed */
  unsigned nreads;       /* PTEs read, root first */
  uint64_t pte_addr[3];  /* ... and their physical addresses */
} vt_mmu_walk;

/* Reads the 8-byte PTE at physical address pa (below phys_bytes, 8-byte
 * aligned). */
typedef uint64_t (*vt_pte_reader)(void *ctx, uint64_t pa);

/* Translate va (a full 64-bit virtual address; a 32-bit address is passed
 * zero-extended) through the Sv39 table whose root is at physical address
 * root, as the privileged specification's walk (Sv39, a user-mode access,
 * MXR = SUM = 0, Svade: A and D are checked, never set). */
void vt_sv39_walk(uint64_t root, uint64_t va, vt_mmu_access kind, uint64_t phys_bytes,
                  vt_pte_reader read, void *ctx, vt_mmu_walk *out);
/* "page fault" or "access fault", and a short text for a fault class. */
const char *vt_mmu_fault_kind(vt_mmu_fault f);
const char *vt_mmu_fault_name(vt_mmu_fault f);
/* Is bit 38 repeated in bits 63..39? */
bool vt_sv39_canonical(uint64_t va);

/* --- a device with the MMU on --- */
/* Is the device's MMU on (setting mmu)? */
bool vt_device_mmu(const vt_device *dev);
/* Host access to physical memory (page tables, the pages behind any
 * address space). VT_ERR_ARG when the MMU is off, VT_ERR_ACCESS beyond
 * physical memory. Invalidates the device's cached translations. */
int vt_phys_write(vt_device *dev, uint64_t pa, const void *src, size_t n, vt_error *err);
int vt_phys_read(vt_device *dev, uint64_t pa, void *dst, size_t n, vt_error *err);
/* Walk va through the table at root (0: the current address space's). */
int vt_mmu_translate(vt_device *dev, uint64_t root, uint64_t va, vt_mmu_access kind,
                     vt_mmu_walk *out, vt_error *err);

typedef struct vt_aspace vt_aspace;
/* Access rights of a mapping (VT_PTE_R/W/X bits; W implies R). */
enum { VT_PROT_R = VT_PTE_R, VT_PROT_W = VT_PTE_W, VT_PROT_X = VT_PTE_X };

/* A new, empty address space (its root table is a fresh physical page). */
vt_aspace *vt_aspace_new(vt_device *dev, uint16_t asid, vt_error *err);
/* Frees the address space, its tables and every page mapped through it
 * (the pages read as zero when reused). Not the current one. */
void vt_aspace_free(vt_device *dev, vt_aspace *as);
uint64_t vt_aspace_root(const vt_aspace *as);
uint16_t vt_aspace_asid(const vt_aspace *as);
/* Map [va, va + size) (va + size <= 2^38): every 4 KiB page it touches
 * that is not mapped yet gets a fresh zeroed physical page (allocated from
 * the top of physical memory down, so never at the same address), with
 * leaf bits V, prot, U, A, D. A page already mapped keeps its physical page
 * and gains prot. Ranges are counted like vt_mem_map's regions. */
int vt_aspace_map(vt_device *dev, vt_aspace *as, uint64_t va, uint64_t size, unsigned prot,
                  vt_error *err);
/* Remove a range mapped with exactly (va, size); the pages no other range
 * touches are unmapped and freed. VT_ERR_ARG if there is no such range. */
int vt_aspace_unmap(vt_device *dev, vt_aspace *as, uint64_t va, uint64_t size, vt_error *err);
/* The address space vt_mem_* and ELF loading act on, and launches with
 * ptbr 0 run in (NULL: the device's default one, ASID 0). */
void vt_device_set_aspace(vt_device *dev, vt_aspace *as);
vt_aspace *vt_device_aspace(const vt_device *dev);

#ifdef __cplusplus
}
#endif
#endif
