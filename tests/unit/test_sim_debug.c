/* The simulator's debugging interface (include/vt/sim_debug.h): the hooks
 * before and after every warp instruction and on a failing launch, the
 * resident warps, reading and changing registers, CSRs and the pc (and the
 * run obeys), the SIMT stack of a divergent branch (isa.md 2.1), and the
 * three memory spaces: private addresses interleaved by the formula of spec
 * README decision 9, local memory per workgroup at 0x70000000. Programs are
 * instruction words from the table (tests/unit/simprog.h); expected values
 * are worked out by hand. */
#include "check.h"
#include "simprog.h"
#include "vt/sim_debug.h"

static vt_device *device(unsigned sms, unsigned slots) {
  vt_settings s;
  vt_settings_default(&s);
  s.sms = sms;
  s.warp_slots = slots;
  return vt_device_new(&s);
}

typedef struct counts {
  unsigned before, after, failed;
  vt_warp_info first;
  bool handle_ok, stores_seen;
  vt_error failure;
  int stop_at;   /* before-hook: return an error at this call (0: never) */
} counts;

static int count_before(void *ctx, vt_warp *w, vt_error *err) {
  counts *c = ctx;
  vt_warp_info wi;
  vt_warp_get_info(w, &wi);
  if (c->before++ == 0) c->first = wi;
  if (c->stop_at && (int)c->before == c->stop_at) {
    snprintf(err->message, sizeof err->message, "stop");
    err->status = VT_ERR_INTERRUPTED;
    return VT_ERR_INTERRUPTED;
  }
  /* warp 1 of workgroup 0 gets t0 = 100 before its addi (index 1) */
  if (wi.wg == 0 && wi.warp == 1 && wi.pc == prog_addr(1)) vt_warp_set_x(w, T0, 100);
  /* warp 0 of workgroup 0 skips its store (index 5) */
  if (wi.wg == 0 && wi.warp == 0 && wi.pc == prog_addr(5)) vt_warp_set_pc(w, prog_addr(6));
  return VT_OK;
}

static int count_after(void *ctx, vt_warp *w, const vt_trace_event *ev, vt_error *err) {
  (void)err;
  counts *c = ctx;
  c->after++;
  c->handle_ok &= ev->handle == w;
  for (unsigned i = 0; i < ev->nmem; i++) c->stores_seen |= ev->mem[i].is_store;
  return VT_OK;
}

static void count_failed(void *ctx, const vt_error *err) {
  counts *c = ctx;
  c->failed++;
  c->failure = *err;
}

/* out[wg * 2 + wid] = wid + 5 */
static void program_a(prog *p) {
  csrr(p, T0, CSR_ADDR_WID);            /* 0 */
  E(p, VT_INSN_ADDI, T1, T0, 5);        /* 1 */
  E(p, VT_INSN_SLLI, T2, T0, 2);        /* 2 */
  E(p, VT_INSN_LUI, T3, 0x90000);       /* 3 */
  E(p, VT_INSN_ADD, T3, T3, T2);        /* 4 */
  E(p, VT_INSN_SW, T1, 0, T3);          /* 5 */
  emit(p, WORD_ENDPRG);                 /* 6 */
}

TEST(hooks_see_and_change_every_instruction) {
  prog p = {0};
  program_a(&p);
  vt_device *dev = device(1, 8);
  CHECK(st, load_prog(dev, &p) == 0);
  counts c = {0};
  c.handle_ok = true;
  vt_sim_hooks h = {count_before, count_after, count_failed, &c};
  vt_device_set_hooks(dev, &h);
  vt_launch l = simple_launch(4, 2);
  vt_error err;
  CHECK(st, vt_device_run(dev, &l, NULL, &err) == VT_OK);
  /* 2 warps x 7 instructions, but warp 0 skipped its store */
  CHECK_EQ_U32(st, c.before, 13);
  CHECK_EQ_U32(st, c.after, 13);
  CHECK_EQ_U32(st, c.failed, 0);
  CHECK(st, c.handle_ok && c.stores_seen);
  CHECK(st, c.first.sm == 0 && c.first.wg == 0 && c.first.warp == 0 && c.first.pc == prog_addr(0) &&
                c.first.instret == 0 && c.first.lanes == 4 && c.first.warps_per_wg == 2 &&
                c.first.mask == 0xf && c.first.state == VT_WARP_RUNNING);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE), 0);       /* skipped */
  /* warp 1's t0 became 100: t1 = 105, stored at 4 x 100 */
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 4), 0);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 400), 105);
  /* no hooks: the plain results */
  vt_device_set_hooks(dev, NULL);
  CHECK(st, vt_device_run(dev, &l, NULL, &err) == VT_OK);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE), 5);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 4), 6);
  CHECK(st, vt_device_launch(dev) == NULL);
  vt_device_free(dev);
}

TEST(a_hook_error_stops_the_launch) {
  prog p = {0};
  program_a(&p);
  vt_device *dev = device(1, 8);
  CHECK(st, load_prog(dev, &p) == 0);
  counts c = {0};
  c.stop_at = 5; /* warp 0's third instruction (warps alternate) */
  vt_sim_hooks h = {count_before, NULL, count_failed, &c};
  vt_device_set_hooks(dev, &h);
  vt_launch l = simple_launch(4, 2);
  vt_error err;
  CHECK(st, vt_device_run(dev, &l, NULL, &err) == VT_ERR_INTERRUPTED);
  CHECK(st, err.has_location && err.wg == 0 && err.warp == 0 && err.pc == prog_addr(2));
  CHECK(st, strstr(err.message, "SM 0, workgroup 0, warp 0, pc 0x80000008 ") == err.message &&
                strstr(err.message, "): stop"));
  CHECK_EQ_U32(st, c.failed, 1);
  vt_device_free(dev);
}

/* the failed hook sees the warps as they were at the fault */
typedef struct fault_view {
  size_t resident;
  bool found;
  uint32_t pc;
  unsigned calls;
  vt_device *dev;
} fault_view;

static void view_failed(void *ctx, const vt_error *err) {
  fault_view *v = ctx;
  v->calls++;
  v->resident = vt_device_warps(v->dev, NULL, 0);
  vt_warp *w = vt_device_find_warp(v->dev, err->wg, err->warp);
  v->found = w != NULL;
  vt_warp_info wi;
  if (w) vt_warp_get_info(w, &wi);
  v->pc = w ? wi.pc : 0;
}

TEST(the_failed_hook_sees_the_faulting_warp) {
  prog p = {0};
  E(&p, VT_INSN_ADDI, T0, ZERO, 16);  /* 0 */
  E(&p, VT_INSN_LW, T1, 0, T0);       /* 1: unmapped */
  emit(&p, WORD_ENDPRG);
  vt_device *dev = device(1, 8);
  CHECK(st, load_prog(dev, &p) == 0);
  fault_view v = {0, false, 0, 0, dev};
  vt_sim_hooks h = {NULL, NULL, view_failed, &v};
  vt_device_set_hooks(dev, &h);
  vt_launch l = simple_launch(4, 1);
  vt_error err;
  CHECK(st, vt_device_run(dev, &l, NULL, &err) == VT_ERR_ACCESS);
  CHECK_EQ_U32(st, v.calls, 1);
  CHECK_EQ_U32(st, v.resident, 1);
  CHECK(st, v.found);
  CHECK_EQ_U32(st, v.pc, prog_addr(1)); /* not advanced past the fault */
  CHECK_EQ_U32(st, vt_device_warps(dev, NULL, 0), 0); /* freed after the launch */
  vt_device_free(dev);
}

/* SIMT: lane 1 takes the vbeq (v1 == 1), lanes 0, 2, 3 fall through */
typedef struct simt_view {
  bool seen;
  unsigned depth;
  vt_simt_info e[3];
  uint32_t mask;
} simt_view;

static int simt_before(void *ctx, vt_warp *w, vt_error *err) {
  (void)err;
  simt_view *v = ctx;
  vt_warp_info wi;
  vt_warp_get_info(w, &wi);
  if (wi.pc == prog_addr(9) && !v->seen) {
    v->seen = true;
    v->depth = wi.simt_depth;
    v->mask = wi.mask;
    for (unsigned i = 0; i < 3; i++)
      if (!vt_warp_simt_entry(w, i, &v->e[i])) memset(&v->e[i], 0xff, sizeof v->e[i]);
  }
  return VT_OK;
}

TEST(simt_stack_of_a_divergent_branch) {
  prog p = {0};
  vsetup(&p);                                   /* 0, 1 */
  E(&p, VT_INSN_VID_V, 1, 1);                   /* 2: v1 = lane */
  E(&p, VT_INSN_VMV_V_I, 2, 1);                 /* 3: v2 = 1 */
  unsigned rpc = setrpc_placeholder(&p);        /* 4, 5 */
  unsigned br = E(&p, VT_INSN_VBEQ, 1, 2, 0);   /* 6 */
  E(&p, VT_INSN_ADDI, ZERO, ZERO, 0);           /* 7: the fall-through lanes */
  unsigned j = E(&p, VT_INSN_JAL, ZERO, 0);     /* 8 */
  E(&p, VT_INSN_ADDI, ZERO, ZERO, 0);           /* 9: lane 1 */
  emit(&p, WORD_JOIN);                          /* 10 */
  emit(&p, WORD_ENDPRG);                        /* 11 */
  patch_branch(&p, br, 9);
  patch_branch(&p, j, 10);
  patch_rpc(&p, rpc, 10);
  vt_device *dev = device(1, 8);
  CHECK(st, load_prog(dev, &p) == 0);
  simt_view v = {0};
  vt_sim_hooks h = {simt_before, NULL, NULL, &v};
  vt_device_set_hooks(dev, &h);
  vt_launch l = simple_launch(4, 1);
  vt_error err;
  CHECK(st, vt_device_run(dev, &l, NULL, &err) == VT_OK);
  /* the smaller side (lane 1) runs first; the 3 others wait on top, the
   * whole mask under them (isa.md 2.1) */
  CHECK(st, v.seen);
  CHECK_EQ_U32(st, v.depth, 2);
  CHECK_EQ_U32(st, v.mask, 0x2);
  CHECK(st, v.e[0].r_pc == prog_addr(10) && v.e[0].else_pc == prog_addr(7) &&
                v.e[0].else_mask == 0xd);
  CHECK(st, v.e[1].r_pc == prog_addr(10) && v.e[1].else_pc == prog_addr(10) &&
                v.e[1].else_mask == 0xf);
  CHECK(st, v.e[2].r_pc == 0xffffffffu); /* no third entry */
  vt_device_free(dev);
}

/* memory spaces and registers, checked from the first instruction of
 * workgroup 1's warp 1 (2 workgroups of 2 warps x 4 lanes, both resident) */
typedef struct mem_view {
  vt_device *dev;
  bool done;
  int failures;
} mem_view;

#define PDS_BASE 0x90100000u

static void expect(mem_view *v, bool ok, const char *what) {
  if (!ok) {
    v->failures++;
    fprintf(stderr, "memory view: %s\n", what);
  }
}

static int mem_before(void *ctx, vt_warp *w, vt_error *err) {
  (void)err;
  mem_view *v = ctx;
  vt_warp_info wi;
  vt_warp_get_info(w, &wi);
  if (v->done || wi.wg != 1 || wi.warp != 1) return VT_OK;
  v->done = true;
  vt_device *dev = v->dev;
  vt_error e;
  uint8_t b = 0xab, r = 0;
  uint32_t word;
  /* private: lane 2, byte 9 -> PDS + (9 & ~3) * numw * numt + 4 * (tid + 2) + 1 */
  uint32_t pds = 0, tid = 0;
  expect(v, vt_warp_get_csr(w, CSR_ADDR_PDS, &pds) == 0 && pds == PDS_BASE + 1 * 2 * 4 * 64, "PDS");
  expect(v, vt_warp_get_csr(w, CSR_ADDR_TID, &tid) == 0 && tid == 4, "TID");
  expect(v, vt_debug_mem_write(dev, w, VT_SPACE_PRIVATE, 2, 9, &b, 1, &e) == VT_OK, "priv write");
  expect(v, vt_debug_mem_read(dev, NULL, VT_SPACE_GLOBAL, 0, pds + 8 * 8 + 4 * (4 + 2) + 1, &r, 1,
                              &e) == VT_OK && r == 0xab, "the interleave formula");
  expect(v, vt_debug_mem_read(dev, w, VT_SPACE_PRIVATE, 4, 0, &r, 1, &e) == VT_ERR_ACCESS &&
                !strcmp(e.message, "cannot access private memory at 0x00000000"), "lane 4");
  /* local: an offset, the warp's window at 0x70000000, another workgroup */
  word = 0x12345678;
  expect(v, vt_debug_mem_write(dev, w, VT_SPACE_LOCAL, 0, 0x20, &word, 4, &e) == VT_OK, "lds");
  word = 0;
  expect(v, vt_debug_mem_read(dev, w, VT_SPACE_GLOBAL, 0, 0x70000020, &word, 4, &e) == VT_OK &&
                word == 0x12345678, "lds through the window");
  vt_warp *other = vt_device_find_warp(dev, 0, 0);
  word = 1;
  expect(v, other && vt_debug_mem_read(dev, other, VT_SPACE_LOCAL, 0, 0x70000020, &word, 4, &e) ==
                         VT_OK && word == 0, "workgroup 0's local memory is its own");
  expect(v, vt_debug_mem_read(dev, NULL, VT_SPACE_GLOBAL, 0, 0x70000020, &word, 4, &e) ==
                VT_ERR_ACCESS && !strcmp(e.message, "cannot access memory at 0x70000020"),
         "no warp, no local memory");
  expect(v, vt_debug_mem_read(dev, w, VT_SPACE_LOCAL, 0, 0x80000000u, &word, 4, &e) ==
                VT_ERR_ACCESS, "outside the local window");
  /* registers and CSRs */
  vt_warp_set_x(w, 0, 7);
  expect(v, vt_warp_get_x(w, 0) == 0, "x0");
  vt_warp_set_x(w, 200, 9);
  expect(v, vt_warp_get_x(w, 200) == 9 && vt_warp_get_x(w, 256) == 0, "x200");
  vt_warp_set_v(w, 40, 3, 77);
  expect(v, vt_warp_get_v(w, 40, 3) == 77 && vt_warp_get_v(w, 256, 0) == 0, "v40[3]");
  uint32_t c = 0;
  expect(v, vt_warp_set_csr(w, 0x340, 0x55) == 0 && vt_warp_get_csr(w, 0x340, &c) == 0 &&
                c == 0x55, "mscratch");
  expect(v, vt_warp_get_csr(w, 0xf14, &c) == 0 && c == 1, "mhartid = warp");
  expect(v, vt_warp_get_csr(w, 0x7ff, &c) == -1, "no CSR 0x7ff");
  vt_run_progress prog_now;
  expect(v, vt_device_progress(dev, &prog_now) && prog_now.workgroups_total == 2, "progress");
  expect(v, vt_device_warps(dev, NULL, 0) == 4, "4 resident warps");
  const vt_launch *l = vt_device_launch(dev);
  expect(v, l && l->warps_per_wg == 2, "the launch");
  return VT_OK;
}

TEST(memory_spaces_and_registers) {
  prog p = {0};
  E(&p, VT_INSN_ADDI, ZERO, ZERO, 0);
  emit(&p, WORD_ENDPRG);
  vt_device *dev = device(1, 8);
  CHECK(st, load_prog(dev, &p) == 0);
  vt_error err;
  CHECK(st, vt_mem_map(dev, PDS_BASE, 0x10000, &err) == VT_OK);
  mem_view v = {dev, false, 0};
  vt_sim_hooks h = {mem_before, NULL, NULL, &v};
  vt_device_set_hooks(dev, &h);
  vt_launch l = simple_launch(4, 2);
  l.num_wg[0] = 2;
  l.pds_base = PDS_BASE;
  l.pds_size = 64;
  CHECK(st, vt_device_run(dev, &l, NULL, &err) == VT_OK);
  CHECK(st, v.done);
  CHECK_EQ_U32(st, v.failures, 0);
  CHECK(st, !vt_device_progress(dev, &(vt_run_progress){0}));
  vt_device_free(dev);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      T(hooks_see_and_change_every_instruction),
      T(a_hook_error_stops_the_launch),
      T(the_failed_hook_sees_the_faulting_warp),
      T(simt_stack_of_a_divergent_branch),
      T(memory_spaces_and_registers),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
