/* The functional core as the timing model (src/timing) drives it, one
 * launch at a time: the launch is begun, workgroups are created on an SM
 * and freed, each warp's next instruction is decoded ahead and executed
 * later, and the memory accesses of the last execution are read back. The
 * timing model keeps only handles (vt_wg, vt_warp) and reads them through
 * these functions; it never touches the device's or a warp's fields.
 * vt_device_run (the functional loop) uses the same launch begin and end.
 * Errors carry the location (SM, workgroup, warp, pc, instruction). */
#ifndef VT_SIM_STEP_H
#define VT_SIM_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "insn.h"
#include "vt/mmu.h"
#include "tensor/mma_form.h"
#include "vt/sim.h"

typedef struct vt_wg vt_wg;
typedef struct vt_warp vt_warp;

/* Warp instructions between two calls of the host's poll. */
#define VT_POLL_INTERVAL 65536u

/* ---- a launch ---- */
/* Check a launch against the device (before anything is set up). */
int vt_step_check(vt_device *dev, const vt_launch *l, vt_error *err);
/* Make a checked launch the device's current one; open the statistics
 * rows of nsm SMs under 'name' (timed: the timing counters exist); with
 * record_accesses, every execution keeps its memory accesses for
 * vt_step_accesses. */
int vt_step_begin(vt_device *dev, const vt_launch *l, const char *name, unsigned nsm, bool timed,
                  bool record_accesses, vt_error *err);
/* The counter row of SM s of the current launch (VT_C_* indices). */
uint64_t *vt_step_counters(vt_device *dev, unsigned s);
/* The host's poll (interruption, time limit, progress); VT_OK without one. */
int vt_step_poll(vt_device *dev, uint64_t executed, uint64_t done_wg, uint64_t total_wg,
                 vt_error *err);
/* Close the launch: host_ns of host time, accesses no longer recorded. */
void vt_step_end(vt_device *dev, uint64_t host_ns);

/* ---- workgroups ---- */
/* Whether a workgroup may start now: besides the scheduler's own limits,
 * a launch with shared private areas (vt_launch.pds_wg_slots) needs a free
 * one. */
bool vt_step_wg_can_start(const vt_device *dev);
/* Workgroup 'id' of the current launch on SM sm, with its private area
 * (NULL: out of memory). */
vt_wg *vt_step_wg_new(vt_device *dev, unsigned id, unsigned sm);
void vt_step_wg_free(vt_device *dev, vt_wg *wg);
unsigned vt_step_wg_id(const vt_wg *wg);
vt_warp *vt_step_wg_warp(vt_wg *wg, unsigned i);
/* After a run stopped by rc: describe the workgroup's live warps in the
 * device's warp dump (vt_device_warp_dump), when rc calls for it. */
void vt_step_wg_dump(vt_device *dev, const vt_wg *wg, unsigned sm, int rc);

/* ---- warps ---- */
uint32_t vt_step_pc(const vt_warp *w);
bool vt_step_ended(const vt_warp *w);
/* The SIMT mask, and the lanes that execute a per-lane instruction now
 * (the mask's lanes that exist). */
uint32_t vt_step_mask(const vt_warp *w);
uint32_t vt_step_active(const vt_warp *w);
uint32_t vt_step_xreg(const vt_warp *w, unsigned r);
/* The element width vtype selects (8..64 bits), 0 while vtype is illegal. */
unsigned vt_step_sew(const vt_warp *w);
uint32_t vt_step_vreg(const vt_warp *w, unsigned r, unsigned lane);

/* Decode the warp's next instruction (fetch, decode, register extension;
 * no state change). On an error, vt_step_locate adds the location. */
int vt_step_decode(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err);
/* Execute a decoded instruction as the functional loop does: count it,
 * trace it, account for endprg and barriers (errors carry the location). */
int vt_step_execute(vt_device *dev, vt_warp *w, unsigned sm, const vt_insn *in, vt_error *err);
/* Add the location (SM, workgroup, warp, pc, instruction) to an error at
 * the warp's pc: a decode error, or one of the timing model (budget). */
void vt_step_locate(vt_device *dev, const vt_warp *w, unsigned sm, vt_error *err);
/* The memory accesses of the last executed instruction (begin with
 * record_accesses). */
unsigned vt_step_accesses(const vt_device *dev, const vt_trace_mem **out);

/* ---- virtual memory (setting mmu; vt/mmu.h) ---- */
/* Whether the current launch translates its addresses; its ASID, and a
 * number that changes whenever the host changes a mapping (TLB contents
 * tagged with an ASID stay valid while it does not). */
bool vt_step_mmu(const vt_device *dev, uint16_t *asid, uint32_t *epoch);
/* The Sv39 walk of va under the current launch's page table: the physical
 * addresses of the PTEs read, the leaf's level, the physical address. */
void vt_step_walk(const vt_device *dev, uint64_t va, vt_mmu_access kind, vt_mmu_walk *out);
/* ---- the v2025 tensor instructions (isa2025.md 3.6, 3.7, 3.9) ---- */
/* The MMA/MMA64 form of a decoded instruction and its registers after
 * register extension (MMA: vd names C and D): 0, or -1 when it is none. */
int vt_step_mma(const vt_insn *in, vt_mma_op *op, vt_mma_geom *g);

/* The copy the last executed DMA instruction made (the timing model
 * charges it): bytes written to local memory and the global
 * byte ranges read, merged where they touch (out-of-bounds tensor elements
 * read nothing). Ranges beyond VT_DMA_RUNS are counted in 'extra' bytes. */
#define VT_DMA_RUNS 64
typedef struct vt_dma_rec {
  bool valid;  /* set by a copy; the timing model clears it */
  bool tensor; /* cp_dma_tensor (its setup costs more) */
  uint64_t bytes;
  uint32_t nruns;
  uint32_t run_addr[VT_DMA_RUNS], run_len[VT_DMA_RUNS];
  uint64_t extra;
} vt_dma_rec;

/* The copy the last executed instruction made, consumed: false when it
 * made none. */
bool vt_step_copy(vt_device *dev, vt_dma_rec *out);

#endif
