/* MMA forms, fragment layouts and word decoding (src/tensor/mma_form.c,
 * src/tensor/mma_layout.c) against isa2025.md 3.6, 3.7 and 4.3-4.6:
 *  - the legal set: every (DT, SHAPE, CT, AL, BL) in MMA and MMA64 against
 *    the tables of 3.6.2/4.4 written out in mma_forms.h (register counts);
 *  - the worked layout examples of 4.3 and 4.5 (lane 13) and the m8n4k8
 *    rules of 4.6;
 *  - for every legal form and layout: each (register, lane, slot) against
 *    the formulas of 4.3/4.5/4.6, one-to-one onto the matrix, a distinct
 *    value per slot gathered to the element the formula names, D scattered
 *    to the slots the formula names (0 elsewhere);
 *  - gather -> compute -> scatter end to end on the 4.3 example;
 *  - every mma/mma64 example line of 3.6.5/3.7.4 decoded to the fields its
 *    text names, and the ILLEGAL/UNSUPPORTED cases of 3.6.4, 3.7.3, D13, D33.
 * test_mma_spec.c repeats the layout and decoding checks against the
 * reference encoder isa2025_enc.py. */
#include <stdint.h>

#include "check.h"
#include "mma_forms.h"
#include "mma_spec_layout.h"
#include "mma_text.h"
#include "tensor/mma_arith.h"
#include "tensor/mma_layout.h"

static vt_mma_geom geom_of(const vt_mma_form *f, int mma64) {
  vt_mma_geom g;
  memset(&g, 0, sizeof g);
  vt_mma_form_geom(f, mma64, &g, NULL, 0);
  return g;
}

/* --- the legal set (3.6.2, 3.7.1, 4.4, D29, D33) ----------------------- */

static const tform *find_tform(int dt, int shape) {
  for (size_t i = 0; i < N_TFORMS; i++)
    if ((int)TFORMS[i].type == dt && TFORMS[i].shape == shape) return &TFORMS[i];
  return NULL;
}

TEST(legal_set_and_register_counts) {
  int legal = 0;
  for (int mma64 = 0; mma64 <= 1; mma64++)
    for (int dt = 0; dt < 16; dt++)
      for (int shape = 0; shape < 4; shape++)
        for (int ct = 0; ct <= 1; ct++)
          for (int al = 0; al <= 1; al++)
            for (int bl = 0; bl <= 1; bl++) {
              const tform *F = find_tform(dt, shape);
              int want = F && (ct || F->f16_cd) && (mma64 || !F->mma64_only) &&
                         (!(al || bl) || (mma64 && tform_transposable(F)));
              vt_mma_form f = {(vt_mma_type)dt, shape, ct, al, bl};
              vt_mma_geom g;
              char msg[128] = "";
              vt_mma_status s = vt_mma_form_geom(&f, mma64, &g, msg, sizeof msg);
              CHECK(st, s == (want ? VT_MMA_OK : VT_MMA_ILLEGAL));
              CHECK(st, want || msg[0]);
              if (!want || s != VT_MMA_OK) continue;
              legal++;
              CHECK(st, g.m == F->m && g.n == F->n && g.k == F->k && g.elem_bits == F->bits);
              CHECK(st, g.na == F->na && g.nb == F->nb && g.nc == (ct ? F->nc32 : F->nc16));
              CHECK(st, g.cd == (!ct ? VT_MMA_CD_F16 : tform_is_int(F) ? VT_MMA_CD_S32 : VT_MMA_CD_F32));
              CHECK(st, g.is_float == !tform_is_int(F));
              CHECK_STR(st, vt_mma_shape_name(f.type, shape), F->sname);
              CHECK_STR(st, vt_mma_type_name(f.type), F->tname);
            }
  /* 28 (type, shape, C/D) combinations in MMA (the 30 lines of 3.6.5 less
   * two RELU/saturation variants); MMA64 adds the 4 FP6/FP4 ones and three
   * transposed layouts (AL, BL, both) of the 12 f16/bf16/f32 ones other
   * than m8n4k8 */
  CHECK(st, legal == 28 + (28 + 4 + 3 * 12));
  CHECK_STR(st, vt_mma_type_name((vt_mma_type)15), "?");
  CHECK_STR(st, vt_mma_cd_name(VT_MMA_CD_S32), "s32");
  CHECK(st, vt_mma_shape_name(VT_MMA_BF16, 2) == NULL);
}

static int lib_elem(const vt_mma_form *f, int op, int r, int lane, int j, int *row, int *col) {
  vt_mma_geom g = geom_of(f, 1);
  return vt_mma_frag_elem(f, &g, (vt_mma_operand)op, r, lane, j, row, col);
}

static int at(const vt_mma_form *f, int op, int r, int lane, int j, int row, int col) {
  int lr = -1, lc = -1;
  return lib_elem(f, op, r, lane, j, &lr, &lc) && lr == row && lc == col;
}

TEST(worked_examples_4_3_and_4_5) {
  int row, col;
  /* 4.3: f16 m16n8k16, f32 C/D, lane 13 (g = 3, q = 1) */
  vt_mma_form f16 = {VT_MMA_F16, 3, 1, 0, 0};
  static const int a[4][2][2] = {{{3, 2}, {3, 3}}, {{11, 2}, {11, 3}}, {{3, 10}, {3, 11}}, {{11, 10}, {11, 11}}};
  for (int r = 0; r < 4; r++)
    for (int j = 0; j < 2; j++) CHECK(st, at(&f16, 0, r, 13, j, a[r][j][0], a[r][j][1]));
  static const int b[2][2][2] = {{{2, 3}, {3, 3}}, {{10, 3}, {11, 3}}};
  for (int r = 0; r < 2; r++)
    for (int j = 0; j < 2; j++) CHECK(st, at(&f16, 1, r, 13, j, b[r][j][0], b[r][j][1]));
  static const int c32[4][2] = {{3, 2}, {3, 3}, {11, 2}, {11, 3}};
  for (int r = 0; r < 4; r++) CHECK(st, at(&f16, 2, r, 13, 0, c32[r][0], c32[r][1]));
  CHECK(st, !lib_elem(&f16, 2, 0, 13, 1, &row, &col)); /* one f32 element per lane word */
  vt_mma_form h16 = {VT_MMA_F16, 3, 0, 0, 0};
  static const int c16[2][2][2] = {{{3, 2}, {3, 3}}, {{11, 2}, {11, 3}}};
  for (int r = 0; r < 2; r++)
    for (int j = 0; j < 2; j++) CHECK(st, at(&h16, 2, r, 13, j, c16[r][j][0], c16[r][j][1]));
  /* 4.3: s8 m16n16k16, lane 13: B r0 slots 0-3 = B[4..7][3], r1 = B[4..7][11] */
  vt_mma_form s8 = {VT_MMA_S8, 2, 1, 0, 0};
  for (int j = 0; j < 4; j++) {
    CHECK(st, at(&s8, 1, 0, 13, j, 4 + j, 3));
    CHECK(st, at(&s8, 1, 1, 13, j, 4 + j, 11));
  }
  static const int cs8[8][2] = {{3, 2}, {3, 3}, {11, 2}, {11, 3}, {3, 10}, {3, 11}, {11, 10}, {11, 11}};
  for (int r = 0; r < 8; r++) CHECK(st, at(&s8, 2, r, 13, 0, cs8[r][0], cs8[r][1]));
  /* 4.5: f32 m8n8k8, lane 13: AL = 1 r0 = A[1][3], r1 = A[5][3]; BL = 1 r0 = B[3][1], r1 = B[3][5] */
  vt_mma_form t32 = {VT_MMA_F32, 0, 1, 1, 1};
  CHECK(st, at(&t32, 0, 0, 13, 0, 1, 3));
  CHECK(st, at(&t32, 0, 1, 13, 0, 5, 3));
  CHECK(st, at(&t32, 1, 0, 13, 0, 3, 1));
  CHECK(st, at(&t32, 1, 1, 13, 0, 3, 5));
  /* 4.6 m8n4k8: B lanes 16-31 unread; f16 C/D lanes q >= 2 unread; f32 C/D lane (g, q) = (g, q) */
  vt_mma_form m848 = {VT_MMA_F16, 2, 0, 0, 0}, m848f = {VT_MMA_F16, 2, 1, 0, 0};
  CHECK(st, at(&m848, 0, 0, 13, 1, 3, 3));
  CHECK(st, at(&m848, 1, 0, 15, 1, 7, 3));
  CHECK(st, !lib_elem(&m848, 1, 0, 16, 0, &row, &col));
  CHECK(st, !lib_elem(&m848, 2, 0, 6, 0, &row, &col));
  CHECK(st, at(&m848, 2, 0, 5, 1, 1, 3));
  CHECK(st, at(&m848f, 2, 0, 31, 0, 7, 3));
  /* arguments out of range */
  CHECK(st, !lib_elem(&f16, 0, 4, 0, 0, &row, &col));
  CHECK(st, !lib_elem(&f16, 0, 0, 32, 0, &row, &col));
  CHECK(st, !lib_elem(&f16, 0, 0, 0, 2, &row, &col));
  CHECK(st, !lib_elem(&f16, 0, -1, 0, 0, &row, &col));
}

/* Every slot of one operand: formula, one-to-one, gather and scatter. */
static void check_operand(check_state *st, const tform *F, int cd16, int al, int bl, int op) {
  vt_mma_form f = {F->type, F->shape, cd16 ? 0 : 1, al, bl};
  vt_mma_geom g = geom_of(&f, 1);
  const int nreg = op == 0 ? F->na : op == 1 ? F->nb : cd16 ? F->nc16 : F->nc32;
  const int slots = op == 2 ? (cd16 ? 2 : 1) : 32 / F->bits;
  const int sbits = 32 / slots, rows = op == 1 ? F->k : F->m, cols = op == 0 ? F->k : F->n;
  const uint32_t mask = sbits == 32 ? 0xffffffffu : (1u << sbits) - 1;
  CHECK(st, vt_mma_regs(&g, (vt_mma_operand)op) == nreg);
  CHECK(st, vt_mma_slots(&g, (vt_mma_operand)op) == slots);
  int r0, c0;
  vt_mma_dims(&g, (vt_mma_operand)op, &r0, &c0);
  CHECK(st, r0 == rows && c0 == cols);
  static int hits[16 * 128];
  static uint32_t regs[8 * 32], elems[16 * 128], back[8 * 32];
  memset(hits, 0, sizeof hits);
  int bad = 0, covered = 0;
  uint32_t tag = 1;
  for (int r = 0; r < nreg; r++)
    for (int lane = 0; lane < 32; lane++) {
      regs[r * 32 + lane] = 0;
      for (int j = 0; j < slots; j++) {
        int er, ec, lr, lc;
        int se = spec_elem(F, cd16, al, bl, op, r, lane, j, &er, &ec);
        int le = vt_mma_frag_elem(&f, &g, (vt_mma_operand)op, r, lane, j, &lr, &lc);
        if (se != le || (se && (er != lr || ec != lc))) bad++;
        if (!se) continue;
        if (er < 0 || er >= rows || ec < 0 || ec >= cols) bad++;
        else if (hits[er * cols + ec]++ == 0) covered++;
        /* distinct non-zero values (1-bit slots: a pattern) */
        uint32_t v = sbits == 1 ? (uint32_t)((r * 32 + lane) * slots + j) % 3 == 0 : tag++ & mask;
        if (v == 0 && sbits > 1) v = tag++ & mask;
        regs[r * 32 + lane] |= v << (sbits * j);
      }
    }
  CHECK(st, bad == 0);
  CHECK(st, covered == rows * cols); /* every element exactly once */
  for (int i = 0; i < rows * cols; i++) elems[i] = 0xdeadbeef;
  vt_mma_gather(&f, &g, (vt_mma_operand)op, regs, elems);
  for (int r = 0; r < nreg; r++)
    for (int lane = 0; lane < 32; lane++)
      for (int j = 0; j < slots; j++) {
        int er, ec;
        if (!spec_elem(F, cd16, al, bl, op, r, lane, j, &er, &ec)) continue;
        if (elems[er * cols + ec] != ((regs[r * 32 + lane] >> (sbits * j)) & mask)) bad++;
      }
  CHECK(st, bad == 0);
  if (op != 2) return;
  /* D: every lane word written, each slot from the element the formula names, else 0 */
  for (int i = 0; i < nreg * 32; i++) back[i] = 0xa5a5a5a5;
  for (int i = 0; i < rows * cols; i++) elems[i] = 0x10000u * (uint32_t)i + 0x1234u + (uint32_t)i;
  vt_mma_scatter_d(&f, &g, elems, back);
  for (int r = 0; r < nreg; r++)
    for (int lane = 0; lane < 32; lane++)
      for (int j = 0; j < slots; j++) {
        int er, ec;
        uint32_t want = spec_elem(F, cd16, al, bl, op, r, lane, j, &er, &ec) ? elems[er * cols + ec] & mask : 0;
        if (((back[r * 32 + lane] >> (sbits * j)) & mask) != want) bad++;
      }
  CHECK(st, bad == 0);
}

TEST(every_layout_slot_by_slot) {
  int layouts = 0;
  for (size_t i = 0; i < N_TFORMS; i++) {
    const tform *F = &TFORMS[i];
    for (int cd16 = 0; cd16 <= F->f16_cd; cd16++)
      for (int t = 0; t < (tform_transposable(F) ? 4 : 1); t++) {
        for (int op = 0; op < 3; op++) check_operand(st, F, cd16, t & 1, t >> 1, op);
        layouts++;
      }
  }
  CHECK(st, layouts == 28 + 4 + 3 * 12);
}

TEST(gather_compute_scatter_example) {
  /* f16 m16n8k16, f32 C/D: A = identity, B[k][n] = 8k + n, C = 0.5, so
   * D = B + 0.5; lane 13 of the D group holds (3,2), (3,3), (11,2), (11,3)
   * (4.3): 26.5, 27.5, 90.5, 91.5 */
  vt_mma_form f = {VT_MMA_F16, 3, 1, 0, 0};
  vt_mma_geom g = geom_of(&f, 0);
  static uint32_t Ar[4 * 32], Br[2 * 32], Cr[4 * 32], Dr[4 * 32], A[256], B[128], C[128], D[128];
  uint32_t Ae[256] = {0}, Be[128];
  for (int m = 0; m < 16; m++) Ae[m * 16 + m] = 0x3c00; /* 1.0 */
  for (int k = 0; k < 16; k++)
    for (int n = 0; n < 8; n++) { /* 8k + n in binary16 (exact below 2048) */
      int v = 8 * k + n, e = 0;
      while ((v >> e) > 1) e++;
      Be[k * 8 + n] = v == 0 ? 0 : (uint32_t)(e + 15) << 10 | (((uint32_t)v << 10 >> e) & 0x3ff);
    }
  const tform *F = find_tform(VT_MMA_F16, 3);
  memset(Ar, 0, sizeof Ar);
  memset(Br, 0, sizeof Br);
  for (int r = 0; r < 4; r++)
    for (int lane = 0; lane < 32; lane++) {
      for (int j = 0; j < 2; j++) {
        int row, col;
        spec_elem(F, 0, 0, 0, 0, r, lane, j, &row, &col);
        Ar[r * 32 + lane] |= Ae[row * 16 + col] << (16 * j);
        if (r < 2) {
          spec_elem(F, 0, 0, 0, 1, r, lane, j, &row, &col);
          Br[r * 32 + lane] |= Be[row * 8 + col] << (16 * j);
        }
      }
      Cr[r * 32 + lane] = 0x3f000000; /* 0.5f */
    }
  vt_mma_gather(&f, &g, VT_MMA_OPD_A, Ar, A);
  vt_mma_gather(&f, &g, VT_MMA_OPD_B, Br, B);
  vt_mma_gather(&f, &g, VT_MMA_OPD_C, Cr, C);
  CHECK(st, vt_mma_compute(&f, A, B, C, D, 0, 0, 0, NULL, 0) == 0);
  vt_mma_scatter_d(&f, &g, D, Dr);
  CHECK_EQ_U32(st, Dr[0 * 32 + 13], 0x41d40000); /* 26.5f */
  CHECK_EQ_U32(st, Dr[1 * 32 + 13], 0x41dc0000); /* 27.5f */
  CHECK_EQ_U32(st, Dr[2 * 32 + 13], 0x42b50000); /* 90.5f */
  CHECK_EQ_U32(st, Dr[3 * 32 + 13], 0x42b70000); /* 91.5f */
  CHECK_EQ_U32(st, Dr[3 * 32 + 31], 0x42ff0000); /* lane 31 r3 = (15, 7): 127.5f */
}

/* --- decoding (3.6.1, 3.7.1) -------------------------------------------- */

static const struct {
  uint64_t word;
  const char *text;
} EXAMPLES[] = {
    /* every mma / mma64 example line of isa2025.md 3.6.5 and 3.7.4 */
    {0x01884461ull, "mma.m8n8k8.f16.f16 v8, v16, v24"},
    {0x01885461ull, "mma.m8n8k8.f16.f32 v8, v16, v24"},
    {0x03884461ull, "mma.m16n8k8.f16.f16 v8, v16, v24"},
    {0x03885461ull, "mma.m16n8k8.f16.f32 v8, v16, v24"},
    {0x05884461ull, "mma.m8n4k8.f16.f16 v8, v16, v24"},
    {0x05885461ull, "mma.m8n4k8.f16.f32 v8, v16, v24"},
    {0x07884461ull, "mma.m16n8k16.f16.f16 v8, v16, v24"},
    {0x07885461ull, "mma.m16n8k16.f16.f32 v8, v16, v24"},
    {0x11885461ull, "mma.m8n8k8.bf16.f32 v8, v16, v24"},
    {0x13885461ull, "mma.m16n8k8.bf16.f32 v8, v16, v24"},
    {0x17885461ull, "mma.m16n8k16.bf16.f32 v8, v16, v24"},
    {0x21885461ull, "mma.m8n8k8.f32.f32 v8, v16, v24"},
    {0x23885461ull, "mma.m16n8k8.f32.f32 v8, v16, v24"},
    {0x27885461ull, "mma.m16n8k16.f32.f32 v8, v16, v24"},
    {0x37885461ull, "mma.m16n8k32.e4m3.f32 v8, v16, v24"},
    {0x47885461ull, "mma.m16n8k32.e5m2.f32 v8, v16, v24"},
    {0x51885461ull, "mma.m8n8k16.s8.s32 v8, v16, v24"},
    {0x55885461ull, "mma.m16n16k16.s8.s32 v8, v16, v24"},
    {0x61885461ull, "mma.m8n8k16.u8.s32 v8, v16, v24"},
    {0x65885461ull, "mma.m16n16k16.u8.s32 v8, v16, v24"},
    {0x71885461ull, "mma.m8n8k32.s4.s32 v8, v16, v24"},
    {0x73885461ull, "mma.m16n8k32.s4.s32 v8, v16, v24"},
    {0x77885461ull, "mma.m16n8k64.s4.s32 v8, v16, v24"},
    {0x81885461ull, "mma.m8n8k32.u4.s32 v8, v16, v24"},
    {0x83885461ull, "mma.m16n8k32.u4.s32 v8, v16, v24"},
    {0x87885461ull, "mma.m16n8k64.u4.s32 v8, v16, v24"},
    {0x91885461ull, "mma.m8n8k128.b1and.s32 v8, v16, v24"},
    {0xa1885461ull, "mma.m8n8k128.b1xor.s32 v8, v16, v24"},
    {0x59887461ull, "mma.m8n8k16.s8.s32.relu.sat v8, v16, v24"},
    {0x0f885461ull, "mma.m16n8k16.f16.f32.relu v8, v16, v24"},
    {0x0020c1e1ull, "mma.m8n8k8.f16.f16 v3, v1, v2"},
    {0x0820c1e1ull, "mma.m8n8k8.f16.f16.relu v3, v1, v2"},
    {0x0c20d1e1ull, "mma.m8n4k8.f16.f32.relu v3, v1, v2"},
    {0x0020d261ull, "mma.m8n8k8.f16.f32 v4, v1, v2"},
    {0x008000064c80003full, "mma64.m8n8k8.row.col.f16.f16.rn v200, v0, v64, v100"},
    {0x008000464c80003full, "mma64.m8n8k8.row.col.f16.f32.rn v200, v0, v64, v100"},
    {0x028000064c80003full, "mma64.m16n8k8.row.col.f16.f16.rn v200, v0, v64, v100"},
    {0x028000464c80003full, "mma64.m16n8k8.row.col.f16.f32.rn v200, v0, v64, v100"},
    {0x048000064c80003full, "mma64.m8n4k8.row.col.f16.f16.rn v200, v0, v64, v100"},
    {0x048000464c80003full, "mma64.m8n4k8.row.col.f16.f32.rn v200, v0, v64, v100"},
    {0x068000064c80003full, "mma64.m16n8k16.row.col.f16.f16.rn v200, v0, v64, v100"},
    {0x068000464c80003full, "mma64.m16n8k16.row.col.f16.f32.rn v200, v0, v64, v100"},
    {0x108000464c80003full, "mma64.m8n8k8.row.col.bf16.f32.rn v200, v0, v64, v100"},
    {0x128000464c80003full, "mma64.m16n8k8.row.col.bf16.f32.rn v200, v0, v64, v100"},
    {0x168000464c80003full, "mma64.m16n8k16.row.col.bf16.f32.rn v200, v0, v64, v100"},
    {0x208000464c80003full, "mma64.m8n8k8.row.col.f32.f32.rn v200, v0, v64, v100"},
    {0x228000464c80003full, "mma64.m16n8k8.row.col.f32.f32.rn v200, v0, v64, v100"},
    {0x268000464c80003full, "mma64.m16n8k16.row.col.f32.f32.rn v200, v0, v64, v100"},
    {0x368000464c80003full, "mma64.m16n8k32.row.col.e4m3.f32.rn v200, v0, v64, v100"},
    {0x468000464c80003full, "mma64.m16n8k32.row.col.e5m2.f32.rn v200, v0, v64, v100"},
    {0x508000464c80003full, "mma64.m8n8k16.row.col.s8.s32.sat v200, v0, v64, v100"},
    {0x548000464c80003full, "mma64.m16n16k16.row.col.s8.s32.sat v200, v0, v64, v100"},
    {0x608000464c80003full, "mma64.m8n8k16.row.col.u8.s32.sat v200, v0, v64, v100"},
    {0x648000464c80003full, "mma64.m16n16k16.row.col.u8.s32.sat v200, v0, v64, v100"},
    {0x708000464c80003full, "mma64.m8n8k32.row.col.s4.s32.sat v200, v0, v64, v100"},
    {0x728000464c80003full, "mma64.m16n8k32.row.col.s4.s32.sat v200, v0, v64, v100"},
    {0x768000464c80003full, "mma64.m16n8k64.row.col.s4.s32.sat v200, v0, v64, v100"},
    {0x808000464c80003full, "mma64.m8n8k32.row.col.u4.s32.sat v200, v0, v64, v100"},
    {0x828000464c80003full, "mma64.m16n8k32.row.col.u4.s32.sat v200, v0, v64, v100"},
    {0x868000464c80003full, "mma64.m16n8k64.row.col.u4.s32.sat v200, v0, v64, v100"},
    {0x908000464c80003full, "mma64.m8n8k128.row.col.b1and.s32.sat v200, v0, v64, v100"},
    {0xa08000464c80003full, "mma64.m8n8k128.row.col.b1xor.s32.sat v200, v0, v64, v100"},
    {0xb68000464c80003full, "mma64.m16n8k32.row.col.e3m2.f32.rn v200, v0, v64, v100"},
    {0xc68000464c80003full, "mma64.m16n8k32.row.col.e2m3.f32.rn v200, v0, v64, v100"},
    {0xd68000464c80003full, "mma64.m16n8k32.row.col.e2m1.f32.rn v200, v0, v64, v100"},
    {0xe68000464c80003full, "mma64.m16n8k32.row.col.e3m0.f32.rn v200, v0, v64, v100"},
    {0x065c55c28284003full, "mma64.m16n8k16.col.row.f16.f32.rz v40, v42, v46, v40"},
    {0x200c08c0802c003full, "mma64.m8n8k8.row.row.f32.f32.rp v2, v4, v6, v8"},
    {0x800c08408024003full, "mma64.m8n8k32.row.col.u4.s32.wrap v2, v4, v6, v8"},
    {0x13fdf94f6fa8003full, "mma64.m16n8k8.col.col.bf16.f32.rm v250, v252, v254, v246"},
};

static void check_decoded(check_state *st, const vt_mma_op *op, const mma_text *t, const char *text) {
  int ok = op->is64 == t->is64 && (int)op->form.type == t->type && op->form.shape == t->shape &&
           op->form.ct == t->ct && op->form.al == t->al && op->form.bl == t->bl &&
           op->relu == t->relu && op->sat == t->sat && op->vd == t->vd && op->vs1 == t->vs1 &&
           op->vs2 == t->vs2 && op->vs3 == t->vs3 &&
           op->rm == (t->is64 ? (t->rnd < 0 ? 0 : t->rnd) : VT_MMA_RM_FRM);
  if (!ok) fprintf(stderr, "decoded fields differ from \"%s\"\n", text);
  CHECK(st, ok);
}

TEST(decode_every_spec_example) {
  for (size_t i = 0; i < sizeof EXAMPLES / sizeof EXAMPLES[0]; i++) {
    mma_text t;
    CHECK(st, mma_text_parse(EXAMPLES[i].text, &t));
    vt_mma_op op;
    char msg[128] = "";
    vt_mma_status s = t.is64 ? vt_mma_decode64(EXAMPLES[i].word, &op, msg, sizeof msg)
                             : vt_mma_decode32((uint32_t)EXAMPLES[i].word, &op, msg, sizeof msg);
    if (s != VT_MMA_OK) fprintf(stderr, "%s: %s\n", EXAMPLES[i].text, msg);
    CHECK(st, s == VT_MMA_OK);
    check_decoded(st, &op, &t, EXAMPLES[i].text);
    CHECK(st, vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_OK);
  }
}

static vt_mma_status dec32(uint32_t w, char *msg) {
  vt_mma_op op;
  return vt_mma_decode32(w, &op, msg, 128);
}
static vt_mma_status dec64(uint64_t w, char *msg) {
  vt_mma_op op;
  return vt_mma_decode64(w, &op, msg, 128);
}

TEST(decode_illegal_and_unsupported) {
  char msg[128];
  const uint32_t m = 0x01884461; /* mma.m8n8k8.f16.f16 v8, v16, v24 */
  CHECK(st, dec32(m & ~(1u << 14), msg) == VT_MMA_ILLEGAL);           /* funct3 0xx */
  CHECK(st, dec32((m & 0x0fffffff) | 0xfu << 28, msg) == VT_MMA_ILLEGAL); /* DT 1111 */
  CHECK(st, dec32(0x15885461, msg) == VT_MMA_ILLEGAL);                /* bf16 SHAPE 10 */
  CHECK(st, dec32(0x11884461, msg) == VT_MMA_ILLEGAL);                /* bf16 with f16 C/D */
  CHECK(st, strstr(msg, "f16") != NULL);
  CHECK(st, dec32(0x01886461, msg) == VT_MMA_ILLEGAL);                /* .sat with f16 */
  CHECK(st, dec32(0xb7885461, msg) == VT_MMA_ILLEGAL);                /* e3m2: MMA64 only */
  CHECK(st, strstr(msg, "mma64") != NULL);
  CHECK(st, dec32(0x01884463, msg) == VT_MMA_ILLEGAL);                /* another opcode */
  CHECK(st, dec32(0x51887461, msg) == VT_MMA_OK);                     /* s8 .sat */
  const uint64_t w = 0x508000464c80003full; /* mma64.m8n8k16.row.col.s8.s32.sat */
  const uint64_t f = 0x268000464c80003full; /* mma64.m16n8k16.row.col.f32.f32.rn */
  CHECK(st, dec64(w | 1ull << 15, msg) == VT_MMA_ILLEGAL);
  CHECK(st, dec64(w | 1ull << 9, msg) == VT_MMA_ILLEGAL);
  CHECK(st, dec64(w | 1ull << 59, msg) == VT_MMA_ILLEGAL);            /* shape 1xx */
  CHECK(st, dec64(w | 1ull << 12, msg) == VT_MMA_ILLEGAL);            /* sub-op 001 is VOP64 */
  CHECK(st, dec64(w | 1ull << 17, msg) == VT_MMA_UNSUPPORTED);
  CHECK_STR(st, msg, "unsupported: wg");
  CHECK(st, dec64(w | 1ull << 16, msg) == VT_MMA_UNSUPPORTED);
  CHECK_STR(st, msg, "unsupported: a");
  CHECK(st, dec64(w | 2ull << 36, msg) == VT_MMA_UNSUPPORTED);
  CHECK_STR(st, msg, "unsupported: SP");
  CHECK(st, dec64(w | 2ull << 18, msg) == VT_MMA_ILLEGAL);            /* integer RD 10 */
  CHECK(st, dec64(w | 3ull << 18, msg) == VT_MMA_ILLEGAL);            /* integer RD 11 */
  CHECK(st, dec64(w | 1ull << 18, msg) == VT_MMA_OK);                 /* wrap */
  CHECK(st, dec64(f | 3ull << 18, msg) == VT_MMA_OK);                 /* float RD 11 = rp */
  CHECK(st, dec64(w | 1ull << 40, msg) == VT_MMA_ILLEGAL);            /* AL = 1 with s8 */
  CHECK(st, dec64(0x048000464c80003full | 1ull << 39, msg) == VT_MMA_ILLEGAL); /* m8n4k8 BL = 1 */
  CHECK(st, dec64(0x368000464c80003full | 1ull << 40, msg) == VT_MMA_ILLEGAL); /* e4m3 AL = 1 */
  CHECK(st, dec64(f | 1ull << 40 | 1ull << 39, msg) == VT_MMA_OK);
  CHECK(st, dec64((f & ~(1ull << 38)), msg) == VT_MMA_ILLEGAL);       /* f32 A/B, f16 C/D */
  CHECK(st, dec64((w & ~(0xfull << 60)) | 0xfull << 60, msg) == VT_MMA_ILLEGAL); /* DT 1111 */
  /* order of 3.7.3: an illegal combination before UNSUPPORTED, UNSUPPORTED before RD */
  CHECK(st, dec64(w | 1ull << 17 | 1ull << 40, msg) == VT_MMA_ILLEGAL);
  CHECK(st, dec64(w | 1ull << 17 | 2ull << 18, msg) == VT_MMA_UNSUPPORTED);
}

TEST(register_group_checks) {
  char msg[128];
  vt_mma_op op;
  /* MMA f16 m16n8k16 f32 C/D: A 4, B 2, C/D 4 registers */
  CHECK(st, vt_mma_decode32(0x07885461, &op, msg, sizeof msg) == VT_MMA_OK);
  CHECK(st, vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_OK);
  op.vd = op.vs3 = 9; /* odd group of 4 */
  CHECK(st, vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_ILLEGAL);
  CHECK(st, strstr(msg, "odd") != NULL);
  op.vd = op.vs3 = 252; /* v252..v255 fits */
  CHECK(st, vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_OK);
  op.vs1 = 254; /* v254..v257 does not */
  CHECK(st, vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_ILLEGAL);
  CHECK(st, strstr(msg, "v255") != NULL);
  /* one-register groups may be odd: f16 m8n8k8 f16 C/D */
  CHECK(st, vt_mma_decode32(0x0020c1e1, &op, msg, sizeof msg) == VT_MMA_OK); /* v3, v1, v2 */
  CHECK(st, vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_OK);
  CHECK(st, vt_mma_decode32(0x0020d1e1, &op, msg, sizeof msg) == VT_MMA_OK); /* f32 C/D: 2 regs at v3 */
  CHECK(st, vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_ILLEGAL);
  /* MMA64: C (vrs3) is checked on its own */
  CHECK(st, vt_mma_decode64(0x200c08c0802c003full, &op, msg, sizeof msg) == VT_MMA_OK);
  CHECK(st, vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_OK);
  op.vs3 = 9;
  CHECK(st, vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_ILLEGAL);
  CHECK(st, strstr(msg, "C group") != NULL);
}

RUN_TESTS(T(legal_set_and_register_counts), T(worked_examples_4_3_and_4_5),
          T(every_layout_slot_by_slot), T(gather_compute_scatter_example),
          T(decode_every_spec_example), T(decode_illegal_and_unsupported),
          T(register_group_checks))
