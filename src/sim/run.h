/* The functional run loop (vt_device_run): SMs, their schedules, epochs.
 *
 * A launch runs in epochs. At an epoch's start workgroups are created in
 * linear order for the SMs (free warp slots first, SMs in order, as the
 * single-threaded loop always did; then each SM gets, in turn, up to as
 * many waiting workgroups as it can hold, which it starts when slots free
 * up during the epoch). In an epoch each SM runs a slice: rounds over its
 * running warps in a fixed order (workgroups in dispatch order, warps by
 * index), one instruction per warp per round (isa.md 1.3), at most
 * VT_EPOCH_SLICE instructions.
 *
 * With one SM active the epoch runs on the launch's device exactly as the
 * single-threaded loop did. With several, each SM sees global memory as it
 * was when the epoch began plus its own writes (overlay.h); its atomics
 * on global memory, LR/SC, stores and copies while any reservation exists
 * and endprg of a warp holding one are deferred: the warp waits, and at
 * the epoch's end, after the overlays are merged in SM order, these
 * instructions run one by one in SM order. The result is the
 * same whichever host threads run the SMs and in whatever order:
 * --host-threads changes the speed only. Every SM runs its slice whatever
 * happens on another; an error stops the SM it happens on, the launch
 * reports the error of the lowest such SM and the memory writes of the
 * higher SMs in that epoch are dropped. Instruction budgets are exact: an
 * epoch whose slices could pass the budget gives its SMs exact limits one
 * after the other. The trace callback sees the SMs' slices in SM order
 * (one host thread when tracing). Under debugger hooks the SMs' slices run
 * one after the other on the launch's device. With the MMU on the overlays
 * hold physical frames (mmu_sim.c). */
#ifndef VT_SIM_RUN_H
#define VT_SIM_RUN_H
#include "overlay.h"
#include "sim_internal.h"

/* warp instructions per SM per epoch: with one SM active, and with several */
#define VT_DIRECT_SLICE VT_POLL_INTERVAL
#define VT_EPOCH_SLICE 16384u

/* one SM during a launch */
typedef struct vt_sm {
  unsigned id;
  vt_wg **wgs;  /* resident workgroups in dispatch order */
  vt_wg **pend; /* created for this SM, waiting for free slots */
  vt_wg **done; /* finished during an epoch with several SMs: freed at its end */
  unsigned nwgs, npend, ndone, wgs_cap, pend_cap, done_cap;
  unsigned used_slots;
  uint64_t used_lds;
  vt_warp **run; /* the running warps in schedule order */
  unsigned nrun, pos, run_cap;
  vt_warp **parked; /* warps whose instruction waits for the epoch's end */
  unsigned nparked, parked_cap;
  uint64_t executed; /* instructions of this slice */
  uint64_t cap;      /* limit of this slice */
  bool budget_cap;   /* cap is what the instruction budget leaves */
  const vt_warp *last; /* the warp handled last in the current round */
  uint64_t finished; /* workgroups finished in this slice */
  int rc;            /* how its slice stopped */
  vt_error err;
  vt_ovl ovl;
  char *warn;        /* warnings of this epoch, '\n'-separated */
  size_t warn_len;
} vt_sm;

typedef struct vt_run {
  vt_device *dev;
  const vt_launch *l;
  vt_error *err;
  vt_sm *sms;
  unsigned nsm, slots, threads;
  uint64_t lds_capacity, total_wg, next_wg, done_wg;
  uint64_t budget, executed, next_poll;
  bool overlay;     /* the current epoch runs several SMs */
  bool short_epoch; /* the last one ran few instructions per SM (run.c) */
} vt_run;

/* What one SM's slice executes with: the device the executors see (the
 * launch's, or a host thread's copy of it in an epoch with several SMs). */
typedef struct vt_xctx {
  vt_device *dev;
  vt_run *r;
  vt_sm *sm;
} vt_xctx;

/* ---- SM schedules (run_sm.c) ---- */
/* Run SM x->sm for at most sm->cap instructions; sm->rc says why it
 * stopped (VT_OK: the cap, or nothing left to run until the epoch's end). */
void vt_sm_slice(vt_xctx *x);
/* Execute the parked instruction of warp w of SM sm alone on the launch's
 * device (the end of an epoch); VT_OK or an error (located). */
int vt_sm_run_parked(vt_run *r, vt_sm *sm, vt_warp *w);
/* Drop the translations of global pages of every warp of the SM
 * (resident, waiting and finished). */
void vt_sm_flush(vt_sm *sm);
/* The overlay's drop callback (ctx: the vt_sm): its warps forget page vpn. */
void vt_sm_drop_page(void *ctx, uint32_t vpn);
/* The same with the MMU on (the overlay keyed by physical frame). */
void vt_sm_drop_frame(void *ctx, uint32_t frame);
/* Append a warning of this SM's epoch (a vt_warn_fn). */
void vt_sm_warn(void *sm, const char *message);

/* ---- host threads (workers.c) ---- */
/* Run the slices of the n SMs in list on up to r->threads host threads;
 * each runs on a copy of the device with the SM's overlay. VT_OK, or
 * VT_ERR_NOMEM when no thread or copy could be made. */
int vt_workers_run(vt_run *r, vt_sm **list, unsigned n);
/* Stop the device's host threads and free their state. */
void vt_workers_free(vt_device *dev);
/* The host threads a launch uses: --host-threads, 0 meaning the available
 * cores; 1 with a trace callback. */
unsigned vt_run_host_threads(const vt_device *dev);
#endif
