/* Liveness of the machine IR's registers (cc_live.c), with the SIMT rule
 * for scalar registers: while some lanes of a warp wait at a divergent
 * branch for the other path to finish, the scalar registers they will need
 * must survive the other path, which runs on the same (per-warp) scalar
 * registers. So every scalar register live into either successor of a
 * vector branch is treated as live throughout the divergent region (the
 * blocks between the branch and its re-convergence point). Vector
 * registers need no such rule: an instruction writes only the active
 * lanes, so the waiting lanes' values stay put. */
#ifndef VT_CC_LIVE_H
#define VT_CC_LIVE_H

#include <stdint.h>

#include "cc_mir.h"

typedef struct cc_live {
  int nvr, words;     /* bitset size */
  int nb;
  uint64_t *in, *out; /* per block: words each */
} cc_live;

/* 0, or -1 when out of memory. */
int cc_liveness(const cc_mf *f, cc_live *L);
void cc_live_free(cc_live *L);

/* Registers the allocator never assigns and liveness ignores: x0..x5
 * (zero, ra, sp, gp, tp, t0 = the compiler's scratch), x8 (s0, the base of
 * static __local data) and v0 (all zeros, set in the prologue). */
bool cc_reg_fixed(int r);
/* Registers an instruction reads / writes (fixed ones left out); a call
 * writes every caller-saved register. Return the counts (<= 24). */
int cc_mi_uses(const cc_mi *mi, int *out);
int cc_mi_defs(const cc_mi *mi, int *out);

static inline bool cc_bit(const uint64_t *set, int r) { return (set[r >> 6] >> (r & 63)) & 1; }
static inline void cc_set(uint64_t *set, int r) { set[r >> 6] |= 1ull << (r & 63); }
static inline void cc_clear(uint64_t *set, int r) { set[r >> 6] &= ~(1ull << (r & 63)); }

#endif
