/* CSR reads and writes. Ventus CSRs are plain read/write registers, CSR_PRINT
 * included (spec README decision 12), and so are the v2025 range CSRs gds,
 * gds_limit and lds_limit (isa2025.md 2.5, D8); counters and vector state are
 * read-only. */
#include "csr.h"

/* a Ventus CSR of the warp's file: 0x800..0x80c and 0x810..0x812 (0x80d..0x80f
 * stay unassigned, isa2025.md 2.5) */
bool vt_csr_is_warp(unsigned csr) {
  return (csr >= VT_CSR_TID && csr <= VT_CSR_RPC) ||
         (csr >= VT_CSR_GDS && csr <= VT_CSR_LDS_LIMIT);
}

int vt_csr_read(const vt_warp *w, unsigned csr, uint32_t *v) {
  if (vt_csr_is_warp(csr)) {
    *v = w->csr[csr - VT_CSR_TID];
    return 0;
  }
  switch (csr) {
  case VT_CSR_FFLAGS: *v = w->fflags; return 0;
  case VT_CSR_FRM: *v = w->frm; return 0;
  case VT_CSR_FCSR: *v = (w->frm << 5) | w->fflags; return 0;
  case VT_CSR_VSTART: *v = w->vstart; return 0;
  case VT_CSR_VXSAT: *v = w->vxsat; return 0;
  case VT_CSR_VXRM: *v = w->vxrm; return 0;
  case VT_CSR_VCSR: *v = (w->vxrm << 1) | w->vxsat; return 0;
  case VT_CSR_MSTATUS: *v = w->mstatus; return 0;
  case VT_CSR_MISA: *v = 0x40141101u; return 0; /* RV32 IMAV (+F via Zfinx emulation) */
  case VT_CSR_MIE: case VT_CSR_MIP: case VT_CSR_MEDELEG: case VT_CSR_MIDELEG: case VT_CSR_MCOUNTEREN: case VT_CSR_MSTATUSH: *v = 0; return 0;
  case VT_CSR_MTVEC: *v = w->mtvec; return 0;
  case VT_CSR_MSCRATCH: *v = w->mscratch; return 0;
  case VT_CSR_MEPC: *v = w->mepc; return 0;
  case VT_CSR_MCAUSE: *v = w->mcause; return 0;
  case VT_CSR_MTVAL: *v = w->mtval; return 0;
  case VT_CSR_MCYCLE: case VT_CSR_CYCLE: case VT_CSR_TIME: *v = (uint32_t)w->cycle; return 0;
  case VT_CSR_MINSTRET: case VT_CSR_INSTRET: *v = (uint32_t)w->instret; return 0;
  case VT_CSR_MCYCLEH: case VT_CSR_CYCLEH: case VT_CSR_TIMEH: *v = (uint32_t)(w->cycle >> 32); return 0;
  case VT_CSR_MINSTRETH: case VT_CSR_INSTRETH: *v = (uint32_t)(w->instret >> 32); return 0;
  case VT_CSR_VL: *v = w->vl; return 0;
  case VT_CSR_VTYPE: *v = w->vill ? 0x80000000u : w->vtype; return 0;
  case VT_CSR_VLENB: *v = 4 * (w->lane_limit ? (uint32_t)vt_popcount32(w->lane_limit) : 0); return 0;
  case VT_CSR_MVENDORID: case VT_CSR_MARCHID: case VT_CSR_MIMPID: *v = 0; return 0;
  case VT_CSR_MHARTID: *v = w->wid; return 0;
  default: return -1;
  }
}

int vt_csr_write(vt_warp *w, unsigned csr, uint32_t v) {
  if (vt_csr_is_warp(csr)) {
    w->csr[csr - VT_CSR_TID] = v;
    return 0;
  }
  switch (csr) {
  case VT_CSR_FFLAGS: w->fflags = v & 0x1f; return 0;
  case VT_CSR_FRM: w->frm = v & 7; return 0;
  case VT_CSR_FCSR: w->fflags = v & 0x1f; w->frm = (v >> 5) & 7; return 0;
  case VT_CSR_VSTART: w->vstart = v; return 0;
  case VT_CSR_VXSAT: w->vxsat = v & 1; return 0;
  case VT_CSR_VXRM: w->vxrm = v & 3; return 0;
  case VT_CSR_VCSR: w->vxsat = v & 1; w->vxrm = (v >> 1) & 3; return 0;
  case VT_CSR_MSTATUS: {
    /* FS/VS writable; SD mirrors "some state dirty" as the reference shows */
    uint32_t m = (v & 0x00007e88u) | (w->mstatus & ~0x00007e88u);
    if ((m & 0x6000u) == 0x6000u || (m & 0x0600u) == 0x0600u) m |= 0x80000000u;
    else m &= ~0x80000000u;
    w->mstatus = m;
    return 0;
  }
  case VT_CSR_MISA: case VT_CSR_MIE: case VT_CSR_MIP: case VT_CSR_MEDELEG: case VT_CSR_MIDELEG: case VT_CSR_MCOUNTEREN: case VT_CSR_MSTATUSH: return 0;
  case VT_CSR_MTVEC: w->mtvec = v; return 0;
  case VT_CSR_MSCRATCH: w->mscratch = v; return 0;
  case VT_CSR_MEPC: w->mepc = v & ~3u; return 0;
  case VT_CSR_MCAUSE: w->mcause = v; return 0;
  case VT_CSR_MTVAL: w->mtval = v; return 0;
  case VT_CSR_MCYCLE: w->cycle = (w->cycle & ~0xffffffffull) | v; return 0;
  case VT_CSR_MINSTRET: w->instret = (w->instret & ~0xffffffffull) | v; return 0;
  default: return -1;
  }
}
