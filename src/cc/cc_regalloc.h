/* Register allocation (cc_regalloc.c). */
#ifndef VT_CC_REGALLOC_H
#define VT_CC_REGALLOC_H

#include "cc_internal.h"
#include "cc_mir.h"

/* target value of a lw/sw whose immediate is an offset into the stack
 * frame (the emitter subtracts the frame size: sp points past the frame) */
#define CC_FRAME_SLOT (-2)

typedef struct cc_ra_opts {
  int max_sregs, max_vregs; /* registers x0..x(max-1) / v0..v(max-1) may be used */
} cc_ra_opts;

typedef struct cc_ra_state {
  unsigned stack_slots;   /* 4-byte scalar spill slots on the warp's stack */
  unsigned private_slots; /* 4-byte vector spill slots in private memory */
} cc_ra_state;

/* Replaces every virtual register by a physical one (0..511). */
int cc_regalloc(cc_ctx *c, cc_mf *f, const cc_ra_opts *o, cc_ra_state *st);

#endif
