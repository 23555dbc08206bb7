/* Virtual memory of a device (vt/mmu.h), the parts the simulator holds:
 * physical memory (the device's sparse page store, src/sim/mem.h) with its
 * frame allocator, address spaces built in it, and the translation state of
 * the running launch. The simulator reaches it through src/sim/mmu_sim.c;
 * nothing here knows warps or instructions. */
#ifndef VT_MMU_INTERNAL_H
#define VT_MMU_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>

#include "sim/mem.h"
#include "vt/mmu.h"

/* Physical frames of 4 KiB. Frame 0 is never handed out (a root at
 * physical 0 means "none"). New frames come from the top of physical
 * memory down; freed ones are reused first. owner[f] is the address space
 * (its id) a frame belongs to, 0 when free, so that an address space frees
 * only its own frames whatever its page tables say. */
typedef struct vt_frames {
  uint64_t nframes;   /* phys_bytes / 4096 */
  uint64_t fresh;     /* frames [fresh, nframes) were handed out at least once */
  uint32_t *free;     /* freed frames */
  size_t nfree, capfree;
  uint16_t *owner;    /* nframes entries */
} vt_frames;

/* a range of virtual addresses */
typedef struct vt_vrange {
  uint64_t base, size;
} vt_vrange;

struct vt_aspace {
  uint16_t id;        /* owner tag of its frames (1..65535) */
  uint16_t asid;
  uint64_t root;      /* physical address of the root table */
  vt_vrange *ranges;   /* the ranges of vt_aspace_map, in order (duplicates counted) */
  size_t nranges, capranges;
  struct vt_aspace *next; /* the device's address spaces */
};

typedef struct vt_mmu {
  vt_pages *phys;     /* the device's physical memory */
  uint64_t phys_bytes;
  vt_frames frames;
  vt_aspace *dflt, *cur, *all;
  uint64_t run_root;  /* the running (or last) launch's root and ASID */
  uint16_t run_asid;
  uint32_t epoch;     /* changes with every mapping or physical-memory change by the host */
  uint32_t *gen;      /* the device's translation-cache generation: bumped with epoch */
  uint8_t ids[8192];  /* address-space ids in use (bit per id) */
} vt_mmu;

/* frames.c */
int vt_frames_init(vt_frames *f, uint64_t phys_bytes);
void vt_frames_destroy(vt_frames *f);
/* A zeroed frame owned by 'owner', or 0 when physical memory is full. */
uint64_t vt_frame_alloc(vt_mmu *m, uint16_t owner);
/* Frees frame fn when 'owner' owns it (its contents are dropped). */
void vt_frame_free(vt_mmu *m, uint64_t fn, uint16_t owner);

/* The 8-byte little-endian PTE at physical address pa (0 if untouched). */
uint64_t vt_mmu_read_pte(vt_mmu *m, uint64_t pa);
/* Walk va under root in m's physical memory. */
void vt_mmu_walk_in(vt_mmu *m, uint64_t root, uint64_t va, vt_mmu_access kind, vt_mmu_walk *out);
/* A mapping changed: later translations must walk again. */
void vt_mmu_changed(vt_mmu *m);

/* aspace.c */
vt_aspace *vt_aspace_create(vt_mmu *m, uint16_t asid, vt_error *err);
void vt_aspace_destroy(vt_mmu *m, vt_aspace *as);
int vt_aspace_add(vt_mmu *m, vt_aspace *as, uint64_t va, uint64_t size, unsigned prot, vt_error *err);
int vt_aspace_remove(vt_mmu *m, vt_aspace *as, uint64_t va, uint64_t size, vt_error *err);
/* Is a range with exactly (va, size) mapped? */
bool vt_aspace_has(const vt_aspace *as, uint64_t va, uint64_t size);
#endif
