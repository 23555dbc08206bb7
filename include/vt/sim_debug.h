/* vt/sim_debug.h - what a debugger needs from the functional simulator:
 * hooks that stop a running launch at instruction granularity, the warps
 * resident on the device, and reading and writing their state (registers,
 * CSRs, pc, SIMT stack) and every memory space (global, a workgroup's local
 * memory, a lane's private memory).
 *
 *   vt_sim_hooks h = {before, after, failed, ctx};
 *   vt_device_set_hooks(dev, &h);     // then vt_device_run(...) as usual
 *
 * The hooks run inside vt_device_run, on its thread; a debugger talks to its
 * user from inside them. A vt_warp handle is valid only until the hook (or
 * trace callback) that produced it returns: workgroups are freed when they
 * end. Identify warps across stops by (workgroup, warp). The timing model
 * does not call the hooks. No global state. */
#ifndef VT_SIM_DEBUG_H
#define VT_SIM_DEBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vt_warp vt_warp;

typedef struct vt_sim_hooks {
  /* Before warp w executes the instruction at its pc (before the fetch, so a
   * changed pc takes effect). VT_OK runs it; an error code (with err filled)
   * stops the launch with that error. NULL: not called. */
  int (*before)(void *ctx, vt_warp *w, vt_error *err);
  /* After w completed an instruction; ev describes it as for the trace
   * callback (register writes and memory accesses are recorded while this
   * hook is set). Return as for 'before'. */
  int (*after)(void *ctx, vt_warp *w, const vt_trace_event *ev, vt_error *err);
  /* The launch is about to end with err (a fault, a deadlock, the budget,
   * or an error a hook returned); its warps are still resident. */
  void (*failed)(void *ctx, const vt_error *err);
  void *ctx;
} vt_sim_hooks;

/* Install hooks (copied); NULL removes them. */
void vt_device_set_hooks(vt_device *dev, const vt_sim_hooks *hooks);

/* Called for each warp of a workgroup as the workgroup leaves the device
 * (its warps ended, or a launch stopped early with it resident), on
 * vt_device_run's thread, in the same order for every number of host
 * threads; w is readable (vt_warp_get_*) only during the call. Unlike the
 * hooks above it changes nothing about how the launch runs (fast paths,
 * host threads): the differential test reads the final registers with it.
 * NULL removes it. */
typedef void (*vt_warp_end_fn)(void *ctx, const vt_warp *w);
void vt_device_set_warp_end(vt_device *dev, vt_warp_end_fn fn, void *ctx);

/* --- the running launch --- */
/* The launch running now, or NULL between launches. */
const vt_launch *vt_device_launch(const vt_device *dev);
/* Progress of the running launch; false between launches. */
bool vt_device_progress(const vt_device *dev, vt_run_progress *p);
/* The resident warps (SMs in order, then workgroups by dispatch, then
 * warps): up to max handles into out; returns how many there are. */
size_t vt_device_warps(vt_device *dev, vt_warp **out, size_t max);
/* The resident warp 'warp' of workgroup 'wg', or NULL. */
vt_warp *vt_device_find_warp(vt_device *dev, unsigned wg, unsigned warp);

/* --- one warp --- */
typedef enum vt_warp_state { VT_WARP_RUNNING, VT_WARP_AT_BARRIER, VT_WARP_ENDED } vt_warp_state;

typedef struct vt_warp_info {
  unsigned sm, wg, warp; /* SM, linear workgroup index, warp in the workgroup */
  unsigned warps_per_wg, lanes; /* of the launch */
  uint32_t pc, mask;     /* next instruction, SIMT mask */
  vt_warp_state state;
  unsigned simt_depth;
  uint64_t instret;      /* instructions the warp executed */
  uint32_t gid[3];       /* the workgroup's position in the grid */
} vt_warp_info;
void vt_warp_get_info(const vt_warp *w, vt_warp_info *out);

/* Scalar registers x0..x255 (x0 reads 0, writes to it are ignored); vector
 * registers v0..v255 per lane (lane < 32). Out-of-range numbers read 0 and
 * are not written. */
uint32_t vt_warp_get_x(const vt_warp *w, unsigned reg);
void vt_warp_set_x(vt_warp *w, unsigned reg, uint32_t value);
uint32_t vt_warp_get_v(const vt_warp *w, unsigned reg, unsigned lane);
void vt_warp_set_v(vt_warp *w, unsigned reg, unsigned lane, uint32_t value);
void vt_warp_set_pc(vt_warp *w, uint32_t pc);
/* CSRs by number as the instructions see them (0, or -1: no such CSR or a
 * read-only one for the write). */
int vt_warp_get_csr(const vt_warp *w, unsigned csr, uint32_t *value);
int vt_warp_set_csr(vt_warp *w, unsigned csr, uint32_t value);

/* SIMT stack entry i (0 = top); false when i >= depth. */
typedef struct vt_simt_info {
  uint32_t r_pc, else_pc, else_mask;
} vt_simt_info;
bool vt_warp_simt_entry(const vt_warp *w, unsigned i, vt_simt_info *out);

/* --- memory --- */
typedef enum vt_mem_space {
  VT_SPACE_GLOBAL,  /* addresses as warp w sees them: [0x70000000, 0x80000000) is
                       its workgroup's local memory (w NULL: global memory only) */
  VT_SPACE_LOCAL,   /* w's workgroup's local memory; addr below 0x10000000 is an
                       offset from 0x70000000 */
  VT_SPACE_PRIVATE  /* lane's private memory at the address the private loads and
                       stores use (spec README decision 9) */
} vt_mem_space;
/* Debugger access: no memory checking, no reservations broken, nothing
 * counted. Unmapped bytes are an error (VT_ERR_ACCESS) naming the address. */
int vt_debug_mem_read(vt_device *dev, const vt_warp *w, vt_mem_space space, unsigned lane,
                      uint32_t addr, void *buf, size_t n, vt_error *err);
int vt_debug_mem_write(vt_device *dev, vt_warp *w, vt_mem_space space, unsigned lane,
                       uint32_t addr, const void *buf, size_t n, vt_error *err);

#ifdef __cplusplus
}
#endif
#endif
