/* The executor decode picks for an instruction without a prefix
 * (vt_insn.fn): a specialised one for the shapes a kernel's inner loop is
 * made of, or the row's own executor (vt_executor_of). A specialised
 * executor checks at run time what the generic path would check first and
 * hands every other case to it (the row's executor), so both paths give
 * the same result; the differential test (tests/unit/test_differential.c)
 * compares them with reference mode, which never uses these. The
 * operations are the ones of exec_scalar.c and vint_body.h at 32 bits. */
#include "alu32.h"
#include "csr.h"
#include "exec_util.h"
#include "exec_vector.h"
#include "fastmem.h"
#include "lanes.h"
#include "vreg.h"

/* the AVX2 variant: gcc or clang on x86-64 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VT_EXEC_AVX2 1
#else
#define VT_EXEC_AVX2 0
#endif

/* the rows of the executor tables below (vt_alu32's operations) */
enum { OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR, OP_SLL, OP_SRL, OP_SRA, OP_MUL };

static int op_of(unsigned sem) {
  switch (sem) {
  case VT_SEM_ADD: return OP_ADD;
  case VT_SEM_SUB: return OP_SUB;
  case VT_SEM_AND: return OP_AND;
  case VT_SEM_OR: return OP_OR;
  case VT_SEM_XOR: return OP_XOR;
  case VT_SEM_SLL: return OP_SLL;
  case VT_SEM_SRL: return OP_SRL;
  case VT_SEM_SRA: return OP_SRA;
  case VT_SEM_MUL: return OP_MUL;
  default: return -1;
  }
}

/* ---- scalar (exec_scalar.c): x0 stays zero, the write is traced ---- */
static inline __attribute__((always_inline)) int scalar_run(vt_device *dev, vt_warp *w,
                                                            const vt_insn *in, unsigned op,
                                                            bool imm) {
  uint32_t b = imm ? (uint32_t)in->imm : w->x[in->rs2];
  write_x(dev, w, in->rd, vt_alu32(op, w->x[in->rs1], b));
  return VT_OK;
}

/* what vt_exec_vector checks before an RVV load or store: the vector
 * unit on, vtype legal, SEW below 64 */
static inline bool vec_mem_ready(const vt_warp *w) {
  return (w->mstatus & VT_MSTATUS_VS) != 0 && !w->vill && vt_vsew(w) != 64;
}

/* the RVV memory forms (vt_vmem) */
static int vec_mem(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  if (!vec_mem_ready(w)) return vt_exec_vector(dev, w, in, err);
  int rc = vt_vmem(dev, w, in, err);
  if (rc == VT_OK) w->vstart = 0;
  return rc;
}

/* unit stride with elements of 8..32 bits: the one-translation path of
 * vt_vmem's element accesses when it applies, else the generic path */
static int vec_unit(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  if (!vec_mem_ready(w)) return vt_exec_vector(dev, w, in, err);
  uint32_t m = w->mask & vt_vrange(w) & (in->vm ? 0xffffffffu : w->v[0][0]);
  if (!vt_vmem_unit_fast(dev, w, in, m, in->d->msize, in->d->mem == VT_MEM_STORE))
    return vt_exec_vector(dev, w, in, err);
  w->vstart = 0;
  return VT_OK;
}

#define FAST_OP(NAME, OP)                                                                   \
  static int x_##NAME(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {      \
    (void)err;                                                                              \
    return scalar_run(dev, w, in, OP, false);                                               \
  }                                                                                         \
  static int xi_##NAME(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {     \
    (void)err;                                                                              \
    return scalar_run(dev, w, in, OP, true);                                                \
  }
FAST_OP(add, VT_SEM_ADD)
FAST_OP(sub, VT_SEM_SUB)
FAST_OP(and, VT_SEM_AND)
FAST_OP(or, VT_SEM_OR)
FAST_OP(xor, VT_SEM_XOR)
FAST_OP(sll, VT_SEM_SLL)
FAST_OP(srl, VT_SEM_SRL)
FAST_OP(sra, VT_SEM_SRA)
FAST_OP(mul, VT_SEM_MUL)
#undef FAST_OP

/* by operation: scalar reg-reg, scalar reg-imm */
static const vt_exec_fn scalar_ops[][2] = {
    [OP_ADD] = {x_add, xi_add}, [OP_SUB] = {x_sub, xi_sub}, [OP_AND] = {x_and, xi_and},
    [OP_OR] = {x_or, xi_or},    [OP_XOR] = {x_xor, xi_xor}, [OP_SLL] = {x_sll, xi_sll},
    [OP_SRL] = {x_srl, xi_srl}, [OP_SRA] = {x_sra, xi_sra}, [OP_MUL] = {x_mul, xi_mul},
};

/* ---- vector, SEW 32, every operand 32 bits wide (exec_vector.c) ---- */
/* what vt_exec_vector checks before the element work: the vector unit on,
 * vtype legal, SEW 32 */
static inline bool vec32_ready(const vt_warp *w) {
  return (w->mstatus & VT_MSTATUS_VS) != 0 && !w->vill && vt_vsew(w) == 32;
}

/* the lanes computed: [vstart, vl), the SIMT mask, v0 when masked */
static inline uint32_t vec32_lanes(const vt_warp *w, const vt_insn *in) {
  uint32_t m = vt_vrange(w) & w->mask;
  return in->vm ? m : m & w->v[0][0];
}

/* the executors (exec_fast_vec.h): portable, and AVX2 where the
 * compiler can target it (chosen per device, vt_exec_avx2) ---- */
#define VF_NAME(x) x##_portable
#define VF_TARGET
#include "exec_fast_vec.h"
#if VT_EXEC_AVX2
#define VF_NAME(x) x##_avx2
#define VF_TARGET __attribute__((target("avx2")))
#include "exec_fast_vec.h"
#endif

bool vt_exec_avx2(void) {
#if VT_EXEC_AVX2
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

/* ---- scalar branches (exec_scalar.c) ---- */
#define FAST_BRANCH(NAME, COND)                                                              \
  static int NAME(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {           \
    (void)dev, (void)err;                                                                   \
    uint32_t a = w->x[in->rs1], b = w->x[in->rs2];                                          \
    if (COND) w->npc = in->pc + (uint32_t)in->imm;                                          \
    return VT_OK;                                                                           \
  }
FAST_BRANCH(b_eq, a == b)
FAST_BRANCH(b_ne, a != b)
FAST_BRANCH(b_lt, (int32_t)a < (int32_t)b)
FAST_BRANCH(b_ltu, a < b)
FAST_BRANCH(b_ge, (int32_t)a >= (int32_t)b)
FAST_BRANCH(b_geu, a >= b)
#undef FAST_BRANCH

static vt_exec_fn branch_of(const vt_insn_desc *d) {
  bool sg = (d->flags & VT_F_SA) != 0;
  switch (d->sem) {
  case VT_SEM_EQ: return b_eq;
  case VT_SEM_NE: return b_ne;
  case VT_SEM_LT: return sg ? b_lt : b_ltu;
  case VT_SEM_GE: return sg ? b_ge : b_geu;
  default: return NULL;
  }
}

/* jal (exec_scalar.c): the link, then the jump */
static int jal(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  (void)err;
  write_x(dev, w, in->rd, in->pc + 4);
  w->npc = in->pc + (uint32_t)in->imm;
  return VT_OK;
}

/* lui, auipc (exec_scalar.c) */
static int lui(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  (void)err;
  write_x(dev, w, in->rd, (uint32_t)in->imm << 12);
  return VT_OK;
}

static int auipc(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  (void)err;
  write_x(dev, w, in->rd, in->pc + ((uint32_t)in->imm << 12));
  return VT_OK;
}

/* jalr: the target from rs1 before rd is written */
static int jalr(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  (void)err;
  w->npc = (w->x[in->rs1] + (uint32_t)in->imm) & ~1u;
  write_x(dev, w, in->rd, in->pc + 4);
  return VT_OK;
}

/* csrr of a Ventus CSR (csrrs/csrrsi with rs1 field 0: a read, no write;
 * exec_scalar.c csr_op) */
static int csr_read_warp(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  (void)err;
  write_x(dev, w, in->rd, w->csr[((unsigned)in->imm & 0xfff) - VT_CSR_TID]);
  return VT_OK;
}

/* the scalar rows' executors besides the ALU operations and branches,
 * decided from the row and (CSR reads) the instruction's fields */
static vt_exec_fn scalar_of(const vt_insn *in) {
  const vt_insn_desc *d = in->d;
  switch ((vt_exec_class)d->exec_class) {
  case VT_EX_ALU:
    return d->sem == VT_SEM_LUI ? lui : d->sem == VT_SEM_AUIPC ? auipc : NULL;
  case VT_EX_JUMP:
    return d->sem == VT_SEM_JAL ? jal : d->sem == VT_SEM_JALR ? jalr : NULL;
  case VT_EX_LOAD: case VT_EX_STORE:
    if (d->amode == VT_AM_BASE64 || (d->flags & (VT_F_PRD | VT_F_PRS1 | VT_F_PRS2))) return NULL;
    return d->exec_class == VT_EX_LOAD ? vt_exec_load : vt_exec_store;
  case VT_EX_CSR:
    return d->sem == VT_SEM_CSRRS && ((in->word >> 15) & 31) == 0 &&
                   vt_csr_is_warp((unsigned)in->imm & 0xfff)
               ? csr_read_warp
               : NULL;
  default:
    return NULL;
  }
}

/* the parts of vt_exec_ventus by operation (its switch, decided once) */
static vt_exec_fn ventus_of(const vt_insn_desc *d) {
  switch (d->sem) {
  case VT_SEM_EQ: case VT_SEM_NE: case VT_SEM_LT: case VT_SEM_GE: return vt_exec_vbranch;
  case VT_SEM_JOIN: return vt_exec_join;
  case VT_SEM_SETRPC: return vt_exec_setrpc;
  default: return NULL;
  }
}

/* the specialised executor of a row, NULL when it has none */
static vt_exec_fn fast_of(const vt_insn *in, bool avx2) {
  const vt_insn_desc *d = in->d;
  const uint32_t fl = d->flags;
  const vt_exec_fn row = vt_executor_of(d);
  if (row == vt_exec_ventus) return ventus_of(d);
  if (row == vt_exec_scalar && d->length == 4 && !(fl & VT_F_W)) {
    vt_exec_fn f = scalar_of(in);
    if (f) return f;
  }
  /* rows whose operands or results are not plain 32-bit words */
  if (d->length != 4 || (fl & (VT_F_REV | VT_F_V0 | VT_F_NOSIMT | VT_F_FP | VT_F_RED |
                               VT_F_MASKW | VT_F_W | VT_F_PRD | VT_F_PRS1 | VT_F_PRS2)))
    return NULL;
  int op = op_of(d->sem);
  switch ((vt_exec_class)d->exec_class) {
  case VT_EX_ALU: case VT_EX_MUL:
    if (row != vt_exec_scalar || op < 0 || (fl & VT_F_VEC) ||
        (op == OP_MUL) != (d->exec_class == VT_EX_MUL))
      return NULL;
    return scalar_ops[op][(fl & VT_F_BI) ? 1 : 0];
  case VT_EX_BRANCH:
    return row != vt_exec_scalar || (fl & VT_F_VEC) ? NULL : branch_of(d);
  case VT_EX_VALU: case VT_EX_VMUL:
    if (row != vt_exec_vector || op < 0 || d->ew != VT_EW_SEW || !(fl & VT_F_VEC)) return NULL;
#if VT_EXEC_AVX2
    if (avx2) return vec_ops_avx2[op][(fl & VT_F_BI) ? 2 : (fl & VT_F_BX) ? 1 : 0];
#endif
    return vec_ops_portable[op][(fl & VT_F_BI) ? 2 : (fl & VT_F_BX) ? 1 : 0];
  case VT_EX_VLOAD: case VT_EX_VSTORE:
    if (row != vt_exec_vector) return NULL;
    return d->amode == VT_AM_VUNIT && d->msize <= 4 ? vec_unit : vec_mem;
  default:
    return NULL;
  }
}

vt_exec_fn vt_exec_choose(const vt_insn *in, bool avx2) {
  if (!in->d || in->check) return NULL; /* the isa2025.md gate first */
  vt_exec_fn f = fast_of(in, avx2);
  return f ? f : vt_executor_of(in->d);
}
