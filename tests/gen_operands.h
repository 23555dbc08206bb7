/* Random instruction words for table-driven tests: for an instruction of the
 * table, pick random operand values (optionally restricted to what GNU as and
 * LLVM accept: distinct, 8-aligned vector registers, valid rounding modes and
 * vtypes, RV32 shift amounts) and encode them with vt_operand_set. 32-bit rows
 * only. */
#ifndef VT_TEST_GEN_OPERANDS_H
#define VT_TEST_GEN_OPERANDS_H
#include <stdbool.h>
#include <stdint.h>

#include "vt/isa.h"

typedef struct rng {
  uint64_t s;
} rng;

static inline uint32_t rng_next(rng *r) {
  /* xorshift64* */
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return (uint32_t)((r->s * 0x2545F4914F6CDD1DULL) >> 32);
}
static inline uint32_t rng_below(rng *r, uint32_t n) { return n ? rng_next(r) % n : 0; }

/* Rows the RV32 reference tools (GNU as/objdump -march=rv32..., llvm-mc and
 * llvm-objdump for riscv32) cannot check: the Ventus opcodes (v2.02 custom-0
 * to custom-3; the v2025 memory families 0x76/0x7a/0x7e/0x2a, MMA 0x61 and
 * the asynchronous copies 0x41), RV64 rows on
 * register pairs (checked with the rv64 tools in test_isa_rv64_tools.c), the
 * fp16/bf16 converts (isa2025.md 3.2.4) and 64-bit instructions. */
static inline bool gen_is_ventus_opcode(uint64_t match) {
  uint32_t op = (uint32_t)match & 0x7f;
  return op == 0x0b || op == 0x2b || op == 0x5b || op == 0x7b || op == 0x76 || op == 0x7a ||
         op == 0x7e || op == 0x2a || op == 0x61 || op == 0x41;
}
static inline bool gen_is_rv64_pair_row(const vt_insn_desc *d) {
  return (d->flags & (VT_F_PRD | VT_F_PRS1 | VT_F_PRS2)) && !(d->flags & VT_F_VEC);
}
static inline bool gen_rv32_tools_lack(const vt_insn_desc *d) {
  return gen_is_ventus_opcode(d->match) || gen_is_rv64_pair_row(d) || d->length != 4 ||
         d->ew == VT_EW_HALF_IN || d->ew == VT_EW_HALF_OUT;
}

/* strict: only values the reference assemblers accept for every instruction
 * (vector registers v8/v16/v24, distinct; rm not 5/6; legal vtype; non-empty
 * fence sets; CSRs with names GNU knows or Ventus numbers). */
static inline uint32_t gen_random_word(vt_insn_id id, rng *r, bool strict) {
  const vt_insn_desc *d = vt_isa_insn(id);
  uint32_t w = (uint32_t)d->match;
  static const int vregs[3] = {8, 16, 24};
  int vperm[3] = {0, 1, 2};
  for (int i = 2; i > 0; i--) {
    int j = (int)rng_below(r, (uint32_t)i + 1), t = vperm[i];
    vperm[i] = vperm[j];
    vperm[j] = t;
  }
  int vnext = 0;
  for (unsigned k = 0; k < d->nops; k++) {
    vt_operand_id op = (vt_operand_id)d->ops[k];
    const vt_operand_desc *od = vt_isa_operand(op);
    int64_t lo, hi, v;
    vt_operand_range(op, &lo, &hi);
    switch ((vt_operand_kind)od->kind) {
    case VT_OPK_VREG:
      v = strict ? vregs[vperm[vnext++ % 3]] : (int64_t)rng_below(r, 32);
      break;
    case VT_OPK_RM: {
      static const int rms[6] = {0, 1, 2, 3, 4, 7};
      v = rms[rng_below(r, 6)];
      break;
    }
    case VT_OPK_VTYPE:
      if (strict || rng_below(r, 4)) {
        static const int lmuls[7] = {0, 1, 2, 3, 5, 6, 7};
        v = lmuls[rng_below(r, 7)] | (int64_t)(rng_below(r, 3) << 3) |
            (int64_t)(rng_below(r, 4) << 6);
      } else {
        v = lo + (int64_t)rng_below(r, (uint32_t)(hi - lo + 1));
      }
      break;
    case VT_OPK_FENCE:
      v = 1 + (int64_t)rng_below(r, 15);
      break;
    case VT_OPK_IMM:
      if (strict && op == VT_OP_SHAMT6) { /* RV32 tools: 0..31 */
        v = (int64_t)rng_below(r, 32);
        break;
      }
      /* fall through */
    case VT_OPK_CSR:
      if (strict) {
        static const int csrs[] = {0x001, 0x002, 0x003, 0x300, 0x305, 0x341, 0xc00,
                                   0xc20, 0xc22, 0x800, 0x805, 0x80c, 0x7c0, 0x123};
        v = csrs[rng_below(r, sizeof csrs / sizeof csrs[0])];
      } else {
        v = rng_below(r, 4096);
      }
      break;
    default:
      if (hi - lo < 64 || rng_below(r, 4) == 0) {
        v = lo + (int64_t)rng_below(r, (uint32_t)(hi - lo + 1));
      } else {
        /* favour edge values now and then */
        static const int64_t edges[] = {0, 1, -1, 2, -2};
        v = rng_below(r, 3) == 0 ? (rng_below(r, 2) ? lo : hi) : edges[rng_below(r, 5)];
        if (v < lo || v > hi) v = lo;
      }
      if (od->flags & VT_OPF_SHIFT1) v &= ~(int64_t)1;
      break;
    }
    w = vt_operand_set(op, w, (int32_t)v);
  }
  return w;
}
#endif
