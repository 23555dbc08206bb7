/* bfloat16 <-> binary32 conversions (isa2025.md 3.2.4).
 *
 * Widening is a shift: every bfloat16 value is the binary32 value with the
 * same upper 16 bits. Narrowing rounds the binary32 value (a 24-bit integer
 * times a power of two) once with vt_fp_round_u64 (src/fp/fp_round.h) to 8
 * significant bits and the binary32 exponent range, so the RISC-V rules of
 * every other format apply: five rounding modes, overflow after rounding,
 * tininess after rounding, UF only when tiny and inexact, bfloat16
 * subnormals (down to 2^-133) kept. Tested in tests/unit/test_bf16_mpfr.c. */
#include "fp/bf16.h"

#include "fp/fp_round.h"

uint32_t vt_bf16_to_f32(uint32_t b, uint32_t *flags) {
  b &= 0xffffu;
  if ((b & 0x7fffu) > 0x7f80u) { /* NaN */
    if (!(b & 0x0040u)) *flags |= VT_FFLAG_NV;
    return VT_F32_CANONICAL_NAN;
  }
  return b << 16;
}

uint32_t vt_f32_to_bf16(uint32_t a, int rm, uint32_t *flags) {
  uint32_t sign = a >> 31, mag = a & 0x7fffffffu;
  if (mag > 0x7f800000u) {
    if (!(a & 0x00400000u)) *flags |= VT_FFLAG_NV;
    return VT_BF16_CANONICAL_NAN;
  }
  if (mag == 0x7f800000u) return (sign << 15) | 0x7f80u;
  if (mag == 0) return sign << 15;
  int be = (int)(mag >> 23);
  uint32_t sig = (mag & 0x007fffffu) | (be ? 0x00800000u : 0);
  return (uint32_t)vt_fp_round_u64(VT_FMT_BF16, sign, sig, (be ? be : 1) - 150, rm, flags);
}
