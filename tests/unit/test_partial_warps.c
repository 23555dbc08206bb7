/* Workgroups whose size is not a multiple of the warp width: the lanes of
 * the last warp past the workgroup's work-items start inactive, so nothing
 * is written past the NDRange (issue 10). A kernel writes its global linear
 * id to out[id]; the buffer has three NDRanges' worth of guard words after
 * the end, which must keep their pattern. Through the runtime (the driver
 * derives the count from the KNL buffer), with the timing model (its own
 * workgroup creation), through a test vector (vt_testvec_apply), and the
 * pieces: vt_knl_wg_threads and the launch check. */
#include <stdlib.h>

#include "check.h"
#include "vt/asm.h"
#include "vt/knl.h"
#include "vt/testvec.h"
#include "vt_runtime.h"

#define GUARD 0xa5a5a5a5u

/* gidw(out): out[linear global id] = linear global id, ids computed as the
 * official work-item library does for 2-D/3-D (lid = TID + lane, split by
 * the local sizes), without a bounds test: a lane past the workgroup gets
 * a local z id >= lz and lands past the NDRange. */
static const char GIDW[] =
    "    .text\n    .globl gidw\n    .type gidw, @function\n"
    "gidw:\n"
    "    lw      a1, 0(a0)\n"
    "    csrr    t0, CSR_KNL\n"
    "    lw      s1, 24(t0)\n"
    "    lw      s2, 28(t0)\n"
    "    lw      s3, 32(t0)\n"
    "    mul     s4, s1, s2\n"
    "    csrr    t1, CSR_TID\n"
    "    vid.v   v1\n"
    "    vadd.vx v1, v1, t1\n"
    "    vremu.vx v3, v1, s1\n"
    "    vdivu.vx v4, v1, s1\n"
    "    vremu.vx v4, v4, s2\n"
    "    vdivu.vx v5, v1, s4\n"
    "    csrr    t2, CSR_GIDX\n"
    "    mul     t5, t2, s1\n"
    "    vadd.vx v6, v3, t5\n"
    "    csrr    t3, CSR_GIDY\n"
    "    mul     t5, t3, s2\n"
    "    vadd.vx v7, v4, t5\n"
    "    csrr    t4, CSR_GIDZ\n"
    "    mul     t5, t4, s3\n"
    "    vadd.vx v8, v5, t5\n"
    "    lw      s6, 12(t0)\n"
    "    lw      s7, 16(t0)\n"
    "    vmul.vx v9, v8, s7\n"
    "    vadd.vv v9, v9, v7\n"
    "    vmul.vx v9, v9, s6\n"
    "    vadd.vv v9, v9, v6\n"
    "    vsll.vi v10, v9, 2\n"
    "    vadd.vx v10, v10, a1\n"
    "    vsw12.v v9, 0(v10)\n"
    "    ret\n"
    "    .size gidw, . - gidw\n";

static uint8_t *gidw_image(size_t *size) {
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *elf = NULL;
  if (!as) return NULL;
  if (vt_asm_add_file(as, VT_SOURCE_DIR "/examples/kernels/crt0.s") ||
      vt_asm_add_source(as, "gidw.s", GIDW, strlen(GIDW)) || vt_asm_link(as, &elf, size) != 0) {
    fprintf(stderr, "assembling: %s\n", vt_asm_errors(as));
    elf = NULL;
  }
  vt_asm_free(as);
  return elf;
}

typedef struct shape {
  unsigned dims;
  uint32_t global[3], local[3];
  unsigned threads;
  unsigned warps; /* expected: ceil(local items / threads) */
} shape;

/* one launch of gidw; every word below N holds its index, every guard word
 * its pattern */
static void run_shape(check_state *st, const shape *s, vt_device_h dev) {
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.threads_per_warp = s->threads;
  o.device = dev;
  vt_rt *rt = NULL;
  char msg[256];
  if (vt_rt_create(&o, &rt, msg, sizeof msg) != 0) {
    fprintf(stderr, "vt_rt_create: %s\n", msg);
    CHECK(st, 0);
    return;
  }
  size_t size = 0;
  uint8_t *img = gidw_image(&size);
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  CHECK(st, img && vt_rt_program_load_mem(rt, img, size, "gidw", &p) == 0);
  if (p) CHECK(st, vt_rt_kernel_create(p, "gidw", &k) == 0);
  uint32_t n = 1;
  for (unsigned d = 0; d < s->dims; d++) n *= s->global[d];
  uint32_t words = 4 * n, out = 0;
  uint32_t *host = malloc(4u * words);
  for (uint32_t i = 0; i < words; i++) host[i] = GUARD;
  if (k && host && vt_rt_alloc(rt, 4u * words, &out) == 0 &&
      vt_rt_write(rt, out, host, 4u * words) == 0 && vt_rt_set_arg_buffer(k, 0, out, 0) == 0) {
    vt_rt_ndrange nd = {.dims = s->dims};
    memcpy(nd.global, s->global, sizeof nd.global);
    memcpy(nd.local, s->local, sizeof nd.local);
    vt_rt_launch_info info;
    int rc = vt_rt_launch(k, &nd, &info);
    if (rc) fprintf(stderr, "launch: %s\n", vt_rt_error(rt));
    CHECK(st, rc == 0);
    CHECK_EQ_U32(st, info.threads_per_warp, s->threads);
    CHECK_EQ_U32(st, info.warps_per_group, s->warps);
    CHECK(st, vt_rt_read(rt, out, host, 4u * words) == 0);
    unsigned bad = 0;
    for (uint32_t i = 0; i < words; i++) {
      uint32_t want = i < n ? i : GUARD;
      if (host[i] != want && bad++ < 4) {
        st->failed_checks++;
        fprintf(stderr, "global %u,%u,%u local %u,%u,%u T %u: word %u = 0x%08x, expected 0x%08x\n",
                s->global[0], s->global[1], s->global[2], s->local[0], s->local[1], s->local[2],
                s->threads, i, host[i], want);
      }
    }
  } else {
    CHECK(st, 0);
  }
  free(host);
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  free(img);
  vt_rt_destroy(rt);
}

static const shape SHAPES[] = {
    {1, {1000, 1, 1}, {250, 1, 1}, 8, 32},  /* 250 = 31 warps + 2 lanes */
    {1, {100, 1, 1}, {100, 1, 1}, 32, 4},   /* 100 = 3 warps + 4 lanes */
    {1, {21, 1, 1}, {7, 1, 1}, 4, 2},       /* 7 = 1 warp + 3 lanes */
    {2, {12, 10, 1}, {6, 5, 1}, 8, 4},      /* 30 = 3 warps + 6 lanes */
    {3, {6, 4, 6}, {3, 2, 3}, 4, 5},        /* 18 = 4 warps + 2 lanes */
    {3, {10, 3, 4}, {5, 3, 2}, 16, 2},      /* 30 = 1 warp + 14 lanes */
    {3, {4, 4, 4}, {2, 2, 2}, 1, 8},        /* one lane per warp: always full */
    {1, {64, 1, 1}, {32, 1, 1}, 8, 4},      /* a multiple: unchanged */
};

TEST(no_write_past_the_ndrange) {
  for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++) run_shape(st, &SHAPES[i], NULL);
}

/* the timing model creates its workgroups itself (src/timing/cta.c) */
TEST(no_write_past_the_ndrange_timing_model) {
  setenv("VT_TIMING", "1", 1);
  vt_device_h dev = NULL;
  int rc = vt_dev_open(&dev);
  unsetenv("VT_TIMING");
  CHECK(st, rc == 0);
  if (rc) return;
  run_shape(st, &SHAPES[0], dev);
  run_shape(st, &SHAPES[4], dev);
  vt_dev_close(dev);
}

TEST(work_items_from_the_knl_words) {
  uint8_t knl[64] = {0};
  uint32_t local[3] = {30, 1, 1};
  for (unsigned d = 0; d < 3; d++)
    for (unsigned b = 0; b < 4; b++) knl[24 + 4 * d + b] = (uint8_t)(local[d] >> (8 * b));
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 64, 8, 4), 30);      /* 3 warps + 6 lanes */
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 36, 8, 4), 30);
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 35, 8, 4), 0);       /* too short */
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 64, 32, 1), 30);
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 64, 8, 3), 0);       /* 30 > 24 lanes */
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 64, 4, 16), 0);      /* 30 needs 8 warps, not 16 */
  CHECK_EQ_U32(st, vt_knl_wg_threads(NULL, 64, 8, 4), 0);
  knl[28] = 2; /* 30 x 2 x 1 = 60 */
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 64, 16, 4), 60);
  knl[32] = 0; /* a zero size */
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 64, 16, 4), 0);
  /* 65536 x 65536 x 1 overflows 32 bits */
  memset(knl + 24, 0, 12);
  knl[26] = 1;
  knl[30] = 1;
  knl[32] = 1;
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 64, 32, 32), 0);
  /* the oldest vecadd.riscv test vector: local size written as 1 for
   * W = 2, T = 8 (formats-and-launch.md 10): not this launch's size */
  memset(knl + 24, 0, 12);
  knl[24] = knl[28] = knl[32] = 1;
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 64, 8, 2), 0);
  CHECK_EQ_U32(st, vt_knl_wg_threads(knl, 64, 8, 1), 1);
}

/* ---- a test vector built here: code, out (with guards), KNL ---- */

static const char *TV_CODE[] = {
    "addi t4, zero, 32",
    "vsetvli t4, t4, e32, m1, ta, ma",
    "csrr t0, knl",
    "lw a1, 4(t0)",
    "lw s1, 24(t0)",
    "csrr t2, gidx",
    "mul t2, t2, s1",
    "csrr t3, tid",
    "add t2, t2, t3",
    "vid.v v1",
    "vadd.vx v1, v1, t2",
    "vsll.vi v2, v1, 2",
    "vadd.vx v2, v2, a1",
    "vsw12.v v1, 0(v2)",
    "csrr t5, wid", /* vl of every warp into KNL word 20 + wid */
    "slli t5, t5, 2",
    "add t5, t5, t0",
    "csrr t6, 0xc20",
    "sw t6, 80(t5)",
    "endprg x0, x0, x0",
};

#define TV_T 8
#define TV_W 4
#define TV_L 30 /* 3 warps + 6 lanes */
#define TV_G 2
#define TV_N (TV_L * TV_G)
#define TV_OUT_WORDS (2 * TV_N)

static void hex64(char **p, uint64_t v) {
  *p += sprintf(*p, "%08x\n%08x\n", (unsigned)(v & 0xffffffffu), (unsigned)(v >> 32));
}

/* current layout (formats-and-launch.md 2.2): start pc, the twelve
 * descriptor fields, N, bases, sizes, allocation sizes */
static int build_testvec(uint32_t local_x, char *meta, char *data) {
  uint32_t code[32];
  unsigned nc = sizeof TV_CODE / sizeof TV_CODE[0];
  for (unsigned i = 0; i < nc; i++) {
    char err[128];
    if (vt_asm_one(TV_CODE[i], 0x80000000u + 4 * i, &code[i], err, sizeof err) != 0) {
      fprintf(stderr, "%s: %s\n", TV_CODE[i], err);
      return -1;
    }
  }
  uint32_t knl[32] = {0x80000000u, 0x90000000u, 1, TV_N, 1, 1, local_x, 1, 1};
  char *m = meta;
  uint64_t head[13] = {0x80000000u, 0, TV_G, 1, 1, TV_T, TV_W, 0x90001000u, 0x1000, 0, 64, 64, 0};
  for (int i = 0; i < 13; i++) hex64(&m, head[i]);
  uint64_t bases[3] = {0x80000000u, 0x90000000u, 0x90001000u};
  uint64_t sizes[3] = {4u * nc, 4u * TV_OUT_WORDS, sizeof knl};
  hex64(&m, 3);
  for (int i = 0; i < 3; i++) hex64(&m, bases[i]);
  for (int i = 0; i < 3; i++) hex64(&m, sizes[i]);
  for (int i = 0; i < 3; i++) hex64(&m, 0x1000);
  char *d = data;
  for (unsigned i = 0; i < nc; i++) d += sprintf(d, "%08x\n", code[i]);
  for (unsigned i = 0; i < TV_OUT_WORDS; i++) d += sprintf(d, "%08x\n", GUARD);
  for (unsigned i = 0; i < 32; i++) d += sprintf(d, "%08x\n", knl[i]);
  return 0;
}

static void run_testvec(check_state *st, uint32_t local_x, uint32_t want_wg_threads,
                        uint32_t want_written) {
  static char meta[4096], data[8192];
  if (build_testvec(local_x, meta, data) != 0) {
    CHECK(st, 0);
    return;
  }
  vt_testvec *tv = NULL;
  vt_error e;
  CHECK(st, vt_testvec_parse(meta, strlen(meta), "t.metadata", data, strlen(data), "t.data", &tv,
                             &e) == VT_OK);
  vt_device *dev = vt_device_new(NULL);
  vt_launch l;
  if (tv && dev && vt_testvec_apply(dev, tv, &l, &e) == VT_OK) {
    CHECK_EQ_U32(st, l.wg_threads, want_wg_threads);
    int rc = vt_device_run(dev, &l, NULL, &e);
    if (rc) fprintf(stderr, "run: %s\n", e.message);
    CHECK(st, rc == VT_OK);
    uint32_t out[TV_OUT_WORDS], vl[TV_W];
    CHECK(st, vt_mem_read(dev, 0x90000000u, out, sizeof out, &e) == VT_OK);
    for (uint32_t i = 0; i < TV_OUT_WORDS; i++) CHECK_EQ_U32(st, out[i], i < want_written ? i : GUARD);
    /* vl is T in every warp, the partial one included (lane_limit unchanged) */
    CHECK(st, vt_mem_read(dev, 0x90001000u + 80, vl, sizeof vl, &e) == VT_OK);
    for (unsigned w = 0; w < TV_W; w++) CHECK_EQ_U32(st, vl[w], TV_T);
  } else {
    CHECK(st, 0);
  }
  vt_device_free(dev);
  vt_testvec_free(tv);
}

TEST(test_vector_with_partial_last_warp) {
  run_testvec(st, TV_L, TV_L, TV_N);
}

/* local sizes that do not fit the launch (here 1 for 4 warps of 8, as in
 * the oldest vecadd.riscv): every lane runs, as before; with local 1 the
 * kernel's ids are lane + TID + 1 x GIDX, so it writes words 0..32 */
TEST(test_vector_with_unusable_local_sizes) {
  run_testvec(st, 1, 0, TV_W * TV_T + 1);
}

TEST(launch_check_rejects_inconsistent_counts) {
  vt_device *dev = vt_device_new(NULL);
  if (!dev) {
    CHECK(st, 0);
    return;
  }
  vt_error e;
  vt_launch l = {.start_pc = 0x80000000u, .num_wg = {1, 1, 1}, .threads_per_warp = 8,
                 .warps_per_wg = 4, .wg_threads = 24};
  CHECK(st, vt_device_run(dev, &l, NULL, &e) == VT_ERR_CONFIG);
  CHECK_STR(st, e.message, "24 work-items per workgroup do not need 4 warps of 8 threads");
  l.wg_threads = 33;
  CHECK(st, vt_device_run(dev, &l, NULL, &e) == VT_ERR_CONFIG);
  vt_device_free(dev);
}

RUN_TESTS(T(no_write_past_the_ndrange), T(no_write_past_the_ndrange_timing_model),
          T(work_items_from_the_knl_words), T(test_vector_with_partial_last_warp),
          T(test_vector_with_unusable_local_sizes), T(launch_check_rejects_inconsistent_counts))
