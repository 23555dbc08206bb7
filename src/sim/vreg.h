/* Vector register elements by element width (EEW), shared by every vector
 * executor so that one body serves every width.
 *
 * EEW 8, 16, 32: the standard packed RVV layout over a register group of
 * VLEN = 32*numt bits: element i is at byte i*EEW/8 of the group, register
 * r+k holds the group's bytes [k*4*numt, (k+1)*4*numt), and a register's
 * bytes are the little-endian bytes of its 32-bit lanes. Element i < numt of
 * EEW 32 is therefore lane i. EEW 64: register pairs (isa2025.md 3.1.6):
 * element i is lane i of registers r (low half) and r+1 (high half).
 * Only elements below numt are ever processed (the SIMT mask has numt bits,
 * isa.md 1.4), so an index is always a lane number 0..31. */
#ifndef VT_SIM_VREG_H
#define VT_SIM_VREG_H
#include "exec_util.h"

#define VT_VGROUP_MAX 8 /* registers of a destination group that are tracked */

typedef struct vctx {
  vt_warp *w;
  unsigned rbytes;                   /* bytes per register: 4*numt */
  unsigned rd;                       /* first register of the destination group */
  uint32_t touched[VT_VGROUP_MAX];   /* written lanes per register of the group */
} vctx;

static inline vctx vctx_make(vt_warp *w, unsigned rd) {
  vctx c;
  c.w = w;
  c.rbytes = 4u * (unsigned)vt_popcount32(w->lane_limit);
  c.rd = rd;
  for (unsigned k = 0; k < VT_VGROUP_MAX; k++) c.touched[k] = 0;
  return c;
}

static inline uint64_t ones64(unsigned bits) {
  return bits >= 64 ? ~0ull : (1ull << bits) - 1u;
}

/* element i (eew bits, zero-extended) of the group starting at reg */
static inline uint64_t vget(const vctx *c, unsigned reg, unsigned i, unsigned eew) {
  if (eew == 64) {
    if (reg + 1 >= VT_NUM_VREGS) return 0;
    return (uint64_t)c->w->v[reg][i] | (uint64_t)c->w->v[reg + 1][i] << 32;
  }
  unsigned o = i * (eew / 8), r = reg + o / c->rbytes;
  if (r >= VT_NUM_VREGS) return 0;
  return load_le((const uint8_t *)c->w->v[r] + o % c->rbytes, eew / 8);
}

/* element i of the destination group; elements never straddle registers
 * (4*numt is a multiple of the element size) */
static inline void vput(vctx *c, unsigned i, unsigned eew, uint64_t v) {
  if (eew == 64) {
    if (c->rd + 1 >= VT_NUM_VREGS) return;
    c->w->v[c->rd][i] = (uint32_t)v;
    c->w->v[c->rd + 1][i] = (uint32_t)(v >> 32);
    c->touched[0] |= 1u << i;
    c->touched[1] |= 1u << i;
    return;
  }
  unsigned o = i * (eew / 8), k = o / c->rbytes, r = c->rd + k;
  if (r >= VT_NUM_VREGS || k >= VT_VGROUP_MAX) return;
  o %= c->rbytes;
  store_le((uint8_t *)c->w->v[r] + o, (uint32_t)v, eew / 8);
  c->touched[k] |= 1u << (o / 4);
}

/* trace records for the registers of the group that were written (the
 * first register always, so that an instruction without active elements
 * still names its destination) */
static inline void vtrace_group(vt_device *dev, const vctx *c) {
  for (unsigned k = 0; k < VT_VGROUP_MAX && c->rd + k < VT_NUM_VREGS; k++)
    if (k == 0 || c->touched[k]) trace_v(dev, c->w, c->rd + k, c->touched[k]);
}

/* the low 'bits' of v, sign-extended (signed) or zero-extended to 64 bits */
static inline uint64_t vext(uint64_t v, unsigned bits, bool is_signed) {
  v &= ones64(bits);
  if (is_signed && bits < 64 && ((v >> (bits - 1)) & 1)) v |= ~ones64(bits);
  return v;
}

static inline unsigned vt_vsew(const vt_warp *w) { return 8u << ((w->vtype >> 3) & 7); }

/* lanes in [vstart, vl) below numt */
static inline uint32_t vt_vrange(const vt_warp *w) {
  uint32_t hi = w->vl >= 32 ? 0xffffffffu : ((1u << w->vl) - 1u);
  uint32_t lo = w->vstart >= 32 ? 0xffffffffu : ((1u << w->vstart) - 1u);
  return hi & ~lo & w->lane_limit;
}
#endif
