/* Binary32 vector add, subtract and multiply on the host's SSE unit when
 * that gives exactly what src/fp gives (fp32_host.h). IEEE 754 fixes the
 * result of these operations under round-to-nearest-even, and x86 detects
 * tininess after rounding as RISC-V does; what differs is NaN payloads
 * (RISC-V returns the canonical NaN) and nothing else, so lanes with a NaN
 * or infinite operand, and any overflow, underflow, invalid operation or
 * subnormal operand the host reports, send the whole instruction back to
 * src/fp. The host's MXCSR is saved and restored around the operation. */
#include "fp32_host.h"

#include <string.h>

#if defined(__x86_64__) && defined(__SSE2__)
#include <xmmintrin.h>

#include "lanes.h"

#define L VT_MAX_LANES
/* MXCSR: exception flags (IE DE ZE OE UE PE), DAZ, rounding control, FTZ */
#define MX_FLAGS 0x3fu
#define MX_PE 0x20u
#define MX_DAZ 0x40u
#define MX_RC 0x6000u
#define MX_FTZ 0x8000u

/* r = x op y on every lane; out of line, so that the MXCSR reads around the
 * call see exactly these operations */
static __attribute__((noinline)) void compute(unsigned op, float *r, const float *x,
                                              const float *y) {
  switch (op) {
  case VT_SEM_FADD: for (int i = 0; i < L; i++) r[i] = x[i] + y[i]; break;
  case VT_SEM_FSUB: for (int i = 0; i < L; i++) r[i] = x[i] - y[i]; break;
  default: for (int i = 0; i < L; i++) r[i] = x[i] * y[i]; break;
  }
}

/* whether the bits are a NaN or an infinity (exponent all ones) */
static inline uint32_t special(uint32_t v) { return (uint32_t)((v & 0x7f800000u) == 0x7f800000u); }

bool vt_f32_host_op(unsigned op, uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t m,
                    uint32_t *flags) {
  if (op != VT_SEM_FADD && op != VT_SEM_FSUB && op != VT_SEM_FMUL) return false;
  uint32_t xa[L], xb[L], on[L], r[L], bad = 0;
  /* inactive lanes compute 1 op 1: exact, no exception */
  for (int i = 0; i < L; i++) {
    on[i] = 0u - VT_LANE_SET(m, i);
    xa[i] = (a[i] & on[i]) | (0x3f800000u & ~on[i]);
    xb[i] = (b[i] & on[i]) | (0x3f800000u & ~on[i]);
  }
  for (int i = 0; i < L; i++) bad |= special(xa[i]) | special(xb[i]);
  if (bad) return false;
  unsigned csr = _mm_getcsr();
  if (csr & (MX_DAZ | MX_RC | MX_FTZ)) return false; /* not the IEEE defaults */
  float fa[L], fb[L], fr[L];
  memcpy(fa, xa, sizeof fa);
  memcpy(fb, xb, sizeof fb);
  _mm_setcsr(csr & ~MX_FLAGS);
  compute(op, fr, fa, fb);
  unsigned raised = _mm_getcsr() & MX_FLAGS;
  _mm_setcsr(csr);
  if (raised & ~MX_PE) return false; /* invalid, denormal, overflow, underflow */
  memcpy(r, fr, sizeof r);
  for (int i = 0; i < L; i++) d[i] = (r[i] & on[i]) | (d[i] & ~on[i]);
  if (raised & MX_PE) *flags |= VT_FFLAG_NX;
  return true;
}
#else
bool vt_f32_host_op(unsigned op, uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t m,
                    uint32_t *flags) {
  (void)op, (void)d, (void)a, (void)b, (void)m, (void)flags;
  return false;
}
#endif
