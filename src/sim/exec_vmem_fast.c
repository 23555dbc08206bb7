/* Vector loads and stores with one translation per warp instruction
 * (fastmem.h): RVV unit stride copies the active lanes' runs of bytes
 * between the page and the register; the Ventus per-lane families compute
 * every lane's address first and go through the page when all of them are
 * aligned and inside it. The lanes run in ascending order as on the
 * per-lane path (exec_vmem.c), so overlapping stores end the same way. */
#include "fastmem.h"
#include "lanes.h"

#define L VT_MAX_LANES

/* len <= 128 bytes in 16-byte moves, then 8, 4, 2, 1 (memcpy with a
 * variable length becomes rep movs or a library call) */
typedef uint8_t vt_chunk16 __attribute__((vector_size(16), may_alias, aligned(1)));
static inline void copy_run(uint8_t *dst, const uint8_t *src, unsigned len) {
  if (len == 128) { /* a whole warp of words */
    for (unsigned c = 0; c < 128; c += 16)
      *(vt_chunk16 *)(dst + c) = *(const vt_chunk16 *)(src + c);
    return;
  }
  unsigned k = len & ~15u;
  for (unsigned c = 0; c < 128; c += 16)
    if (c < k) *(vt_chunk16 *)(dst + c) = *(const vt_chunk16 *)(src + c);
  if (len - k >= 8) memcpy(dst + k, src + k, 8), k += 8;
  if (len - k >= 4) memcpy(dst + k, src + k, 4), k += 4;
  if (len - k >= 2) memcpy(dst + k, src + k, 2), k += 2;
  if (len - k >= 1) dst[k] = src[k];
}

/* the lanes of m (bit 0 = the element at dst/src): one run of lanes as a
 * block, scattered lanes (a divergent warp) element by element */
static void copy_lanes(uint8_t *dst, const uint8_t *src, uint32_t m, unsigned size) {
  if (!m) return;
  if (((m + (m & (0u - m))) & m) == 0) { /* one run */
    unsigned a = (unsigned)__builtin_ctz(m);
    unsigned n = (unsigned)__builtin_ctzll(~(uint64_t)(m >> a));
    copy_run(dst + a * size, src + a * size, n * size);
    return;
  }
  switch (size) {
  case 4:
    for (uint32_t r = m; r; r &= r - 1) {
      unsigned i = 4u * (unsigned)__builtin_ctz(r);
      memcpy(dst + i, src + i, 4);
    }
    break;
  case 2:
    for (uint32_t r = m; r; r &= r - 1) {
      unsigned i = 2u * (unsigned)__builtin_ctz(r);
      memcpy(dst + i, src + i, 2);
    }
    break;
  default:
    for (uint32_t r = m; r; r &= r - 1) {
      unsigned i = (unsigned)__builtin_ctz(r);
      dst[i] = src[i];
    }
    break;
  }
}

/* vt_fastmem_span, after filling the translation when the warp's cache
 * does not hold the page (a workgroup's first access to a page) */
static uint8_t *span(vt_device *dev, vt_warp *w, uint32_t lo, uint64_t hi, bool store) {
  uint8_t *p = vt_fastmem_span(dev, w, lo, hi, store);
  if (p || (hi - 1) >> VT_PAGE_BITS != lo >> VT_PAGE_BITS || !vt_sim_probe(dev, w, lo, store))
    return p;
  return vt_fastmem_span(dev, w, lo, hi, store);
}

/* the bytes of the lanes of m (bit 0 = the element at p) were written to
 * an overlay copy */
static void mark_lanes(uint8_t *p, uint32_t m, unsigned size) {
  if (((m + (m & (0u - m))) & m) == 0) { /* one run */
    unsigned a = (unsigned)__builtin_ctz(m);
    unsigned n = (unsigned)__builtin_ctzll(~(uint64_t)(m >> a));
    vt_ovl_mark(p + a * size, n * size);
    return;
  }
  for (uint32_t r = m; r; r &= r - 1) vt_ovl_mark(p + (unsigned)__builtin_ctz(r) * size, size);
}

bool vt_vmem_unit_fast(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, unsigned size,
                       bool store) {
  if (!m || !vt_fastmem_ok(dev, store)) return false;
  uint32_t base = w->x[in->rs1];
  if (base & (size - 1)) return false;
  const bool mark = store && dev->ovl && base - VT_LDS_BASE >= VT_ADDR_LDS_SIZE;
  if (m == 0xffffffffu && size == 4) { /* a whole warp of words: one 128-byte copy */
    uint8_t *p = span(dev, w, base, (uint64_t)base + 128, store);
    if (!p) return false;
    uint32_t *reg = w->v[store ? in->vs3 : in->rd];
    if (store) memcpy(p, reg, 128);
    else memcpy(reg, p, 128);
    if (mark) vt_ovl_mark(p, 128);
    return true;
  }
  unsigned first = (unsigned)__builtin_ctz(m), last = 31u - (unsigned)__builtin_clz(m);
  uint64_t lo = (uint64_t)base + first * size, hi = (uint64_t)base + (last + 1) * size;
  if (lo > UINT32_MAX) return false; /* the addresses wrapped */
  uint8_t *p = span(dev, w, (uint32_t)lo, hi, store);
  if (!p) return false;
  /* element i is at byte i*size of the register (i < numt, so the group's
   * first register; vreg.h) */
  uint8_t *reg = (uint8_t *)w->v[store ? in->vs3 : in->rd] + first * size;
  if (store) copy_lanes(p, reg, m >> first, size);
  else copy_lanes(reg, p, m >> first, size);
  if (mark) mark_lanes(p, m >> first, size); /* an overlay copy */
  dev->cur_lane = -1;
  return true;
}

bool vt_vmem_lanes_fast(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, bool store) {
  if (!m || !vt_fastmem_ok(dev, store)) return false;
  const vt_insn_desc *d = in->d;
  const unsigned size = d->msize;
  const bool is_private = d->amode == VT_AM_PRIVATE;
  const uint32_t *base = w->v[in->rs1];
  const uint32_t pds = WCSR(w, PDS), stride = WCSR(w, NUMW) * WCSR(w, NUMT), tid = WCSR(w, TID);
  uint32_t addr[L];
  for (unsigned i = 0; i < L; i++)
    addr[i] = vt_lane_addr(base[i] + (uint32_t)in->imm, is_private, pds, stride, tid + i, size);
  /* the span, alignment, and whether the lanes are consecutive elements
   * (addr[i] = a0 + i * size: copied like unit stride) */
  const unsigned first = (unsigned)__builtin_ctz(m), last = 31u - (unsigned)__builtin_clz(m);
  const uint32_t a0 = addr[first] - first * size;
  uint32_t apart = 0;
  for (unsigned i = 0; i < L; i++)
    apart |= (addr[i] ^ (a0 + i * size)) & (0u - VT_LANE_SET(m, i));
  /* consecutive: the ends are the first and last lanes (a wrap past 2^32
   * leaves hi below lo, and vt_fastmem_span refuses the span) */
  uint32_t lo = addr[first], hi = addr[last], bits = lo;
  if (apart) {
    lo = UINT32_MAX, hi = 0, bits = 0;
    for (unsigned i = 0; i < L; i++) {
      uint32_t lm = 0u - VT_LANE_SET(m, i), a = addr[i];
      lo = (a | ~lm) < lo ? (a | ~lm) : lo;
      hi = (a & lm) > hi ? (a & lm) : hi;
      bits |= a & lm;
    }
  }
  if (bits & (size - 1)) return false;
  uint8_t *p = span(dev, w, lo, (uint64_t)hi + size, store);
  if (!p) return false;
  uint32_t *vd = w->v[store ? in->rs2 : in->rd];
  /* a store to the SM's overlay copy marks the bytes it writes */
  const bool mark = store && dev->ovl && lo - VT_LDS_BASE >= VT_ADDR_LDS_SIZE;
  if (!apart && size == 4) { /* lo = addr[first] */
    if (store) copy_lanes(p, (uint8_t *)(vd + first), m >> first, 4);
    else copy_lanes((uint8_t *)(vd + first), p, m >> first, 4);
    if (mark) mark_lanes(p, m >> first, 4);
    dev->cur_lane = -1;
    return true;
  }
  const bool sa = (d->flags & VT_F_SA) && size < 4;
  for (uint32_t r = m; r; r &= r - 1) {
    unsigned i = (unsigned)__builtin_ctz(r);
    uint8_t *q = p + (addr[i] - lo);
    if (store) {
      store_le(q, size == 4 ? vd[i] : vd[i] & ((1u << (8 * size)) - 1), size);
      if (mark) vt_ovl_mark(q, size);
    } else {
      uint32_t v = load_le(q, size);
      vd[i] = sa ? sext(v, 8 * size) : v;
    }
  }
  dev->cur_lane = -1;
  return true;
}
