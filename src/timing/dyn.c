/* Timing of an instruction that depends on the warp's vtype or on a prefix
 * (isa2025.md 6.3-6.6): which operands are register pairs (SEW 64, the wide
 * operands of widening at SEW 32, the pair prefix, PREFIX_MEMORY register
 * groups and pair addresses), the latency and initiation interval of
 * 64-bit elements (valu_pair_passes), binary64 (lat_fp64_*, fp64_ii) and
 * VOP64 (vop64_modifier_cycles), the pair writeback, the LSU's extra
 * address-generation cycles, and what the SFU computes. Everything else
 * comes from the static tm_iinfo (decode.c). */
#include "timing_internal.h"

static uint8_t lat8(unsigned v) { return (uint8_t)(v > 255 ? 255 : v); }

static void set_n(const tm_iinfo *info, tm_dyn *dy, uint8_t kind, uint8_t field, uint8_t n) {
  for (unsigned j = 0; j < info->nsrc && j < 5; j++)
    if (info->src[j].kind == kind && info->src[j].field == field) dy->src_n[j] = n;
}

/* vector operands 64 bits wide: pairs (3.2.2, 3.2.3); true when the
 * instruction computes on 64-bit elements */
static bool vector_pairs(const tm_iinfo *info, const vt_insn *in, const vt_warp *w, tm_dyn *dy) {
  const vt_insn_desc *d = in->d;
  const unsigned sew = vt_step_sew(w);
  if (!(d->flags & VT_F_VEC) || d->mem != VT_MEM_NONE || !sew) return false;
  if (sew == 64 && (d->ew == VT_EW_SEW || d->ew == VT_EW_VF2 || d->ew == VT_EW_LANESEL)) {
    if (d->ew != VT_EW_VF2) set_n(info, dy, TM_R_V, TM_F_RS2, 2);
    set_n(info, dy, TM_R_V, TM_F_RS1, 2);
    set_n(info, dy, TM_R_V, TM_F_RD, 2);
    if (d->flags & VT_F_FSCALAR) set_n(info, dy, TM_R_X, TM_F_RS1, 2);
    if ((d->flags & VT_F_FP) && (d->flags & VT_F_BX) && d->ew == VT_EW_LANESEL)
      set_n(info, dy, TM_R_X, TM_F_RS1, 2); /* VOP64 .vf: XP(rs1) */
    /* vd pairs, and vfmv.f.s's XP(rd); vmv.x.s writes one x register */
    if (info->dst_kind == TM_R_V || d->sem == VT_SEM_FMVFS) dy->dst_n = 2;
    return true;
  }
  if (sew == 32 && (d->ew == VT_EW_WIDE || d->ew == VT_EW_WIDE_W)) {
    dy->dst_n = 2;
    set_n(info, dy, TM_R_V, TM_F_RD, 2);
    if (d->ew == VT_EW_WIDE_W) {
      set_n(info, dy, TM_R_V, TM_F_RS2, 2);
      set_n(info, dy, TM_R_V, TM_F_RS1, 2); /* .wv reads two pairs */
    }
    return true;
  }
  return false;
}

/* latency and initiation interval of 64-bit elements and binary64 */
static void wide_costs(const vt_timing *t, const tm_iinfo *info, const vt_insn *in, tm_dyn *dy) {
  const vt_settings *c = &t->cfg;
  const unsigned passes = c->valu_pair_passes;
  switch (info->unit) {
  case TM_U_VALU: dy->lat = lat8(c->lat_valu + passes - 1), dy->ii = (uint8_t)passes; break;
  case TM_U_MUL: dy->lat = lat8(c->lat_mul + passes - 1), dy->ii = (uint8_t)passes; break;
  case TM_U_FPU:
    switch ((vt_lat)in->d->lat) {
    case VT_LAT_FADD: dy->lat = (uint8_t)c->lat_fp64_add; break;
    case VT_LAT_FMUL: dy->lat = (uint8_t)c->lat_fp64_mul; break;
    case VT_LAT_FMA: dy->lat = (uint8_t)c->lat_fp64_fma; break;
    default: break; /* compares, moves, conversions: the binary32 latency */
    }
    dy->ii = (uint8_t)c->fp64_ii;
    break;
  case TM_U_SFU:
    dy->fp64 = (in->d->flags & VT_F_FP) != 0;
    dy->wide = !dy->fp64;
    break;
  default: break;
  }
}

/* PREFIX_MEMORY: register groups, pair bases, the space's address checks */
static void memory_costs(const vt_timing *t, const tm_iinfo *info, const vt_insn *in, tm_dyn *dy) {
  const vt_settings *c = &t->cfg;
  const vt_insn_desc *d = in->d;
  bool pm = in->pfx == VT_PFX_MEM;
  bool addr64 = d->amode == VT_AM_BASE64 || d->amode == VT_AM_FLAT64 || (pm && in->mpair);
  unsigned space = pm && in->mspace ? in->mspace : d->amode == VT_AM_GLOBAL ? VT_MSPACE_GLOBAL
                 : d->amode == VT_AM_LOCAL ? VT_MSPACE_LOCAL : VT_MSPACE_DEFAULT;
  if (addr64) {
    dy->agen = lat8(dy->agen + c->lsu_addr64_cycles);
    for (unsigned j = 0; j < info->nsrc && j < 5; j++)
      if (info->src[j].field == TM_F_RS1) dy->src_n[j] = 2;
  }
  if (space == VT_MSPACE_GLOBAL || space == VT_MSPACE_LOCAL)
    dy->agen = lat8(dy->agen + c->lsu_range_check_cycles);
  if (pm && in->mwidth) {
    uint8_t n = (uint8_t)(in->mwidth + 1);
    if (d->mem == VT_MEM_STORE) {
      for (unsigned j = 0; j < info->nsrc && j < 5; j++)
        if (info->src[j].field == TM_F_RS2) dy->src_n[j] = n;
    } else {
      dy->dst_n = n;
    }
  }
  if (pm && c->lsu_honor_hints) dy->hint = in->mhint;
}

/* nothing here depends on vtype or a prefix: every v2.02 instruction at
 * SEW 8..32 without a v2025 prefix */
static bool plain(const tm_iinfo *info, const vt_insn *in, const vt_warp *w) {
  const vt_insn_desc *d = in->d;
  if (in->pair || in->pfx != VT_PFX_NONE || d->ew == VT_EW_LANESEL ||
      (d->flags & (VT_F_PRD | VT_F_PRS1 | VT_F_PRS2 | VT_F_PRS3)))
    return false;
  if (info->flags & TM_I_MEM)
    return d->amode != VT_AM_GLOBAL && d->amode != VT_AM_LOCAL && d->amode != VT_AM_FLAT64;
  const unsigned sew = vt_step_sew(w);
  if (!(d->flags & VT_F_VEC) || !sew) return true;
  return sew < 32 || (sew == 32 && d->ew != VT_EW_WIDE && d->ew != VT_EW_WIDE_W);
}

void tm_dynamic(const vt_timing *t, const tm_iinfo *info, const vt_insn *in, const vt_warp *w,
                tm_dyn *dy) {
  const vt_settings *c = &t->cfg;
  const vt_insn_desc *d = in->d;
  for (unsigned j = 0; j < 5; j++) dy->src_n[j] = 1;
  dy->dst_n = 1;
  dy->lat = info->lat;
  dy->ii = 1;
  dy->agen = dy->hint = 0;
  dy->fp64 = dy->wide = dy->pair = dy->multi = false;
  if (plain(info, in, w)) return;
  for (unsigned j = 0; j < info->nsrc && j < 5; j++) dy->src_n[j] = info->src[j].n;
  dy->dst_n = info->dst_n;
  dy->pair = (d->flags & (VT_F_PRD | VT_F_PRS1 | VT_F_PRS2 | VT_F_PRS3)) != 0 &&
             !(d->flags & VT_F_VEC);
  if (in->pair) { /* 3.1.5, 6.3: every register a pair */
    for (unsigned j = 0; j < info->nsrc && j < 5; j++) dy->src_n[j] = 2;
    if (info->dst_kind == TM_R_X) dy->dst_n = 2;
    if (info->unit == TM_U_ALU) dy->lat = (uint8_t)c->lat_alu_pair;
    if (info->unit == TM_U_MUL) dy->lat = (uint8_t)c->lat_mul_pair;
    dy->wide = info->unit == TM_U_SFU;
    dy->pair = true;
  }
  if (vector_pairs(info, in, w, dy)) wide_costs(t, info, in, dy);
  if (d->ew == VT_EW_LANESEL) dy->lat = lat8(dy->lat + c->vop64_modifier_cycles);
  if (info->flags & TM_I_MEM) memory_costs(t, info, in, dy);
  if (dy->dst_n == 2 && info->dst_kind != TM_R_NONE)
    dy->lat = lat8(dy->lat + c->pair_writeback_extra);
  dy->multi = dy->dst_n > 1;
  for (unsigned j = 0; j < info->nsrc && j < 5; j++) dy->multi |= dy->src_n[j] > 1;
}
