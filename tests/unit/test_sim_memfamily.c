/* The v2025 memory families on the simulator (isa2025.md 3.3, 3.4, 3.5.3):
 * global/local/private per-lane loads and stores of every width with
 * positive and negative offsets, global with gds = 0 equal to flat, the range
 * CSRs exactly at the limit byte and one past it, gds != 0, the private
 * family equal to vl*.v/vs*.v, the 64-bit-address family with high words 0
 * and 1 and sums crossing 2^32, misaligned/unmapped/vill errors, lane order
 * of colliding stores, inactive lanes; PREFIX_MEMORY: the legality of every
 * space x width x pair cell for each kind of instruction, the documented
 * addresses and register groups, the void effect before non-memory
 * instructions, ILLEGAL before AMOs, RVV and FP accesses and fences, width
 * 128 as four words, register groups at x0. Expected values are the bytes
 * the test put in memory, extended by hand. */
#include "xrun.h"

#define DATA (OUT_BASE + 0x2000u) /* bytes DATA[k] = (k * 37 + 11) & 0xff */
#define CSR_GDS 0x810
#define CSR_GDS_LIMIT 0x811
#define CSR_LDS_LIMIT 0x812
#define PRIV (OUT_BASE + 0x4000u) /* CSR_PDS of the private tests */

static uint8_t data_byte(uint32_t k) { return (uint8_t)(k * 37u + 11u); }
static void poke_data(xrun *t) {
  for (uint32_t k = 0; k < 64; k += 4)
    xr_poke(t, DATA + k,
            (uint32_t)data_byte(k) | (uint32_t)data_byte(k + 1) << 8 |
                (uint32_t)data_byte(k + 2) << 16 | (uint32_t)data_byte(k + 3) << 24);
}
/* the value a load of 'size' bytes at DATA + off gives */
static uint32_t data_load(uint32_t off, unsigned size, bool sign) {
  uint32_t v = 0;
  for (unsigned k = 0; k < size; k++) v |= (uint32_t)data_byte(off + k) << (8 * k);
  if (sign && size < 4 && (v >> (8 * size - 1)) & 1) v |= ~0u << (8 * size);
  return v;
}
/* csrw csr, xN */
static uint32_t csrw(unsigned csr, unsigned rs) { return enc(VT_INSN_CSRRW, ZERO, (int)csr, (int)rs); }
static uint32_t pmem(int space, int width, int pair, int hint, int ext) {
  return enc(VT_INSN_PREFIX_MEMORY, space, width, pair, hint, ext);
}
static void lanes(xrun *t, unsigned reg, uint32_t first, uint32_t step) {
  for (unsigned i = 0; i < 32; i++) t->v[reg][i] = first + step * i;
}
#define CHECK_LANE(st, t, reg, i, want)                                                   \
  do {                                                                                    \
    uint32_t g_ = (t)->vout[reg][i], w_ = (uint32_t)(want);                               \
    if (g_ != w_) {                                                                       \
      (st)->failed_checks++;                                                              \
      fprintf(stderr, "%s:%d: v%u lane %u = 0x%08x, expected 0x%08x\n", __FILE__, __LINE__, \
              (unsigned)(reg), (unsigned)(i), g_, w_);                                    \
    }                                                                                     \
  } while (0)

/* ---- global and local (3.3) ---- */

/* each load of the global family with gds = 0 equals the flat load of the
 * same operands; +-offsets */
TEST(global_loads_equal_flat) {
  static const struct { vt_insn_id g, f; unsigned size; bool sign; int imm; } L[] = {
      {VT_INSN_VLB_GLOBAL_V, VT_INSN_VLB12_V, 1, true, 3},
      {VT_INSN_VLBU_GLOBAL_V, VT_INSN_VLBU12_V, 1, false, -1},
      {VT_INSN_VLH_GLOBAL_V, VT_INSN_VLH12_V, 2, true, -2},
      {VT_INSN_VLHU_GLOBAL_V, VT_INSN_VLHU12_V, 2, false, 6},
      {VT_INSN_VLW_GLOBAL_V, VT_INSN_VLW12_V, 4, false, -4},
  };
  for (unsigned k = 0; k < 5; k++) {
    xrun t = {0};
    t.vec = true;
    poke_data(&t);
    lanes(&t, 2, DATA + 8, L[k].size); /* lane i at DATA + 8 + size*i */
    xr_op(&t, enc(L[k].g, 1, L[k].imm, 2));
    xr_op(&t, enc(L[k].f, 3, L[k].imm, 2));
    xr_run(&t);
    XR_OK(st, &t);
    for (unsigned i = 0; i < 4; i++) {
      uint32_t want = data_load(8 + L[k].size * i + (uint32_t)L[k].imm, L[k].size, L[k].sign);
      CHECK_LANE(st, &t, 1, i, want);
      CHECK_LANE(st, &t, 3, i, want);
    }
  }
}

/* stores of every width through gds != 0, read back as words */
TEST(global_stores_with_base) {
  xrun t = {0};
  t.vec = true;
  t.x[5] = DATA; /* gds */
  t.x[6] = DATA + 0xff; /* gds_limit */
  lanes(&t, 2, 0x40, 4);     /* offsets 0x40 + 4i */
  lanes(&t, 3, 0x81828384u, 0x01010101u);
  xr_op(&t, csrw(CSR_GDS, 5));
  xr_op(&t, csrw(CSR_GDS_LIMIT, 6));
  xr_op(&t, enc(VT_INSN_VSW_GLOBAL_V, 3, -0x20, 2)); /* DATA + 0x20 + 4i */
  xr_op(&t, enc(VT_INSN_VSH_GLOBAL_V, 3, 0x10, 2));  /* DATA + 0x50 + 4i, 2 bytes */
  xr_op(&t, enc(VT_INSN_VSB_GLOBAL_V, 3, 0x21, 2));  /* DATA + 0x61 + 4i, 1 byte */
  lanes(&t, 0, DATA, 4);
  xr_op(&t, enc(VT_INSN_VLW12_V, 4, 0x20, 0));
  xr_op(&t, enc(VT_INSN_VLW12_V, 5, 0x50, 0));
  xr_op(&t, enc(VT_INSN_VLW12_V, 6, 0x60, 0));
  xr_op(&t, enc(VT_INSN_CSRRS, 7, CSR_GDS, ZERO));
  xr_run(&t);
  XR_OK(st, &t);
  CHECK_EQ_U32(st, t.out[7], DATA);
  for (unsigned i = 0; i < 4; i++) {
    uint32_t v = 0x81828384u + 0x01010101u * i;
    CHECK_LANE(st, &t, 4, i, v);
    CHECK_LANE(st, &t, 5, i, v & 0xffff);
    CHECK_LANE(st, &t, 6, i, (v & 0xff) << 8);
  }
}

/* the last byte of an access exactly at the limit passes, one past faults */
TEST(range_limits) {
  /* global: limit DATA + 0x13; lane 3 reads DATA+0x10..0x13 */
  xrun t = {0};
  t.vec = true;
  t.x[5] = DATA + 0x13;
  lanes(&t, 2, DATA + 4, 4);
  xr_op(&t, csrw(CSR_GDS_LIMIT, 5));
  xr_op(&t, enc(VT_INSN_VLW_GLOBAL_V, 1, 0, 2));
  xr_run(&t);
  XR_OK(st, &t);
  xrun u = t;
  u.n = 0;
  xr_op(&u, csrw(CSR_GDS_LIMIT, 5));
  xr_op(&u, enc(VT_INSN_VLW_GLOBAL_V, 1, 4, 2)); /* lane 3: DATA+0x14..0x17 */
  xr_run(&u);
  char want[128];
  snprintf(want, sizeof want, "global range: lane 3, address 0x%08x, limit 0x%08x", DATA + 0x14,
           DATA + 0x13);
  XR_ERROR(st, &u, VT_ERR_ACCESS, 1, want);
  /* local, the example of 3.3.2: lds_limit 0x700003ff, V(5,i) = 0x3f8 */
  xrun l = {0};
  l.vec = true;
  l.x[5] = 0x700003ffu;
  lanes(&l, 5, 0x3f8, 0);
  lanes(&l, 6, 0x1234, 1);
  xr_op(&l, csrw(CSR_LDS_LIMIT, 5));
  xr_op(&l, enc(VT_INSN_VSW_LOCAL_V, 6, 4, 5)); /* 0x700003fc: passes */
  xr_op(&l, enc(VT_INSN_VLW_LOCAL_V, 4, 4, 5));
  xr_op(&l, enc(VT_INSN_VLBU_LOCAL_V, 2, 7, 5)); /* 0x700003ff: the limit byte */
  xr_op(&l, enc(VT_INSN_VLB_LOCAL_V, 3, 8, 5)); /* 0x70000400: one past */
  xr_run(&l);
  XR_ERROR(st, &l, VT_ERR_ACCESS, 4, "local range: lane 0, address 0x70000400, limit 0x700003ff");
  /* the stored word was there: run without the faulting load */
  l.n = 4;
  xr_run(&l);
  XR_OK(st, &l);
  CHECK_LANE(st, &l, 4, 0, 0x1237); /* lanes store to one word: the highest lane wins */
  CHECK_LANE(st, &l, 2, 3, 0);      /* byte 3 of 0x00001237 */
  /* a limit below the base makes every access fault */
  xrun z = {0};
  z.vec = true;
  xr_op(&z, csrw(CSR_GDS_LIMIT, ZERO)); /* gds 0, limit 0: address 0..0 only */
  lanes(&z, 2, DATA, 0);
  xr_op(&z, enc(VT_INSN_VLB_GLOBAL_V, 1, 0, 2));
  xr_run(&z);
  snprintf(want, sizeof want, "global range: lane 0, address 0x%08x, limit 0x00000000", DATA);
  XR_ERROR(st, &z, VT_ERR_ACCESS, 1, want);
  /* gds + offset past 2^32 never wraps */
  xrun g = {0};
  g.vec = true;
  g.x[5] = 0xfffffff0u;
  lanes(&g, 2, 0x20, 0);
  xr_op(&g, csrw(CSR_GDS, 5));
  xr_op(&g, enc(VT_INSN_VLW_GLOBAL_V, 1, 0, 2));
  xr_run(&g);
  XR_ERROR(st, &g, VT_ERR_ACCESS, 1, "global range: lane 0, address 0x100000010, limit 0xffffffff");
}

/* the private family reaches the bytes of vl*.v / vs*.v at the same offsets */
TEST(private_equals_v202_private) {
  static const struct { vt_insn_id s_new, l_old; unsigned size; } P[] = {
      {VT_INSN_VSW_PRIVATE_V, VT_INSN_VLW_V, 4},
      {VT_INSN_VSH_PRIVATE_V, VT_INSN_VLHU_V, 2},
      {VT_INSN_VSB_PRIVATE_V, VT_INSN_VLBU_V, 1},
  };
  for (unsigned k = 0; k < 3; k++) {
    xrun t = {0};
    t.vec = true;
    t.x[5] = PRIV;
    xr_op(&t, csrw(0x807, 5));
    lanes(&t, 0, 8, 0); /* offset 8 (+imm) in every lane */
    lanes(&t, 1, 0xa1b2c3d4u, 0x01000100u);
    int imm = k == 0 ? -4 : k == 1 ? 2 : 1;
    xr_op(&t, enc(P[k].s_new, 1, imm, 0));
    xr_op(&t, enc(P[k].l_old, 2, imm, 0));
    xr_op(&t, enc(VT_INSN_VLBU_PRIVATE_V, 3, imm, 0));
    xr_run(&t);
    XR_OK(st, &t);
    for (unsigned i = 0; i < 4; i++) {
      uint32_t v = 0xa1b2c3d4u + 0x01000100u * i;
      uint32_t m = P[k].size == 4 ? v : v & ((1u << (8 * P[k].size)) - 1);
      CHECK_LANE(st, &t, 2, i, m);
      CHECK_LANE(st, &t, 3, i, v & 0xff);
    }
  }
}

/* ---- the 64-bit-address family (3.4) ---- */

TEST(flat64_addresses) {
  xrun t = {0};
  t.vec = true;
  xr_map(&t, 0xfffff000u, 0x1000);
  poke_data(&t);
  lanes(&t, 2, DATA, 4);
  lanes(&t, 3, 0, 0); /* high words 0: the flat address */
  lanes(&t, 4, 0, 0);
  lanes(&t, 5, 1, 0); /* V(4,i) = 0, V(5,i) = 1: 2^32 - 1 with imm -1 */
  lanes(&t, 6, 0x11, 0x11);
  xr_op(&t, enc(VT_INSN_VLW12D_V, 1, 0, 2));
  xr_op(&t, enc(VT_INSN_VLH12D_V, 7, 6, 2));
  xr_op(&t, enc(VT_INSN_VSB12D_V, 6, -1, 4)); /* every lane to 0xffffffff: lane 3 wins */
  xr_run(&t);
  XR_OK(st, &t);
  for (unsigned i = 0; i < 4; i++) {
    CHECK_LANE(st, &t, 1, i, data_load(4 * i, 4, false));
    CHECK_LANE(st, &t, 7, i, data_load(4 * i + 6, 2, true));
  }
  /* read the byte back through a 64-bit address */
  xrun r = t;
  r.n = 0;
  xr_op(&r, enc(VT_INSN_VSB12D_V, 6, -1, 4));
  xr_op(&r, enc(VT_INSN_VLBU12D_V, 1, -1, 4));
  xr_run(&r);
  XR_OK(st, &r);
  CHECK_LANE(st, &r, 1, 0, 0x44);
  /* a high word of 1 with a non-negative offset faults (lane 0 first) */
  xrun f = t;
  f.n = 0;
  xr_op(&f, enc(VT_INSN_VLW12D_V, 1, 0, 4));
  xr_run(&f);
  XR_ERROR(st, &f, VT_ERR_ACCESS, 0,
           "lane 0: 64-bit address 0x0000000100000000 is outside the 32-bit physical space");
  /* an odd vs1 is illegal */
  xrun o = t;
  o.n = 0;
  xr_op(&o, enc(VT_INSN_VLW12D_V, 1, 0, 2) | (1u << 15));
  xr_run(&o);
  XR_ERROR(st, &o, VT_ERR_ILLEGAL, 0, "illegal instruction: odd register where a pair is required");
}

/* ---- errors, lanes ---- */

TEST(faults_vill_and_lanes) {
  xrun t = {0};
  t.vec = true;
  lanes(&t, 2, DATA + 2, 0);
  xr_op(&t, enc(VT_INSN_VLW_GLOBAL_V, 1, 0, 2));
  xr_run(&t);
  char want[96];
  snprintf(want, sizeof want, "misaligned 4-byte load at 0x%08x", DATA + 2);
  XR_ERROR(st, &t, VT_ERR_MISALIGNED, 0, want);
  xrun u = {0};
  u.vec = true;
  lanes(&u, 2, 0x10, 0);
  xr_op(&u, enc(VT_INSN_VSH_GLOBAL_V, 1, 0, 2));
  xr_run(&u);
  XR_ERROR(st, &u, VT_ERR_ACCESS, 0, "store of unmapped address 0x00000010");
  /* vill (no vsetvli): loads are illegal too (D25) */
  static const vt_insn_id fam[] = {VT_INSN_VLW_GLOBAL_V, VT_INSN_VLB_LOCAL_V,
                                   VT_INSN_VLHU_PRIVATE_V, VT_INSN_VLW12D_V, VT_INSN_VSW_GLOBAL_V};
  for (unsigned k = 0; k < 5; k++) {
    xrun v = {0};
    xr_op(&v, enc(fam[k], 2, 0, 4));
    xr_run(&v);
    XR_ERROR(st, &v, VT_ERR_ILLEGAL, 0,
             "illegal instruction: vector memory access while vtype is illegal");
  }
  /* inactive lanes (vl = 2) keep their values */
  xrun w = {0};
  w.vec = true;
  w.avl = 2;
  poke_data(&w);
  lanes(&w, 2, DATA, 4);
  lanes(&w, 1, 0xeeee0000u, 1);
  xr_op(&w, enc(VT_INSN_VLW_GLOBAL_V, 1, 0, 2));
  xr_run(&w);
  XR_OK(st, &w);
  CHECK_LANE(st, &w, 1, 1, data_load(4, 4, false));
  CHECK_LANE(st, &w, 1, 2, 0xeeee0002u);
  CHECK_LANE(st, &w, 1, 3, 0xeeee0003u);
}

/* ---- PREFIX_MEMORY (3.5.3) ---- */

enum { G_SCALAR_W, G_SCALAR_B, G_LD, G_FLAT_W, G_FLAT_B, G_FLAT64_W, G_FAMILY_W, G_FAMILY_B,
       G_PRIV_W, G_COUNT };
/* one instruction per row group of table 3.5.3 (a): its own space, the
 * spaces (bit per space field value) and widths it admits */
static const struct {
  vt_insn_id id;
  bool scalar;
  unsigned own, spaces;
  bool all_widths;
} G[G_COUNT] = {
    [G_SCALAR_W] = {VT_INSN_LW, true, 0, 0xb, true},
    [G_SCALAR_B] = {VT_INSN_LB, true, 0, 0xb, false},
    [G_LD] = {VT_INSN_LD, true, 0, 0xb, true},
    [G_FLAT_W] = {VT_INSN_VLW12_V, false, 0, 0xf, true},
    [G_FLAT_B] = {VT_INSN_VLB12_V, false, 0, 0xf, false},
    [G_FLAT64_W] = {VT_INSN_VLW12D_V, false, 0, 0xf, true},
    [G_FAMILY_W] = {VT_INSN_VLW_GLOBAL_V, false, 1, 0x1, true},
    [G_FAMILY_B] = {VT_INSN_VLB_GLOBAL_V, false, 1, 0x1, false},
    [G_PRIV_W] = {VT_INSN_VLW_V, false, 2, 0x1, true},
};
/* rd/vd 10 or 2 (even: wide groups), base a2 or v4 */
static uint32_t group_word(unsigned g) {
  return G[g].scalar ? enc(G[g].id, A0, 0, A2) : enc(G[g].id, 2, 0, 4);
}

/* every space x width x pair cell: legal ones run, illegal ones raise
 * ILLEGAL at the instruction (operands chosen so that every legal access is
 * mapped, aligned and in range) */
TEST(prefix_memory_cells) {
  static const char *const sp[] = {"default", "global", "private", "local"};
  static const char *const wd[] = {"32", "64", "96", "128"};
  unsigned legal = 0, illegal = 0;
  for (unsigned g = 0; g < G_COUNT; g++)
    for (unsigned s = 0; s < 4; s++)
      for (unsigned wdt = 0; wdt < 4; wdt++)
        for (unsigned pr = 0; pr < 2; pr++) {
          xrun t = {0};
          t.vec = true;
          /* scalar base a2/a3, vector base v4/v5: an offset valid in the
           * space the access uses */
          unsigned eff = s ? s : G[g].own;
          uint32_t base = eff == 3 ? 0x100 : eff == 2 ? 0x10 : DATA;
          t.x[12] = base, t.x[13] = 0;
          t.x[5] = PRIV;
          lanes(&t, 4, base, 0);
          lanes(&t, 5, 0, 0);
          xr_op(&t, csrw(0x807, 5));
          xr_op(&t, pmem((int)s, (int)wdt, (int)pr, 0, 0));
          xr_op(&t, group_word(g));
          xr_run(&t);
          bool ok = ((G[g].spaces >> s) & 1) && (wdt == 0 || G[g].all_widths);
          if (ok) {
            legal++;
            if (t.rc != VT_OK) {
              st->failed_checks++;
              fprintf(stderr, "group %u space %s width %s pair %u: %s\n", g, sp[s], wd[wdt], pr,
                      t.err.message);
            }
          } else {
            illegal++;
            char want[128];
            const char *mn = vt_isa_insn(G[g].id)->mnemonic;
            if (!((G[g].spaces >> s) & 1))
              snprintf(want, sizeof want, "illegal instruction: prefix_memory space=%s does not apply to %s", sp[s], mn);
            else
              snprintf(want, sizeof want, "illegal instruction: prefix_memory width=%s does not apply to %s", wd[wdt], mn);
            XR_ERROR(st, &t, VT_ERR_ILLEGAL, 2, want);
          }
        }
  CHECK_EQ_U32(st, legal + illegal, G_COUNT * 32);
  CHECK(st, legal > 0 && illegal > 0);
}

/* the documented effects: global = the family instruction; width 64 with a
 * pair base into a scalar pair; local width 128 = four words per lane;
 * private width 64 with ext into v34/v35 */
TEST(prefix_memory_effects) {
  xrun t = {0};
  t.vec = true;
  poke_data(&t);
  xr_set64(&t, 12, DATA + 8);
  lanes(&t, 4, DATA, 4);
  lanes(&t, 6, 0x10, 0x10);         /* local offsets 0x10 + 0x10 i */
  lanes(&t, 2, 0xa0, 1);            /* v2..v5 data of the 128-bit store */
  lanes(&t, 3, 0xb0, 1);
  lanes(&t, 5, 0xc0, 1);
  xr_op(&t, pmem(1, 0, 0, 0, 0));   /* space=global */
  xr_op(&t, enc(VT_INSN_VLW12_V, 1, 0, 4));
  xr_op(&t, pmem(0, 1, 1, 5, 0));   /* width=64, pair=1, hint=5 */
  xr_op(&t, enc(VT_INSN_LD, A0, 0, A2));
  xr_op(&t, pmem(3, 3, 0, 0, 0));   /* space=local, width=128 */
  xr_op(&t, enc(VT_INSN_VSW12_V, 2, 16, 6));
  xr_op(&t, enc(VT_INSN_VLW_LOCAL_V, 0, 16 + 12, 6)); /* the fourth word: V(5,i) */
  xr_op(&t, enc(VT_INSN_VLW_LOCAL_V, 7, 16 + 4, 6));  /* the second: V(3,i) */
  xr_run(&t);
  XR_OK(st, &t);
  for (unsigned i = 0; i < 4; i++) {
    CHECK_LANE(st, &t, 1, i, data_load(4 * i, 4, false));
    CHECK_LANE(st, &t, 7, i, 0xb0 + i);
    CHECK_LANE(st, &t, 0, i, t.v[5][i]);
  }
  CHECK_EQ_U32(st, t.out[10], data_load(8, 4, false));
  CHECK_EQ_U32(st, t.out[11], data_load(12, 4, false));
}

TEST(prefix_memory_private_ext) {
  /* prefix_memory space=private, width=64, ext=9; vlw12.v v2, 0(v4):
   * v34/v35 from private offsets V(36,i) and V(36,i) + 4 */
  xrun t = {0};
  t.vec = true;
  lanes(&t, 1, 0x100, 1);
  lanes(&t, 2, 0x200, 1);
  lanes(&t, 0, 8, 0);
  t.x[5] = PRIV;
  xr_op(&t, csrw(0x807, 5));
  xr_op(&t, enc(VT_INSN_VSW_V, 1, 8, 0)); /* private offset 16 */
  xr_op(&t, enc(VT_INSN_VSW_V, 2, 12, 0)); /* private offset 20 */
  xr_op(&t, enc(VT_INSN_REGEXT, 1)); /* vd hi 001: v36 */
  xr_op(&t, enc(VT_INSN_VADD_VI, 4, 0, 8, 1)); /* v36 = v0 + 8 = 16 */
  xr_op(&t, pmem(2, 1, 0, 0, 9));
  xr_op(&t, enc(VT_INSN_VLW12_V, 2, 0, 4));
  xr_op(&t, enc(VT_INSN_REGEXT, 1 << 6)); /* vs2 hi 001: v6 = v34 + 0 */
  xr_op(&t, enc(VT_INSN_VADD_VI, 6, 2, 0, 1));
  xr_op(&t, enc(VT_INSN_REGEXT, 1 << 6)); /* v7 = v35 + 0 */
  xr_op(&t, enc(VT_INSN_VADD_VI, 7, 3, 0, 1));
  xr_run(&t);
  XR_OK(st, &t);
  for (unsigned i = 0; i < 4; i++) {
    CHECK_LANE(st, &t, 6, i, 0x100 + i);
    CHECK_LANE(st, &t, 7, i, 0x200 + i);
  }
}

TEST(prefix_memory_void_and_illegal) {
  /* before add: nothing applies, not even ext (C2): a0 = a2 + a4 */
  xrun t = {0};
  t.x[12] = 5, t.x[14] = 7;
  xr_op(&t, pmem(1, 3, 1, 31, 4095));
  xr_op(&t, enc(VT_INSN_ADD, A0, A2, A4));
  xr_run(&t);
  XR_OK(st, &t);
  CHECK_EQ_U32(st, t.out[10], 12);
  /* AMO, lr, RVV load, flw, fence: ILLEGAL */
  static const struct { uint32_t word; const char *mn; } B[] = {
      {0x00d6252fu, "amoadd.w"}, {0x1006252fu, "lr.w"}, {0x02066107u, "vle32.v"},
      {0x00062507u, "flw"},      {0x0ff0000fu, "fence"},
  };
  for (unsigned k = 0; k < 5; k++) {
    xrun u = {0};
    u.vec = true;
    xr_op(&u, pmem(0, 0, 0, 0, 0));
    xr_op(&u, B[k].word);
    xr_run(&u);
    char want[96];
    snprintf(want, sizeof want, "illegal instruction: prefix_memory cannot modify %s", B[k].mn);
    XR_ERROR(st, &u, VT_ERR_ILLEGAL, 1, want);
  }
  /* width 64 with an odd data register */
  xrun o = {0};
  o.x[12] = DATA;
  xr_op(&o, pmem(0, 1, 0, 0, 0));
  xr_op(&o, 0x00062583u); /* lw a1, 0(a2) */
  xr_run(&o);
  XR_ERROR(st, &o, VT_ERR_ILLEGAL, 1, "illegal instruction: odd register where a pair is required");
  /* a prefix after a prefix */
  xrun c = {0};
  xr_op(&c, enc(VT_INSN_REGEXT, 1));
  xr_op(&c, pmem(1, 0, 0, 0, 0));
  xr_op(&c, 0x00062503u);
  xr_run(&c);
  XR_ERROR(st, &c, VT_ERR_ILLEGAL, 1, "illegal instruction: prefix after prefix");
}

/* register groups at x0 read zeros and drop writes; width 128 = four words */
TEST(prefix_memory_x0_and_width128) {
  xrun t = {0};
  poke_data(&t);
  t.x[1] = 0x13572468u;
  t.x[12] = DATA + 16;
  t.x[16] = 0x11111111u, t.x[17] = 0x22222222u, t.x[18] = 0x33333333u, t.x[19] = 0x44444444u;
  xr_op(&t, pmem(0, 1, 0, 0, 0));
  xr_op(&t, 0x00062003u);                 /* lw zero, 0(a2): x1 keeps its value */
  xr_op(&t, pmem(0, 1, 0, 0, 0));
  xr_op(&t, enc(VT_INSN_SW, ZERO, 0, A2)); /* stores two zero words */
  xr_op(&t, pmem(0, 3, 0, 0, 0));
  xr_op(&t, enc(VT_INSN_SW, 16, 16, A2)); /* x16..x19 at DATA + 32.. */
  xr_op(&t, pmem(0, 3, 0, 0, 0));
  xr_op(&t, enc(VT_INSN_LW, 20, 16, A2));
  xr_op(&t, enc(VT_INSN_LW, 5, 0, A2));
  xr_op(&t, enc(VT_INSN_LW, 6, 4, A2));
  xr_run(&t);
  XR_OK(st, &t);
  CHECK_EQ_U32(st, t.out[1], 0x13572468u);
  CHECK_EQ_U32(st, t.out[5], 0);
  CHECK_EQ_U32(st, t.out[6], 0);
  for (unsigned k = 0; k < 4; k++) CHECK_EQ_U32(st, t.out[20 + k], 0x11111111u * (k + 1));
}

/* the range CSRs' launch values (2.5), 0x80d..0x80f unassigned, one copy
 * per warp (C14): warp 1 does not see warp 0's write */
TEST(range_csrs_per_warp) {
  prog p = {0};
  csrr(&p, A0, CSR_GDS);
  csrr(&p, A1, CSR_GDS_LIMIT);
  csrr(&p, A2, CSR_LDS_LIMIT);
  csrr(&p, A3, 0x805); /* wid */
  unsigned skip = E(&p, VT_INSN_BNE, A3, ZERO, 0);
  li(&p, T0, 0x1234);
  E(&p, VT_INSN_CSRRW, ZERO, CSR_GDS, T0);
  unsigned join = here(&p);
  patch_branch(&p, skip, join);
  E(&p, VT_INSN_BARRIER, 0, 0, 0);
  csrr(&p, A4, CSR_GDS);
  E(&p, VT_INSN_SLLI, T1, A3, 5);
  li(&p, T0, OUT_BASE);
  E(&p, VT_INSN_ADD, T0, T0, T1);
  E(&p, VT_INSN_SW, A0, 0, T0);
  E(&p, VT_INSN_SW, A1, 4, T0);
  E(&p, VT_INSN_SW, A2, 8, T0);
  E(&p, VT_INSN_SW, A4, 12, T0);
  emit(&p, WORD_ENDPRG);
  vt_device *dev = vt_device_new(NULL);
  vt_launch l = simple_launch(4, 2);
  vt_error e;
  CHECK(st, load_prog(dev, &p) == VT_OK);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_OK);
  for (unsigned w = 0; w < 2; w++) {
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 32 * w), 0);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 32 * w + 4), 0xffffffffu);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 32 * w + 8), 0x7fffffffu);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 32 * w + 12), w == 0 ? 0x1234u : 0);
  }
  vt_device_free(dev);
  xrun t = {0};
  xr_op(&t, enc(VT_INSN_CSRRS, A0, 0x80e, ZERO));
  xr_run(&t);
  XR_ERROR(st, &t, VT_ERR_ILLEGAL, 0, "illegal instruction: CSR 0x80e is not accessible");
}

RUN_TESTS(T(range_csrs_per_warp), T(global_loads_equal_flat), T(global_stores_with_base), T(range_limits),
          T(private_equals_v202_private), T(flat64_addresses), T(faults_vill_and_lanes),
          T(prefix_memory_cells), T(prefix_memory_effects), T(prefix_memory_private_ext),
          T(prefix_memory_void_and_illegal), T(prefix_memory_x0_and_width128))
