/* The simulator against the reference commit logs of the Ventus spike fork
 * (VT_SHARED_DIR/cases: vecadd_4x16, matadd (old log format), the six
 * gaussian launches run in order on one device). Per warp, after the
 * normalisation of formats-and-launch.md 9.4, every instruction is compared:
 * PC and instruction word, x-register writes, the kernel-visible CSR writes,
 * vector register writes on the active lanes, load addresses, store
 * addresses/values/sizes, and the SIMT mask after every custom-2 (0x5b)
 * instruction, join re-executions included. docs/trace.md describes the
 * rules; mismatches are reported with case, launch, warp, instruction index,
 * PC and disassembly, at most MAX_REPORTS per case. Also unit tests of the
 * log parser on inline text, and focused regression checks for simulator
 * bugs the comparison found. The log comparisons are T_CASES tests (skipped
 * by CTest when the shared folder is absent). */
#include <stdarg.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "check.h"
#include "spike_log.h"
#include "vt/isa.h"
#include "vt/sim.h"
#include "vt/testvec.h"

#define MAX_REPORTS 5
#define MAX_WARPS 32
#define MAX_AFTER 16

/* ------------------------------------------------------------------ */
/* Normalised event: one instruction, or one collapsed run of barrier   */
/* spins / join re-executions.                                          */
typedef struct nev {
  sl_rec r;
  unsigned repeat;         /* executions in this event */
  uint32_t mask_before;    /* ours: SIMT mask before the instruction */
  uint32_t written[SL_MAX_V]; /* ours: lanes each vector write covers */
  bool has_after;          /* SIMT mask after each execution is known */
  unsigned nafter;
  uint32_t after[MAX_AFTER];
} nev;

typedef struct nlist {
  nev *e;
  size_t n, cap;
} nlist;

static nev *nlist_push(nlist *l) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 256;
    nev *p = realloc(l->e, cap * sizeof *p);
    if (!p) return NULL;
    l->e = p;
    l->cap = cap;
  }
  nev *e = &l->e[l->n++];
  memset(e, 0, sizeof *e);
  return e;
}

static bool is_endprg(uint32_t insn) { return (insn & 0xfe00707fu) == 0x0000400bu; }
static bool is_barrier(uint32_t insn) {
  return (insn & 0xfe00707fu) == 0x0400400bu || (insn & 0xfe00707fu) == 0x0600400bu;
}
static bool is_join(uint32_t insn) { return (insn & 0x707fu) == 0x205bu; }

/* Append raw record r (with its SIMT mask before and after, when known) to
 * a normalised list: drop the boot ROM, collapse consecutive executions of
 * the same barrier or join. Returns false once the warp has ended. */
static bool normalise(nlist *out, const sl_rec *r, uint32_t before,
                      const uint32_t *written, bool has_after, uint32_t after) {
  if (r->pc < 0x80000000u) return true; /* spike's boot ROM */
  nev *prev = out->n ? &out->e[out->n - 1] : NULL;
  if (prev && prev->r.pc == r->pc && prev->r.insn == r->insn &&
      (is_barrier(r->insn) || is_join(r->insn))) {
    prev->repeat++;
    if (has_after && prev->nafter < MAX_AFTER) prev->after[prev->nafter++] = after;
    return true;
  }
  nev *e = nlist_push(out);
  if (!e) return false;
  e->r = *r;
  e->repeat = 1;
  e->mask_before = before;
  if (written) memcpy(e->written, written, sizeof e->written);
  e->has_after = has_after;
  if (has_after) e->after[e->nafter++] = after;
  return !is_endprg(r->insn);
}

/* ------------------------------------------------------------------ */
/* Our side: the trace callback records per-warp raw records.           */
typedef struct raw {
  sl_rec r;
  uint32_t mask;
  uint32_t written[SL_MAX_V];
} raw;

typedef struct collector {
  raw *w[MAX_WARPS];
  size_t n[MAX_WARPS], cap[MAX_WARPS];
  unsigned nwarps;
  bool overflow, multi_wg;
} collector;

static void collect(void *ctx, const vt_trace_event *ev) {
  collector *c = ctx;
  if (ev->wg != 0) c->multi_wg = true;
  if (ev->warp >= MAX_WARPS) {
    c->overflow = true;
    return;
  }
  unsigned k = ev->warp;
  if (c->n[k] == c->cap[k]) {
    size_t cap = c->cap[k] ? 2 * c->cap[k] : 256;
    raw *p = realloc(c->w[k], cap * sizeof *p);
    if (!p) {
      c->overflow = true;
      return;
    }
    c->w[k] = p;
    c->cap[k] = cap;
  }
  raw *x = &c->w[k][c->n[k]++];
  memset(x, 0, sizeof *x);
  if (k + 1 > c->nwarps) c->nwarps = k + 1;
  x->mask = ev->mask;
  sl_rec *r = &x->r;
  r->pc = ev->pc;
  r->insn = ev->insn;
  r->line = (unsigned)c->n[k]; /* 1-based execution index of the warp */
  for (unsigned i = 0; i < ev->nwrites; i++) {
    const vt_trace_write *w = &ev->writes[i];
    if (w->kind == 'x' && r->nx < SL_MAX_X) {
      r->x[r->nx].reg = w->reg;
      r->x[r->nx++].val = w->value[0];
    } else if (w->kind == 'c' && r->ncsr < SL_MAX_CSR) {
      r->csr[r->ncsr].csr = w->reg;
      r->csr[r->ncsr++].val = w->value[0];
    } else if (w->kind == 'v' && r->nv < SL_MAX_V) {
      x->written[r->nv] = w->lanes;
      sl_vwrite *v = &r->v[r->nv++];
      v->reg = w->reg;
      v->nelem = SL_MAX_ELEMS;
      memcpy(v->elem, w->value, sizeof v->elem);
    } else {
      c->overflow = true;
    }
  }
  for (unsigned i = 0; i < ev->nmem && r->nmem < SL_MAX_MEM; i++) {
    sl_mem *m = &r->mem[r->nmem++];
    m->addr = ev->mem[i].addr;
    m->store = ev->mem[i].is_store;
    m->value = m->store ? ev->mem[i].value : 0;
    m->size = m->store ? ev->mem[i].size : 0;
  }
  if (ev->nmem > SL_MAX_MEM) c->overflow = true;
}

static void collector_free(collector *c) {
  for (unsigned k = 0; k < MAX_WARPS; k++) free(c->w[k]);
  memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------------ */
/* Comparison                                                           */
typedef struct cmp_ctx {
  check_state *st;
  const char *cas, *launch;
  unsigned numt;
  unsigned reports;  /* mismatches reported for this case */
  bool stop;
} cmp_ctx;

/* CSR writes compared: everything a kernel can observe except the spike
 * artefacts vstart (0x008, spike logs its reset on every vector
 * instruction) and mstatus (0x300, spike sets FS/VS dirty bits on its own;
 * docs/trace.md). */
static bool csr_compared(unsigned csr) { return csr != 0x008 && csr != 0x300; }

static void report(cmp_ctx *c, unsigned warp, size_t idx, const nev *exp, const nev *got,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void report(cmp_ctx *c, unsigned warp, size_t idx, const nev *exp, const nev *got,
                   const char *fmt, ...) {
  c->st->failed_checks++;
  if (c->reports >= MAX_REPORTS) {
    c->stop = true;
    return;
  }
  c->reports++;
  char dis[128] = "";
  const nev *e = got ? got : exp;
  if (e) {
    vt_disasm(e->r.insn, e->r.pc, NULL, dis, sizeof dis);
    for (char *p = dis; *p; p++)
      if (*p == '\t') *p = ' ';
  }
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr,
          "TRACE MISMATCH case %s, launch %s, warp %u, instruction #%zu, pc 0x%08x (0x%08x %s)"
          "%s%u: %s\n",
          c->cas, c->launch, warp, idx, e ? e->r.pc : 0, e ? e->r.insn : 0, dis,
          exp ? ", log line " : "", exp ? exp->r.line : 0, msg);
  if (c->reports == MAX_REPORTS) {
    fprintf(stderr, "TRACE MISMATCH case %s: stopping after %d reports\n", c->cas, MAX_REPORTS);
    c->stop = true;
  }
}

static int cmp_csr(const void *a, const void *b) {
  const uint32_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* CSR writes as sorted (csr, value) pairs (the order within one record is
 * spike's map order, not program order) */
static unsigned csr_list(const sl_rec *r, uint32_t out[][2]) {
  unsigned n = 0;
  for (unsigned i = 0; i < r->ncsr; i++)
    if (csr_compared(r->csr[i].csr)) {
      out[n][0] = r->csr[i].csr;
      out[n][1] = r->csr[i].val;
      n++;
    }
  qsort(out, n, sizeof out[0], cmp_csr);
  return n;
}

static void compare_event(cmp_ctx *c, unsigned warp, size_t idx, const nev *exp, const nev *got) {
  const sl_rec *e = &exp->r, *g = &got->r;
  if (e->pc != g->pc || e->insn != g->insn) {
    char dis[128];
    vt_disasm(e->insn, e->pc, NULL, dis, sizeof dis);
    for (char *p = dis; *p; p++)
      if (*p == '\t') *p = ' ';
    report(c, warp, idx, exp, got, "expected pc 0x%08x (0x%08x %s)", e->pc, e->insn, dis);
    c->stop = true; /* the streams diverged: later differences are noise */
    return;
  }
  /* repeats: barrier spins are spike's scheduling; join executions are
   * one per SIMT-stack pop and must agree */
  if (is_join(e->insn) && exp->repeat != got->repeat)
    report(c, warp, idx, exp, got, "join executed %u times, expected %u (different stack pops)",
           got->repeat, exp->repeat);
  /* SIMT mask after each execution of a custom-2 instruction */
  if (exp->has_after && got->has_after) {
    unsigned n = exp->nafter < got->nafter ? exp->nafter : got->nafter;
    for (unsigned k = 0; k < n; k++)
      if (exp->after[k] != got->after[k])
        report(c, warp, idx, exp, got, "SIMT mask after execution %u: expected %08x, got %08x",
               k + 1, exp->after[k], got->after[k]);
  }
  /* x registers */
  if (e->nx != g->nx) {
    report(c, warp, idx, exp, got, "%u x-register write(s) expected (first x%u=%08x), got %u",
           e->nx, e->nx ? e->x[0].reg : 0, e->nx ? e->x[0].val : 0, g->nx);
  } else {
    for (unsigned i = 0; i < e->nx; i++)
      if (e->x[i].reg != g->x[i].reg || e->x[i].val != g->x[i].val)
        report(c, warp, idx, exp, got, "expected x%u = 0x%08x, got x%u = 0x%08x", e->x[i].reg,
               e->x[i].val, g->x[i].reg, g->x[i].val);
  }
  /* CSRs */
  uint32_t ec[SL_MAX_CSR][2], gc[SL_MAX_CSR][2];
  unsigned ne = csr_list(e, ec), ng = csr_list(g, gc);
  if (ne != ng) {
    report(c, warp, idx, exp, got, "%u compared CSR write(s) expected, got %u (first: %s%03x)",
           ne, ng, ne ? "expected csr 0x" : "got csr 0x", ne ? ec[0][0] : ng ? gc[0][0] : 0);
  } else {
    for (unsigned i = 0; i < ne; i++)
      if (ec[i][0] != gc[i][0] || ec[i][1] != gc[i][1])
        report(c, warp, idx, exp, got, "expected csr 0x%03x = 0x%08x, got csr 0x%03x = 0x%08x",
               ec[i][0], ec[i][1], gc[i][0], gc[i][1]);
  }
  /* vector registers: every lane of the register; a lane is "active" when
   * spike's printed mask (our mask in the old format) has it within
   * [0, vl), or we wrote it */
  if (e->nv != g->nv) {
    report(c, warp, idx, exp, got, "%u vector write(s) expected, got %u", e->nv, g->nv);
  } else {
    for (unsigned i = 0; i < e->nv; i++) {
      const sl_vwrite *ev = &e->v[i], *gv = &g->v[i];
      if (ev->reg != gv->reg) {
        report(c, warp, idx, exp, got, "expected a write of v%u, got v%u", ev->reg, gv->reg);
        continue;
      }
      if (ev->nelem != c->numt) {
        report(c, warp, idx, exp, got, "log prints %u elements for v%u, the warp has %u lanes",
               ev->nelem, ev->reg, c->numt);
        continue;
      }
      uint32_t lanes = ev->has_mask ? ev->mask : exp->mask_before;
      if (e->has_vctx && e->vl < 32) lanes &= (1u << e->vl) - 1u;
      lanes |= got->written[i];
      /* spike prints the whole register: the other lanes must have kept
       * their old values, which is checked as well */
      for (unsigned l = 0; l < c->numt; l++)
        if (ev->elem[l] != gv->elem[l]) {
          report(c, warp, idx, exp, got, "v%u lane %u (%s): expected 0x%08x, got 0x%08x", ev->reg,
                 l, (lanes >> l) & 1 ? "active" : "inactive, keeps its old value", ev->elem[l],
                 gv->elem[l]);
          break;
        }
    }
  }
  /* memory: loads (addresses) and stores (address, value, size), in order */
  sl_mem el[SL_MAX_MEM], gl[SL_MAX_MEM], es[SL_MAX_MEM], gs[SL_MAX_MEM];
  unsigned nel = 0, ngl = 0, nes = 0, ngs = 0;
  for (unsigned i = 0; i < e->nmem; i++) {
    if (e->mem[i].store) es[nes++] = e->mem[i];
    else el[nel++] = e->mem[i];
  }
  for (unsigned i = 0; i < g->nmem; i++) {
    if (g->mem[i].store) gs[ngs++] = g->mem[i];
    else gl[ngl++] = g->mem[i];
  }
  if (nel != ngl) {
    report(c, warp, idx, exp, got, "%u load(s) expected, got %u", nel, ngl);
  } else {
    for (unsigned i = 0; i < nel; i++)
      if (el[i].addr != gl[i].addr) {
        report(c, warp, idx, exp, got, "load %u: expected address 0x%08x, got 0x%08x", i,
               el[i].addr, gl[i].addr);
        break;
      }
  }
  if (nes != ngs) {
    report(c, warp, idx, exp, got, "%u store(s) expected, got %u", nes, ngs);
  } else {
    for (unsigned i = 0; i < nes; i++)
      if (es[i].addr != gs[i].addr || es[i].value != gs[i].value || es[i].size != gs[i].size) {
        report(c, warp, idx, exp, got,
               "store %u: expected %u bytes 0x%08x at 0x%08x, got %u bytes 0x%08x at 0x%08x", i,
               es[i].size, es[i].value, es[i].addr, gs[i].size, gs[i].value, gs[i].addr);
        break;
      }
  }
}

/* Normalise both sides of one warp and compare; returns the number of
 * normalised events compared. */
static size_t compare_warp(cmp_ctx *c, unsigned warp, const sl_core *log, const raw *ours,
                           size_t nours, size_t *executions) {
  nlist exp = {0}, got = {0};
  bool ended = false;
  for (size_t i = 0; i < log->n && !ended; i++) {
    const sl_rec *r = &log->r[i];
    ended = !normalise(&exp, r, 0, NULL, r->has_simt, r->simt_mask);
  }
  ended = false;
  for (size_t i = 0; i < nours && !ended; i++) {
    /* the mask after an instruction is the mask before the next one */
    bool has_after = i + 1 < nours && (ours[i].r.insn & 0x7f) == 0x5b;
    uint32_t after = has_after ? ours[i + 1].mask : 0;
    ended = !normalise(&got, &ours[i].r, ours[i].mask, ours[i].written, has_after, after);
  }
  /* old-format logs carry no mask: the active lanes come from our mask */
  size_t n = exp.n < got.n ? exp.n : got.n, compared = 0;
  *executions = 0;
  for (size_t i = 0; i < n && !c->stop; i++) {
    exp.e[i].mask_before = got.e[i].mask_before;
    compare_event(c, warp, i, &exp.e[i], &got.e[i]);
    compared++;
    *executions += got.e[i].repeat;
  }
  if (!c->stop && exp.n != got.n) {
    if (exp.n > got.n)
      report(c, warp, n, &exp.e[n], NULL, "the log has %zu more instruction(s) after our last",
             exp.n - n);
    else
      report(c, warp, n, NULL, &got.e[n], "we executed %zu instruction(s) beyond the log's end",
             got.n - n);
  }
  free(exp.e);
  free(got.e);
  return compared;
}

static bool exists(const char *p) {
  struct stat sb;
  return stat(p, &sb) == 0;
}

/* Run the launches of one case in order on one device; compare each
 * launch's trace with its own log. */
static void run_case(check_state *st, const char *cas, const char *dir, const char *const *names,
                     unsigned nnames) {
  char base[1024];
  snprintf(base, sizeof base, "%s/cases/%s", VT_SHARED_DIR, dir);
  if (!exists(base)) {
    fprintf(stderr, "%s: %s not found\n", cas, base);
    st->failed_checks++;
    return;
  }
  vt_device *dev = vt_device_new(NULL);
  CHECK(st, dev != NULL);
  if (!dev) return;
  cmp_ctx c = {st, cas, NULL, 0, 0, false};
  for (unsigned li = 0; li < nnames && !c.stop; li++) {
    char meta[1200], logp[1200], err[1400];
    snprintf(meta, sizeof meta, "%s/%s.metadata", base, names[li]);
    snprintf(logp, sizeof logp, "%s/%s.log", base, names[li]);
    c.launch = names[li];
    sl_log *log = calloc(1, sizeof *log);
    CHECK(st, log != NULL);
    if (!log) break;
    if (sl_load(logp, log, err, sizeof err) != 0) {
      fprintf(stderr, "%s: %s\n", cas, err);
      st->failed_checks++;
      free(log);
      break;
    }
    vt_testvec *tv = NULL;
    vt_launch l;
    vt_error e;
    collector *col = calloc(1, sizeof *col);
    CHECK(st, col != NULL);
    int rc = col ? vt_testvec_load(meta, NULL, &tv, &e) : VT_ERR_NOMEM;
    if (rc == VT_OK) rc = vt_testvec_apply(dev, tv, &l, &e);
    if (rc == VT_OK) {
      vt_device_set_trace(dev, collect, col);
      rc = vt_device_run(dev, &l, NULL, &e);
      vt_device_set_trace(dev, NULL, NULL);
    }
    if (rc != VT_OK) {
      fprintf(stderr, "%s/%s: run failed: %s\n", cas, names[li], col ? e.message : "no memory");
      st->failed_checks++;
    } else {
      CHECK(st, !col->overflow);
      CHECK(st, !col->multi_wg); /* the logs here are single-workgroup */
      c.numt = l.threads_per_warp;
      if (log->ncores != l.warps_per_wg || col->nwarps != l.warps_per_wg) {
        fprintf(stderr, "%s/%s: log has %u cores, launch has %u warps, we traced %u\n", cas,
                names[li], log->ncores, l.warps_per_wg, col->nwarps);
        st->failed_checks++;
      }
      printf("%s/%s (%s log format):", cas, names[li], log->old_format ? "old" : "new");
      for (unsigned w = 0; w < log->ncores && w < col->nwarps && !c.stop; w++) {
        size_t execs = 0;
        size_t n = compare_warp(&c, w, &log->core[w], col->w[w], col->n[w], &execs);
        printf(" w%u %zu/%zu", w, n, execs);
      }
      printf(" instructions/executions compared\n");
    }
    vt_testvec_free(tv);
    if (col) collector_free(col);
    free(col);
    sl_free(log);
    free(log);
  }
  vt_device_free(dev);
}

TEST(trace_vecadd_4x16) {
  static const char *const names[] = {"vecadd"};
  run_case(st, "vecadd_4x16", "vecadd_4x16", names, 1);
}

TEST(trace_matadd_old_format) {
  static const char *const names[] = {"matadd"};
  run_case(st, "matadd", "matadd", names, 1);
}

TEST(trace_gaussian_sequence) {
  static const char *const names[] = {"Fan1_0", "Fan2_0", "Fan1_1", "Fan2_1", "Fan1_2", "Fan2_2"};
  run_case(st, "gaussian", "gaussian", names, 6);
}

/* ------------------------------------------------------------------ */
/* Parser unit tests on inline text (no shared folder needed).          */
TEST(parser_new_format) {
  static const char text[] =
      "core   0: 0x00001000 (0x00000297) auipc   x5, 0x0\n"
      "core   0: 3 0x00001000 (0x00000297) x5  0x00001000\n"
      "core   1: 3 0x80000134 (0x821190d7) c8_vstart 0x00000000 c1_fflags 0x00000001 e32 m1 l4 "
      "v1  00000007 0x00000003 80000000 3f2aaaaa 3f000000 \n"
      "core   1: 3 0x80000240 (0x0052607b) c8_vstart 0x00000000 e32 m1 l4 mem 0x90000010 "
      "0x00000000 mem 0x90000020 0xab mem 0x90000030 0x1234\n"
      "core   1: 3 0x800000b0 (0x00852283) x5  0x90002000 mem 0x90003008\n"
      "core   0: 3 0x800001c8 (0x0c20825b) c8_vstart 0x00000000 e32 m1 l4 current mask:\t00000008 "
      "current npc:\t8000028c stack size: 2\n"
      "[r_pc] 8000028c [else_pc] 800001cc [else_mask] 00000007 \n"
      "[r_pc] 8000028c [else_pc] 8000028c [else_mask] 0000000f \n"
      "core   0: Executed 2 times\n";
  sl_log log;
  char err[256] = "";
  int rc = sl_parse(text, sizeof text - 1, &log, err, sizeof err);
  CHECK(st, rc == 0);
  if (rc) {
    fprintf(stderr, "%s\n", err);
    return;
  }
  CHECK(st, !log.old_format);
  CHECK_EQ_U32(st, log.ncores, 2);
  CHECK_EQ_U32(st, log.core[0].n, 2);
  CHECK_EQ_U32(st, log.core[1].n, 3);
  const sl_rec *r = &log.core[0].r[0];
  CHECK_EQ_U32(st, r->pc, 0x1000);
  CHECK_EQ_U32(st, r->nx, 1);
  CHECK_EQ_U32(st, r->x[0].reg, 5);
  CHECK_EQ_U32(st, r->x[0].val, 0x1000);
  r = &log.core[1].r[0];
  CHECK_EQ_U32(st, r->insn, 0x821190d7);
  CHECK_EQ_U32(st, r->ncsr, 2);
  CHECK_EQ_U32(st, r->csr[1].csr, 1);
  CHECK_EQ_U32(st, r->csr[1].val, 1);
  CHECK(st, r->has_vctx);
  CHECK_EQ_U32(st, r->vl, 4);
  CHECK_EQ_U32(st, r->nv, 1);
  CHECK_EQ_U32(st, r->v[0].reg, 1);
  CHECK(st, r->v[0].has_mask);
  CHECK_EQ_U32(st, r->v[0].mask, 7);
  CHECK_EQ_U32(st, r->v[0].nelem, 4);
  CHECK_EQ_U32(st, r->v[0].elem[0], 0x3f000000);
  CHECK_EQ_U32(st, r->v[0].elem[2], 0x80000000);
  CHECK_EQ_U32(st, r->v[0].elem[3], 3);
  r = &log.core[1].r[1];
  CHECK_EQ_U32(st, r->nmem, 3);
  CHECK(st, r->mem[0].store && r->mem[0].size == 4 && r->mem[0].addr == 0x90000010);
  CHECK(st, r->mem[1].store && r->mem[1].size == 1 && r->mem[1].value == 0xab);
  CHECK(st, r->mem[2].store && r->mem[2].size == 2 && r->mem[2].value == 0x1234);
  r = &log.core[1].r[2];
  CHECK(st, r->nmem == 1 && !r->mem[0].store && r->mem[0].addr == 0x90003008);
  r = &log.core[0].r[1];
  CHECK(st, r->has_simt);
  CHECK_EQ_U32(st, r->simt_mask, 8);
  CHECK_EQ_U32(st, r->simt_npc, 0x8000028c);
  CHECK_EQ_U32(st, r->stack_size, 2);
  CHECK_EQ_U32(st, r->nstack, 2);
  CHECK_EQ_U32(st, r->stack[0].else_pc, 0x800001cc);
  CHECK_EQ_U32(st, r->stack[1].else_mask, 0xf);
  sl_free(&log);
}

TEST(parser_old_format) {
  static const char text[] =
      "core   2: 3 0x800001d0 (0x04c3305b) c2060_rpc 0x80000218\n"
      "current mask:\t00000005\n"
      "current npc:\t00000000\n"
      "stack size: 0\n"
      "\n"
      "core   2: 3 0x800001f0 (0x5e0040d7) c8_vstart 0x00000000 e32 m1 l4 v1  "
      "0x00000004000000030000000200000001\n";
  sl_log log;
  char err[256] = "";
  int rc = sl_parse(text, sizeof text - 1, &log, err, sizeof err);
  CHECK(st, rc == 0);
  if (rc) {
    fprintf(stderr, "%s\n", err);
    return;
  }
  CHECK(st, log.old_format);
  CHECK_EQ_U32(st, log.ncores, 3);
  CHECK_EQ_U32(st, log.core[2].n, 2);
  const sl_rec *r = &log.core[2].r[0];
  CHECK(st, r->has_simt);
  CHECK_EQ_U32(st, r->simt_mask, 5);
  CHECK_EQ_U32(st, r->ncsr, 1);
  CHECK_EQ_U32(st, r->csr[0].csr, 0x80c);
  r = &log.core[2].r[1];
  CHECK_EQ_U32(st, r->nv, 1);
  CHECK(st, !r->v[0].has_mask);
  CHECK_EQ_U32(st, r->v[0].nelem, 4);
  CHECK_EQ_U32(st, r->v[0].elem[0], 1);
  CHECK_EQ_U32(st, r->v[0].elem[3], 4);
  sl_free(&log);
}

TEST(parser_rejects_garbage) {
  static const char *const bad[] = {
      "hello\n",
      "core   0: 3 0x80000000 (0x00004197) x3\n",          /* value missing */
      "core   0: 3 0x80000000 (0x00004197) q7 0x1\n",      /* unknown effect */
      "[r_pc] 8000028c [else_pc] 800001cc [else_mask] 7\n", /* no record before */
      "core   0: 3 0x80000000 (0x0000419) x3 0x1\n",       /* short insn */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sl_log log;
    char err[256] = "";
    CHECK(st, sl_parse(bad[i], strlen(bad[i]), &log, err, sizeof err) != 0);
    CHECK(st, strncmp(err, "line 1:", 7) == 0);
    sl_free(&log);
  }
}

/* ------------------------------------------------------------------ */
/* Focused regression checks on hand-encoded programs.                  */
typedef struct prog_run {
  vt_device *dev;
  collector col;
} prog_run;

/* Run words[] at 0x80000000 as one workgroup of one warp of 4 threads with
 * a 4 KiB buffer at 0x90000000 holding buf0 in its first word. */
static int run_words(prog_run *p, const uint32_t *words, unsigned n, uint32_t buf0) {
  memset(p, 0, sizeof *p);
  p->dev = vt_device_new(NULL);
  if (!p->dev) return VT_ERR_NOMEM;
  vt_error e;
  uint8_t img[256];
  for (unsigned i = 0; i < n && i < 64; i++)
    for (unsigned b = 0; b < 4; b++) img[4 * i + b] = (uint8_t)(words[i] >> (8 * b));
  uint8_t b0[4] = {(uint8_t)buf0, (uint8_t)(buf0 >> 8), (uint8_t)(buf0 >> 16), (uint8_t)(buf0 >> 24)};
  if (vt_mem_write(p->dev, 0x80000000u, img, 4 * n, &e) != VT_OK ||
      vt_mem_map(p->dev, 0x90000000u, 4096, &e) != VT_OK ||
      vt_mem_write(p->dev, 0x90000000u, b0, 4, &e) != VT_OK)
    return e.status;
  vt_launch l = {0x80000000u, {1, 1, 1}, 4, 1, 0x90000000u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  vt_device_set_trace(p->dev, collect, &p->col);
  int rc = vt_device_run(p->dev, &l, NULL, &e);
  if (rc) fprintf(stderr, "run_words: %s\n", e.message);
  return rc;
}
static void prog_free(prog_run *p) {
  collector_free(&p->col);
  vt_device_free(p->dev);
}

/* An AMO reads and writes memory: its trace has the load (old value) and
 * the store (new value), as spike's commit log prints both. */
TEST(amo_trace_reports_load_and_store) {
  static const uint32_t prog[] = {
      0x90000537u, /* lui a0, 0x90000 */
      0x00500593u, /* li a1, 5 */
      0x00b5262fu, /* amoadd.w a2, a1, (a0) */
      0x0000400bu, /* endprg */
  };
  char dis[96];
  vt_disasm(prog[2], 0x80000008u, NULL, dis, sizeof dis);
  CHECK(st, strncmp(dis, "amoadd.w", 8) == 0);
  prog_run p;
  CHECK(st, run_words(&p, prog, 4, 7) == VT_OK);
  CHECK_EQ_U32(st, p.col.n[0], 4);
  if (p.col.n[0] == 4) {
    const sl_rec *r = &p.col.w[0][2].r;
    CHECK_EQ_U32(st, r->nx, 1);
    CHECK_EQ_U32(st, r->x[0].val, 7);
    CHECK_EQ_U32(st, r->nmem, 2);
    CHECK(st, !r->mem[0].store && r->mem[0].addr == 0x90000000u);
    CHECK(st, r->mem[1].store && r->mem[1].addr == 0x90000000u && r->mem[1].value == 12 &&
                  r->mem[1].size == 4);
  }
  prog_free(&p);
}

static void check_disasm(check_state *st, uint32_t word, const char *prefix) {
  char dis[96];
  vt_disasm(word, 0x80000000u, NULL, dis, sizeof dis);
  for (char *c = dis; *c; c++)
    if (*c == '\t') *c = ' ';
  if (strncmp(dis, prefix, strlen(prefix)) != 0) {
    st->failed_checks++;
    fprintf(stderr, "hand encoding 0x%08x disassembles as \"%s\", expected \"%s...\"\n", word, dis,
            prefix);
  }
}

/* vmv.x.s writes the highest active lane (isa.md 3.4): one x-register
 * write, as spike logs it, not one per active lane. */
TEST(vmv_x_s_traces_one_write) {
  static const uint32_t prog[] = {
      0x0d0072d7u, /* vsetvli t0, zero, e32, m1, ta, ma */
      0x5208a257u, /* vid.v v4 */
      0x42402657u, /* vmv.x.s a2, v4 */
      0x0000400bu, /* endprg */
  };
  check_disasm(st, prog[0], "vsetvli t0, zero, e32, m1, ta, ma");
  check_disasm(st, prog[1], "vid.v v4");
  check_disasm(st, prog[2], "vmv.x.s a2, v4");
  prog_run p;
  CHECK(st, run_words(&p, prog, 4, 0) == VT_OK);
  CHECK_EQ_U32(st, p.col.n[0], 4);
  if (p.col.n[0] == 4) {
    const sl_rec *r = &p.col.w[0][2].r;
    CHECK_EQ_U32(st, r->nx, 1);
    CHECK_EQ_U32(st, r->x[0].reg, 12);
    CHECK_EQ_U32(st, r->x[0].val, 3);
  }
  prog_free(&p);
}

/* An FP reduction that raises a flag reports the fflags write, like every
 * other FP instruction (spike logs c1_fflags). 1.0 + 4 x 2^-24 in order:
 * every addition rounds back to 1.0, inexact. */
TEST(fp_reduction_traces_fflags) {
  static const uint32_t prog[] = {
      0x00002eb7u, /* lui t4, 2 */
      0x300ea073u, /* csrs mstatus, t4 (FS = Initial) */
      0x0d0072d7u, /* vsetvli t0, zero, e32, m1, ta, ma */
      0x3f800537u, /* lui a0, 0x3f800 (1.0) */
      0x338005b7u, /* lui a1, 0x33800 (2^-24) */
      0x5e0540d7u, /* vmv.v.x v1, a0 */
      0x5e05c157u, /* vmv.v.x v2, a1 */
      0x0e2091d7u, /* vfredosum.vs v3, v2, v1 */
      0x0000400bu, /* endprg */
  };
  check_disasm(st, prog[1], "csrs mstatus, t4");
  check_disasm(st, prog[5], "vmv.v.x v1, a0");
  check_disasm(st, prog[6], "vmv.v.x v2, a1");
  check_disasm(st, prog[7], "vfredosum.vs v3, v2, v1");
  prog_run p;
  CHECK(st, run_words(&p, prog, 9, 0) == VT_OK);
  CHECK_EQ_U32(st, p.col.n[0], 9);
  if (p.col.n[0] == 9) {
    const sl_rec *r = &p.col.w[0][7].r;
    CHECK_EQ_U32(st, r->nv, 1);
    CHECK_EQ_U32(st, r->v[0].elem[0], 0x3f800000u);
    CHECK_EQ_U32(st, r->ncsr, 1);
    CHECK_EQ_U32(st, r->csr[0].csr, 0x001);
    CHECK_EQ_U32(st, r->csr[0].val, 0x01); /* NX */
  }
  prog_free(&p);
}

RUN_TESTS(T(parser_new_format), T(parser_old_format), T(parser_rejects_garbage), T(amo_trace_reports_load_and_store),
          T(vmv_x_s_traces_one_write), T(fp_reduction_traces_fflags),
          T_CASES(trace_vecadd_4x16), T_CASES(trace_matadd_old_format), T_CASES(trace_gaussian_sequence))
