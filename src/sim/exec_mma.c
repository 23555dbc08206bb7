/* MMA and MMA64 (isa2025.md 3.6, 3.7, section 4): the checks of 3.6.4 and
 * 3.7.3 in their order, then the fragments of A, B and C are gathered from
 * the register groups, D = A x B + C is computed by src/tensor (exact dot
 * product, the roundings of 4.7, the integer rules of 4.8) and D is written
 * to every lane of its group. The table row says only "MMA"; the form
 * (type, shape, C/D type, layouts, RELU, S, RD) is decoded from the word. */
#include "exec_tensor.h"
#include "tensor/mma_arith.h"
#include "tensor/mma_layout.h"

_Static_assert(VT_MAX_LANES == 32, "a register of the warp is 32 lane words (isa2025.md 4.1)");

static int illegal(vt_error *err, const char *fmt, const char *what) {
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: %s%s", fmt, what);
  return VT_ERR_ILLEGAL;
}

int vt_mma64_reject(uint64_t insn, vt_error *err) {
  vt_mma_op op;
  char msg[128];
  /* sub-op 000 of the 64-bit space is MMA64 (isa2025.md 2.4): say why */
  if ((insn & 0x707f) == 0x3f && vt_mma_decode64(insn, &op, msg, sizeof msg) != VT_MMA_OK)
    return illegal(err, msg, "");
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction");
  return VT_ERR_ILLEGAL;
}

int vt_mma_insn(const vt_insn *in, vt_mma_op *op, vt_mma_geom *g, char *msg, size_t msz) {
  vt_mma_status s;
  if (in->d->length == 8) {
    s = vt_mma_decode64((uint64_t)in->word_hi << 32 | in->word, op, msg, msz);
  } else {
    s = vt_mma_decode32(in->word, op, msg, msz);
    /* an old-form REGEXT extends vd (C and D), vs1 and vs2 (3.6.4) */
    op->vd = op->vs3 = in->rd;
    op->vs1 = in->rs1;
    op->vs2 = in->rs2;
  }
  if (s != VT_MMA_OK) return -1;
  return vt_mma_form_geom(&op->form, op->is64, g, msg, msz) == VT_MMA_OK ? 0 : -1;
}

int vt_step_mma(const vt_insn *in, vt_mma_op *op, vt_mma_geom *g) {
  return in->d->sem == VT_SEM_MMA ? vt_mma_insn(in, op, g, NULL, 0) : -1;
}

/* the warp-state checks of 3.6.4 / 3.7.3, after the word's own */
static int check_warp(const vt_warp *w, const vt_insn *in, const vt_mma_op *op, vt_error *err) {
  if (op->is64 && w->ext_valid && w->ext_armed)
    return illegal(err, "a prefix before a 64-bit instruction (isa2025.md D21)", "");
  if (w->lane_limit != 0xffffffffu || w->mask != 0xffffffffu)
    return illegal(err, op->is64 ? "mma64" : "mma", " needs a full 32-lane warp");
  if (in->d->flags & VT_F_FP) {
    if ((w->mstatus & VT_MSTATUS_FS) == 0)
      return illegal(err, "FP used while mstatus.FS is Off", "");
    if (!op->is64 && w->frm > 4) return illegal(err, "mma with a reserved rounding mode in frm", "");
  }
  char msg[128];
  if (vt_mma_check_groups(op, msg, sizeof msg) != VT_MMA_OK) return illegal(err, msg, "");
  return VT_OK;
}

int vt_exec_mma(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  vt_mma_op op;
  vt_mma_geom g;
  char msg[128];
  if (vt_mma_insn(in, &op, &g, msg, sizeof msg) != 0) return illegal(err, msg, "");
  int rc = check_warp(w, in, &op, err);
  if (rc != VT_OK) return rc;
  /* every source is read before D is written (D may overlap A, B, C) */
  /* the largest A and B have 1024 elements (s4 m16n8k64, b1 m8n8k128), C 256 */
  uint32_t a[1024], b[1024], c[256], d[256], dregs[8 * 32];
  vt_mma_gather(&op.form, &g, VT_MMA_OPD_A, &w->v[op.vs1][0], a);
  vt_mma_gather(&op.form, &g, VT_MMA_OPD_B, &w->v[op.vs2][0], b);
  vt_mma_gather(&op.form, &g, VT_MMA_OPD_C, &w->v[op.vs3][0], c);
  int rm = op.is64 ? op.rm : (int)w->frm;
  if (vt_mma_compute(&op.form, a, b, c, d, rm, op.sat, op.relu, msg, sizeof msg) != 0)
    return illegal(err, msg, "");
  vt_mma_scatter_d(&op.form, &g, d, dregs);
  for (int r = 0; r < g.nc; r++) {
    memcpy(w->v[op.vd + (unsigned)r], &dregs[r * 32], 32 * sizeof(uint32_t));
    trace_v(dev, w, op.vd + (unsigned)r, 0xffffffffu);
  }
  return VT_OK;
}
