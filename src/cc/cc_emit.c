/* Assembly text of one allocated kernel for vt as: the kernel ABI of the
 * official toolchain (docs/kernels.md: called by crt0 with a0 = argument
 * buffer; sp, s0-s11 and ra preserved; the warp's stack grows upward), the
 * prologue and epilogue, the blocks in layout order with `join` at
 * re-convergence blocks and auipc/setrpc before vector branches, branch
 * relaxation, and the .ventus.resource.<kernel> section (VGPRs, SGPRs,
 * static __local bytes, private bytes per thread: host-stack.md 6). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_emit.h"
#include "cc_regalloc.h"

static const char *const xnames[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
static const char *const rm_names[8] = {"rne", "rtz", "rdn", "rup", "rmm", "5", "6", "dyn"};

typedef struct emitter {
  cc_buf *out;
  const cc_mf *f;
  int kernel;           /* index for label names */
  uint32_t frame, nsaved, saved[16];
  uint32_t spill_base, printf_base;
  int *order, norder;   /* blocks in layout order */
  int *pos;             /* block -> index in order */
  uint32_t *addr;       /* block -> byte offset from the kernel start */
  uint8_t *longbr;      /* block -> its conditional branch needs the long form */
  int tramp;            /* trampoline label counter */
  uint32_t line;
  bool debug;
} emitter;

static void reg(char *buf, size_t n, int r) {
  if (r < 0) snprintf(buf, n, "?"); /* an operand the format does not print */
  else if (r >= CC_VR_V0) snprintf(buf, n, "v%d", r - CC_VR_V0);
  else if (r < 32) snprintf(buf, n, "%s", xnames[r]);
  else snprintf(buf, n, "x%d", r);
}

/* The scalar operand of a .vf instruction cannot be register-extended
 * (isa.md 2.6): one above x31 is first copied to t0, the scratch register. */
static bool vf_via_t0(const cc_mi *mi) {
  uint8_t fmt = cc_ops[mi->op].fmt;
  return (fmt == F_VF || fmt == F_MVF) && mi->s[1] >= 32 && mi->s[1] < CC_VR_V0;
}

/* Words vt as emits for an instruction (regext prefix, pseudo expansion). */
static unsigned words_of(const cc_mi *mi) {
  if (vf_via_t0(mi)) { /* regext + mv t0, xN; then the instruction on t0 */
    cc_mi m = *mi;
    m.s[1] = CC_X(5);
    return 2 + words_of(&m);
  }
  unsigned n = 1;
  if (mi->op == CC_LI) {
    int32_t v = mi->imm;
    n = (v >= -2048 && v <= 2047) || ((uint32_t)v & 0xfff) == 0 ? 1 : 2;
  } else if (mi->op == CC_LA || mi->op == CC_CALL || cc_ops[mi->op].fmt == F_PRRR) {
    n = 2; /* auipc + addi/jalr; prefix pair=1 + the instruction */
  }
  bool ext = (mi->d >= 32 && mi->d < CC_VR_V0) || mi->d >= CC_VR_V0 + 32;
  for (int k = 0; k < 3; k++)
    ext |= (mi->s[k] >= 32 && mi->s[k] < CC_VR_V0) || mi->s[k] >= CC_VR_V0 + 32;
  return ext ? n * 2 : n; /* every expanded word carries its own prefix */
}

/* The kernel runs at SEW 32 (crt0's vsetvli). An instruction of a SEW-64
 * format switches vtype to e64 (vl stays numt: isa2025.md 3.2.1), the next
 * vector instruction, call, terminator or the block's end back to e32;
 * scalar instructions run under either. Returns the vsetvli words needed
 * before mi and updates *e64. */
static unsigned sew_switch(const cc_mi *mi, bool *e64) {
  const cc_fmt_info *fi = cc_fmt_of((cc_op)mi->op);
  bool vector = fi->sew64 || fi->def == CC_RC_V || cc_is_term(mi) || mi->op == CC_CALL;
  for (int k = 0; k < fi->nsrc; k++) vector |= fi->src[k] == CC_RC_V;
  if (mi->op == CC_COPY) vector = mi->d >= CC_VR_V0 || mi->s[0] >= CC_VR_V0;
  if (!vector || fi->sew64 == *e64) return 0;
  *e64 = fi->sew64;
  return 1;
}

static void put_sew(cc_buf *o, bool e64) {
  cc_buf_printf(o, "    vsetvli zero, zero, %s, m1, ta, ma\n", e64 ? "e64" : "e32");
}

static void print_mi(emitter *e, const cc_mi *mi) {
  if (vf_via_t0(mi)) {
    cc_buf_printf(e->out, "    mv t0, x%d\n", mi->s[1]);
    cc_mi m = *mi;
    m.s[1] = CC_X(5);
    print_mi(e, &m);
    return;
  }
  char d[16], a[16], b[16], c[16];
  reg(d, sizeof d, mi->d);
  reg(a, sizeof a, mi->s[0]);
  reg(b, sizeof b, mi->s[1]);
  reg(c, sizeof c, mi->s[2]);
  const char *mn = cc_ops[mi->op].mn;
  int32_t imm = mi->imm;
  if (mi->target == CC_FRAME_SLOT) imm = (int32_t)e->spill_base + imm - (int32_t)e->frame;
  if (mi->target == CC_FRAME_PRINTF) imm = (int32_t)e->printf_base + imm - (int32_t)e->frame;
  cc_buf *o = e->out;
  switch ((cc_fmt)cc_ops[mi->op].fmt) {
  case F_RRR: cc_buf_printf(o, "    %s %s, %s, %s\n", mn, d, a, b); break;
  case F_RRI: cc_buf_printf(o, "    %s %s, %s, %d\n", mn, d, a, imm); break;
  case F_RI: cc_buf_printf(o, "    %s %s, %d\n", mn, d, imm); break;
  case F_LA: cc_buf_printf(o, "    la %s, %s\n", d, mi->sym); break;
  case F_RR: cc_buf_printf(o, "    %s %s, %s\n", mn, d, a); break;
  case F_LD: cc_buf_printf(o, "    %s %s, %d(%s)\n", mn, d, imm, a); break;
  case F_ST: cc_buf_printf(o, "    %s %s, %d(%s)\n", mn, a, imm, b); break;
  case F_CSRR: cc_buf_printf(o, "    csrr %s, %d\n", d, imm); break;
  case F_IMM: cc_buf_printf(o, "    %s %d\n", mn, imm); break;
  case F_AMO: cc_buf_printf(o, "    %s %s, %s, (%s)\n", mn, d, a, b); break;
  case F_LR: cc_buf_printf(o, "    %s %s, (%s)\n", mn, d, a); break;
  case F_RRRR: cc_buf_printf(o, "    %s %s, %s, %s, %s\n", mn, d, a, b, c); break;
  case F_RR_RM: cc_buf_printf(o, "    %s %s, %s, %s\n", mn, d, a, rm_names[imm & 7]); break;
  case F_VV: case F_VX: case F_VF: cc_buf_printf(o, "    %s %s, %s, %s\n", mn, d, a, b); break;
  case F_VI: cc_buf_printf(o, "    %s %s, %s, %d\n", mn, d, a, imm); break;
  case F_MVV: case F_MVX: case F_MVF: cc_buf_printf(o, "    %s %s, %s, %s\n", mn, d, b, c); break;
  case F_V: case F_VS: case F_V1: case F_XV: cc_buf_printf(o, "    %s %s, %s\n", mn, d, a); break;
  case F_VIMM: cc_buf_printf(o, "    %s %s, %d\n", mn, d, imm); break;
  case F_VD: cc_buf_printf(o, "    %s %s\n", mn, d); break;
  case F_VLD: cc_buf_printf(o, "    %s %s, %d(%s)\n", mn, d, imm, a); break;
  case F_VST: cc_buf_printf(o, "    %s %s, %d(%s)\n", mn, a, imm, b); break;
  case F_BARRIER: cc_buf_printf(o, "    barrier x0, x0, %d\n", imm); break;
  case F_CALL: cc_buf_printf(o, "    call %s\n", mi->sym); break;
  case F_NONE: if (mi->op == CC_FENCE) cc_buf_puts(o, "    fence\n"); break;
  case F_WVV: cc_buf_printf(o, "    %s %s, %s, %s\n", mn, d, a, b); break;
  case F_WV: case F_WW: cc_buf_printf(o, "    %s %s, %s\n", mn, d, a); break;
  case F_WMVV: cc_buf_printf(o, "    %s %s, %s, %s\n", mn, d, b, c); break;
  case F_PRRR: cc_buf_printf(o, "    prefix pair=1\n    %s %s, %s, %s\n", mn, d, a, b); break;
  case F_COPY:
    if (mi->d >= CC_VR_V0) cc_buf_printf(o, "    %s %s, %s\n", mi->s[0] >= CC_VR_V0 ? "vmv.v.v" : "vmv.v.x", d, a);
    else cc_buf_printf(o, "    mv %s, %s\n", d, a);
    break;
  default: break; /* branches: emitted by the block's terminator */
  }
}

static void label(emitter *e, int b) { cc_buf_printf(e->out, ".L%d_%d:\n", e->kernel, b); }

static bool is_next(const emitter *e, int b, int target) {
  return e->pos[b] + 1 < e->norder && e->order[e->pos[b] + 1] == target;
}

/* words the terminator of block b needs in its current form */
static unsigned term_words(const emitter *e, int b, const cc_mi *t) {
  uint8_t fmt = cc_ops[t->op].fmt;
  if (t->op == CC_RET) return 0;
  if (fmt == F_J) return is_next(e, b, t->target) ? 0 : 1;
  unsigned n = (fmt == F_VBR ? 2 : 0) + words_of(t);
  if (e->longbr[b]) return n + 2;
  return n + (is_next(e, b, t->target2) ? 0 : 1);
}

static void layout(emitter *e) {
  for (bool changed = true; changed;) {
    changed = false;
    uint32_t a = 0;
    for (int k = 0; k < e->norder; k++) {
      int b = e->order[k];
      const cc_mb *mb = &e->f->b[b];
      e->addr[b] = a;
      if (mb->join) a += 4;
      bool e64 = false;
      for (int i = 0; i < mb->n; i++) {
        const cc_mi *mi = &mb->mi[i];
        a += 4 * sew_switch(mi, &e64);
        if (cc_is_term(mi)) a += 4 * term_words(e, b, mi);
        else if (cc_ops[mi->op].fmt != F_COPY || mi->d != mi->s[0]) a += 4 * words_of(mi);
      }
      if (e64) a += 4;
    }
    for (int k = 0; k < e->norder; k++) { /* conditional branches reach +-4 KiB */
      int b = e->order[k];
      const cc_mb *mb = &e->f->b[b];
      if (!mb->n || e->longbr[b]) continue;
      const cc_mi *t = &mb->mi[mb->n - 1];
      uint8_t fmt = cc_ops[t->op].fmt;
      if (fmt != F_BR && fmt != F_VBR) continue;
      uint32_t at = e->addr[b] + (uint32_t)term_words(e, b, t) * 4; /* near enough */
      int64_t dist = (int64_t)e->addr[t->target] - (int64_t)at;
      if (dist < -3900 || dist > 3900) {
        e->longbr[b] = 1;
        changed = true;
      }
    }
  }
}

static void terminator(emitter *e, int b, const cc_mi *t) {
  char a[16], c[16];
  reg(a, sizeof a, t->s[0]);
  reg(c, sizeof c, t->s[1]);
  uint8_t fmt = cc_ops[t->op].fmt;
  if (t->op == CC_RET) return;
  if (fmt == F_J) {
    if (!is_next(e, b, t->target)) cc_buf_printf(e->out, "    j .L%d_%d\n", e->kernel, t->target);
    return;
  }
  if (fmt == F_VBR) { /* the lanes re-converge at the join of block rpc */
    int n = e->tramp++;
    cc_buf_printf(e->out, ".Lrpc%d_%d:\n    auipc t0, %%pcrel_hi(.L%d_%d)\n"
                  "    setrpc zero, t0, %%pcrel_lo(.Lrpc%d_%d)\n",
                  e->kernel, n, e->kernel, e->f->b[b].rpc, e->kernel, n);
  }
  if (e->longbr[b]) {
    int n = e->tramp++;
    cc_buf_printf(e->out, "    %s %s, %s, .Lfar%d_%d\n    j .L%d_%d\n.Lfar%d_%d:\n    j .L%d_%d\n",
                  cc_ops[t->op].mn, a, c, e->kernel, n, e->kernel, t->target2, e->kernel, n,
                  e->kernel, t->target);
    return;
  }
  cc_buf_printf(e->out, "    %s %s, %s, .L%d_%d\n", cc_ops[t->op].mn, a, c, e->kernel, t->target);
  if (!is_next(e, b, t->target2)) cc_buf_printf(e->out, "    j .L%d_%d\n", e->kernel, t->target2);
}

static void prologue(emitter *e) {
  if (e->frame) cc_buf_printf(e->out, "    addi sp, sp, %u\n", e->frame);
  for (uint32_t k = 0; k < e->nsaved; k++)
    cc_buf_printf(e->out, "    sw %s, %d(sp)\n", xnames[e->saved[k]], (int)(4 * k) - (int)e->frame);
  cc_buf_puts(e->out, "    vmv.v.x v0, zero\n"); /* v0 = 0 in every lane */
}

static void epilogue(emitter *e) {
  for (uint32_t k = 0; k < e->nsaved; k++)
    cc_buf_printf(e->out, "    lw %s, %d(sp)\n", xnames[e->saved[k]], (int)(4 * k) - (int)e->frame);
  if (e->frame) cc_buf_printf(e->out, "    addi sp, sp, -%u\n", e->frame);
  cc_buf_puts(e->out, "    ret\n");
}

static int by_key(const void *a, const void *b, void *f) {
  const cc_mf *mf = f;
  int ka = mf->b[*(const int *)a].key, kb = mf->b[*(const int *)b].key;
  return ka < kb ? -1 : ka > kb;
}

/* insertion sort by key (stable, small) */
static void sort_blocks(const cc_mf *f, int *order, int n) {
  for (int i = 1; i < n; i++) {
    int v = order[i], j = i - 1;
    while (j >= 0 && by_key(&order[j], &v, (void *)f) > 0) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = v;
  }
}

static void frame_of(emitter *e, const cc_mf *f, const cc_ra_state *st, cc_resources *res) {
  bool used[256] = {false};
  int maxx = 0, maxv = 0;
  for (int b = 0; b < f->nb; b++)
    for (int i = 0; i < f->b[b].n; i++) {
      const cc_mi *mi = &f->b[b].mi[i];
      int regs[4] = {mi->d, mi->s[0], mi->s[1], mi->s[2]};
      unsigned pairs = cc_fmt_of((cc_op)mi->op)->pairs;
      for (int k = 0; k < 4; k++) {
        if (regs[k] < 0) continue;
        for (int r = regs[k]; r <= regs[k] + (int)(pairs >> k & 1); r++) { /* and a pair's high one */
          if (r >= CC_VR_V0) {
            if (r - CC_VR_V0 > maxv) maxv = r - CC_VR_V0;
          } else {
            used[r] = true;
            if (r > maxx) maxx = r;
          }
        }
      }
    }
  if (f->calls) e->saved[e->nsaved++] = 1; /* ra */
  static const int callee_saved[] = {9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27};
  for (size_t k = 0; k < sizeof callee_saved / sizeof callee_saved[0]; k++)
    if (used[callee_saved[k]]) e->saved[e->nsaved++] = (uint32_t)callee_saved[k];
  e->spill_base = 4 * e->nsaved;
  e->printf_base = e->spill_base + 4 * st->stack_slots;
  e->frame = (e->printf_base + f->stack_bytes + 15) & ~15u;
  res->vgprs = (unsigned)maxv + 1;
  res->sgprs = (unsigned)(maxx < 31 ? 32 : maxx + 1);
  res->lds = f->local_bytes;
  res->pds = f->private_bytes + 4 * st->private_slots;
  res->stack = e->frame;
}

int cc_emit_kernel(cc_ctx *c, const cc_mf *f, const cc_ra_state *st, int index, cc_buf *out,
                   cc_resources *res) {
  emitter e;
  memset(&e, 0, sizeof e);
  e.out = out;
  e.f = f;
  e.kernel = index;
  e.debug = c->opts.debug;
  frame_of(&e, f, st, res);
  e.order = malloc(((size_t)f->nb + 1) * sizeof(int));
  e.pos = malloc(((size_t)f->nb + 1) * sizeof(int));
  e.addr = calloc((size_t)f->nb + 1, sizeof(uint32_t));
  e.longbr = calloc((size_t)f->nb + 1, 1);
  if (!e.order || !e.pos || !e.addr || !e.longbr) {
    free(e.order);
    free(e.pos);
    free(e.addr);
    free(e.longbr);
    return -1;
  }
  for (int b = 0; b < f->nb; b++) e.order[e.norder++] = b;
  sort_blocks(f, e.order, e.norder);
  for (int k = 0; k < e.norder; k++) e.pos[e.order[k]] = k;
  layout(&e);
  cc_buf_printf(out, "    .text\n    .globl %s\n    .type %s, @function\n    .p2align 2\n%s:\n",
                f->name, f->name, f->name);
  prologue(&e);
  for (int k = 0; k < e.norder; k++) {
    int b = e.order[k];
    const cc_mb *mb = &f->b[b];
    label(&e, b);
    if (mb->join) cc_buf_puts(out, "    join zero, zero, 0\n");
    bool e64 = false;
    for (int i = 0; i < mb->n; i++) {
      const cc_mi *mi = &mb->mi[i];
      if (e.debug && mi->line && mi->line != e.line) {
        cc_buf_printf(out, "    .loc 1 %u\n", mi->line);
        e.line = mi->line;
      }
      if (sew_switch(mi, &e64)) put_sew(out, e64);
      if (mi->op == CC_RET) epilogue(&e);
      else if (cc_is_term(mi)) terminator(&e, b, mi);
      else print_mi(&e, mi);
    }
    if (e64) put_sew(out, false);
  }
  cc_buf_printf(out, "    .size %s, .-%s\n", f->name, f->name);
  cc_buf_printf(out, "    .section .ventus.resource.%s,\"aw\",@progbits\n"
                "    .half %u, %u, %u, %u\n",
                f->name, res->vgprs, res->sgprs, res->lds, res->pds);
  free(e.order);
  free(e.pos);
  free(e.addr);
  free(e.longbr);
  return 0;
}
