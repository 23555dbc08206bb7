/* The driver's contexts with the MMU on (setting mmu; docs/memory.md,
 * docs/driver.md): one address space per context of vt_root_mem_alloc
 * (context 0 is the device's default one), buffer addresses unique on the
 * device and handed out next-fit, so that a freed range comes back only
 * after the rest of the buffer window was used, and the page table and ASID
 * of each launch. The caller holds the device's 'mem' lock. Functions
 * returning int give 0, or -1 with a message in msg. */
#ifndef VT_DRIVER_MMU_H
#define VT_DRIVER_MMU_H
#include <stddef.h>
#include <stdint.h>

#include "vt/mmu.h"
#include "vt/sim.h"

typedef struct vtd_mmu vtd_mmu;

vtd_mmu *vtd_mmu_new(void);
void vtd_mmu_free(vtd_mmu *m, vt_device *sim);

/* vt_root_mem_alloc / vt_root_mem_free (context 0 always exists) */
int vtd_mmu_context_new(vtd_mmu *m, vt_device *sim, int64_t task, char *msg, size_t n);
int vtd_mmu_context_free(vtd_mmu *m, vt_device *sim, int64_t task, char *msg, size_t n);
/* Make the context's address space the device's current one. */
int vtd_mmu_select(vtd_mmu *m, vt_device *sim, int64_t task, char *msg, size_t n);
/* A range of 'size' bytes (page multiple) for a buffer of the context,
 * which becomes current. */
int vtd_mmu_buffer(vtd_mmu *m, vt_device *sim, int64_t task, uint64_t size, uint32_t *va,
                   char *msg, size_t n);
/* The range [va, +size) (page multiples) for a buffer of the context at
 * a fixed address; fails if it overlaps another buffer. */
int vtd_mmu_buffer_at(vtd_mmu *m, vt_device *sim, int64_t task, uint32_t va, uint64_t size,
                      char *msg, size_t n);
/* The buffer at va is gone (its context stays current for the unmap). */
void vtd_mmu_buffer_free(vtd_mmu *m, vt_device *sim, uint32_t va);
/* The context of the buffer holding va, or -1. */
int64_t vtd_mmu_owner(const vtd_mmu *m, uint64_t va);
/* Map the program window part a raw image of 'size' bytes needs. */
int vtd_mmu_image(vtd_mmu *m, vt_device *sim, int64_t task, uint64_t size, char *msg, size_t n);
/* The launch's page table and ASID (the context becomes current). */
int vtd_mmu_launch(vtd_mmu *m, vt_device *sim, int64_t task, vt_launch *l, char *msg, size_t n);
#endif
