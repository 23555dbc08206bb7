/* CSR reads and writes. Ventus CSRs are plain read/write registers, CSR_PRINT
 * included (spec README decision 12); counters and vector state are
 * read-only. */
#include "csr.h"

int vt_csr_read(const vt_warp *w, unsigned csr, uint32_t *v) {
  if (csr >= 0x800 && csr <= 0x80c) {
    *v = w->csr[csr - 0x800];
    return 0;
  }
  switch (csr) {
  case 0x001: *v = w->fflags; return 0;
  case 0x002: *v = w->frm; return 0;
  case 0x003: *v = (w->frm << 5) | w->fflags; return 0;
  case 0x008: *v = w->vstart; return 0;
  case 0x009: *v = w->vxsat; return 0;
  case 0x00a: *v = w->vxrm; return 0;
  case 0x00f: *v = (w->vxrm << 1) | w->vxsat; return 0;
  case 0x300: *v = w->mstatus; return 0;
  case 0x301: *v = 0x40141101u; return 0; /* RV32 IMAV (+F via Zfinx emulation) */
  case 0x304: case 0x344: case 0x302: case 0x303: case 0x306: case 0x310: *v = 0; return 0;
  case 0x305: *v = w->mtvec; return 0;
  case 0x340: *v = w->mscratch; return 0;
  case 0x341: *v = w->mepc; return 0;
  case 0x342: *v = w->mcause; return 0;
  case 0x343: *v = w->mtval; return 0;
  case 0xb00: case 0xc00: case 0xc01: *v = (uint32_t)w->cycle; return 0;
  case 0xb02: case 0xc02: *v = (uint32_t)w->instret; return 0;
  case 0xb80: case 0xc80: case 0xc81: *v = (uint32_t)(w->cycle >> 32); return 0;
  case 0xb82: case 0xc82: *v = (uint32_t)(w->instret >> 32); return 0;
  case 0xc20: *v = w->vl; return 0;
  case 0xc21: *v = w->vill ? 0x80000000u : w->vtype; return 0;
  case 0xc22: *v = 4 * (w->lane_limit ? (uint32_t)vt_popcount32(w->lane_limit) : 0); return 0;
  case 0xf11: case 0xf12: case 0xf13: *v = 0; return 0;
  case 0xf14: *v = w->wid; return 0;
  default: return -1;
  }
}

int vt_csr_write(vt_warp *w, unsigned csr, uint32_t v) {
  if (csr >= 0x800 && csr <= 0x80c) {
    w->csr[csr - 0x800] = v;
    return 0;
  }
  switch (csr) {
  case 0x001: w->fflags = v & 0x1f; return 0;
  case 0x002: w->frm = v & 7; return 0;
  case 0x003: w->fflags = v & 0x1f; w->frm = (v >> 5) & 7; return 0;
  case 0x008: w->vstart = v; return 0;
  case 0x009: w->vxsat = v & 1; return 0;
  case 0x00a: w->vxrm = v & 3; return 0;
  case 0x00f: w->vxsat = v & 1; w->vxrm = (v >> 1) & 3; return 0;
  case 0x300: {
    /* FS/VS writable; SD mirrors "some state dirty" as the reference shows */
    uint32_t m = (v & 0x00007e88u) | (w->mstatus & ~0x00007e88u);
    if ((m & 0x6000u) == 0x6000u || (m & 0x0600u) == 0x0600u) m |= 0x80000000u;
    else m &= ~0x80000000u;
    w->mstatus = m;
    return 0;
  }
  case 0x301: case 0x304: case 0x344: case 0x302: case 0x303: case 0x306: case 0x310: return 0;
  case 0x305: w->mtvec = v; return 0;
  case 0x340: w->mscratch = v; return 0;
  case 0x341: w->mepc = v & ~3u; return 0;
  case 0x342: w->mcause = v; return 0;
  case 0x343: w->mtval = v; return 0;
  case 0xb00: w->cycle = (w->cycle & ~0xffffffffull) | v; return 0;
  case 0xb02: w->instret = (w->instret & ~0xffffffffull) | v; return 0;
  default: return -1;
  }
}
