/* MMA and MMA64 forms: legal combinations (isa2025.md 3.6.2, 3.7.1, D29,
 * D33), register counts (4.4) and the decoding of MMA/MMA64 words (3.6.1,
 * 3.7.1) with the checks of 3.6.4 and 3.7.3. */
#include "tensor/mma_form.h"

#include <stdarg.h>
#include <stdio.h>

typedef struct shape_mnk {
  const char *name;
  int m, n, k;
} shape_mnk;

/* type -> SHAPE code -> shape (3.6.2); NULL name: no such shape. */
static const shape_mnk SHAPES[VT_MMA_TYPE_COUNT][4] = {
    [VT_MMA_F16] = {{"m8n8k8", 8, 8, 8}, {"m16n8k8", 16, 8, 8}, {"m8n4k8", 8, 4, 8}, {"m16n8k16", 16, 8, 16}},
    [VT_MMA_BF16] = {{"m8n8k8", 8, 8, 8}, {"m16n8k8", 16, 8, 8}, {0}, {"m16n8k16", 16, 8, 16}},
    [VT_MMA_F32] = {{"m8n8k8", 8, 8, 8}, {"m16n8k8", 16, 8, 8}, {0}, {"m16n8k16", 16, 8, 16}},
    [VT_MMA_E4M3] = {{0}, {0}, {0}, {"m16n8k32", 16, 8, 32}},
    [VT_MMA_E5M2] = {{0}, {0}, {0}, {"m16n8k32", 16, 8, 32}},
    [VT_MMA_S8] = {{"m8n8k16", 8, 8, 16}, {0}, {"m16n16k16", 16, 16, 16}, {0}},
    [VT_MMA_U8] = {{"m8n8k16", 8, 8, 16}, {0}, {"m16n16k16", 16, 16, 16}, {0}},
    [VT_MMA_S4] = {{"m8n8k32", 8, 8, 32}, {"m16n8k32", 16, 8, 32}, {0}, {"m16n8k64", 16, 8, 64}},
    [VT_MMA_U4] = {{"m8n8k32", 8, 8, 32}, {"m16n8k32", 16, 8, 32}, {0}, {"m16n8k64", 16, 8, 64}},
    [VT_MMA_B1AND] = {{"m8n8k128", 8, 8, 128}, {0}, {0}, {0}},
    [VT_MMA_B1XOR] = {{"m8n8k128", 8, 8, 128}, {0}, {0}, {0}},
    [VT_MMA_E3M2] = {{0}, {0}, {0}, {"m16n8k32", 16, 8, 32}},
    [VT_MMA_E2M3] = {{0}, {0}, {0}, {"m16n8k32", 16, 8, 32}},
    [VT_MMA_E2M1] = {{0}, {0}, {0}, {"m16n8k32", 16, 8, 32}},
    [VT_MMA_E3M0] = {{0}, {0}, {0}, {"m16n8k32", 16, 8, 32}},
};

static const char *const TYPE_NAMES[VT_MMA_TYPE_COUNT] = {
    "f16", "bf16", "f32", "e4m3", "e5m2", "s8", "u8", "s4", "u4", "b1and", "b1xor",
    "e3m2", "e2m3", "e2m1", "e3m0"};
/* container size s of 4.1 */
static const int ELEM_BITS[VT_MMA_TYPE_COUNT] = {16, 16, 32, 8, 8, 8, 8, 4, 4, 1, 1, 8, 8, 8, 8};

static int is_int_type(vt_mma_type t) { return t >= VT_MMA_S8 && t <= VT_MMA_B1XOR; }
static int valid_type(vt_mma_type t) { return (unsigned)t < VT_MMA_TYPE_COUNT; }

static vt_mma_status fail(vt_mma_status s, char *msg, size_t msz, const char *fmt, ...) {
  if (msg && msz) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msz, fmt, ap);
    va_end(ap);
  }
  return s;
}

const char *vt_mma_type_name(vt_mma_type t) { return valid_type(t) ? TYPE_NAMES[t] : "?"; }

const char *vt_mma_cd_name(vt_mma_cd cd) {
  switch (cd) {
  case VT_MMA_CD_F16: return "f16";
  case VT_MMA_CD_F32: return "f32";
  case VT_MMA_CD_S32: return "s32";
  }
  return "?";
}

const char *vt_mma_shape_name(vt_mma_type t, int shape) {
  if (!valid_type(t) || shape < 0 || shape > 3) return NULL;
  return SHAPES[t][shape].name;
}

vt_mma_status vt_mma_form_geom(const vt_mma_form *f, int mma64, vt_mma_geom *g, char *msg,
                               size_t msz) {
  vt_mma_type t = f->type;
  if (!valid_type(t)) return fail(VT_MMA_ILLEGAL, msg, msz, "reserved A/B type (DT %d)", (int)t);
  const char *tn = TYPE_NAMES[t];
  int mma64_only = t >= VT_MMA_E3M2;
  if (mma64_only && !mma64)
    return fail(VT_MMA_ILLEGAL, msg, msz, "A/B type %s is available in mma64 only", tn);
  if (f->shape < 0 || f->shape > 3 || !SHAPES[t][f->shape].name)
    return fail(VT_MMA_ILLEGAL, msg, msz, "%s has no SHAPE code %d", tn, f->shape);
  const shape_mnk *sh = &SHAPES[t][f->shape];
  if (f->ct != 0 && f->ct != 1) return fail(VT_MMA_ILLEGAL, msg, msz, "bad CT %d", f->ct);
  if (f->ct == 0 && t != VT_MMA_F16)
    return fail(VT_MMA_ILLEGAL, msg, msz, "%s A/B cannot accumulate in f16", tn);
  if (f->al || f->bl) {
    if (!mma64) return fail(VT_MMA_ILLEGAL, msg, msz, "transposed layouts exist in mma64 only");
    if ((f->al != 0 && f->al != 1) || (f->bl != 0 && f->bl != 1))
      return fail(VT_MMA_ILLEGAL, msg, msz, "bad layout bits");
    if (ELEM_BITS[t] < 16 || (t == VT_MMA_F16 && f->shape == 2))
      return fail(VT_MMA_ILLEGAL, msg, msz, "%s %s has no transposed layout (D33)", sh->name, tn);
  }
  g->m = sh->m;
  g->n = sh->n;
  g->k = sh->k;
  g->elem_bits = ELEM_BITS[t];
  g->cd = f->ct == 0 ? VT_MMA_CD_F16 : is_int_type(t) ? VT_MMA_CD_S32 : VT_MMA_CD_F32;
  g->is_float = !is_int_type(t);
  g->mma64_only = mma64_only;
  if (t == VT_MMA_F16 && f->shape == 2) { /* m8n4k8: one register each (4.6) */
    g->na = g->nb = g->nc = 1;
  } else {
    g->na = sh->m * sh->k * g->elem_bits / 1024;
    g->nb = sh->k * sh->n * g->elem_bits / 1024;
    g->nc = sh->m * sh->n * (g->cd == VT_MMA_CD_F16 ? 16 : 32) / 1024;
  }
  return VT_MMA_OK;
}

vt_mma_status vt_mma_decode32(uint32_t w, vt_mma_op *op, char *msg, size_t msz) {
  if ((w & 0x7f) != 0x61) return fail(VT_MMA_ILLEGAL, msg, msz, "not an mma word");
  if (!(w >> 14 & 1)) return fail(VT_MMA_ILLEGAL, msg, msz, "reserved mma funct3 %u", w >> 12 & 7);
  *op = (vt_mma_op){0};
  op->form.type = (vt_mma_type)(w >> 28);
  op->relu = w >> 27 & 1;
  op->form.shape = (int)(w >> 25 & 3);
  op->vs2 = w >> 20 & 31;
  op->vs1 = w >> 15 & 31;
  op->sat = w >> 13 & 1;
  op->form.ct = (int)(w >> 12 & 1);
  op->vd = op->vs3 = w >> 7 & 31;
  op->rm = VT_MMA_RM_FRM;
  vt_mma_geom g;
  vt_mma_status s = vt_mma_form_geom(&op->form, 0, &g, msg, msz);
  if (s != VT_MMA_OK) return s;
  if (op->sat && g.is_float) return fail(VT_MMA_ILLEGAL, msg, msz, ".sat with a float type");
  return VT_MMA_OK;
}

vt_mma_status vt_mma_decode64(uint64_t w, vt_mma_op *op, char *msg, size_t msz) {
  if ((w & 0x7f) != 0x3f || (w >> 12 & 7) != 0)
    return fail(VT_MMA_ILLEGAL, msg, msz, "not an mma64 word");
  if (w >> 15 & 1 || w >> 7 & 31)
    return fail(VT_MMA_ILLEGAL, msg, msz, "mma64 reserved bits 15 or 11:7 set");
  if (w >> 59 & 1) return fail(VT_MMA_ILLEGAL, msg, msz, "reserved mma64 shape (bit 59 set)");
  *op = (vt_mma_op){0};
  op->is64 = 1;
  op->form.type = (vt_mma_type)(w >> 60);
  op->form.shape = (int)(w >> 57 & 3);
  op->vs2 = (unsigned)(w >> 49 & 255);
  op->vs1 = (unsigned)(w >> 41 & 255);
  op->form.al = (int)(w >> 40 & 1);
  op->form.bl = (int)(w >> 39 & 1);
  op->form.ct = (int)(w >> 38 & 1);
  op->vs3 = (unsigned)((w >> 28 & 15) | (w >> 32 & 15) << 4);
  op->vd = (unsigned)(w >> 20 & 255);
  vt_mma_geom g;
  vt_mma_status s = vt_mma_form_geom(&op->form, 1, &g, msg, msz);
  if (s != VT_MMA_OK) return s;
  if (w >> 17 & 1) return fail(VT_MMA_UNSUPPORTED, msg, msz, "unsupported: wg");
  if (w >> 16 & 1) return fail(VT_MMA_UNSUPPORTED, msg, msz, "unsupported: a");
  if (w >> 36 & 3) return fail(VT_MMA_UNSUPPORTED, msg, msz, "unsupported: SP");
  int rd = (int)(w >> 18 & 3);
  if (g.is_float) {
    op->rm = rd; /* RD 00 rn, 01 rz, 10 rm, 11 rp = VT_RM_RNE..VT_RM_RUP */
  } else {
    if (rd & 2) return fail(VT_MMA_ILLEGAL, msg, msz, "reserved integer RD %d", rd);
    op->sat = rd == 0;
  }
  return VT_MMA_OK;
}

static vt_mma_status check_group(unsigned base, int size, const char *what, char *msg, size_t msz) {
  if (size >= 2 && (base & 1))
    return fail(VT_MMA_ILLEGAL, msg, msz, "%s group of %d registers starts at odd v%u", what,
                size, base);
  if (base + (unsigned)size - 1 > 255)
    return fail(VT_MMA_ILLEGAL, msg, msz, "%s group v%u..v%u passes v255", what, base,
                base + (unsigned)size - 1);
  return VT_MMA_OK;
}

vt_mma_status vt_mma_check_groups(const vt_mma_op *op, char *msg, size_t msz) {
  vt_mma_geom g;
  vt_mma_status s = vt_mma_form_geom(&op->form, op->is64, &g, msg, msz);
  if (s == VT_MMA_OK) s = check_group(op->vd, g.nc, op->is64 ? "D" : "C/D", msg, msz);
  if (s == VT_MMA_OK && op->is64) s = check_group(op->vs3, g.nc, "C", msg, msz);
  if (s == VT_MMA_OK) s = check_group(op->vs1, g.na, "A", msg, msz);
  if (s == VT_MMA_OK) s = check_group(op->vs2, g.nb, "B", msg, msz);
  return s;
}
