/* Operations done one lane at a time with scalar instructions: atomics
 * (RV32A works on x registers, spec decision 7) and printf (vt_vprintf
 * takes scalar arguments, docs/printf.md). Both build small loops in the
 * machine IR, whose vector branches the SIMT lowering handles like any
 * other:
 *
 * atomics, highest active lane first (vmv.x.s reads the highest active
 * lane, isa.md 3.4):
 *     H:    l = vmv.x.s(lane id); address and value of lane l with
 *           vmv.x.s; the AMO; result into the active lanes (vmv.v.x);
 *           vbne lane id, l -> H        lane l falls through, done
 *     EXIT: join (every lane is back)
 * (The lane's work must not sit in a block of its own: that block would
 * post-dominate the loop and become the re-convergence point.)
 * printf, lanes in increasing order (a uniform loop over lane numbers):
 *     H:    vbne lane id, i -> SKIP
 *     BODY: only lane i: the record on the warp's stack, call vt_vprintf
 *     SKIP: join; i++; i < threads per warp -> H
 */
#include <string.h>

#include "cc_emit.h"
#include "cc_isel.h"

/* a machine block laid out after the blocks made so far for this IR block */
static int new_block(isel *s) {
  int b = cc_mf_block(s->mf);
  s->mf->b[b].key = s->next_key++;
  return b;
}

static void jump_to(isel *s, int t) {
  cc_mi *mi = emit(s, CC_J, -1, -1, -1, -1, 0);
  if (mi) mi->target = t;
}

static void branch_to(isel *s, cc_op op, int a, int b, int t, int f) {
  cc_mi *mi = emit(s, op, -1, a, b, -1, 0);
  if (mi) {
    mi->target = t;
    mi->target2 = f;
  }
}

/* the lane's own value of a part, in a scalar register (one active lane) */
static int lane_value(isel *s, cc_opnd v) {
  if (!op_is_v(v)) return to_sreg(s, v);
  int r = new_reg(s, CC_RC_S);
  emit(s, CC_VMV_XS, r, v.r, -1, -1, 0);
  return r;
}

/* Opens the per-lane loop: the current block becomes its head H, where
 * the highest active lane's number is in *lane (vmv.x.s reads that lane:
 * isa.md 3.4), so vmv.x.s of any register gives that lane's value. */
static void lane_loop_begin(isel *s, int *id, int *lane) {
  int h = new_block(s);
  jump_to(s, h);
  set_block(s, h);
  *id = new_reg(s, CC_RC_V);
  *lane = new_reg(s, CC_RC_S);
  emit(s, CC_VID, *id, -1, -1, -1, 0);
  emit(s, CC_VMV_XS, *lane, *id, -1, -1, 0);
}

/* Closes it: that lane leaves to EXIT, the others go round again. */
static void lane_loop_end(isel *s, int id, int lane, int head) {
  int exit = new_block(s), lv = new_reg(s, CC_RC_V);
  emit(s, CC_VMV_VX, lv, lane, -1, -1, 0);
  branch_to(s, CC_VBNE, id, lv, head, exit);
  set_block(s, exit);
}

static bool amo_op(LLVMAtomicRMWBinOp op, cc_op *out, bool *negate) {
  *negate = false;
  switch (op) {
  case LLVMAtomicRMWBinOpXchg: *out = CC_AMOSWAP; return true;
  case LLVMAtomicRMWBinOpAdd: *out = CC_AMOADD; return true;
  case LLVMAtomicRMWBinOpSub: *out = CC_AMOADD; *negate = true; return true;
  case LLVMAtomicRMWBinOpAnd: *out = CC_AMOAND; return true;
  case LLVMAtomicRMWBinOpOr: *out = CC_AMOOR; return true;
  case LLVMAtomicRMWBinOpXor: *out = CC_AMOXOR; return true;
  case LLVMAtomicRMWBinOpMax: *out = CC_AMOMAX; return true;
  case LLVMAtomicRMWBinOpMin: *out = CC_AMOMIN; return true;
  case LLVMAtomicRMWBinOpUMax: *out = CC_AMOMAXU; return true;
  case LLVMAtomicRMWBinOpUMin: *out = CC_AMOMINU; return true;
  default: return false;
  }
}

/* compare-and-swap with lr.w/sc.w; returns the old value */
static int cas(isel *s, int addr, int expect, int desired) {
  int retry = new_block(s), store = new_block(s), done = new_block(s);
  jump_to(s, retry);
  set_block(s, retry);
  int old = new_reg(s, CC_RC_S), fail = new_reg(s, CC_RC_S);
  emit(s, CC_LRW, old, addr, -1, -1, 0);
  branch_to(s, CC_BNE, old, expect, done, store);
  set_block(s, store);
  emit(s, CC_SCW, fail, desired, addr, -1, 0);
  branch_to(s, CC_BNE, fail, CC_X(0), retry, done);
  set_block(s, done);
  return old;
}

void select_atomic(isel *s, LLVMValueRef i) {
  bool is_cas = LLVMGetInstructionOpcode(i) == LLVMAtomicCmpXchg;
  LLVMValueRef ptr = LLVMGetOperand(i, 0);
  LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(i, 1));
  if (parts_of_type(vt) != 1 || (int_bits(vt) && int_bits(vt) != 32)) {
    isel_error(s, "atomics on this type are not supported (32-bit int and float only)");
    return;
  }
  cc_op op = CC_AMOADD;
  bool negate = false;
  if (!is_cas && !amo_op(LLVMGetAtomicRMWBinOp(i), &op, &negate)) {
    isel_error(s, "this atomic operation is not supported");
    return;
  }
  cc_addr a;
  if (!addr_of(s, ptr, &a)) return;
  if (a.priv) {
    isel_error(s, "atomics on private memory are not supported");
    return;
  }
  cc_opnd addr = alu(s, A_ADD, a.base, op_imm(a.off));
  cc_opnd val = get_op(s, LLVMGetOperand(i, 1));
  cc_opnd nv = is_cas ? get_op(s, LLVMGetOperand(i, 2)) : op_imm(0);
  int res = new_reg(s, CC_RC_V), id, lane;
  lane_loop_begin(s, &id, &lane);
  int head = s->cur;
  int sa = lane_value(s, addr), sv = lane_value(s, val), old;
  if (is_cas) {
    old = cas(s, sa, sv, lane_value(s, nv));
  } else {
    if (negate) sv = to_sreg(s, alu(s, A_SUB, op_imm(0), op_reg(sv, CC_RC_S)));
    old = new_reg(s, CC_RC_S);
    emit(s, op, old, sv, sa, -1, 0);
  }
  /* every lane still in the loop takes the value; the highest keeps it */
  emit(s, CC_VMV_VX, res, old, -1, -1, 0);
  lane_loop_end(s, id, lane, head);
  cc_val *r = val_new(s, i, is_cas ? 2 : 1);
  if (!r) return;
  r->p[0] = op_reg(res, CC_RC_V);
  if (is_cas) r->p[1] = alu(s, A_SEQ, r->p[0], val);
}

/* --- printf --- */

/* bytes and alignment of a printf argument of type t (docs/printf.md) */
static bool arg_layout(isel *s, LLVMTypeRef t, unsigned *size, unsigned *align) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k == LLVMIntegerTypeKind || k == LLVMFloatTypeKind || k == LLVMPointerTypeKind ||
      k == LLVMDoubleTypeKind) {
    unsigned w = k == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : k == LLVMDoubleTypeKind ? 64 : 32;
    *size = *align = w > 32 ? 8 : 4;
    return w <= 64;
  }
  if (k == LLVMVectorTypeKind) {
    LLVMTypeRef e = LLVMGetElementType(t);
    unsigned es = (unsigned)LLVMABISizeOfType(s->c->td, e), n = LLVMGetVectorSize(t);
    *size = (((n == 3 ? 4 : n) * es) + 3) & ~3u;
    *align = es == 8 ? 8 : 4;
    return true;
  }
  return false;
}

void select_printf(isel *s, LLVMValueRef call) {
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
  unsigned off[64], total = 4;
  cc_piece pcs[64][16];
  int npc[64];
  if (nargs > 64) {
    isel_error(s, "printf with more than 63 arguments is not supported");
    return;
  }
  for (unsigned k = 1; k < nargs; k++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(call, k));
    unsigned size, al;
    npc[k] = parts_of_type(t);
    if (!arg_layout(s, t, &size, &al) || npc[k] < 0 || npc[k] > 16 ||
        pieces_of_type(s, t, pcs[k], npc[k]) != 0) {
      isel_error(s, "printf argument %u has an unsupported type", k);
      return;
    }
    total = (total + al - 1) & ~(al - 1);
    off[k] = total;
    total += size;
  }
  if (total > 512) {
    isel_error(s, "printf arguments take more than 512 bytes");
    return;
  }
  if (total > s->stack_top) s->stack_top = total; /* the record area of the frame */
  s->uses_printf = true;
  /* the loop over lanes */
  int h = new_block(s), body = new_block(s), skip = new_block(s), exit = new_block(s);
  int i = new_reg(s, CC_RC_S), numt = new_reg(s, CC_RC_S);
  emit(s, CC_LI, i, -1, -1, -1, 0);
  emit(s, CC_CSRR, numt, -1, -1, -1, 0x802); /* threads per warp */
  jump_to(s, h);
  set_block(s, h);
  int id = new_reg(s, CC_RC_V), iv = new_reg(s, CC_RC_V);
  emit(s, CC_VID, id, -1, -1, -1, 0);
  emit(s, CC_VMV_VX, iv, i, -1, -1, 0);
  branch_to(s, CC_VBNE, id, iv, skip, body);
  set_block(s, body);
  int blk = new_reg(s, CC_RC_S);
  cc_mi *mi = emit(s, CC_ADDI, blk, CC_X(2), -1, -1, 0);
  if (mi) mi->target = CC_FRAME_PRINTF;
  cc_addr a = {op_reg(blk, CC_RC_S), 0, false};
  for (unsigned k = 0; k < nargs; k++) {
    cc_val *v = get_val(s, LLVMGetOperand(call, k));
    if (!v) return;
    cc_opnd parts[16];
    memcpy(parts, v->p, (size_t)v->n * sizeof *parts);
    cc_piece fmt_piece = {0, 4};
    const cc_piece *pc = k ? pcs[k] : &fmt_piece;
    int n = k ? npc[k] : 1;
    for (int q = 0; q < n; q++) {
      cc_opnd lv = op_reg(lane_value(s, parts[q]), CC_RC_S);
      cc_piece p = {(k ? off[k] : 0) + pc[q].off, 4};
      if (pc[q].size < 4) { /* a char/short element: its bytes only */
        p.size = pc[q].size;
      }
      store_pieces(s, &a, &p, 1, &lv);
    }
  }
  emit(s, CC_COPY, CC_X(10), blk, -1, -1, 0);
  emit(s, CC_LI, CC_X(11), -1, -1, -1, (int32_t)total);
  mi = emit(s, CC_CALL, -1, -1, -1, -1, 0);
  if (mi) mi->sym = "vt_vprintf";
  jump_to(s, skip);
  set_block(s, skip);
  emit(s, CC_ADDI, i, i, -1, -1, 1);
  branch_to(s, CC_BLT, i, numt, h, exit);
  set_block(s, exit);
  cc_val *r = val_new(s, call, 1);
  if (r) r->p[0] = op_imm(0);
}
