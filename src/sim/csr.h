/* Per-warp CSR file: the Ventus CSRs (isa.md 4.1) and the standard ones the
 * reference simulator gives kernels (isa.md 4.2). */
#ifndef VT_SIM_CSR_H
#define VT_SIM_CSR_H
#include "sim_internal.h"
/* whether csr is one of the warp's Ventus CSRs (a plain register of
 * vt_warp.csr) */
bool vt_csr_is_warp(unsigned csr);
/* 0 on success, -1 for an inaccessible CSR (illegal instruction). */
int vt_csr_read(const vt_warp *w, unsigned csr, uint32_t *value);
int vt_csr_write(vt_warp *w, unsigned csr, uint32_t value);
#endif
