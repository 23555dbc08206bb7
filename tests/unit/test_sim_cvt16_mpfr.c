/* The fp16/bf16 per-lane converts on the simulator (isa2025.md 3.2.4, test
 * plan 7): vfcvt.f.h.v and vfcvt.f.bf16.v over all 65536 16-bit inputs
 * (bits 31:16 of the source hold garbage, which must be ignored), and
 * vfcvt.h.f.v / vfcvt.bf16.f.v over directed and random binary32 inputs in
 * all five rounding modes, with the 16-bit result sign-extended into the
 * lane (D28) and per-lane fflags; masking with v0.t and the SIMT mask;
 * illegal at SEW != 32 and with mstatus.FS off. Expected values: MPFR
 * (fp_oracle.h) for binary16, the definition of 3.2.4 written out here
 * (b << 16, NaN -> 0x7fc00000) and MPFR for bfloat16. */
#include "lane_harness.h"
#include "fp_oracle.h"

static uint32_t sext16(uint64_t r) { return (uint32_t)(int32_t)(int16_t)(uint16_t)r; }

/* 16 -> 32: 2048 batches of 32 lanes, 8 per run (v8..v15 in place) */
static void widen_all(check_state *st, vt_insn_id id, bool bf16) {
  stats s = {0, 0};
  for (uint32_t base = 0; base < 65536; base += 256) {
    lrun t = {0};
    t.vtype = E32M1;
    for (unsigned r = 0; r < 8; r++)
      for (unsigned i = 0; i < 32; i++)
        t.v[r][i] = (base + 32 * r + i) | (uint32_t)(0xdead0000u + 0x10000u * i);
    for (unsigned r = 0; r < 8; r++) lr_op(&t, enc(id, 8 + r, 8 + r, 1));
    lr_run(&t);
    if (t.rc != VT_OK) {
      st->failed_checks++;
      fprintf(stderr, "%s\n", t.err.message);
      return;
    }
    uint32_t all = 0;
    for (unsigned r = 0; r < 8; r++)
      for (unsigned i = 0; i < 32; i++) {
        uint32_t h = base + 32 * r + i, fl = 0, want;
        if (bf16) { /* 3.2.4: b << 16 unless a NaN */
          bool nan = (h & 0x7f80u) == 0x7f80u && (h & 0x7fu);
          want = nan ? 0x7fc00000u : h << 16;
          if (nan && !(h & 0x40u)) fl = NV;
        } else {
          want = (uint32_t)oracle_cvt(O_F16, O_F32, h, VT_RM_RNE, &fl);
        }
        all |= fl;
        char in[16];
        snprintf(in, sizeof in, "%04x", h);
        report(st, &s, vt_isa_insn(id)->mnemonic, in, t.out[r][i], 0, want, 0);
      }
    CHECK_EQ_U32(st, t.fflags, all);
  }
  printf("%s: %ld inputs\n", vt_isa_insn(id)->mnemonic, s.cases);
}

TEST(f16_to_f32_exhaustive) { widen_all(st, VT_INSN_VFCVT_F_H_V, false); }
TEST(bf16_to_f32_exhaustive) { widen_all(st, VT_INSN_VFCVT_F_BF16_V, true); }

/* binary32 inputs around the 16-bit formats' boundaries */
static uint32_t directed(unsigned k, bool bf16) {
  static const uint32_t common[] = {
      0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffa00000u,
      0x3f800000u, 0x3f800001u /* spec example: 1 + 2^-23 */, 0xc0000000u, 0x00000001u,
      0x7f7fffffu, 0x3f801000u, 0x3f803000u, 0x3f808000u, 0x3f818000u, 0x33000000u,
  };
  static const uint32_t h16[] = {
      0x477fe000u /* 65504 */, 0x477ff000u /* 65520: overflow boundary */, 0x477fefffu,
      0x387fc000u /* largest subnormal */, 0x38800000u /* smallest normal */, 0x33800000u,
      0x33000001u, 0x3f801000u /* a tie */, 0x387ff000u,
  };
  static const uint32_t b16[] = {
      0x7f7f8000u /* largest bf16 + half ulp */, 0x7f7f7fffu, 0x00800000u, 0x00400000u,
      0x3f808000u /* a tie */, 0x3f818000u, 0x00008000u, 0x80c00000u,
  };
  const size_t nc = sizeof common / sizeof common[0];
  if (k < nc) return common[k];
  k -= (unsigned)nc;
  return bf16 ? b16[k % (sizeof b16 / sizeof b16[0])] : h16[k % (sizeof h16 / sizeof h16[0])];
}

static void narrow(check_state *st, vt_insn_id id, bool bf16) {
  stats s = {0, 0};
  uint64_t seed = bf16 ? 11 : 12;
  for (unsigned batch = 0; batch < 40; batch++)
    for (int rm = 0; rm < 5; rm++) {
      lrun t = {0};
      t.vtype = E32M1;
      t.frm = (unsigned)rm;
      uint32_t A[32];
      for (unsigned i = 0; i < 32; i++) {
        A[i] = batch == 0 ? directed(i, bf16) : (uint32_t)lr_rand(&seed);
        if (batch % 3 == 1) /* near the format's range */
          A[i] = (A[i] & 0x807fffffu) | (uint32_t)((bf16 ? 0 : 100) + (lr_rand(&seed) % 40)) << 23;
        t.v[0][i] = A[i];
      }
      lr_op(&t, enc(id, 9, 8, 1));
      t.lane_op = enc(id, 10, 8, 0);
      lr_run(&t);
      if (t.rc != VT_OK) {
        st->failed_checks++;
        fprintf(stderr, "%s\n", t.err.message);
        return;
      }
      for (unsigned i = 0; i < 32; i++) {
        uint32_t fl;
        uint64_t r = oracle_cvt(O_F32, bf16 ? O_BF16 : O_F16, A[i], rm, &fl);
        char in[32];
        snprintf(in, sizeof in, "%s %08x", rm_name[rm], A[i]);
        report(st, &s, vt_isa_insn(id)->mnemonic, in, t.out[1][i], t.lane_flags[i], sext16(r), fl);
      }
    }
  printf("%s: %ld inputs x modes\n", vt_isa_insn(id)->mnemonic, s.cases);
}

TEST(f32_to_f16_vs_mpfr) { narrow(st, VT_INSN_VFCVT_H_F_V, false); }
TEST(f32_to_bf16_vs_mpfr) { narrow(st, VT_INSN_VFCVT_BF16_F_V, true); }

/* the examples of 3.2.4 */
TEST(spec_examples) {
  lrun t = {0};
  t.vtype = E32M1;
  t.v[0][0] = 0x3f800001u;
  t.v[0][1] = 0xc0000000u;
  lr_op(&t, enc(VT_INSN_VFCVT_H_F_V, 9, 8, 1));
  lr_run(&t);
  LR_OK(st, &t);
  CHECK_EQ_U32(st, t.out[1][0], 0x00003c00u);
  CHECK_EQ_U32(st, t.out[1][1], 0xffffc000u);
}

/* v0.t and the SIMT mask (vl) leave inactive lanes alone; SEW 16/64 and
 * FS off are illegal */
TEST(masking_and_illegal) {
  lrun t = {0};
  t.vtype = E32M1;
  t.avl = 24;
  t.x[0] = 0x00ff00ffu;
  for (unsigned i = 0; i < 32; i++) t.v[0][i] = 0x3c00u, t.v[1][i] = 0x11110000u + i;
  lr_op(&t, enc(VT_INSN_VMV_S_X, 0, A0));
  lr_op(&t, enc(VT_INSN_VFCVT_F_H_V, 9, 8, 0));
  lr_run(&t);
  LR_OK(st, &t);
  for (unsigned i = 0; i < 32; i++) {
    bool act = i < 24 && ((0x00ff00ffu >> i) & 1);
    CHECK_EQ_U32(st, t.out[1][i], act ? 0x3f800000u : 0x11110000u + i);
  }
  static const uint32_t vt[] = {E16M1, E64, E8M1};
  for (unsigned k = 0; k < 3; k++) {
    lrun u = {0};
    u.vtype = vt[k];
    lr_op(&u, enc(VT_INSN_VFCVT_BF16_F_V, 10, 8, 1));
    lr_run(&u);
    LR_ILLEGAL(st, &u, vt[k] == E64 ? "only single-width element-wise instructions exist at SEW = 64"
                                    : "fp16/bf16 conversions need SEW = 32");
  }
  lrun f = {0};
  f.vtype = E32M1;
  f.fs_off = true;
  lr_op(&f, enc(VT_INSN_VFCVT_F_H_V, 9, 8, 1));
  lr_run(&f);
  LR_ILLEGAL(st, &f, "FP used while mstatus.FS is Off");
}

TEST(init) {
  (void)st;
  oracle_setup();
}

RUN_TESTS(T(init), T(f16_to_f32_exhaustive), T(bf16_to_f32_exhaustive), T(f32_to_f16_vs_mpfr),
          T(f32_to_bf16_vs_mpfr), T(spec_examples), T(masking_and_illegal))
