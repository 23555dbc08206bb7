/* Helpers for simulator tests: build programs as instruction words from the
 * instruction table (operands given in assembly order, as the syntax string
 * of each entry lists them), run them on a device with a hand-made launch,
 * collect trace events. No assembler needed.
 *
 *   prog p = {0};
 *   E(&p, VT_INSN_ADDI, T4, ZERO, 32);            // addi t4, zero, 32
 *   E(&p, VT_INSN_VSETVLI, T4, T4, VTYPE_E32M1);  // vsetvli t4, t4, e32, m1, ta, ma
 *   unsigned br = E(&p, VT_INSN_VBEQ, 1, 2, 0);   // vbeq v1, v2, <patched>
 *   ...
 *   patch_branch(&p, br, target_index);
 */
#ifndef VT_TEST_SIMPROG_H
#define VT_TEST_SIMPROG_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/isa.h"
#include "vt/sim.h"

/* ABI register numbers */
enum { ZERO = 0, RA = 1, SP = 2, GP = 3, TP = 4, T0 = 5, T1 = 6, T2 = 7, S0 = 8, S1 = 9,
       A0 = 10, A1 = 11, A2 = 12, A3 = 13, A4 = 14, A5 = 15, A6 = 16, A7 = 17, T3 = 28,
       T4 = 29, T5 = 30, T6 = 31 };

#define VTYPE_E32M1 0x0d0 /* e32, m1, ta, ma */
#define CSR_ADDR_TID 0x800
#define CSR_ADDR_NUMW 0x801
#define CSR_ADDR_NUMT 0x802
#define CSR_ADDR_KNL 0x803
#define CSR_ADDR_WGID 0x804
#define CSR_ADDR_WID 0x805
#define CSR_ADDR_LDS 0x806
#define CSR_ADDR_PDS 0x807
#define CSR_ADDR_GIDX 0x808
#define CSR_ADDR_GIDY 0x809
#define CSR_ADDR_GIDZ 0x80a
#define CSR_ADDR_RPC 0x80c
#define CSR_ADDR_MSTATUS 0x300

#define WORD_ENDPRG 0x0000400bu  /* endprg x0, x0, x0 */
#define WORD_BARRIER 0x0400400bu /* barrier x0, x0, 0 */
#define WORD_JOIN 0x0000205bu    /* join zero, zero, 0 */
#define WORD_ECALL 0x00000073u
#define WORD_EBREAK 0x00100073u

#define PROG_MAX 1024
typedef struct prog {
  uint32_t w[PROG_MAX];
  unsigned n;
} prog;

/* Address of instruction index i once loaded at 0x80000000. */
static inline uint32_t prog_addr(unsigned i) { return VT_PROGRAM_BASE + 4u * i; }

static inline uint32_t enc_v(vt_insn_id id, va_list ap) {
  const vt_insn_desc *d = vt_isa_insn(id);
  uint32_t w = d->match;
  for (unsigned k = 0; k < d->nops; k++) {
    int v = va_arg(ap, int);
    if (!vt_operand_fits((vt_operand_id)d->ops[k], v)) {
      fprintf(stderr, "simprog: operand %u = %d does not fit %s\n", k, v, d->mnemonic);
      abort();
    }
    w = vt_operand_set((vt_operand_id)d->ops[k], w, v);
  }
  if (vt_decode(w) != id) {
    fprintf(stderr, "simprog: 0x%08x does not decode as %s\n", w, d->mnemonic);
    abort();
  }
  return w;
}

/* Encode instruction 'id'; pass exactly one int per operand of its syntax
 * (the vm operand of vector instructions: 1 = unmasked). */
static inline uint32_t enc(vt_insn_id id, ...) {
  va_list ap;
  va_start(ap, id);
  uint32_t w = enc_v(id, ap);
  va_end(ap);
  return w;
}

static inline unsigned emit(prog *p, uint32_t word) {
  if (p->n >= PROG_MAX) abort();
  p->w[p->n] = word;
  return p->n++;
}

/* Append an encoded instruction; returns its index. Extra arguments are
 * ignored (instructions without operands take a dummy 0). */
static inline unsigned E(prog *p, vt_insn_id id, ...) {
  va_list ap;
  va_start(ap, id);
  uint32_t w = enc_v(id, ap);
  va_end(ap);
  return emit(p, w);
}

static inline unsigned here(const prog *p) { return p->n; }

/* Set the pc-relative operand (branch/jump offset) of instruction 'at' so
 * it targets instruction index 'target'. */
static inline void patch_branch(prog *p, unsigned at, unsigned target) {
  vt_insn_id id = vt_decode(p->w[at]);
  const vt_insn_desc *d = vt_isa_insn(id);
  for (unsigned k = 0; k < d->nops; k++) {
    const vt_operand_desc *od = vt_isa_operand((vt_operand_id)d->ops[k]);
    if (od->kind == VT_OPK_PCREL) {
      p->w[at] = vt_operand_set((vt_operand_id)d->ops[k], p->w[at],
                                (int32_t)(4 * ((int64_t)target - (int64_t)at)));
      return;
    }
  }
  abort();
}

/* li rd, value (lui + addi) */
static inline void li(prog *p, unsigned rd, uint32_t value) {
  uint32_t hi = (value + 0x800u) >> 12, lo = value & 0xfffu;
  int32_t slo = (int32_t)(lo ^ 0x800u) - 0x800;
  if (hi & 0xfffffu) {
    E(p, VT_INSN_LUI, rd, (int)(hi & 0xfffffu));
    if (slo) E(p, VT_INSN_ADDI, rd, rd, slo);
  } else {
    E(p, VT_INSN_ADDI, rd, ZERO, slo);
  }
}

/* csrr rd, csr */
static inline unsigned csrr(prog *p, unsigned rd, unsigned csr) {
  return E(p, VT_INSN_CSRRS, rd, (int)csr, ZERO);
}

/* li t4, 32; vsetvli t4, t4, e32, m1, ta, ma (vl = T) */
static inline void vsetup(prog *p) {
  E(p, VT_INSN_ADDI, T4, ZERO, 32);
  E(p, VT_INSN_VSETVLI, T4, T4, VTYPE_E32M1);
}

/* setrpc zero, t1, off with t1 from an auipc so that rpc = address of
 * instruction 'target' (patched later with patch_rpc). Returns the index of
 * the auipc. */
static inline unsigned setrpc_placeholder(prog *p) {
  unsigned at = E(p, VT_INSN_AUIPC, T1, 0);
  E(p, VT_INSN_SETRPC, ZERO, T1, 0);
  return at;
}
static inline void patch_rpc(prog *p, unsigned auipc_at, unsigned target) {
  int32_t off = (int32_t)(4 * ((int64_t)target - (int64_t)auipc_at));
  p->w[auipc_at + 1] = enc(VT_INSN_SETRPC, ZERO, T1, off);
}

/* The output buffer most tests store into. */
#define OUT_BASE 0x90000000u
#define OUT_SIZE 0x10000u

static inline vt_launch simple_launch(unsigned t, unsigned w) {
  vt_launch l;
  memset(&l, 0, sizeof l);
  l.start_pc = VT_PROGRAM_BASE;
  l.num_wg[0] = l.num_wg[1] = l.num_wg[2] = 1;
  l.threads_per_warp = t;
  l.warps_per_wg = w;
  l.knl_addr = 0;
  l.lds_size = 0x1000;
  l.pds_size = 0;
  l.pds_base = 0;
  return l;
}

/* Load the program at 0x80000000 (and map the output buffer). */
static inline int load_prog(vt_device *dev, const prog *p) {
  vt_error err;
  if (vt_mem_map(dev, OUT_BASE, OUT_SIZE, &err) != VT_OK) return -1;
  return vt_mem_write(dev, VT_PROGRAM_BASE, p->w, 4u * p->n, &err);
}

static inline uint32_t rd32(vt_device *dev, uint32_t addr) {
  uint8_t b[4] = {0};
  vt_error err;
  if (vt_mem_read(dev, addr, b, 4, &err) != VT_OK) return 0xdeadbeefu;
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Trace recorder: (sm, wg, warp, pc, mask) of every executed instruction. */
typedef struct trace_rec {
  unsigned sm, wg, warp;
  uint32_t pc, insn, mask;
} trace_rec;
typedef struct trace_log {
  trace_rec *r;
  size_t n, cap;
} trace_log;

static inline void trace_log_fn(void *ctx, const vt_trace_event *ev) {
  trace_log *t = ctx;
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 256;
    t->r = realloc(t->r, t->cap * sizeof *t->r);
    if (!t->r) abort();
  }
  t->r[t->n++] = (trace_rec){ev->sm, ev->wg, ev->warp, ev->pc, ev->insn, ev->mask};
}
static inline void trace_log_free(trace_log *t) {
  free(t->r);
  t->r = NULL;
  t->n = t->cap = 0;
}
#endif
