/* Static timing information of every instruction, derived from the
 * instruction table: issue path and functional unit from the execution class
 * (uarch.md 2.1 step 5), registers read and written from the operand list,
 * the FPU latency class from the mnemonic. */
#include <string.h>

#include "timing_internal.h"

static bool has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* FPU latency class of an FP mnemonic ("v" prefix of vector forms dropped) */
static uint8_t fpu_latency(const vt_timing_config *c, const char *m) {
  if (m[0] == 'v') m++;
  if (strstr(m, "madd") || strstr(m, "msub") || strstr(m, "macc") || strstr(m, "msac"))
    return (uint8_t)c->lat_fma;
  if (has_prefix(m, "fadd") || has_prefix(m, "fsub") || has_prefix(m, "frsub") ||
      has_prefix(m, "fwadd") || has_prefix(m, "fwsub"))
    return (uint8_t)c->lat_fadd;
  if (has_prefix(m, "fmul") || has_prefix(m, "fwmul")) return (uint8_t)c->lat_fmul;
  if (strstr(m, "cvt")) return (uint8_t)c->lat_fcvt;
  return (uint8_t)c->lat_fmisc;
}

static void add_src(tm_iinfo *in, uint8_t kind, uint8_t field) {
  if (in->nsrc < 5) in->src[in->nsrc++] = (tm_src){kind, field};
}

void tm_build_info(vt_timing *t) {
  const vt_timing_config *c = &t->cfg;
  for (unsigned id = 0; id < VT_INSN_COUNT; id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    tm_iinfo *in = &t->info[id];
    memset(in, 0, sizeof *in);
    /* operands */
    for (unsigned k = 0; k < d->nops; k++) {
      switch (d->ops[k]) {
      case VT_OP_RD: in->dst_kind = TM_R_X; break;
      case VT_OP_VD: in->dst_kind = TM_R_V; break;
      case VT_OP_RS1: add_src(in, TM_R_X, TM_F_RS1); break;
      case VT_OP_RS2: add_src(in, TM_R_X, TM_F_RS2); break;
      case VT_OP_RS3: add_src(in, TM_R_X, TM_F_RS3); break;
      case VT_OP_VS1: add_src(in, TM_R_V, TM_F_RS1); in->flags |= TM_I_VECTOR; break;
      case VT_OP_VS2: add_src(in, TM_R_V, TM_F_RS2); in->flags |= TM_I_VECTOR; break;
      case VT_OP_VS3: add_src(in, TM_R_V, TM_F_VS3); in->flags |= TM_I_VECTOR; break;
      case VT_OP_VM: in->flags |= TM_I_MASKABLE; break;
      default: break;
      }
    }
    if (in->dst_kind == TM_R_V) in->flags |= TM_I_VECTOR;
    /* multiply-accumulate forms (syntax "vd, vs1, vs2" / "vd, rs1, vs2") read vd */
    if (d->nops >= 3 && d->ops[0] == VT_OP_VD &&
        (d->ops[1] == VT_OP_VS1 || (d->ops[1] == VT_OP_RS1 && d->ops[2] == VT_OP_VS2)))
      add_src(in, TM_R_V, TM_F_RD);
    /* a literal v0 operand (vadc, vmerge ... v0) */
    if (d->tmpl && strstr(d->tmpl, "v0")) add_src(in, TM_R_V, TM_F_V0);
    /* path and unit */
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
      in->unit = TM_U_FPU; in->lat = fpu_latency(c, d->mnemonic); break;
    case VT_EX_VALU: case VT_EX_VPERM: case VT_EX_VMASK:
      in->unit = TM_U_VALU; in->lat = (uint8_t)c->lat_valu; break;
    case VT_EX_VBRANCH:
      in->unit = TM_U_VALU; in->lat = (uint8_t)c->lat_valu;
      in->flags |= TM_I_BRANCH | TM_I_VBRANCH;
      break;
    case VT_EX_SIMT:
      if (id == VT_INSN_JOIN) {
        in->unit = TM_U_VALU; in->lat = (uint8_t)c->lat_valu; in->flags |= TM_I_BRANCH;
      } else { /* setrpc */
        in->path = TM_X; in->unit = TM_U_CSR; in->lat = (uint8_t)c->lat_csr;
      }
      break;
    case VT_EX_BARRIER:
      in->path = TM_X; in->unit = TM_U_CTRL; in->flags |= TM_I_BARRIER | TM_I_BRANCH; break;
    case VT_EX_ENDPRG: in->path = TM_X; in->unit = TM_U_CTRL; in->flags |= TM_I_ENDPRG; break;
    case VT_EX_REGEXT: in->path = TM_X; in->unit = TM_U_CTRL; in->flags |= TM_I_REGEXT; break;
    case VT_EX_TENSOR: in->unit = TM_U_TC; break; /* latency per launch */
    default: in->path = TM_X; in->unit = TM_U_ALU; in->lat = (uint8_t)c->lat_alu; break;
    }
    if (in->flags & (TM_I_BARRIER | TM_I_ENDPRG | TM_I_REGEXT)) {
      in->nsrc = 0; /* xN operands of endprg/barrier are not read */
      in->dst_kind = TM_R_NONE;
    }
  }
}
