/* --trace-format spike: the commit log of the official simulator.
 *
 * Against the official logs (T_CASES, VT_SHARED_DIR/cases, every launch
 * that has a .log, sequences run in order on one device): per warp, after
 * the normalisation of formats-and-launch.md 9.4 (boot ROM dropped, each
 * warp up to its endprg, repeated barrier spins collapsed), every commit
 * record and SIMT-stack line must be the same text, except the value of
 * mstatus (docs/trace.md: spike sets dirty bits of its own); lanes past a
 * workgroup's work-items start active there, as in spike. Old-format
 * logs (matadd.log) print vector registers without a mask: there our
 * records must parse with tests/spike_log.h and agree in pc, instruction
 * and x-register writes.
 *
 * Without the cases: hand-written lines for examples/kernels/divergent.s
 * (the SIMT dumps of its vector branch and joins, a masked vector write,
 * a store), and the option's errors. */
#include "debug_test_util.h"
#include "spike_log.h"
#include "vt/testvec.h"
#include "vt/trace.h"

/* ---- normalised records: per core, commit line + stack lines ---- */
#define MAX_CORES 64

typedef struct recs {
  char **r[MAX_CORES];
  size_t n[MAX_CORES], cap[MAX_CORES];
} recs;

static void recs_free(recs *R) {
  for (int c = 0; c < MAX_CORES; c++) {
    for (size_t i = 0; i < R->n[c]; i++) free(R->r[c][i]);
    free(R->r[c]);
  }
  memset(R, 0, sizeof *R);
}

static void push(recs *R, int c, const char *line, size_t len) {
  if (R->n[c] == R->cap[c]) {
    R->cap[c] = R->cap[c] ? 2 * R->cap[c] : 256;
    R->r[c] = realloc(R->r[c], R->cap[c] * sizeof *R->r[c]);
  }
  char *s = malloc(len + 1);
  memcpy(s, line, len);
  s[len] = 0;
  R->r[c][R->n[c]++] = s;
}

/* append a stack line to core c's last record */
static void attach(recs *R, int c, const char *line, size_t len) {
  if (c < 0 || R->n[c] == 0) return;
  char **last = &R->r[c][R->n[c] - 1];
  size_t old = strlen(*last);
  *last = realloc(*last, old + len + 2);
  (*last)[old] = '\n';
  memcpy(*last + old + 1, line, len);
  (*last)[old + len + 1] = 0;
}

/* mstatus values are not compared (spike's own dirty bits) */
static void mask_mstatus(char *s) {
  for (char *p = strstr(s, "c768_mstatus 0x"); p; p = strstr(p + 1, "c768_mstatus 0x"))
    memset(p + 15, '?', 8);
}

static bool is_barrier(uint32_t w) {
  return (w & 0xfe00707fu) == 0x0400400bu || (w & 0xfe00707fu) == 0x0600400bu;
}

static void normalise(const char *text, recs *R) {
  memset(R, 0, sizeof *R);
  bool ended[MAX_CORES] = {false};
  int last = -1;
  for (const char *p = text; p && *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    unsigned core;
    unsigned long pc, insn;
    int pos = 0;
    if (sscanf(p, "core %u: 3 0x%lx (0x%lx)%n", &core, &pc, &insn, &pos) == 3 && pos &&
        core < MAX_CORES) {
      last = -1;
      if (pc >= 0x80000000u && !ended[core]) {
        char *line = malloc(len + 1);
        memcpy(line, p, len);
        line[len] = 0;
        mask_mstatus(line);
        bool spin = is_barrier((uint32_t)insn) && R->n[core] &&
                    !strcmp(R->r[core][R->n[core] - 1], line);
        if (!spin) push(R, (int)core, line, len);
        free(line);
        last = (int)core;
        ended[core] = (insn & 0xfe00707fu) == 0x0000400bu;
      }
    } else if (!strncmp(p, "[r_pc]", 6)) {
      attach(R, last, p, len);
    }
    p = nl ? nl + 1 : p + len;
  }
}

/* compare our text with the log text of one launch; mismatches */
static int compare_text(const char *cas, const char *launch, const char *ours, const char *log) {
  recs a, b;
  normalise(log, &a);
  normalise(ours, &b);
  int bad = 0;
  size_t total = 0;
  for (int c = 0; c < MAX_CORES; c++) {
    size_t n = a.n[c] > b.n[c] ? a.n[c] : b.n[c];
    for (size_t i = 0; i < n; i++) {
      const char *x = i < a.n[c] ? a.r[c][i] : "(none)", *y = i < b.n[c] ? b.r[c][i] : "(none)";
      total++;
      if (!strcmp(x, y)) continue;
      if (bad++ < 3)
        fprintf(stderr, "%s/%s core %d record %zu:\n  log:  %s\n  ours: %s\n", cas, launch, c, i,
                x, y);
      break; /* the rest of the core follows from it */
    }
  }
  printf("%s/%s: %zu records compared as text\n", cas, launch, total);
  recs_free(&a);
  recs_free(&b);
  return bad;
}

/* old format: our records parse; pc, instruction and x writes agree */
static int compare_parsed(const char *cas, const char *launch, const char *ours, const char *logp) {
  sl_log *mine = calloc(1, sizeof *mine), *theirs = calloc(1, sizeof *theirs);
  char err[1400];
  int bad = 0;
  if (sl_parse(ours, strlen(ours), mine, err, sizeof err) != 0) {
    fprintf(stderr, "%s/%s: our log does not parse: %s\n", cas, launch, err);
    bad = 1;
  } else if (sl_load(logp, theirs, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    bad = 1;
  }
  for (unsigned c = 0; !bad && c < theirs->ncores; c++) {
    size_t i = 0, j = 0;
    const sl_core *t = &theirs->core[c], *m = &mine->core[c];
    while (i < t->n && t->r[i].pc < 0x80000000u) i++;
    for (; i < t->n && j < m->n; i++, j++) {
      const sl_rec *x = &t->r[i], *y = &m->r[j];
      if (x->pc != y->pc || x->insn != y->insn || x->nx != y->nx ||
          (x->nx && (x->x[0].reg != y->x[0].reg || x->x[0].val != y->x[0].val))) {
        fprintf(stderr, "%s/%s core %u: log line %u (pc %08x) differs from our line %u\n", cas,
                launch, c, x->line, x->pc, y->line);
        bad++;
        break;
      }
      if ((x->insn & 0xfe00707fu) == 0x0000400bu) break;
      /* our barrier executes once; spike's spins repeat it */
      while (is_barrier(x->insn) && i + 1 < t->n && t->r[i + 1].pc == x->pc) i++;
    }
  }
  printf("%s/%s: parsed and compared\n", cas, launch);
  sl_free(mine);
  sl_free(theirs);
  free(mine);
  free(theirs);
  return bad;
}

static bool is_old_format(const char *log) { return strstr(log, "\ncurrent mask:") != NULL; }

/* run the launches of one case folder in order; compare each with its log */
static void run_case(check_state *st, const char *dir, const char *const *names, size_t n) {
  vt_device *dev = vt_device_new(NULL);
  for (size_t i = 0; i < n && dev; i++) {
    char meta[1024], logp[1024];
    snprintf(meta, sizeof meta, "%s/cases/%s/%s.metadata", VT_SHARED_DIR, dir, names[i]);
    snprintf(logp, sizeof logp, "%s/cases/%s/%s.log", VT_SHARED_DIR, dir, names[i]);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    vt_trace_writer *w = vt_trace_writer_new(f, VT_TRACE_SPIKE);
    vt_testvec *tv = NULL;
    vt_launch l;
    vt_error e;
    int rc = vt_testvec_load(meta, NULL, &tv, &e);
    if (rc == VT_OK) rc = vt_testvec_apply(dev, tv, &l, &e);
    /* every lane starts, as in the official simulator (formats-and-launch.md
     * 6.1; vt starts lanes past the work-items inactive, docs/run.md) */
    l.wg_threads = 0;
    vt_device_set_trace(dev, vt_trace_writer_event, w);
    if (rc == VT_OK) rc = vt_device_run(dev, &l, names[i], &e);
    vt_device_set_trace(dev, NULL, NULL);
    vt_trace_writer_free(w);
    fclose(f);
    vt_testvec_free(tv);
    if (rc != VT_OK) {
      fprintf(stderr, "%s/%s: %s\n", dir, names[i], e.message);
      st->failed_checks++;
    }
    char *log = dt_slurp(logp);
    if (log && rc == VT_OK)
      st->failed_checks += is_old_format(log) ? compare_parsed(dir, names[i], buf, logp)
                                              : compare_text(dir, names[i], buf, log);
    free(log);
    free(buf);
  }
  vt_device_free(dev);
}

TEST(official_logs) {
  static const char *const vecadd[] = {"vecadd"}, *const matadd[] = {"matadd"};
  static const char *const gaussian[] = {"Fan1_0", "Fan2_0", "Fan1_1", "Fan2_1", "Fan1_2", "Fan2_2"};
  static const char *const bfs[] = {"BFS_1_0", "BFS_2_0", "BFS_1_1", "BFS_2_1",
                                    "BFS_1_2", "BFS_2_2", "BFS_1_3", "BFS_2_3"};
  static const char *const vec0[] = {"vecadd_0"}, *const mat0[] = {"matadd_0"};
  static const char *const nn[] = {"NearestNeighbor_0"};
  run_case(st, "vecadd_4x16", vecadd, 1);
  run_case(st, "matadd", matadd, 1);
  run_case(st, "gaussian", gaussian, 6);
  run_case(st, "rtl-verilog/gaussian_4w4t", gaussian, 6);
  run_case(st, "rtl-verilog/gaussian_2w8t", gaussian, 6);
  run_case(st, "rtl-verilog/bfs_2w16t", bfs, 8);
  run_case(st, "rtl-verilog/vecadd_4w16t", vec0, 1);
  run_case(st, "rtl-verilog/vecadd_4w8t", vec0, 1);
  run_case(st, "rtl-verilog/vecadd_8w4t", vec0, 1);
  run_case(st, "rtl-verilog/matadd_2w8t", mat0, 1);
  run_case(st, "rtl-verilog/matadd_4w4t", mat0, 1);
  run_case(st, "rtl-verilog/nn_2w16t", nn, 1);
  run_case(st, "rtl-verilog/nn_4w8t", nn, 1);
}

/* vt run --trace-format spike writes what the library writes */
TEST(vt_run_option) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' run -q --trace run.log --trace-format spike "
           VT_SHARED_DIR "/cases/vecadd_4x16/vecadd.metadata", VT_BINARY);
  CHECK(st, dt_sh(cmd) == 0);
  char *ours = dt_slurp("run.log"), *log = dt_slurp(VT_SHARED_DIR "/cases/vecadd_4x16/vecadd.log");
  CHECK(st, ours && log && compare_text("vt run", "vecadd", ours, log) == 0);
  free(ours);
  free(log);
}

/* ---- without the cases ---- */

TEST(divergent_kernel_lines) {
  if (dt_setup_divergent() != 0) {
    st->failed_checks++;
    return;
  }
  uint32_t s = dt_nm("divergent.elf", "divergent");
  if (!s) s = 0x800000b4;
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s' launch -q divergent.elf --global 8 --local 8 --threads 4 "
           "--arg in:in.bin --arg out:32 --trace t.log --trace-format spike", VT_BINARY);
  CHECK(st, dt_sh(cmd) == 0);
  char *t = dt_slurp("t.log");
  /* warp 0: in = 1 2 3 4. setrpc before any branch: npc 0; vbeq: the even
   * lanes (mask a) run first at .Leven, the odd ones (5) wait under the
   * reconvergence entry; the first join pops to the odd lanes at the li,
   * the second back to all lanes at the join itself, which then runs once
   * more without a pop (isa.md 2.1, 2.2) */
  uint32_t join = s + 0x58;
  const char *lines[] = {
      dt_fmt("core   0: 3 0x%08x (0x...) c2060_rpc 0x%08x current mask:\t0000000f current npc:\t"
             "00000000 stack size: 0", s + 0x3c, join),
      dt_fmt("core   0: 3 0x%08x (0x...) c8_vstart 0x00000000 e32 m1 l4 current mask:\t0000000a "
             "current npc:\t%08x stack size: 2", s + 0x40, s + 0x54),
      dt_fmt("[r_pc] %08x [else_pc] %08x [else_mask] 00000005 ", join, s + 0x44),
      dt_fmt("[r_pc] %08x [else_pc] %08x [else_mask] 0000000f ", join, join),
      dt_fmt("core   0: 3 0x%08x (0x...) c8_vstart 0x00000000 e32 m1 l4 v5  0000000a 0x00000002 "
             "00000000 00000001 00000000 ", s + 0x54),
      dt_fmt("core   0: 3 0x%08x (0x0000205b) current mask:\t00000005 current npc:\t%08x stack "
             "size: 1", join, s + 0x44),
      dt_fmt("[r_pc] %08x [else_pc] %08x [else_mask] 0000000f ", join, join),
      dt_fmt("core   0: 3 0x%08x (0x...) x30 0x00000003", s + 0x44),
      dt_fmt("core   0: 3 0x%08x (0x0000205b) current mask:\t0000000f current npc:\t%08x stack "
             "size: 0", join, join),
      dt_fmt("core   0: 3 0x%08x (0x0000205b) current mask:\t0000000f current npc:\t%08x stack "
             "size: 0", join, join),
      /* out[0..3] = 4 1 10 2, one store per lane */
      dt_fmt("core   0: 3 0x%08x (0x...) c8_vstart 0x00000000 e32 m1 l4 mem 0x... 0x00000004 mem "
             "0x... 0x00000001 mem 0x... 0x0000000a mem 0x... 0x00000002", s + 0x64),
      NULL};
  dt_expect_lines(st, t, lines);
  /* warp 1 is core 1 */
  const char *w1[] = {dt_fmt("core   1: 3 0x%08x (0x...) c8_vstart 0x00000000 e32 m1 l4 v5  "
                             "0000000a 0x00000004 00000000 00000003 00000000 ", s + 0x54), NULL};
  dt_expect_lines(st, t, w1);
  /* our records parse with the test-side parser of the official format */
  sl_log *log = calloc(1, sizeof *log);
  char err[256];
  CHECK(st, t && sl_parse(t, strlen(t), log, err, sizeof err) == 0);
  CHECK_EQ_U32(st, log->ncores, 2);
  CHECK(st, !log->old_format);
  sl_free(log);
  free(log);
  free(t);
}

TEST(option_errors) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s' run --trace-format bogus x.metadata 2>e.txt", VT_BINARY);
  CHECK(st, dt_sh(cmd) == 2);
  char *e = dt_slurp("e.txt");
  CHECK(st, e && strstr(e, "vt run: --trace-format: unknown trace format 'bogus' (text, spike)"));
  free(e);
  snprintf(cmd, sizeof cmd, "'%s' launch --trace-format spike --dump-config >c.txt", VT_BINARY);
  CHECK(st, dt_sh(cmd) == 0);
  char *c = dt_slurp("c.txt");
  CHECK(st, c && strstr(c, "\ntrace_format = spike\n"));
  free(c);
  vt_trace_format f;
  CHECK(st, vt_trace_format_parse("text", &f) == 0 && f == VT_TRACE_TEXT);
  CHECK(st, vt_trace_format_parse("spike", &f) == 0 && f == VT_TRACE_SPIKE);
  CHECK(st, vt_trace_format_parse("Spike", &f) != 0);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      T_CASES(official_logs),
      T_CASES(vt_run_option),
      T(divergent_kernel_lines),
      T(option_errors),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
