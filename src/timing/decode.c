/* Static timing information of every instruction, derived from the
 * instruction table: issue path and functional unit from the unit column
 * (uarch.md 2.1 step 5), registers read and written from the operand list
 * (VOP64's 8-bit fields included) and the flags (vd read by multiply-adds,
 * v0 read as carry or select, register pairs), the FPU latency from the
 * latency column. What depends on vtype or a prefix: dyn.c. */
#include <string.h>

#include "timing_internal.h"

/* FPU latency of the table's latency class */
static uint8_t fpu_latency(const vt_settings *c, vt_lat lat) {
  switch (lat) {
  case VT_LAT_FMA: return (uint8_t)c->lat_fma;
  case VT_LAT_FADD: return (uint8_t)c->lat_fadd;
  case VT_LAT_FMUL: return (uint8_t)c->lat_fmul;
  case VT_LAT_FCVT: return (uint8_t)c->lat_fcvt;
  default: return (uint8_t)c->lat_fmisc;
  }
}

static void add_src(tm_iinfo *in, uint8_t kind, uint8_t field) {
  if (in->nsrc < 5) in->src[in->nsrc++] = (tm_src){kind, field, 1};
}

/* the static register pairs of a row (VT_F_PRD/PRS1/PRS2, isa2025.md D9) */
static void mark_pairs(tm_iinfo *in, uint32_t flags) {
  if (flags & VT_F_PRD) in->dst_n = 2;
  for (unsigned j = 0; j < in->nsrc; j++) {
    uint8_t f = in->src[j].field;
    if ((f == TM_F_RS1 && (flags & VT_F_PRS1)) || (f == TM_F_RS2 && (flags & VT_F_PRS2)) ||
        (f == TM_F_RS3 && (flags & VT_F_PRS3)))
      in->src[j].n = 2;
  }
}

/* the registers an instruction reads and writes, from its operand list */
static void info_operands(tm_iinfo *in, const vt_insn_desc *d) {
  for (unsigned k = 0; k < d->nops; k++) {
    switch (d->ops[k]) {
    case VT_OP_RD: in->dst_kind = TM_R_X; break;
    case VT_OP_VD: in->dst_kind = TM_R_V; break;
    case VT_OP_RS1: add_src(in, TM_R_X, TM_F_RS1); break;
    case VT_OP_RS2: add_src(in, TM_R_X, TM_F_RS2); break;
    case VT_OP_RS3: add_src(in, TM_R_X, TM_F_RS3); break;
    case VT_OP_XS3: add_src(in, TM_R_X, TM_F_VS3); break; /* DMA shared address (bits 11:7) */
    case VT_OP_VS1: add_src(in, TM_R_V, TM_F_RS1); in->flags |= TM_I_VECTOR; break;
    case VT_OP_VS2: add_src(in, TM_R_V, TM_F_RS2); in->flags |= TM_I_VECTOR; break;
    case VT_OP_VS3: add_src(in, TM_R_V, TM_F_VS3); in->flags |= TM_I_VECTOR; break;
    case VT_OP_VM: in->flags |= TM_I_MASKABLE; break;
    /* VOP64: 8-bit register fields (isa2025.md 3.8.1) */
    case VT_OP_V8D: in->dst_kind = TM_R_V; break;
    case VT_OP_V8S1: add_src(in, TM_R_V, TM_F_RS1); break;
    case VT_OP_X8S1: add_src(in, TM_R_X, TM_F_RS1); break;
    case VT_OP_V8S2: add_src(in, TM_R_V, TM_F_RS2); break;
    default: break;
    }
  }
}

/* the dispatch path, the functional unit and its latency */
static void info_unit(tm_iinfo *in, const vt_insn_desc *d, const vt_settings *c) {
  in->path = TM_V;
  switch ((vt_exec_class)d->exec_class) {
  case VT_EX_ALU: in->path = TM_X; in->unit = TM_U_ALU; in->lat = (uint8_t)c->lat_alu; break;
  case VT_EX_BRANCH: case VT_EX_JUMP:
    in->path = TM_X; in->unit = TM_U_ALU; in->lat = (uint8_t)c->lat_alu;
    in->flags |= TM_I_BRANCH;
    break;
  case VT_EX_LOAD: in->unit = TM_U_LSU; in->flags |= TM_I_LOAD; break;
  case VT_EX_STORE: in->unit = TM_U_LSU; in->flags |= TM_I_STORE; break;
  case VT_EX_AMO: in->unit = TM_U_LSU; in->flags |= TM_I_AMO; break;
  case VT_EX_VLOAD: in->unit = TM_U_LSU; in->flags |= TM_I_LOAD; break;
  case VT_EX_VSTORE: in->unit = TM_U_LSU; in->flags |= TM_I_STORE; break;
  case VT_EX_CSR: case VT_EX_SYSTEM: case VT_EX_VSET:
    in->path = TM_X; in->unit = TM_U_CSR; in->lat = (uint8_t)c->lat_csr; break;
  case VT_EX_FENCE:
    in->path = TM_X; in->unit = TM_U_CSR; in->lat = (uint8_t)c->lat_csr;
    in->flags |= TM_I_FENCE;
    break;
  case VT_EX_MUL: case VT_EX_VMUL: in->unit = TM_U_MUL; in->lat = (uint8_t)c->lat_mul; break;
  case VT_EX_DIV: case VT_EX_VDIV: in->unit = TM_U_SFU; in->flags |= TM_I_IDIV; break;
  case VT_EX_SFU: case VT_EX_VSFU: in->unit = TM_U_SFU; break;
  case VT_EX_FPU: case VT_EX_VFPU:
    in->unit = TM_U_FPU; in->lat = fpu_latency(c, (vt_lat)d->lat); break;
  case VT_EX_VALU: case VT_EX_VPERM: case VT_EX_VMASK:
    in->unit = TM_U_VALU; in->lat = (uint8_t)c->lat_valu; break;
  case VT_EX_VBRANCH:
    in->unit = TM_U_VALU; in->lat = (uint8_t)c->lat_valu;
    in->flags |= TM_I_BRANCH | TM_I_VBRANCH;
    break;
  case VT_EX_SIMT:
    if (d->sem == VT_SEM_JOIN) {
      in->unit = TM_U_VALU; in->lat = (uint8_t)c->lat_valu; in->flags |= TM_I_BRANCH;
    } else { /* setrpc */
      in->path = TM_X; in->unit = TM_U_CSR; in->lat = (uint8_t)c->lat_csr;
    }
    break;
  case VT_EX_BARRIER:
    in->path = TM_X; in->unit = TM_U_CTRL; in->flags |= TM_I_BARRIER | TM_I_BRANCH; break;
  case VT_EX_ENDPRG: in->path = TM_X; in->unit = TM_U_CTRL; in->flags |= TM_I_ENDPRG; break;
  case VT_EX_REGEXT: {
    in->path = TM_X;
    in->unit = TM_U_CTRL;
    /* regext/regexti are absorbed by decode; the v2025 prefixes take a
     * dispatch slot unless fused (isa2025.md 6.2) */
    bool v2025 = d->sem == VT_SEM_PREFIX || d->sem == VT_SEM_PREFIXI || d->sem == VT_SEM_PREFIX_MEM;
    in->flags |= v2025 && !c->prefix_fused ? TM_I_PREFIX : TM_I_REGEXT;
    break;
  }
  case VT_EX_TENSOR: in->unit = TM_U_TC; break; /* latency per launch; MMA below */
  case VT_EX_DMA: /* copies are queued at dispatch; cp_dma_mbarrier waits, then costs its latency */
    in->unit = TM_U_DMA;
    in->flags |= TM_I_DMA;
    if (d->sem == VT_SEM_COPY_WAIT) {
      in->path = TM_X;
      in->unit = TM_U_ALU;
      in->lat = (uint8_t)c->mbarrier_latency;
      in->flags = (uint32_t)((in->flags & ~TM_I_DMA) | TM_I_DMA_WAIT | TM_I_BRANCH);
    }
    break;
  default: in->path = TM_X; in->unit = TM_U_ALU; in->lat = (uint8_t)c->lat_alu; break;
  }
}

void tm_build_info(vt_timing *t) {
  const vt_settings *c = &t->cfg;
  for (unsigned id = 0; id < VT_INSN_COUNT; id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    tm_iinfo *in = &t->info[id];
    memset(in, 0, sizeof *in);
    info_operands(in, d);
    in->dst_n = 1;
    mark_pairs(in, d->flags);
    if (in->dst_kind == TM_R_V) in->flags |= TM_I_VECTOR;
    if (d->flags & VT_F_RVD) add_src(in, TM_R_V, TM_F_RD);  /* multiply-adds */
    if (d->flags & VT_F_V0) add_src(in, TM_R_V, TM_F_V0);   /* carry or select */
    info_unit(in, d, c);
    if (d->amode == VT_AM_PRIVATE) in->flags |= TM_I_PRIVATE;
    if (d->sem == VT_SEM_MMA) { /* register groups, set per instruction (tensor.c) */
      in->flags |= TM_I_MMA | TM_I_VECTOR;
      in->nsrc = 0;
      in->dst_kind = TM_R_NONE;
    }
    if (d->exec_class == VT_EX_DMA) in->dst_kind = TM_R_NONE;
    if (in->flags & (TM_I_BARRIER | TM_I_ENDPRG | TM_I_REGEXT | TM_I_PREFIX)) {
      in->nsrc = 0; /* xN operands of endprg/barrier are not read */
      in->dst_kind = TM_R_NONE;
    }
  }
}
