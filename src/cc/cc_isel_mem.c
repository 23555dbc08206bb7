/* Memory: addresses (getelementptr, globals, allocas), loads, stores and
 * memcpy/memset. Flat memory (__global, __constant, __local, the argument
 * buffer) is reached with lw/sw at a uniform address and with the per-lane
 * vlw12.v/vsw12.v at a varying one; private memory (allocas: arrays that
 * stay in memory, and vector spill slots) with vlw.v/vsw.v, whose address
 * is an offset into the lane's private space (isa.md 2.8). The private
 * frame starts at offset 0 (crt0 sets tp = 0 and the kernel calls nothing
 * that uses private memory), so a constant offset needs no register: the
 * base is v0, which holds 0 in every lane. */
#include <string.h>

#include "cc_isel.h"

static bool is_private_ptr(isel *s, LLVMValueRef p) {
  LLVMTypeRef t = LLVMTypeOf(p);
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 0 &&
         !cc_ptr_is_flat(s->ir, p);
}

static LLVMOpcode opcode_of(LLVMValueRef v) {
  if (LLVMIsAInstruction(v)) return LLVMGetInstructionOpcode(v);
  if (LLVMIsAConstantExpr(v)) return LLVMGetConstOpcode(v);
  return (LLVMOpcode)0;
}

/* Walks the indices of a GEP: the constant part into *off; the variable
 * part added to *base. */
static bool gep_indices(isel *s, LLVMValueRef g, cc_opnd *base, int32_t *off) {
  LLVMTypeRef t = LLVMGetGEPSourceElementType(g);
  int n = LLVMGetNumOperands(g);
  LLVMTargetDataRef td = s->c->td;
  for (int k = 1; k < n; k++) {
    LLVMValueRef iv = LLVMGetOperand(g, k);
    if (k > 1) {
      if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
        unsigned f = (unsigned)LLVMConstIntGetZExtValue(iv);
        *off += (int32_t)LLVMOffsetOfElement(td, t, f);
        t = LLVMStructGetTypeAtIndex(t, f);
        continue;
      }
      t = LLVMGetElementType(t);
    }
    int32_t size = (int32_t)LLVMABISizeOfType(td, t);
    if (LLVMGetTypeKind(LLVMTypeOf(iv)) == LLVMVectorTypeKind) {
      isel_error(s, "vectors of pointers are not supported");
      return false;
    }
    cc_opnd idx = get_op(s, iv);
    if (op_is_imm(idx)) {
      *off += idx.k * size;
    } else {
      int bits = int_bits(LLVMTypeOf(iv));
      if (bits && bits < 32) idx = sext_op(s, idx, bits);
      *base = alu(s, A_ADD, *base, alu(s, A_MUL, idx, op_imm(size)));
    }
  }
  return true;
}

static bool all_const_indices(LLVMValueRef g) {
  int n = LLVMGetNumOperands(g);
  for (int k = 1; k < n; k++)
    if (!LLVMIsAConstantInt(LLVMGetOperand(g, k))) return false;
  return true;
}

bool addr_of(isel *s, LLVMValueRef p, cc_addr *a) {
  LLVMOpcode op = opcode_of(p);
  if (LLVMIsAAllocaInst(p)) {
    int off = cc_ptrmap_get(&s->allocas, p);
    *a = (cc_addr){op_imm(0), off < 0 ? 0 : off, true};
    return true;
  }
  if (LLVMIsAGlobalVariable(p)) {
    *a = (cc_addr){op_reg(global_address(s, p), CC_RC_S), 0, false};
    return true;
  }
  if (op == LLVMBitCast || op == LLVMAddrSpaceCast) {
    if (!addr_of(s, LLVMGetOperand(p, 0), a)) return false;
    if (op == LLVMAddrSpaceCast) a->priv = is_private_ptr(s, p);
    return true;
  }
  if (op == LLVMGetElementPtr && (LLVMIsAConstantExpr(p) || all_const_indices(p))) {
    if (!addr_of(s, LLVMGetOperand(p, 0), a)) return false;
    return gep_indices(s, p, &a->base, &a->off);
  }
  *a = (cc_addr){get_op(s, p), 0, is_private_ptr(s, p)};
  return true;
}

void select_gep(isel *s, LLVMValueRef i) {
  cc_addr a;
  if (!addr_of(s, LLVMGetOperand(i, 0), &a) || !gep_indices(s, i, &a.base, &a.off)) return;
  cc_val *r = val_new(s, i, 1);
  if (r) r->p[0] = alu(s, A_ADD, a.base, op_imm(a.off));
}

static bool fits12(int32_t k) { return k >= -2048 && k <= 2047; }
static bool fits11(int32_t k) { return k >= -1024 && k <= 1023; }

/* base register and immediate for an access at a + piece offset */
static void place(isel *s, const cc_addr *a, uint32_t poff, bool vec, bool priv, int *reg,
                  int32_t *imm) {
  int32_t total = a->off + (int32_t)poff;
  bool fits = priv ? fits11(total) : fits12(total);
  if (priv && op_is_imm(a->base) && fits11(a->base.k + total)) {
    *reg = CC_V(0);
    *imm = a->base.k + total;
    return;
  }
  cc_opnd b = a->base;
  if (!fits) {
    b = alu(s, A_ADD, b, op_imm(total));
    total = 0;
  }
  *reg = vec ? to_vreg(s, b) : to_sreg(s, b);
  *imm = total;
}

static const cc_op s_load[5] = {0, CC_LBU, CC_LHU, 0, CC_LW};
static const cc_op v_load[5] = {0, CC_VLBU12, CC_VLHU12, 0, CC_VLW12};
static const cc_op p_load[5] = {0, CC_VLBU, CC_VLHU, 0, CC_VLW};
static const cc_op s_store[5] = {0, CC_SB, CC_SH, 0, CC_SW};
static const cc_op v_store[5] = {0, CC_VSB12, CC_VSH12, 0, CC_VSW12};
static const cc_op p_store[5] = {0, CC_VSB, CC_VSH, 0, CC_VSW};

void load_pieces(isel *s, const cc_addr *a, const cc_piece *pc, int n, bool varying, cc_opnd *out) {
  (void)varying; /* a uniform address loads one value for the warp */
  bool vec = a->priv || op_is_v(a->base);
  for (int k = 0; k < n; k++) {
    int reg;
    int32_t imm;
    place(s, a, pc[k].off, vec, a->priv, &reg, &imm);
    int d = new_reg(s, vec ? CC_RC_V : CC_RC_S);
    cc_op op = a->priv ? p_load[pc[k].size] : vec ? v_load[pc[k].size] : s_load[pc[k].size];
    emit(s, op, d, reg, -1, -1, imm);
    out[k] = op_reg(d, vec ? CC_RC_V : CC_RC_S);
  }
}

void store_pieces(isel *s, const cc_addr *a, const cc_piece *pc, int n, const cc_opnd *data) {
  bool any_v = a->priv || op_is_v(a->base);
  for (int k = 0; k < n; k++) any_v |= op_is_v(data[k]);
  for (int k = 0; k < n; k++) {
    int reg;
    int32_t imm;
    place(s, a, pc[k].off, any_v, a->priv, &reg, &imm);
    int d = any_v ? to_vreg(s, data[k]) : to_sreg(s, data[k]);
    cc_op op = a->priv ? p_store[pc[k].size] : any_v ? v_store[pc[k].size] : s_store[pc[k].size];
    emit(s, op, -1, d, reg, -1, imm);
  }
}

void select_load(isel *s, LLVMValueRef i) {
  LLVMTypeRef t = LLVMTypeOf(i);
  int n = parts_of_type(t);
  cc_piece pc[256];
  if (n < 0 || pieces_of_type(s, t, pc, n) != 0) {
    isel_error(s, "loads of this type are not supported");
    return;
  }
  cc_addr a;
  if (!addr_of(s, LLVMGetOperand(i, 0), &a)) return;
  cc_opnd out[256];
  load_pieces(s, &a, pc, n, cc_is_varying(s->ir, i), out);
  cc_val *r = val_new(s, i, n);
  if (r) memcpy(r->p, out, (size_t)n * sizeof *out);
}

void select_store(isel *s, LLVMValueRef i) {
  LLVMValueRef v = LLVMGetOperand(i, 0);
  LLVMTypeRef t = LLVMTypeOf(v);
  int n = parts_of_type(t);
  cc_piece pc[256];
  if (n < 0 || pieces_of_type(s, t, pc, n) != 0) {
    isel_error(s, "stores of this type are not supported");
    return;
  }
  cc_val *x = get_val(s, v);
  if (!x) return;
  cc_opnd data[256];
  memcpy(data, x->p, (size_t)n * sizeof *data);
  cc_addr a;
  if (!addr_of(s, LLVMGetOperand(i, 1), &a)) return;
  store_pieces(s, &a, pc, n, data);
}

static unsigned param_align(LLVMValueRef call, unsigned idx) {
  unsigned kind = LLVMGetEnumAttributeKindForName("align", 5);
  LLVMAttributeRef at = LLVMGetCallSiteEnumAttribute(call, idx + 1, kind);
  return at ? (unsigned)LLVMGetEnumAttributeValue(at) : 1;
}

/* llvm.memcpy / llvm.memmove / llvm.memset with a constant size, copied in
 * the widest pieces the alignment allows. */
void select_memcpy(isel *s, LLVMValueRef call, bool is_set) {
  LLVMValueRef len = LLVMGetOperand(call, 2);
  if (!LLVMIsAConstantInt(len)) {
    isel_error(s, "memcpy/memset of a variable size is not supported");
    return;
  }
  uint64_t n = LLVMConstIntGetZExtValue(len);
  if (n > 65536) {
    isel_error(s, "memcpy/memset of more than 64 KiB is not supported");
    return;
  }
  unsigned al = param_align(call, 0);
  if (!is_set) {
    unsigned a2 = param_align(call, 1);
    if (a2 < al) al = a2;
  }
  unsigned chunk = al >= 4 ? 4 : al >= 2 ? 2 : 1;
  cc_addr dst, src = {0};
  if (!addr_of(s, LLVMGetOperand(call, 0), &dst)) return;
  cc_opnd fill = op_imm(0);
  if (is_set) {
    cc_opnd b = zext_op(s, get_op(s, LLVMGetOperand(call, 1)), 8);
    fill = chunk == 1 ? b : alu(s, A_MUL, b, op_imm(chunk == 4 ? 0x01010101 : 0x0101));
  } else if (!addr_of(s, LLVMGetOperand(call, 1), &src)) {
    return;
  }
  for (uint64_t off = 0; off < n;) {
    unsigned c = chunk;
    while (off + c > n) c >>= 1;
    cc_piece pc = {(uint32_t)off, (uint8_t)c};
    cc_opnd v = fill;
    if (!is_set) load_pieces(s, &src, &pc, 1, false, &v);
    store_pieces(s, &dst, &pc, 1, &v);
    off += c;
  }
}
