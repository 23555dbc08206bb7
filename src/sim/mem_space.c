/* Addressing of the v2025 memory instructions (isa2025.md 3.1.3, 3.3-3.5.3):
 * 64-bit pair addresses, the global/local spaces with their range CSRs, the
 * private mapping, and the wide accesses of PREFIX_MEMORY. One plan per
 * instruction (from its addressing mode and the prefix's fields), then one
 * offset per lane and one physical address per word. The v2.02 flat,
 * private and scalar paths without a prefix stay in exec_vmem.c and
 * exec_scalar.c. */
#include "mem_space.h"
#include "vreg.h"

void vt_mem_plan_make(const vt_warp *w, const vt_insn *in, vt_mem_plan *p) {
  const vt_insn_desc *d = in->d;
  unsigned own;
  switch ((vt_amode)d->amode) {
  case VT_AM_GLOBAL: own = VT_MSPACE_GLOBAL; break;
  case VT_AM_LOCAL: own = VT_MSPACE_LOCAL; break;
  case VT_AM_PRIVATE: own = VT_MSPACE_PRIVATE; break;
  default: own = VT_MSPACE_DEFAULT; break; /* flat: the offset is the address */
  }
  bool pm = in->pfx == VT_PFX_MEM;
  p->space = pm && in->mspace != VT_MSPACE_DEFAULT ? in->mspace : own;
  p->wide64 = d->amode == VT_AM_BASE64 || d->amode == VT_AM_FLAT64 || (pm && in->mpair);
  p->words = pm && in->mwidth ? in->mwidth + 1u : 0u;
  p->size = p->words ? 4u : d->msize;
  p->store = d->mem == VT_MEM_STORE;
  p->va64 = false;
  p->gds = WCSR(w, GDS);
  p->gds_limit = WCSR(w, GDS_LIMIT);
  p->lds = WCSR(w, LDS);
  p->lds_limit = WCSR(w, LDS_LIMIT);
  p->pds = WCSR(w, PDS);
  p->stride = WCSR(w, NUMW) * WCSR(w, NUMT);
  p->tid = WCSR(w, TID);
}

static void lane_text(char *buf, size_t n, int lane) {
  if (lane >= 0)
    snprintf(buf, n, "lane %d, ", lane);
  else
    buf[0] = 0;
}

static int addr64_fault(vt_error *err, int lane, uint64_t a) {
  char l[24] = "";
  if (lane >= 0) snprintf(l, sizeof l, "lane %d: ", lane);
  vt_err_set(err, VT_ERR_ACCESS, "%s64-bit address 0x%016llx is outside the 32-bit physical space",
             l, (unsigned long long)a);
  return VT_ERR_ACCESS;
}

int vt_mem_offset(const vt_mem_plan *p, uint64_t base, int32_t imm, int lane, uint64_t *o,
                  vt_error *err) {
  if (!p->wide64) {
    *o = (uint32_t)((uint32_t)base + (uint32_t)imm);
    return VT_OK;
  }
  uint64_t a = base + (uint64_t)(int64_t)imm; /* mod 2^64 */
  if ((a >> 32) && !p->va64) return addr64_fault(err, lane, a);
  *o = a;
  return VT_OK;
}

static int range_fault(vt_error *err, const char *space, int lane, uint64_t a, uint32_t limit) {
  char l[24];
  lane_text(l, sizeof l, lane);
  vt_err_set(err, VT_ERR_ACCESS, "%s range: %saddress 0x%08llx, limit 0x%08x", space, l,
             (unsigned long long)a, limit);
  return VT_ERR_ACCESS;
}

int vt_mem_addr(const vt_mem_plan *p, uint64_t o, unsigned k, int lane, uint64_t *addr,
                vt_error *err) {
  uint64_t ok = o + 4u * k;
  if (p->va64) { /* translated (the canonical check first, mmu_sim.c) */
    *addr = ok;
    return VT_OK;
  }
  if (p->wide64 && (ok >> 32)) return addr64_fault(err, lane, ok);
  ok = (uint32_t)ok;
  uint64_t a;
  switch (p->space) {
  case VT_MSPACE_GLOBAL: /* exact sum; it never wraps (3.3.2) */
    a = p->gds + ok;
    if (a + p->size - 1 > p->gds_limit) return range_fault(err, "global", lane, a, p->gds_limit);
    *addr = (uint32_t)a;
    return VT_OK;
  case VT_MSPACE_LOCAL:
    a = p->lds + ok;
    if (a + p->size - 1 > p->lds_limit) return range_fault(err, "local", lane, a, p->lds_limit);
    *addr = (uint32_t)a;
    return VT_OK;
  case VT_MSPACE_PRIVATE: { /* README 9, word accesses without o & 3 (isa.md 2.8.2, D23) */
    uint32_t o32 = (uint32_t)ok, t = p->tid + (uint32_t)(lane < 0 ? 0 : lane);
    *addr = p->pds + (o32 & ~3u) * p->stride + 4u * t + (p->size != 4 ? (o32 & 3u) : 0u);
    return VT_OK;
  }
  default: *addr = (uint32_t)ok; return VT_OK;
  }
}

/* one access of 'size' bytes: a loaded value (extended per the row's SA
 * flag), or the store of v */
static int access(vt_device *dev, vt_warp *w, const vt_insn_desc *d, uint64_t va,
                  unsigned size, bool store, uint32_t *v, unsigned lane, vt_error *err) {
  uint8_t *p = va > UINT32_MAX ? vt_sim_access_va(dev, w, va, size, store, err)
                               : vt_sim_access(dev, w, (uint32_t)va, size, store, err);
  if (!p) return err ? err->status : VT_ERR_ACCESS;
  if (store) {
    uint32_t x = size == 4 ? *v : *v & ((1u << (8 * size)) - 1u);
    store_le(p, x, size);
    trace_mem(dev, va, x, size, true, lane);
  } else {
    uint32_t x = load_le(p, size);
    if ((d->flags & VT_F_SA) && size < 4) x = sext(x, 8 * size);
    *v = x;
    trace_mem(dev, va, x, size, false, lane);
  }
  return VT_OK;
}

int vt_mem_scalar(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  vt_mem_plan p;
  vt_mem_plan_make(w, in, &p);
  p.va64 = p.wide64 && p.space == VT_MSPACE_DEFAULT && dev->mmu;
  uint64_t base = p.wide64 ? read_xp(w, in->rs1) : w->x[in->rs1], o;
  int rc = vt_mem_offset(&p, base, in->imm, -1, &o, err);
  unsigned n = p.words ? p.words : 1, r = p.store ? in->rs2 : in->rd;
  for (unsigned k = 0; k < n && rc == VT_OK; k++) {
    /* a group at x0 reads zeros and its writes are discarded (3.5.3) */
    uint64_t addr;
    uint32_t v = p.store && r != 0 ? w->x[r + k] : 0;
    rc = vt_mem_addr(&p, o, k, -1, &addr, err);
    if (rc == VT_OK) rc = access(dev, w, in->d, addr, p.size, p.store, &v, 0, err);
    if (rc == VT_OK && !p.store && r != 0) write_x(dev, w, r + k, v);
  }
  return rc;
}

int vt_mem_lanes(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  const vt_insn_desc *d = in->d;
  if ((d->flags & VT_F_VILL) && w->vill) { /* D25 */
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: vector memory access while vtype is illegal");
    return VT_ERR_ILLEGAL;
  }
  vt_mem_plan p;
  vt_mem_plan_make(w, in, &p);
  p.va64 = p.wide64 && p.space == VT_MSPACE_DEFAULT && dev->mmu;
  const uint32_t m = w->mask & vt_vrange(w);
  const unsigned n = p.words ? p.words : 1, r = p.store ? in->rs2 : in->rd;
  int rc = VT_OK;
  for (unsigned i = 0; i < VT_MAX_LANES && rc == VT_OK; i++) {
    if (!((m >> i) & 1)) continue;
    uint64_t base = w->v[in->rs1][i], o;
    if (p.wide64) base |= (uint64_t)w->v[in->rs1 + 1][i] << 32;
    dev->cur_lane = (int)i;
    rc = vt_mem_offset(&p, base, in->imm, (int)i, &o, err);
    for (unsigned k = 0; k < n && rc == VT_OK; k++) {
      uint64_t addr;
      uint32_t v = p.store ? w->v[r + k][i] : 0;
      rc = vt_mem_addr(&p, o, k, (int)i, &addr, err);
      if (rc == VT_OK) rc = access(dev, w, d, addr, p.size, p.store, &v, i, err);
      if (rc == VT_OK && !p.store) w->v[r + k][i] = v;
    }
  }
  dev->cur_lane = -1;
  if (rc == VT_OK && !p.store)
    for (unsigned k = 0; k < n; k++) trace_v(dev, w, r + k, m);
  return rc;
}
