/* The vector memory fast path (src/sim/fastmem.h, exec_vmem_fast.c) and
 * the per-lane path it falls back to, on 32-lane warps: unit-stride loads
 * and stores under a v0 mask (inactive lanes and bytes untouched), element
 * bytes of vle8.v, an access across a page boundary, misaligned and
 * unmapped lanes (the per-lane path's messages), vle32ff.v trimming vl at
 * an unmapped lane, per-lane flat loads in reverse order with sign and zero
 * extension, consecutive flat words under vl (block copies), colliding flat stores (the highest lane wins), and the same
 * kernel with a trace callback (every lane's access recorded), the memory
 * checker (allocations alternating, a store past one's end). Expected
 * values are the words the test put in memory and registers, placed by
 * hand. */
#include "xrun.h"

#define DATA (OUT_BASE + 0x2000u) /* DATA word k = data_word(k) */
#define DST (OUT_BASE + 0x3000u)
#define EDGE (OUT_BASE + 0x5000u) /* a page boundary */

static uint32_t data_word(uint32_t k) { return 0x9e3779b9u * (k + 1); } /* mixed signs */
static void poke_words(xrun *t, uint32_t base, unsigned n) {
  for (uint32_t k = 0; k < n; k++) xr_poke(t, base + 4 * k, data_word(k));
}
static uint32_t old_lane(unsigned reg, unsigned i) { return 0xc0de0000u + reg * 0x100u + i; }
static void old_regs(xrun *t) {
  for (unsigned r = 0; r < 8; r++)
    for (unsigned i = 0; i < 32; i++) t->v[r][i] = old_lane(r, i);
}
static xrun run32(void) {
  xrun t = {0};
  t.vec = true;
  t.numt = 32;
  old_regs(&t);
  return t;
}
static uint32_t word_at(xrun *t, uint32_t addr) { return rd32(t->dev, addr); }
/* lw t3, 0(reg): puts the page in the warp's translation cache (the fast
 * path needs it there) */
static void touch(xrun *t, unsigned reg) { xr_op(t, enc(VT_INSN_LW, T3, 0, (int)reg)); }

/* vle32.v / vse32.v under v0.t: active lanes move, the others keep their
 * register value and their memory bytes */
TEST(unit_stride_masked) {
  const uint32_t m = 0xa5a5f00fu;
  xrun t = run32();
  t.keep_dev = true;
  t.v[0][0] = m;
  poke_words(&t, DATA, 32);
  t.x[A0] = DATA;
  t.x[A1] = DST;
  touch(&t, A0);
  touch(&t, A1);
  xr_op(&t, enc(VT_INSN_VLE32, 1, A0, 0)); /* vle32.v v1, (a0), v0.t */
  xr_op(&t, enc(VT_INSN_VSE32, 2, A1, 0)); /* vse32.v v2, (a1), v0.t */
  xr_run(&t);
  XR_OK(st, &t);
  for (unsigned i = 0; i < 32; i++) {
    bool on = (m >> i) & 1;
    CHECK_EQ_U32(st, t.vout[1][i], on ? data_word(i) : old_lane(1, i));
    if (t.dev) CHECK_EQ_U32(st, word_at(&t, DST + 4 * i), on ? old_lane(2, i) : 0);
  }
  vt_device_free(t.dev);
}

/* vle8.v at SEW 32: element i is byte i of the register (lanes 0..7 hold
 * the 32 bytes); vl = 32 elements, the other lanes unchanged */
TEST(unit_stride_bytes) {
  xrun t = run32();
  poke_words(&t, DATA, 8);
  t.x[A0] = DATA;
  touch(&t, A0);
  xr_op(&t, enc(VT_INSN_VLE8, 3, A0, 1));
  xr_run(&t);
  XR_OK(st, &t);
  for (unsigned i = 0; i < 32; i++)
    CHECK_EQ_U32(st, t.vout[3][i], i < 8 ? data_word(i) : old_lane(3, i));
}

/* 32 words from 64 bytes below a page boundary: two pages */
TEST(unit_stride_across_pages) {
  xrun t = run32();
  t.keep_dev = true;
  poke_words(&t, EDGE - 64, 32);
  t.x[A0] = EDGE - 64;
  t.x[A1] = EDGE - 32;
  t.x[A2] = EDGE;
  touch(&t, A0);
  touch(&t, A2);
  xr_op(&t, enc(VT_INSN_VLE32, 4, A0, 1));
  xr_op(&t, enc(VT_INSN_VSE32, 5, A1, 1));
  xr_run(&t);
  XR_OK(st, &t);
  for (unsigned i = 0; i < 32; i++) {
    CHECK_EQ_U32(st, t.vout[4][i], data_word(i));
    if (t.dev) CHECK_EQ_U32(st, word_at(&t, EDGE - 32 + 4 * i), old_lane(5, i));
  }
  vt_device_free(t.dev);
}

/* the errors are the per-lane path's: the first failing lane's address */
TEST(unit_stride_faults) {
  xrun t = run32();
  t.x[A0] = DATA + 2;
  xr_op(&t, enc(VT_INSN_VLE32, 1, A0, 1));
  xr_run(&t);
  char want[96];
  snprintf(want, sizeof want, "misaligned 4-byte load at 0x%08x", DATA + 2);
  XR_ERROR(st, &t, VT_ERR_MISALIGNED, 0, want);
  /* the output buffer ends at OUT_BASE + OUT_SIZE: lane 16 is past it */
  xrun u = run32();
  u.x[A1] = OUT_BASE + OUT_SIZE - 64;
  touch(&u, A1);
  xr_op(&u, enc(VT_INSN_VSE32, 1, A1, 1));
  xr_run(&u);
  snprintf(want, sizeof want, "store of unmapped address 0x%08x", OUT_BASE + OUT_SIZE);
  XR_ERROR(st, &u, VT_ERR_ACCESS, 1, want);
  /* vle32ff.v: lanes 0..15 load, vl becomes 16 */
  xrun f = run32();
  f.x[A0] = OUT_BASE + OUT_SIZE - 64;
  touch(&f, A0);
  xr_op(&f, enc(VT_INSN_VLE32FF, 6, A0, 1));
  xr_op(&f, enc(VT_INSN_CSRRS, A2, 0xc20, ZERO)); /* csrr a2, vl */
  xr_run(&f);
  XR_OK(st, &f);
  CHECK_EQ_U32(st, f.out[A2], 16);
}

/* flat loads (vs1[i] + imm) in reverse lane order inside one page */
TEST(flat_loads_one_page) {
  xrun t = run32();
  poke_words(&t, DATA, 32);
  for (unsigned i = 0; i < 32; i++) {
    t.v[1][i] = DATA + 4 * (31 - i) - 8; /* word 31 - i with imm 8 */
    t.v[2][i] = DATA + 2 * i;            /* halfword i */
  }
  t.x[A0] = DATA;
  touch(&t, A0);
  xr_op(&t, enc(VT_INSN_VLW12_V, 3, 8, 1));
  xr_op(&t, enc(VT_INSN_VLH12_V, 4, 0, 2));
  xr_op(&t, enc(VT_INSN_VLBU12_V, 5, 3, 2)); /* byte 2i + 3 */
  xr_run(&t);
  XR_OK(st, &t);
  for (unsigned i = 0; i < 32; i++) {
    uint32_t w = data_word(i / 2), h = (i & 1) ? w >> 16 : w & 0xffffu;
    uint32_t b = data_word((2 * i + 3) / 4) >> (8 * ((2 * i + 3) % 4)) & 0xffu;
    CHECK_EQ_U32(st, t.vout[3][i], data_word(31 - i));
    CHECK_EQ_U32(st, t.vout[4][i], (h & 0x8000u) ? h | 0xffff0000u : h);
    CHECK_EQ_U32(st, t.vout[5][i], b);
  }
}

/* consecutive flat words (vs1[i] = base + 4 i) move as one block: 20
 * lanes (vl = 20) loaded, 7 lanes (vl = 7) stored; the lanes past vl and
 * the word after the block keep their values */
TEST(flat_consecutive_runs) {
  xrun t = run32();
  t.avl = 20;
  poke_words(&t, DATA, 32);
  for (unsigned i = 0; i < 32; i++) t.v[1][i] = DATA + 4 * i;
  t.x[A0] = DATA;
  touch(&t, A0);
  xr_op(&t, enc(VT_INSN_VLW12_V, 3, 0, 1));
  xr_run(&t);
  XR_OK(st, &t);
  for (unsigned i = 0; i < 32; i++)
    CHECK_EQ_U32(st, t.vout[3][i], i < 20 ? data_word(i) : old_lane(3, i));
  xrun u = run32();
  u.avl = 7;
  u.keep_dev = true;
  for (unsigned i = 0; i < 32; i++) u.v[1][i] = DST + 4 * i;
  u.x[A0] = DST;
  touch(&u, A0);
  xr_op(&u, enc(VT_INSN_VSW12_V, 2, 0, 1));
  xr_run(&u);
  XR_OK(st, &u);
  for (unsigned i = 0; i < 8 && u.dev; i++)
    CHECK_EQ_U32(st, word_at(&u, DST + 4 * i), i < 7 ? old_lane(2, i) : 0);
  vt_device_free(u.dev);
}

/* every lane stores to one word: lanes run in order, lane 31 wins; a
 * halfword store leaves the word's other half */
TEST(flat_stores_collide) {
  xrun t = run32();
  t.keep_dev = true;
  xr_poke(&t, DST, 0x11223344u);
  for (unsigned i = 0; i < 32; i++) t.v[1][i] = DST;
  t.x[A0] = DST;
  touch(&t, A0);
  xr_op(&t, enc(VT_INSN_VSH12_V, 2, 2, 1)); /* vsh12.v v2, 2(v1) */
  xr_run(&t);
  XR_OK(st, &t);
  if (t.dev) CHECK_EQ_U32(st, word_at(&t, DST), (old_lane(2, 31) << 16) | 0x3344u);
  if (t.dev) CHECK_EQ_U32(st, word_at(&t, DST + 4), 0);
  vt_device_free(t.dev);
}

/* with a trace callback every lane's access is recorded (the per-lane
 * path); memory and registers as without */
typedef struct mem_count {
  unsigned max_nmem;
} mem_count;
static void count_mem(void *ctx, const vt_trace_event *ev) {
  mem_count *c = ctx;
  if (ev->nmem > c->max_nmem) c->max_nmem = ev->nmem;
}

TEST(traced_accesses_per_lane) {
  prog p = {0};
  vsetup(&p);
  li(&p, A0, DATA);
  li(&p, A1, DST);
  E(&p, VT_INSN_VLE32, 1, A0, 1);
  E(&p, VT_INSN_VADD_VV, 1, 1, 1, 1); /* v1 = 2 * v1 */
  E(&p, VT_INSN_VSE32, 1, A1, 1);
  emit(&p, WORD_ENDPRG);
  vt_device *dev = vt_device_new(NULL);
  CHECK(st, dev != NULL);
  if (!dev) return;
  mem_count c = {0};
  vt_device_set_trace(dev, count_mem, &c);
  vt_error e;
  CHECK_EQ_U32(st, load_prog(dev, &p), VT_OK);
  for (uint32_t k = 0; k < 32; k++) {
    uint32_t v = data_word(k);
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    CHECK_EQ_U32(st, vt_mem_write(dev, DATA + 4 * k, b, 4, &e), VT_OK);
  }
  vt_launch l = simple_launch(32, 1);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_OK);
  CHECK_EQ_U32(st, c.max_nmem, 32);
  for (uint32_t k = 0; k < 32; k++) CHECK_EQ_U32(st, rd32(dev, DST + 4 * k), 2 * data_word(k));
  vt_device_free(dev);
}

/* with the memory checker: a warp alternating between two allocations
 * (the checker's cached allocation follows the accesses), and a store
 * whose lanes 16..31 pass the end of a 64-byte allocation (the per-lane
 * path's message names the first such lane) */
static int run_checked(const prog *p, uint32_t dst_size, vt_device **out, vt_error *e) {
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.memcheck = true;
  vt_device *dev = vt_device_new(&cfg);
  if (!dev) return VT_ERR_NOMEM;
  int rc = load_prog(dev, p);
  if (rc == VT_OK) rc = vt_mem_label(dev, DATA, 128, "src", e);
  if (rc == VT_OK) rc = vt_mem_label(dev, DST, dst_size, "dst", e);
  for (uint32_t k = 0; k < 32 && rc == VT_OK; k++) {
    uint32_t v = data_word(k);
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    rc = vt_mem_write(dev, DATA + 4 * k, b, 4, e);
  }
  vt_launch l = simple_launch(32, 1);
  if (rc == VT_OK) rc = vt_device_run(dev, &l, NULL, e);
  *out = dev;
  return rc;
}

TEST(memcheck_allocations) {
  prog p = {0};
  vsetup(&p);
  li(&p, A0, DATA);
  li(&p, A1, DST);
  E(&p, VT_INSN_VLE32, 1, A0, 1); /* first touches: the per-lane path */
  E(&p, VT_INSN_VSE32, 1, A1, 1);
  E(&p, VT_INSN_VLE32, 1, A0, 1); /* cached pages, the other allocation */
  E(&p, VT_INSN_VADD_VV, 1, 1, 1, 1);
  E(&p, VT_INSN_VSE32, 1, A1, 1);
  emit(&p, WORD_ENDPRG);
  vt_device *dev = NULL;
  vt_error e;
  CHECK_EQ_U32(st, run_checked(&p, 128, &dev, &e), VT_OK);
  for (uint32_t k = 0; k < 32 && dev; k++) CHECK_EQ_U32(st, rd32(dev, DST + 4 * k), 2 * data_word(k));
  vt_device_free(dev);
  prog q = {0};
  vsetup(&q);
  li(&q, A1, DST);
  E(&q, VT_INSN_LW, T3, 0, A1); /* caches the page */
  unsigned at = E(&q, VT_INSN_VSE32, 1, A1, 1);
  emit(&q, WORD_ENDPRG);
  CHECK_EQ_U32(st, run_checked(&q, 64, &dev, &e), VT_ERR_ACCESS);
  CHECK_EQ_U32(st, e.pc, prog_addr(at));
  char want[128];
  snprintf(want, sizeof want,
           "memcheck: 4-byte store at 0x%08x (lane 16) is outside every allocation: 0 bytes past "
           "the end of dst",
           DST + 64);
  CHECK(st, strstr(e.message, want) != NULL);
  if (!strstr(e.message, want)) fprintf(stderr, "message: %s\n", e.message);
  vt_device_free(dev);
}

RUN_TESTS(T(unit_stride_masked), T(unit_stride_bytes), T(unit_stride_across_pages),
          T(unit_stride_faults), T(flat_loads_one_page), T(flat_consecutive_runs),
          T(flat_stores_collide),
          T(traced_accesses_per_lane), T(memcheck_allocations))
