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
/* Workgroup 'id' of the current launch on SM sm (NULL: out of memory). */
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
uint32_t vt_step_vreg(const vt_warp *w, unsigned r, unsigned lane);

/* Decode the warp's next instruction (fetch, decode, register extension;
 * no state change). On an error, vt_step_locate adds the location. */
int vt_step_decode(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err);
/* Execute a decoded instruction as the functional loop does: count it,
 * trace it, account for endprg and barriers (errors carry the location). */
int vt_step_execute(vt_device *dev, vt_warp *w, unsigned sm, vt_insn *in, vt_error *err);
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

#endif
