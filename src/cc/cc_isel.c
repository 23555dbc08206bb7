/* Instruction selection driver (cc_isel.h): machine blocks for the IR
 * blocks in reverse post-order, the kernel's arguments from the argument
 * buffer (a0, formats-and-launch.md 4), allocas laid out in private
 * memory, phis, and terminators. Phis are resolved with copies: every
 * predecessor writes a per-phi temporary before its branch, and the phi's
 * block copies the temporary into the phi at its start (after its `join`,
 * when all lanes are back). Copies in a predecessor run with the lanes
 * that leave it, so a varying phi collects each lane's value, also when
 * lanes leave a loop in different iterations. A branch on an icmp used
 * only by it becomes one compare-and-branch (vblt, bge, ...). */
#include <stdlib.h>
#include <string.h>

#include "cc_isel.h"

void set_block(isel *s, int b) { s->cur = b; }

static unsigned align_up(unsigned v, unsigned a) { return (v + a - 1) & ~(a - 1); }

static unsigned pow2_at_least(unsigned v) {
  unsigned p = 4;
  while (p < v) p <<= 1;
  return p;
}

/* The kernel's arguments: loaded from the argument buffer at entry. */
static void load_params(isel *s) {
  unsigned n = LLVMCountParams(s->fn), off = 0;
  unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef p = LLVMGetParam(s->fn, k);
    LLVMTypeRef t = LLVMTypeOf(p);
    bool bv = LLVMGetEnumAttributeAtIndex(s->fn, k + 1, byval) != NULL;
    unsigned size, al;
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind && !bv) {
      size = al = 4;
    } else {
      LLVMTypeRef vt = bv ? LLVMGetElementType(t) : t;
      size = (unsigned)LLVMABISizeOfType(s->c->td, vt);
      al = pow2_at_least(size);
    }
    off = align_up(off, al);
    int np = parts_of_type(t);
    cc_piece pc[256];
    if (np < 0 || (!bv && pieces_of_type(s, t, pc, np) != 0)) {
      isel_error(s, "kernel argument %u has an unsupported type", k);
      return;
    }
    cc_val *v = val_new(s, p, np);
    if (!v) return;
    cc_addr a = {op_reg(s->argbase, CC_RC_S), (int32_t)off, false};
    if (bv) v->p[0] = alu(s, A_ADD, a.base, op_imm((int32_t)off));
    else if (LLVMGetFirstUse(p)) load_pieces(s, &a, pc, np, false, v->p);
    else
      for (int q = 0; q < np; q++) v->p[q] = op_imm(0);
    off += size;
  }
}

static void layout_allocas(isel *s) {
  for (int i = 0; i < s->ir->ninst; i++) {
    LLVMValueRef a = s->ir->inst[i];
    if (!LLVMIsAAllocaInst(a)) continue;
    LLVMValueRef cnt = LLVMGetOperand(a, 0);
    if (!LLVMIsAConstantInt(cnt)) {
      s->at = a;
      isel_error(s, "variable-length arrays are not supported");
      continue;
    }
    unsigned size = (unsigned)(LLVMABISizeOfType(s->c->td, LLVMGetAllocatedType(a)) *
                               LLVMConstIntGetZExtValue(cnt));
    unsigned al = LLVMGetAlignment(a) > 4 ? LLVMGetAlignment(a) : 4;
    s->private_top = align_up(s->private_top, al);
    if (cc_ptrmap_put(&s->allocas, a, (int)s->private_top) != 0) s->mf->oom = true;
    s->private_top = align_up(s->private_top + size, 4);
  }
}

/* Phi results get their registers before any block is selected. */
static void create_phis(isel *s) {
  for (int i = 0; i < s->ir->ninst; i++) {
    LLVMValueRef p = s->ir->inst[i];
    if (!LLVMIsAPHINode(p)) continue;
    int n = parts_of_type(LLVMTypeOf(p));
    if (n < 0) {
      s->at = p;
      isel_error(s, "values of this type are not supported");
      continue;
    }
    cc_val *v = val_new(s, p, n);
    if (!v) return;
    int rc = s->ir->varying[i] ? CC_RC_V : CC_RC_S;
    for (int k = 0; k < n; k++) v->p[k] = op_reg(new_reg(s, rc), rc);
  }
}

static bool fusable(LLVMValueRef i) {
  if (LLVMGetInstructionOpcode(i) != LLVMICmp) return false;
  LLVMUseRef u = LLVMGetFirstUse(i);
  if (!u || LLVMGetNextUse(u)) return false;
  LLVMValueRef user = LLVMGetUser(u);
  if (LLVMGetInstructionOpcode(user) != LLVMBr || LLVMGetInstructionParent(user) != LLVMGetInstructionParent(i))
    return false;
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, 0));
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind || (int_bits(t) > 1 && int_bits(t) <= 32);
}

static void select_block(isel *s, int b) {
  set_block(s, s->entry_of[b]);
  s->next_key = s->mf->b[s->entry_of[b]].key + 1;
  for (LLVMValueRef i = LLVMGetFirstInstruction(s->ir->bb[b]); i; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsAPHINode(i) || LLVMIsATerminatorInst(i)) continue;
    int idx = cc_irf_index(s->ir, i);
    if (fusable(i)) {
      s->fused[idx] = 1;
      continue;
    }
    s->at = i;
    s->line = cc_line_of(i);
    select_inst(s, i);
    if (s->c->errors > 20) return;
  }
  s->exit_of[b] = s->cur;
}

/* Predecessor side of the phis of successor 'succ' (IR block indices). */
static void phi_copies_out(isel *s, int pred, int succ, int **temps) {
  LLVMBasicBlockRef pb = s->ir->bb[pred];
  for (LLVMValueRef p = LLVMGetFirstInstruction(s->ir->bb[succ]); p && LLVMIsAPHINode(p);
       p = LLVMGetNextInstruction(p)) {
    int idx = cc_irf_index(s->ir, p);
    unsigned n = LLVMCountIncoming(p);
    for (unsigned k = 0; k < n; k++) {
      if (LLVMGetIncomingBlock(p, k) != pb) continue;
      cc_val *phi = get_val(s, p), *in = get_val(s, LLVMGetIncomingValue(p, k));
      if (!phi || !in) return;
      cc_opnd parts[256];
      memcpy(parts, in->p, (size_t)in->n * sizeof *parts);
      for (int q = 0; q < phi->n; q++) {
        if (phi->p[q].rc == CC_RC_S && op_is_v(parts[q])) {
          isel_error(s, "internal error: a varying value flows into a uniform phi");
          return;
        }
        copy_to(s, temps[idx][q], parts[q]);
      }
      break; /* one copy per edge even if the block is listed twice */
    }
  }
}

static void phi_copies_in(isel *s, int b, int **temps) {
  int at = 0;
  for (LLVMValueRef p = LLVMGetFirstInstruction(s->ir->bb[b]); p && LLVMIsAPHINode(p);
       p = LLVMGetNextInstruction(p)) {
    int idx = cc_irf_index(s->ir, p);
    cc_val *phi = get_val(s, p);
    if (!phi) return;
    for (int q = 0; q < phi->n; q++) {
      cc_mi mi = {.op = CC_COPY, .d = phi->p[q].r, .s = {temps[idx][q], -1, -1}, .target = -1,
                  .target2 = -1, .line = cc_line_of(p)};
      cc_mb_insert(s->mf, s->entry_of[b], at++, &mi);
    }
  }
}

static void branch(isel *s, cc_op op, int a, int b, int t, int f) {
  cc_mi *mi = emit(s, op, -1, a, b, -1, 0);
  if (mi) {
    mi->target = t;
    mi->target2 = f;
  }
}

static void jump(isel *s, int t) {
  cc_mi *mi = emit(s, CC_J, -1, -1, -1, -1, 0);
  if (mi) mi->target = t;
}

static void cond_branch(isel *s, LLVMValueRef cond, int t, int f) {
  static const struct { LLVMIntPredicate p; cc_op s, v; bool swap; } map[] = {
      {LLVMIntEQ, CC_BEQ, CC_VBEQ, false},   {LLVMIntNE, CC_BNE, CC_VBNE, false},
      {LLVMIntSLT, CC_BLT, CC_VBLT, false},  {LLVMIntSGE, CC_BGE, CC_VBGE, false},
      {LLVMIntULT, CC_BLTU, CC_VBLTU, false}, {LLVMIntUGE, CC_BGEU, CC_VBGEU, false},
      {LLVMIntSGT, CC_BLT, CC_VBLT, true},   {LLVMIntSLE, CC_BGE, CC_VBGE, true},
      {LLVMIntUGT, CC_BLTU, CC_VBLTU, true}, {LLVMIntULE, CC_BGEU, CC_VBGEU, true}};
  int idx = cc_irf_index(s->ir, cond);
  if (idx >= 0 && s->fused[idx]) {
    LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
    cc_opnd a = get_op(s, LLVMGetOperand(cond, 0)), b = get_op(s, LLVMGetOperand(cond, 1));
    int bits = int_bits(LLVMTypeOf(LLVMGetOperand(cond, 0)));
    bool sgn = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
    if (bits && bits < 32) {
      a = sgn ? sext_op(s, a, bits) : zext_op(s, a, bits);
      b = sgn ? sext_op(s, b, bits) : zext_op(s, b, bits);
    }
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++) {
      if (map[k].p != p) continue;
      if (map[k].swap) {
        cc_opnd x = a;
        a = b;
        b = x;
      }
      bool vec = op_is_v(a) || op_is_v(b);
      if (vec) branch(s, map[k].v, to_vreg(s, a), to_vreg(s, b), t, f);
      else branch(s, map[k].s, to_sreg(s, a), to_sreg(s, b), t, f);
      return;
    }
  }
  cc_opnd c = get_op(s, cond);
  if (op_is_imm(c)) jump(s, c.k ? t : f);
  else if (op_is_v(c)) branch(s, CC_VBNE, c.r, CC_V(0), t, f);
  else branch(s, CC_BNE, c.r, CC_X(0), t, f);
}

static void terminate(isel *s, int b, int **temps) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(s->ir->bb[b]);
  set_block(s, s->exit_of[b]);
  s->at = term;
  s->line = cc_line_of(term);
  const cc_graph *g = s->ir->g;
  CC_SUCCS(g, b, e) phi_copies_out(s, b, g->succ[e], temps);
  LLVMOpcode op = LLVMGetInstructionOpcode(term);
  if (op == LLVMBr && LLVMIsConditional(term)) {
    int t = cc_irf_block(s->ir, LLVMGetSuccessor(term, 0));
    int f = cc_irf_block(s->ir, LLVMGetSuccessor(term, 1));
    if (t == f) jump(s, s->entry_of[t]);
    else cond_branch(s, LLVMGetCondition(term), s->entry_of[t], s->entry_of[f]);
  } else if (op == LLVMBr) {
    jump(s, s->entry_of[cc_irf_block(s->ir, LLVMGetSuccessor(term, 0))]);
  } else if (op == LLVMRet || op == LLVMUnreachable) {
    jump(s, s->mf->exit_block);
  } else {
    isel_error(s, "this terminator is not supported");
  }
}

static int **phi_temps(isel *s) {
  int **t = calloc((size_t)s->ir->ninst + 1, sizeof *t);
  if (!t) return NULL;
  for (int i = 0; i < s->ir->ninst; i++) {
    LLVMValueRef p = s->ir->inst[i];
    if (!LLVMIsAPHINode(p)) continue;
    cc_val *v = get_val(s, p);
    if (!v) continue;
    t[i] = malloc(sizeof(int) * (size_t)(v->n ? v->n : 1));
    if (!t[i]) continue;
    for (int q = 0; q < v->n; q++) t[i][q] = new_reg(s, v->p[q].rc);
  }
  return t;
}

static void isel_free(isel *s) {
  for (int i = 0; i < s->nvals; i++) {
    free(s->vals[i]->p);
    free(s->vals[i]);
  }
  free(s->vals);
  for (int i = 0; i < CC_TMPVALS; i++) free(s->tmpvals[i].p);
  cc_ptrmap_free(&s->vmap);
  cc_ptrmap_free(&s->cache);
  cc_ptrmap_free(&s->allocas);
  cc_ptrmap_free(&s->locals);
  free(s->entry_of);
  free(s->exit_of);
  free(s->fused);
  cc_irf_free(s->ir);
}

static void select_blocks(isel *s) {
  const cc_graph *g = s->ir->g;
  for (int r = 0; r < g->nrpo; r++) {
    int b = g->rpo[r];
    s->entry_of[b] = cc_mf_block(s->mf);
    s->mf->b[s->entry_of[b]].key = r << 16;
  }
  s->mf->exit_block = cc_mf_block(s->mf);
  s->mf->b[s->mf->exit_block].key = 0x7fffffff;
  set_block(s, s->entry_of[g->rpo[0]]);
  s->line = cc_line_of(LLVMGetFirstInstruction(s->ir->bb[g->rpo[0]]));
  s->argbase = new_reg(s, CC_RC_S);
  emit(s, CC_COPY, s->argbase, CC_X(10), -1, -1, 0); /* a0: the argument buffer */
  load_params(s);
  layout_allocas(s);
  create_phis(s);
  for (int r = 0; r < g->nrpo && s->c->errors <= 20; r++) select_block(s, g->rpo[r]);
  int **temps = s->c->errors ? NULL : phi_temps(s);
  if (temps) {
    for (int r = 0; r < g->nrpo; r++) terminate(s, g->rpo[r], temps);
    for (int r = 0; r < g->nrpo; r++) phi_copies_in(s, g->rpo[r], temps);
    for (int i = 0; i < s->ir->ninst; i++) free(temps[i]);
    free(temps);
  }
  set_block(s, s->mf->exit_block);
  emit(s, CC_RET, -1, -1, -1, -1, 0);
}

cc_mf *cc_select(cc_ctx *c, LLVMValueRef fn) {
  isel s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.fn = fn;
  s.cache_block = -1;
  size_t n;
  const char *name = LLVMGetValueName2(fn, &n);
  s.ir = cc_irf_new(fn);
  s.mf = cc_mf_new(name);
  if (!s.ir || !s.mf || cc_uniformity(s.ir) != 0) goto oom;
  s.entry_of = calloc((size_t)s.ir->nb + 1, sizeof(int));
  s.exit_of = calloc((size_t)s.ir->nb + 1, sizeof(int));
  s.fused = calloc((size_t)s.ir->ninst + 1, 1);
  if (!s.entry_of || !s.exit_of || !s.fused) goto oom;
  int errors = c->errors;
  select_blocks(&s);
  if (s.mf->oom) goto oom;
  s.mf->private_bytes = s.private_top;
  s.mf->local_bytes = s.local_top;
  s.mf->stack_bytes = s.stack_top;
  s.mf->calls = s.uses_printf;
  cc_mf *mf = s.mf;
  isel_free(&s);
  if (c->errors != errors) {
    cc_mf_free(mf);
    return NULL;
  }
  cc_mf_edges(mf);
  return mf;
oom:
  cc_error(c, fn, "out of memory");
  cc_mf_free(s.mf);
  isel_free(&s);
  return NULL;
}
