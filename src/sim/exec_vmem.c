/* Vector loads and stores, by addressing mode (the row's MEM column):
 * RVV unit-stride (and fault-only-first), strided, indexed, whole-register
 * and mask accesses (isa.md 3.3), and the Ventus per-lane families: flat
 * vl*12/vs*12 (isa.md 2.8.1: addr = vs1[i] + sext12(imm)) and private
 * vl*.v/vs*.v (spec README decision 9: a = vs1[i] + imm, addr = PDS +
 * (a & ~3) * numw * numt + 4 * (tid + lane) + (a & 3), with a & 3 dropped for
 * word accesses). Per-lane families run on the lanes in [0, vl) under the
 * SIMT mask, without v0 masking. The v2025 families (global, local, private,
 * 64-bit addresses) and every access under PREFIX_MEMORY: mem_space.c. */
#include "exec_vector.h"
#include "fastmem.h"
#include "mem_space.h"

#define L VT_MAX_LANES

/* whole registers: 4*numt bytes each, as 32-bit words */
static int whole(vt_device *dev, vt_warp *w, const vt_insn *in, bool store, vt_error *err) {
  unsigned nregs = 1u << (in->d->ew - VT_EW_WHOLE1), reg = store ? in->vs3 : in->rd;
  unsigned bytes = 4 * (unsigned)vt_popcount32(w->lane_limit);
  uint32_t base = w->x[in->rs1];
  for (unsigned r = 0; r < nregs && reg + r < VT_NUM_VREGS; r++) {
    uint8_t *vb = (uint8_t *)w->v[reg + r];
    for (unsigned k = 0; k < bytes; k += 4) {
      uint32_t addr = base + r * bytes + k;
      uint8_t *p = vt_access(dev, w, addr, 4, store, err);
      if (!p) return err->status;
      memcpy(store ? p : vb + k, store ? vb + k : p, 4);
      trace_mem(dev, addr, load_le(p, 4), 4, store, k / 4);
    }
    if (!store) trace_v(dev, w, reg + r, w->lane_limit);
  }
  return VT_OK;
}

/* vlm.v / vsm.v: ceil(vl/8) bytes of mask */
static int mask_bytes(vt_device *dev, vt_warp *w, const vt_insn *in, bool store, vt_error *err) {
  unsigned reg = store ? in->vs3 : in->rd, n = (w->vl + 7) / 8;
  uint8_t *vb = (uint8_t *)w->v[reg];
  uint32_t base = w->x[in->rs1];
  for (unsigned k = 0; k < n; k++) {
    uint8_t *p = vt_access(dev, w, base + k, 1, store, err);
    if (!p) return err->status;
    if (store) *p = vb[k]; else vb[k] = *p;
    trace_mem(dev, base + k, *p, 1, store, k);
  }
  if (!store) trace_v(dev, w, reg, w->lane_limit);
  return VT_OK;
}

/* unit-stride, strided and indexed element accesses */
static int elements(vt_device *dev, vt_warp *w, const vt_insn *in, bool store, vt_error *err) {
  const vt_insn_desc *d = in->d;
  uint32_t m = w->mask & vt_vrange(w) & (in->vm ? 0xffffffffu : w->v[0][0]);
  unsigned eew = 8u * d->msize, sew = vt_vsew(w);
  bool indexed = d->amode == VT_AM_VINDEX;
  unsigned data_bits = indexed ? sew : eew, size = data_bits / 8;
  if (data_bits > VT_ELEN_V202)
    return vt_villegal(err, in, sew, "64-bit elements in standard vector loads and stores");
  if ((d->amode == VT_AM_VUNIT || d->amode == VT_AM_VUNITFF) &&
      vt_vmem_unit_fast(dev, w, in, m, size, store))
    return VT_OK;
  vctx c = vctx_make(w, store ? in->vs3 : in->rd);
  uint32_t base = w->x[in->rs1];
  for (unsigned i = 0; i < L; i++) {
    if (!((m >> i) & 1)) continue;
    uint32_t addr = d->amode == VT_AM_VSTRIDE ? base + i * w->x[in->rs2]
                  : indexed ? base + (uint32_t)vget(&c, in->rs2, i, eew) : base + i * (eew / 8);
    dev->cur_lane = (int)i;
    uint8_t *p = vt_access(dev, w, addr, size, store, err);
    if (!p) {
      if (d->amode == VT_AM_VUNITFF && i > 0) { /* fault-only-first trims vl */
        w->vl = i;
        break;
      }
      return err->status;
    }
    if (store) {
      uint32_t v = (uint32_t)vget(&c, in->vs3, i, data_bits);
      store_le(p, v, size);
      trace_mem(dev, addr, v, size, true, i);
    } else {
      uint32_t v = load_le(p, size);
      vput(&c, i, data_bits, v);
      trace_mem(dev, addr, v, size, false, i);
    }
  }
  dev->cur_lane = -1;
  if (!store) trace_v(dev, w, in->rd, m);
  return VT_OK;
}

static int lane_family(vt_device *dev, vt_warp *w, const vt_insn *in, bool store, vt_error *err) {
  const vt_insn_desc *d = in->d;
  const bool is_private = d->amode == VT_AM_PRIVATE;
  if (store && !is_private && w->vill) {
    vt_err_set(err, VT_ERR_VILL, "vector store while vtype is illegal (no vsetvli executed)");
    return VT_ERR_VILL;
  }
  const unsigned size = d->msize;
  uint32_t m = w->mask & vt_vrange(w);
  if (vt_vmem_lanes_fast(dev, w, in, m, store)) return VT_OK;
  const uint32_t *base = w->v[in->rs1];
  uint32_t *vd = w->v[store ? in->rs2 : in->rd];
  uint32_t pds = WCSR(w, PDS), stride = WCSR(w, NUMW) * WCSR(w, NUMT);
  uint32_t tid = WCSR(w, TID);
  for (unsigned i = 0; i < L; i++) {
    if (!((m >> i) & 1)) continue;
    uint32_t addr = vt_lane_addr(base[i] + (uint32_t)in->imm, is_private, pds, stride, tid + i, size);
    dev->cur_lane = (int)i;
    uint8_t *p = vt_access(dev, w, addr, size, store, err);
    if (!p) return err->status;
    if (store) {
      uint32_t v = size == 4 ? vd[i] : vd[i] & ((1u << (8 * size)) - 1);
      store_le(p, v, size);
      trace_mem(dev, addr, v, size, true, i);
    } else {
      uint32_t v = load_le(p, size);
      if ((d->flags & VT_F_SA) && size < 4) v = sext(v, 8 * size);
      vd[i] = v;
      trace_mem(dev, addr, v, size, false, i);
    }
  }
  dev->cur_lane = -1;
  if (!store) trace_v(dev, w, in->rd, m);
  return VT_OK;
}

int vt_vmem(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  const bool store = in->d->mem == VT_MEM_STORE;
  int rc;
  switch (in->d->amode) {
  case VT_AM_FLAT: case VT_AM_PRIVATE:
    /* the v2.02 families without a prefix; the v2025 private family checks vill */
    if (in->pfx == VT_PFX_NONE && !(in->d->flags & VT_F_VILL)) {
      rc = lane_family(dev, w, in, store, err);
      break;
    }
    rc = vt_mem_lanes(dev, w, in, err);
    break;
  case VT_AM_GLOBAL: case VT_AM_LOCAL: case VT_AM_FLAT64: rc = vt_mem_lanes(dev, w, in, err); break;
  case VT_AM_VWHOLE: rc = whole(dev, w, in, store, err); break;
  case VT_AM_VMASK: rc = mask_bytes(dev, w, in, store, err); break;
  default: rc = elements(dev, w, in, store, err); break;
  }
  if (rc == VT_OK) w->vstart = 0;
  return rc;
}
