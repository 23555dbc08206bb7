/* Register pairs, RV64I and RV64A on the simulator (isa2025.md 3.1): the
 * W-forms on boundary values (both words of rd), the pair prefix's 64-bit
 * OP/OP-IMM/M/BRANCH instructions on random and corner values, 6-bit shift
 * amounts, ld/sd and the *.d atomics with their 64-bit pair address and
 * 32-bit data, LR/SC reservations of one width, and the errors (odd pairs,
 * addresses >= 2^32, pair prefix before other instructions). Every expected
 * value is computed here with the host's 64-bit (and 128-bit) arithmetic. */
#include "xrun.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

static uint32_t pfx_pair(void) { return enc(VT_INSN_PREFIX, 0, 1, 0, 0); }

/* ---- W-forms (3.1.2) ---- */

static uint64_t sx32(uint32_t r) { return (uint64_t)(int64_t)(int32_t)r; }

TEST(w_forms_boundaries) {
  xrun t = {0};
  t.x[12] = 0x7fffffffu, t.x[13] = 0xdeadbeefu; /* high words of sources are ignored */
  t.x[14] = 1, t.x[15] = 0x12345678u;
  t.x[16] = 0x80000000u, t.x[17] = 7;
  t.x[18] = 0x23; /* sllw/srlw/sraw use bits 4:0: 3 */
  t.x[20] = 31;
  xr_op(&t, enc(VT_INSN_ADDW, A0, A2, A4));   /* 0x7fffffff + 1 */
  xr_op(&t, enc(VT_INSN_SUBW, 2, ZERO, A4));  /* 0 - 1 */
  xr_op(&t, enc(VT_INSN_SLLW, 4, A2, 18));    /* << 3 */
  xr_op(&t, enc(VT_INSN_SRLW, 6, A6, 20));    /* 0x80000000 >> 31 */
  xr_op(&t, enc(VT_INSN_SRAW, 8, A6, 18));    /* 0x80000000 >>a 3 */
  xr_op(&t, enc(VT_INSN_SLLW, 22, A4, ZERO)); /* shift by 0 */
  xr_op(&t, enc(VT_INSN_ADDIW, 24, A4, -5));
  xr_op(&t, enc(VT_INSN_SLLIW, 26, A2, 31));
  xr_op(&t, enc(VT_INSN_SRAIW, 28, A6, 31));
  xr_run(&t);
  XR_OK(st, &t);
  XR_EQ64(st, &t, 10, 0xffffffff80000000ull); /* spec example: x10 = 0x80000000, x11 = all ones */
  XR_EQ64(st, &t, 2, sx32(0u - 1u));
  XR_EQ64(st, &t, 4, sx32(0x7fffffffu << 3));
  XR_EQ64(st, &t, 6, 1);
  XR_EQ64(st, &t, 8, sx32((uint32_t)((int32_t)0x80000000u >> 3)));
  XR_EQ64(st, &t, 22, 1);
  XR_EQ64(st, &t, 24, sx32(1u - 5u));
  XR_EQ64(st, &t, 26, sx32(0x7fffffffu << 31));
  XR_EQ64(st, &t, 28, ~0ull);
  /* the sources are unchanged */
  CHECK_EQ_U32(st, t.out[13], 0xdeadbeefu);
  CHECK_EQ_U32(st, t.out[15], 0x12345678u);
}

TEST(w_forms_srliw_and_x0) {
  xrun t = {0};
  t.x[1] = 0xabcdef01u; /* ra: a write to pair 0 must not reach x1 (D15) */
  t.x[12] = 0xf0000001u;
  xr_op(&t, enc(VT_INSN_SRLIW, A0, A2, 31));
  xr_op(&t, enc(VT_INSN_SRLIW, 16, A2, 0));
  xr_op(&t, enc(VT_INSN_ADDW, ZERO, A2, A2));
  xr_op(&t, enc(VT_INSN_ADDIW, ZERO, A2, 1));
  xr_run(&t);
  XR_OK(st, &t);
  XR_EQ64(st, &t, 10, 1);
  XR_EQ64(st, &t, 16, sx32(0xf0000001u));
  CHECK_EQ_U32(st, t.out[1], 0xabcdef01u);
}

/* ---- the pair prefix (3.1.5) ---- */

enum kind { R, I, SH };
typedef struct op64 {
  vt_insn_id id;
  enum kind kind;
} op64;

static uint64_t expect64(vt_insn_id id, uint64_t a, uint64_t b) {
  int64_t sa = (int64_t)a, sb = (int64_t)b;
  const uint64_t min = 1ull << 63;
  switch (id) {
  case VT_INSN_ADD: case VT_INSN_ADDI: return a + b;
  case VT_INSN_SUB: return a - b;
  case VT_INSN_AND: case VT_INSN_ANDI: return a & b;
  case VT_INSN_OR: case VT_INSN_ORI: return a | b;
  case VT_INSN_XOR: case VT_INSN_XORI: return a ^ b;
  case VT_INSN_SLL: case VT_INSN_SLLI: return a << (b & 63);
  case VT_INSN_SRL: case VT_INSN_SRLI: return a >> (b & 63);
  case VT_INSN_SRA: case VT_INSN_SRAI: return (uint64_t)(sa >> (b & 63));
  case VT_INSN_SLT: case VT_INSN_SLTI: return sa < sb;
  case VT_INSN_SLTU: case VT_INSN_SLTIU: return a < b;
  case VT_INSN_MUL: return a * b;
  case VT_INSN_MULH: return (uint64_t)(((i128)sa * (i128)sb) >> 64);
  case VT_INSN_MULHSU: return (uint64_t)(((i128)sa * (i128)(u128)b) >> 64);
  case VT_INSN_MULHU: return (uint64_t)(((u128)a * (u128)b) >> 64);
  case VT_INSN_DIV: return b == 0 ? ~0ull : (a == min && sb == -1) ? a : (uint64_t)(sa / sb);
  case VT_INSN_DIVU: return b == 0 ? ~0ull : a / b;
  case VT_INSN_REM: return b == 0 ? a : (a == min && sb == -1) ? 0 : (uint64_t)(sa % sb);
  case VT_INSN_REMU: return b == 0 ? a : a % b;
  default: abort();
  }
}

static const op64 ops64[] = {
    {VT_INSN_ADD, R},  {VT_INSN_SUB, R},    {VT_INSN_SLL, R},    {VT_INSN_SLT, R},
    {VT_INSN_SLTU, R}, {VT_INSN_XOR, R},    {VT_INSN_SRL, R},    {VT_INSN_SRA, R},
    {VT_INSN_OR, R},   {VT_INSN_AND, R},    {VT_INSN_MUL, R},    {VT_INSN_MULH, R},
    {VT_INSN_MULHSU, R}, {VT_INSN_MULHU, R}, {VT_INSN_DIV, R},   {VT_INSN_DIVU, R},
    {VT_INSN_REM, R},  {VT_INSN_REMU, R},   {VT_INSN_ADDI, I},   {VT_INSN_SLTI, I},
    {VT_INSN_SLTIU, I}, {VT_INSN_XORI, I},  {VT_INSN_ORI, I},    {VT_INSN_ANDI, I},
    {VT_INSN_SLLI, SH}, {VT_INSN_SRLI, SH}, {VT_INSN_SRAI, SH},
};

/* a, b pairs: random values and the corners of 3.1.5 */
static void operands(unsigned k, uint64_t *seed, uint64_t *a, uint64_t *b) {
  static const uint64_t corner[][2] = {
      {0x8000000000000000ull, ~0ull},  /* -2^63 / -1 */
      {0x123456789abcdef0ull, 0},      /* division by zero */
      {~0ull, ~0ull},
      {0x00000000ffffffffull, 1},      /* carry into the high word */
      {0x8000000000000000ull, 1},
      {5, 0x8000000000000000ull},
  };
  const unsigned nc = sizeof corner / sizeof corner[0];
  if (k < nc) {
    *a = corner[k][0];
    *b = corner[k][1];
  } else {
    *a = xr_rand(seed);
    *b = xr_rand(seed);
    if (k & 1) *b >>= (unsigned)(*seed % 60); /* smaller divisors too */
  }
}

TEST(pair_prefix_arithmetic) {
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (size_t o = 0; o < sizeof ops64 / sizeof ops64[0]; o++) {
    for (unsigned k = 0; k < 14; k++) {
      uint64_t a, b;
      operands(k, &seed, &a, &b);
      xrun t = {0};
      xr_set64(&t, 12, a);
      xr_set64(&t, 14, b);
      t.x[10] = t.x[11] = 0x55555555u;
      uint32_t word;
      if (ops64[o].kind == R) {
        word = enc(ops64[o].id, A0, A2, A4);
      } else if (ops64[o].kind == I) {
        int imm = (int)(b % 4096) - 2048;
        word = enc(ops64[o].id, A0, A2, imm);
        b = (uint64_t)(int64_t)imm;
      } else {
        int sh = (int)(b % 64);
        word = enc(ops64[o].id, A0, A2, sh);
        b = (uint64_t)sh;
      }
      xr_op(&t, pfx_pair());
      xr_op(&t, word);
      xr_run(&t);
      XR_OK(st, &t);
      uint64_t want = expect64(ops64[o].id, a, b);
      if (xr_get64(&t, 10) != want) {
        st->failed_checks++;
        fprintf(stderr, "%s 0x%016llx, 0x%016llx = 0x%016llx, expected 0x%016llx\n",
                vt_isa_insn(ops64[o].id)->mnemonic, (unsigned long long)a, (unsigned long long)b,
                (unsigned long long)xr_get64(&t, 10), (unsigned long long)want);
      }
    }
  }
}

/* the prefix's ext reaches pairs above x31: prefix ext=9, pair=1; mul a0,
 * a2, a4 computes XP(42) = XP(44) * XP(14) (3.1.5 example) */
TEST(pair_prefix_with_ext) {
  xrun t = {0};
  xr_set64(&t, 12, 0x0000000300000007ull);
  xr_set64(&t, 14, 0x0000000100000002ull);
  xr_op(&t, enc(VT_INSN_PREFIX, 1, 1, 0, 0)); /* rd hi 001 */
  xr_op(&t, enc(VT_INSN_ADDI, A2, A2, 0));    /* XP(44) = XP(12) */
  xr_op(&t, enc(VT_INSN_PREFIX, 9, 1, 0, 0)); /* rd and rs1 hi 001 */
  xr_op(&t, enc(VT_INSN_MUL, A0, A2, A4));    /* XP(42) = XP(44) * XP(14) */
  xr_op(&t, enc(VT_INSN_PREFIX, 8, 1, 0, 0)); /* rs1 hi 001 */
  xr_op(&t, enc(VT_INSN_ADDI, 20, A0, 0));    /* XP(20) = XP(42) */
  xr_run(&t);
  XR_OK(st, &t);
  XR_EQ64(st, &t, 20, 0x0000000300000007ull * 0x0000000100000002ull);
  XR_EQ64(st, &t, 12, 0x0000000300000007ull); /* sources unchanged */
}

/* beq..bgeu on 64-bit values: a taken branch skips "addi a0, zero, 1" */
TEST(pair_prefix_branches) {
  static const vt_insn_id br[] = {VT_INSN_BEQ, VT_INSN_BNE, VT_INSN_BLT,
                                  VT_INSN_BGE, VT_INSN_BLTU, VT_INSN_BGEU};
  static const uint64_t vals[][2] = {
      {0x0000000100000000ull, 0x0000000000000000ull}, /* equal low words */
      {0xffffffff00000000ull, 0x0000000100000000ull},
      {0x8000000000000000ull, 0x7fffffffffffffffull},
      {42, 42},
      {0x00000000ffffffffull, 0x0000000100000000ull},
  };
  for (unsigned b = 0; b < 6; b++)
    for (unsigned v = 0; v < sizeof vals / sizeof vals[0]; v++) {
      uint64_t x = vals[v][0], y = vals[v][1];
      bool taken;
      switch (b) {
      case 0: taken = x == y; break;
      case 1: taken = x != y; break;
      case 2: taken = (int64_t)x < (int64_t)y; break;
      case 3: taken = (int64_t)x >= (int64_t)y; break;
      case 4: taken = x < y; break;
      default: taken = x >= y; break;
      }
      xrun t = {0};
      xr_set64(&t, 12, x);
      xr_set64(&t, 14, y);
      xr_op(&t, pfx_pair());
      xr_op(&t, enc(br[b], A2, A4, 8));
      xr_op(&t, enc(VT_INSN_ADDI, A0, ZERO, 1));
      xr_run(&t);
      XR_OK(st, &t);
      CHECK_EQ_U32(st, t.out[10], taken ? 0 : 1);
    }
}

TEST(pair_prefix_neg_and_shift_errors) {
  /* prefix pair=1, neg=1: XP(10) = -XP(12) + XP(14) (3.5.1 example) */
  xrun t = {0};
  xr_set64(&t, 12, 0x0000000500000000ull);
  xr_set64(&t, 14, 3);
  xr_op(&t, enc(VT_INSN_PREFIX, 0, 1, 1, 0));
  xr_op(&t, enc(VT_INSN_ADD, A0, A2, A4));
  xr_run(&t);
  XR_OK(st, &t);
  XR_EQ64(st, &t, 10, 3 - 0x0000000500000000ull);
  /* slli by 40 without a pair prefix is illegal (D18) */
  xrun u = {0};
  xr_op(&u, enc(VT_INSN_SLLI, A0, A2, 40));
  xr_run(&u);
  XR_ERROR(st, &u, VT_ERR_ILLEGAL, 0, "illegal instruction: shift amount 40 >= 32 without a pair prefix");
  /* the pair prefix before lw, addw, jal: illegal at that instruction (D17) */
  static const uint32_t words[] = {0x00062503u /* lw a0, 0(a2) */, 0x00e6053bu /* addw */};
  static const char *const names[] = {"lw", "addw"};
  for (unsigned k = 0; k < 2; k++) {
    xrun v = {0};
    xr_op(&v, pfx_pair());
    xr_op(&v, words[k]);
    xr_run(&v);
    char want[80];
    snprintf(want, sizeof want, "illegal instruction: prefix modifier pair does not apply to %s", names[k]);
    XR_ERROR(st, &v, VT_ERR_ILLEGAL, 1, want);
  }
  /* odd registers under the pair prefix */
  xrun o = {0};
  xr_op(&o, pfx_pair());
  xr_op(&o, enc(VT_INSN_ADD, A0, A3, A4));
  xr_run(&o);
  XR_ERROR(st, &o, VT_ERR_ILLEGAL, 1, "illegal instruction: odd register where a pair is required");
}

TEST(odd_pairs_in_rv64_rows) {
  static const uint32_t words[] = {
      0x00e6053bu | (1u << 7),  /* addw a1, a2, a4 */
      0x00e6053bu | (1u << 15), /* addw a0, a3, a4 */
      0x00e6053bu | (1u << 20), /* addw a0, a2, a5 */
      0xffb6051bu | (1u << 7),  /* addiw a1, a2, -5 */
      0xff863583u | (1u << 15), /* ld a1, -8(a3) */
      0x00b63823u | (1u << 15), /* sd a1, 16(a3) */
      0x00d635afu | (1u << 15), /* amoadd.d a1, a3, (a3) */
      0x100635afu | (1u << 15), /* lr.d a1, (a3) */
  };
  for (unsigned k = 0; k < sizeof words / sizeof words[0]; k++) {
    xrun t = {0};
    xr_op(&t, words[k]);
    xr_run(&t);
    XR_ERROR(st, &t, VT_ERR_ILLEGAL, 0, "illegal instruction: odd register where a pair is required");
  }
}

/* ---- ld / sd (3.1.3) ---- */

TEST(ld_sd_addresses) {
  xrun t = {0};
  xr_map(&t, 0xfffff000u, 0x1000);
  xr_poke(&t, 0xfffffffcu, 0xcafef00du);
  xr_poke(&t, OUT_BASE + 0x800, 0x11223344u);
  xr_set64(&t, 12, 0x0000000100000000ull); /* + (-4) = 0xfffffffc */
  xr_set64(&t, 14, OUT_BASE + 0x808);      /* high word 0 */
  t.x[16] = 0x5a5a5a5au;
  t.x[5] = 0x77777777u;
  xr_op(&t, enc(VT_INSN_LD, A0, -4, A2));  /* 32-bit data: x11 untouched */
  xr_op(&t, enc(VT_INSN_LD, 6, -8, A4));   /* OUT_BASE + 0x800 */
  xr_op(&t, enc(VT_INSN_SD, A6, -4, A2));  /* store to 0xfffffffc */
  xr_op(&t, enc(VT_INSN_LD, 7, -4, A2));
  xr_op(&t, enc(VT_INSN_SD, 5, 8, A4));    /* OUT_BASE + 0x810 */
  xr_op(&t, enc(VT_INSN_LD, 8, 8, A4));
  t.x[11] = 0x01020304u;
  xr_run(&t);
  XR_OK(st, &t);
  CHECK_EQ_U32(st, t.out[10], 0xcafef00du);
  CHECK_EQ_U32(st, t.out[11], 0x01020304u);
  CHECK_EQ_U32(st, t.out[6], 0x11223344u);
  CHECK_EQ_U32(st, t.out[7], 0x5a5a5a5au);
  CHECK_EQ_U32(st, t.out[8], 0x77777777u);
}

TEST(ld_sd_faults) {
  /* 0xfffffffc + 8 = 0x1_0000_0004: at or past 2^32 */
  xrun t = {0};
  xr_set64(&t, 12, 0x00000000fffffffcull);
  xr_op(&t, enc(VT_INSN_LD, A0, 8, A2));
  xr_run(&t);
  XR_ERROR(st, &t, VT_ERR_ACCESS, 0,
           "64-bit address 0x0000000100000004 is outside the 32-bit physical space");
  /* a high word of 2 stays above 2^32 with any offset */
  xrun u = {0};
  xr_set64(&u, 12, 0x0000000200000000ull);
  xr_op(&u, enc(VT_INSN_SD, A0, -2048, A2));
  xr_run(&u);
  XR_ERROR(st, &u, VT_ERR_ACCESS, 0,
           "64-bit address 0x00000001fffff800 is outside the 32-bit physical space");
  /* misaligned 32-bit data */
  xrun v = {0};
  xr_set64(&v, 12, OUT_BASE);
  xr_op(&v, enc(VT_INSN_LD, A0, 2, A2));
  xr_run(&v);
  XR_ERROR(st, &v, VT_ERR_MISALIGNED, 0, "misaligned 4-byte load at 0x90000002");
}

/* ---- RV64A (3.1.4) ---- */

TEST(amo_d_equals_amo_w) {
  static const vt_insn_id d_ops[] = {VT_INSN_AMOSWAP_D, VT_INSN_AMOADD_D, VT_INSN_AMOXOR_D,
                                     VT_INSN_AMOAND_D, VT_INSN_AMOOR_D, VT_INSN_AMOMIN_D,
                                     VT_INSN_AMOMAX_D, VT_INSN_AMOMINU_D, VT_INSN_AMOMAXU_D};
  static const uint32_t mem0[] = {0x80000005u, 7, 0xfffffff0u};
  static const uint32_t src[] = {3, 0xfffffffeu, 0x7fffffffu};
  for (unsigned o = 0; o < 9; o++)
    for (unsigned v = 0; v < 3; v++) {
      uint32_t m = mem0[v], s = src[(v + o) % 3], want;
      switch (o) {
      case 0: want = s; break;
      case 1: want = m + s; break;
      case 2: want = m ^ s; break;
      case 3: want = m & s; break;
      case 4: want = m | s; break;
      case 5: want = (int32_t)m < (int32_t)s ? m : s; break;
      case 6: want = (int32_t)m > (int32_t)s ? m : s; break;
      case 7: want = m < s ? m : s; break;
      default: want = m > s ? m : s; break;
      }
      xrun t = {0};
      xr_poke(&t, OUT_BASE + 0x900, m);
      xr_set64(&t, 12, OUT_BASE + 0x900);
      t.x[13] = 0; /* high word 0 */
      t.x[6] = s;
      xr_op(&t, enc(d_ops[o], A1, 6, A2));
      xr_op(&t, enc(VT_INSN_LD, 7, 0, A2));
      xr_run(&t);
      XR_OK(st, &t);
      CHECK_EQ_U32(st, t.out[11], m); /* rd = old value */
      CHECK_EQ_U32(st, t.out[7], want);
    }
  /* a high word of 1 faults before any access */
  xrun u = {0};
  xr_set64(&u, 12, 0x0000000190000000ull);
  xr_op(&u, enc(VT_INSN_AMOADD_D, A1, 6, A2));
  xr_run(&u);
  XR_ERROR(st, &u, VT_ERR_ACCESS, 0,
           "64-bit address 0x0000000190000000 is outside the 32-bit physical space");
  xrun v = {0};
  xr_set64(&v, 12, OUT_BASE + 2);
  xr_op(&v, enc(VT_INSN_AMOSWAP_D, A1, 6, A2));
  xr_run(&v);
  XR_ERROR(st, &v, VT_ERR_MISALIGNED, 0, "misaligned 4-byte store at 0x90000002");
}

/* one reservation of an address and a width (C12): lr.d/sc.d pair, lr.w
 * then sc.d fails (rd = 1, nothing stored), and the reservation ends */
TEST(lr_sc_d) {
  xrun t = {0};
  xr_poke(&t, OUT_BASE + 0xa00, 100);
  xr_set64(&t, 12, OUT_BASE + 0xa00);
  t.x[6] = 200, t.x[7] = 300;
  xr_op(&t, enc(VT_INSN_LR_D, A0, A2));
  xr_op(&t, enc(VT_INSN_SC_D, 16, 6, A2));  /* succeeds: 200 stored, x16 = 0 */
  xr_op(&t, enc(VT_INSN_SC_D, 17, 7, A2));  /* no reservation: fails */
  xr_op(&t, enc(VT_INSN_LR_W, 18, A2));     /* lr.w on the same word */
  xr_op(&t, enc(VT_INSN_SC_D, 19, 7, A2));  /* width differs: fails */
  xr_op(&t, enc(VT_INSN_LD, 20, 0, A2));
  t.x[16] = t.x[17] = t.x[19] = 7;
  xr_run(&t);
  XR_OK(st, &t);
  CHECK_EQ_U32(st, t.out[10], 100);
  CHECK_EQ_U32(st, t.out[16], 0);
  CHECK_EQ_U32(st, t.out[17], 1);
  CHECK_EQ_U32(st, t.out[18], 200);
  CHECK_EQ_U32(st, t.out[19], 1);
  CHECK_EQ_U32(st, t.out[20], 200);
}

RUN_TESTS(T(w_forms_boundaries), T(w_forms_srliw_and_x0), T(pair_prefix_arithmetic),
          T(pair_prefix_with_ext), T(pair_prefix_branches), T(pair_prefix_neg_and_shift_errors),
          T(odd_pairs_in_rv64_rows), T(ld_sd_addresses), T(ld_sd_faults), T(amo_d_equals_amo_w),
          T(lr_sc_d))
