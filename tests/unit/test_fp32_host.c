/* The host-FPU path of binary32 vector add, subtract and multiply
 * (src/sim/fp32_host.c) against the exact software arithmetic of src/fp
 * (itself checked against MPFR by test_fp32_mpfr): for random warps of
 * operands mixing ordinary values with zeros, subnormals, values near
 * overflow and underflow, infinities and NaNs, under random lane masks,
 * whenever the host path takes an instruction its active lanes must hold
 * the bits src/fp computes, its inactive lanes their old value, and the
 * flags must be src/fp's; when it declines, nothing may change. It must
 * also take most warps of ordinary values (else the test checks little). */
#include "check.h"
#include "fp/fp32.h"
#include "sim/fp32_host.h"

#define L VT_MAX_LANES

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 11);
}

/* an operand: mostly ordinary numbers, sometimes an edge case */
static uint32_t operand(bool edgy) {
  static const uint32_t edges[] = {
      0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu,
      0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0x3f800000u,
      0x7f000000u, 0x00ffffffu, 0x01000000u, 0x0d800000u, 0x33800000u, 0x4b800000u};
  uint32_t r = rnd();
  if (edgy && r % 8 == 0) return edges[rnd() % (sizeof edges / sizeof edges[0])];
  /* exponents from the whole range when edgy, else near 1 */
  uint32_t exp = edgy ? rnd() % 256 : 112 + rnd() % 32;
  return (r & 0x807fffffu) | (exp << 23);
}

static uint32_t soft(unsigned op, uint32_t a, uint32_t b, uint32_t *fx) {
  switch (op) {
  case VT_SEM_FADD: return vt_f32_add(a, b, VT_RM_RNE, fx);
  case VT_SEM_FSUB: return vt_f32_sub(a, b, VT_RM_RNE, fx);
  default: return vt_f32_mul(a, b, VT_RM_RNE, fx);
  }
}

/* one warp: the host path agrees with src/fp or declines cleanly; *taken
 * counts the warps it took */
static void one_warp(check_state *st, unsigned op, bool edgy, unsigned *taken) {
  uint32_t a[L], b[L], d[L], old[L], want[L], m = rnd() | rnd();
  uint32_t fx = 0, want_fx = 0;
  for (int i = 0; i < L; i++) {
    a[i] = operand(edgy), b[i] = operand(edgy), d[i] = old[i] = rnd();
    want[i] = (m >> i) & 1 ? soft(op, a[i], b[i], &want_fx) : old[i];
  }
  if (!vt_f32_host_op(op, d, a, b, m, &fx)) {
    CHECK(st, memcmp(d, old, sizeof d) == 0 && fx == 0);
    return;
  }
  (*taken)++;
  for (int i = 0; i < L; i++)
    if (d[i] != want[i]) {
      fprintf(stderr, "op %u lane %d: 0x%08x op 0x%08x = 0x%08x, src/fp 0x%08x\n", op, i, a[i],
              b[i], d[i], want[i]);
      CHECK(st, d[i] == want[i]);
      return;
    }
  if (fx != want_fx) fprintf(stderr, "op %u: flags 0x%x, src/fp 0x%x\n", op, fx, want_fx);
  CHECK_EQ_U32(st, fx, want_fx);
}

TEST(ordinary_values) {
  static const unsigned ops[] = {VT_SEM_FADD, VT_SEM_FSUB, VT_SEM_FMUL};
  for (unsigned k = 0; k < 3; k++) {
    unsigned taken = 0;
    for (unsigned n = 0; n < 20000; n++) one_warp(st, ops[k], false, &taken);
#if defined(__x86_64__)
    CHECK(st, taken > 19000); /* ordinary values: the host path runs */
#endif
  }
}

TEST(edge_values) {
  static const unsigned ops[] = {VT_SEM_FADD, VT_SEM_FSUB, VT_SEM_FMUL};
  for (unsigned k = 0; k < 3; k++) {
    unsigned taken = 0;
    for (unsigned n = 0; n < 50000; n++) one_warp(st, ops[k], true, &taken);
  }
}

/* single active lanes with an edge operand each: exact zero results (x - x,
 * 0 * -y), results that round to the smallest normal, tiny exact results */
TEST(one_lane_cases) {
  static const uint32_t cases[][2] = {
      {0x3f800000u, 0x3f800000u}, {0x80000000u, 0x00000000u}, {0x00800000u, 0x3f000000u},
      {0x00800001u, 0x3f7fffffu}, {0x0d800000u, 0x33800000u}, {0x7f7fffffu, 0x7f7fffffu},
      {0x3f800001u, 0xbf800000u}, {0x4b800000u, 0x3f800000u}, {0x00000000u, 0x80000000u}};
  static const unsigned ops[] = {VT_SEM_FADD, VT_SEM_FSUB, VT_SEM_FMUL};
  for (unsigned k = 0; k < 3; k++)
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      uint32_t a[L] = {0}, b[L] = {0}, d[L] = {0}, fx = 0, want_fx = 0;
      a[5] = cases[c][0], b[5] = cases[c][1];
      uint32_t want = soft(ops[k], a[5], b[5], &want_fx);
      if (!vt_f32_host_op(ops[k], d, a, b, 1u << 5, &fx)) continue;
      CHECK_EQ_U32(st, d[5], want);
      CHECK_EQ_U32(st, fx, want_fx);
      CHECK_EQ_U32(st, d[4], 0);
    }
}

RUN_TESTS(T(ordinary_values), T(edge_values), T(one_lane_cases))
