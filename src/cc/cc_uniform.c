/* Uniformity (divergence) analysis: which values may differ between the
 * lanes of a warp. Uniform values live in scalar registers (one per warp),
 * varying ones in vector registers (docs/cc.md "How divergence is
 * compiled").
 *
 * Sources of divergence: the lane number (__vt_lane, behind get_local_id
 * and get_global_id), loads from private memory (each lane has its own),
 * atomics (each lane gets its own old value) and printf's result. Data
 * dependence: an instruction with a varying operand is varying. Sync
 * dependence: a divergent branch (varying condition) makes the phis varying
 * where paths from its different successors meet (join points, found by
 * propagating one label per successor along forward edges in reverse
 * post-order; a block reached with two labels is a join) and, when it
 * leaves a loop, the phis of every exit block of that loop: lanes leave in
 * different iterations, so a value that is uniform inside the loop differs
 * between lanes outside it (loops are in LCSSA form, so such values pass
 * through exit-block phis). Inside the loop, the lanes still there have
 * run the same iterations, so uniform values stay uniform. */
#include <stdlib.h>
#include <string.h>

#include "cc_ir.h"

typedef struct uni {
  cc_irf *f;
  int *work;
  int nwork;
  int *label;
} uni;

static void mark(uni *u, int i) {
  if (i < 0 || u->f->varying[i]) return;
  u->f->varying[i] = 1;
  u->work[u->nwork++] = i;
}

static bool call_named(LLVMValueRef call, const char *name) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee)) return false;
  size_t n;
  const char *s = LLVMGetValueName2(callee, &n);
  return strlen(name) == n && !memcmp(s, name, n);
}

static bool is_private_ptr(const cc_irf *f, LLVMValueRef p) {
  LLVMTypeRef t = LLVMTypeOf(p);
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 0 &&
         !cc_ptr_is_flat(f, p);
}

static bool is_source(const cc_irf *f, LLVMValueRef i) {
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMCall: {
    LLVMValueRef callee = LLVMGetCalledValue(i);
    if (!callee || !LLVMIsAFunction(callee)) return true;
    size_t n;
    const char *s = LLVMGetValueName2(callee, &n);
    if (!strncmp(s, "llvm.", 5) || call_named(i, "__vt_csr") || call_named(i, "__vt_knl") ||
        call_named(i, "__vt_barrier") || call_named(i, "__vt_fence"))
      return false;
    return true; /* __vt_lane, printf, anything else */
  }
  case LLVMLoad:
    return is_private_ptr(f, LLVMGetOperand(i, 0));
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
    return true;
  default:
    return false;
  }
}

/* Phis whose incoming values are not all the same value; at the exits of
 * a loop left divergently, every phi (also one with a single incoming
 * value: lanes took it in different iterations). */
static void mark_phis(uni *u, int b, bool temporal) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(u->f->bb[b]); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i)) {
    unsigned n = LLVMCountIncoming(i);
    bool same = !temporal;
    for (unsigned k = 1; k < n; k++) same &= LLVMGetIncomingValue(i, k) == LLVMGetIncomingValue(i, 0);
    if (!same) mark(u, cc_irf_index(u->f, i));
  }
}

static bool is_succ(const cc_graph *g, int x, int b) {
  CC_SUCCS(g, x, e) if (g->succ[e] == b) return true;
  return false;
}

/* Join points of the divergent branch ending block x. */
static void branch_joins(uni *u, int x) {
  const cc_graph *g = u->f->g;
  int *label = u->label;
  for (int v = 0; v < g->n; v++) label[v] = -1;
  CC_SUCCS(g, x, e) label[g->succ[e]] = g->succ[e];
  for (int r = g->rpo_index[x] + 1; r < g->nrpo; r++) {
    int b = g->rpo[r], l = is_succ(g, x, b) ? b : -1;
    bool join = false;
    CC_PREDS(g, b, e) {
      int p = g->pred[e];
      if (p == x || g->rpo_index[p] < 0 || g->rpo_index[p] >= r || label[p] < 0) continue;
      if (l < 0) l = label[p];
      else if (l != label[p]) join = true;
    }
    if (join) {
      mark_phis(u, b, false);
      l = b;
    }
    label[b] = l;
  }
  /* loops around x: paths from different successors meeting at a header
   * through back edges; and loops that x's branch leaves */
  for (int k = 0; k < g->nloops; k++) {
    int h = g->loop_head[k];
    const unsigned char *in = g->loop_set[k];
    if (!in[x]) continue;
    int l = -1;
    bool join = false, exits = false;
    CC_PREDS(g, h, e) {
      int t = g->pred[e];
      if (!in[t] || label[t] < 0) continue;
      if (l < 0) l = label[t];
      else if (l != label[t]) join = true;
    }
    if (join) mark_phis(u, h, false);
    CC_SUCCS(g, x, e) exits |= !in[g->succ[e]];
    if (!exits) continue;
    for (int v = 0; v < g->n; v++) {
      if (in[v]) continue;
      bool exit_block = false;
      CC_PREDS(g, v, e) exit_block |= in[g->pred[e]] != 0;
      if (exit_block) mark_phis(u, v, true);
    }
  }
}

static void users(uni *u, LLVMValueRef v) {
  for (LLVMUseRef use = LLVMGetFirstUse(v); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    int i = cc_irf_index(u->f, user);
    if (i < 0) continue;
    LLVMOpcode op = LLVMGetInstructionOpcode(user);
    if (op == LLVMBr || op == LLVMSwitch) {
      int b = u->f->inst_block[i];
      if (!u->f->div_branch[b]) {
        u->f->div_branch[b] = 1;
        branch_joins(u, b);
      }
    } else if (op != LLVMStore && op != LLVMRet) {
      mark(u, i);
    }
  }
}

/* Private-space pointers derived from byval kernel arguments point into
 * the argument buffer (flat memory), not into private memory. */
static void flat_pointers(cc_irf *f) {
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < f->ninst; i++) {
      LLVMValueRef v = f->inst[i];
      if (f->flat_ptr[i] || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMPointerTypeKind) continue;
      LLVMOpcode op = LLVMGetInstructionOpcode(v);
      if (op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast &&
          op != LLVMPHI && op != LLVMSelect)
        continue;
      int n = LLVMGetNumOperands(v);
      for (int k = 0; k < n; k++) {
        LLVMValueRef o = LLVMGetOperand(v, k);
        if (LLVMGetTypeKind(LLVMTypeOf(o)) != LLVMPointerTypeKind) continue;
        if (cc_ptr_is_flat(f, o)) {
          f->flat_ptr[i] = 1;
          changed = true;
          break;
        }
      }
    }
  }
}

bool cc_ptr_is_flat(const cc_irf *f, LLVMValueRef v) {
  if (LLVMIsAArgument(v)) {
    unsigned n = LLVMCountParams(f->fn);
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned k = 0; k < n; k++)
      if (LLVMGetParam(f->fn, k) == v)
        return LLVMGetEnumAttributeAtIndex(f->fn, k + 1, byval) != NULL;
    return false;
  }
  if (LLVMIsAConstantExpr(v)) {
    LLVMValueRef base = LLVMGetOperand(v, 0);
    return base && LLVMGetTypeKind(LLVMTypeOf(base)) == LLVMPointerTypeKind && cc_ptr_is_flat(f, base);
  }
  int i = cc_irf_index(f, v);
  return i >= 0 && f->flat_ptr[i];
}

bool cc_is_varying(const cc_irf *f, LLVMValueRef v) {
  int i = cc_irf_index(f, v);
  return i >= 0 && f->varying[i];
}

int cc_uniformity(cc_irf *f) {
  uni u = {.f = f};
  u.work = malloc(((size_t)f->ninst + 1) * sizeof(int));
  u.label = malloc(((size_t)f->nb + 1) * sizeof(int));
  if (!u.work || !u.label) {
    free(u.work);
    free(u.label);
    return -1;
  }
  flat_pointers(f);
  for (int i = 0; i < f->ninst; i++)
    if (is_source(f, f->inst[i])) mark(&u, i);
  while (u.nwork) users(&u, f->inst[u.work[--u.nwork]]);
  free(u.work);
  free(u.label);
  return 0;
}
