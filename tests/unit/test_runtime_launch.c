/* Runtime launches: 1-D/2-D/3-D NDRanges with offsets and local sizes (the
 * ids kernel writes each work-item's ids, compared with a C computation),
 * the default local size, threads per warp, the KNL buffer, __local
 * arguments (addresses, ldsSize, use with barriers), several kernels of one
 * program, two programs, sequences sharing buffers, loading from a file. */
#include <stdint.h>

#include "check.h"
#include "rt_test_util.h"

typedef struct fixture {
  vt_rt *rt;
  vt_rt_program *p;
  uint8_t *img;
  size_t size;
} fixture;

static int setup_opts(check_state *st, fixture *f, const vt_rt_options *o) {
  memset(f, 0, sizeof *f);
  f->img = rt_test_image(&f->size);
  char msg[256];
  CHECK(st, f->img != NULL);
  if (!f->img) return -1;
  int rc = vt_rt_create(o, &f->rt, msg, sizeof msg);
  if (rc) fprintf(stderr, "setup: %s\n", msg);
  if (rc == 0) rc = vt_rt_program_load_mem(f->rt, f->img, f->size, "test", &f->p);
  CHECK(st, rc == 0);
  return rc;
}

static int setup(check_state *st, fixture *f) { return setup_opts(st, f, NULL); }

static void teardown(fixture *f) {
  vt_rt_program_free(f->p);
  vt_rt_destroy(f->rt);
  free(f->img);
}

static vt_rt_kernel *kernel(check_state *st, fixture *f, const char *name) {
  vt_rt_kernel *k = NULL;
  if (vt_rt_kernel_create(f->p, name, &k) != 0) fprintf(stderr, "%s\n", vt_rt_error(f->rt));
  CHECK(st, k != NULL);
  return k;
}

/* run ids over nd and compare every record */
static void check_ids(check_state *st, fixture *f, const vt_rt_ndrange *nd,
                      vt_rt_launch_info *info_out) {
  vt_rt_kernel *k = kernel(st, f, "ids");
  if (!k) return;
  uint32_t g[3] = {1, 1, 1}, off[3] = {0, 0, 0};
  for (unsigned d = 0; d < nd->dims; d++) {
    g[d] = nd->global[d];
    off[d] = nd->offset[d];
  }
  uint32_t items = g[0] * g[1] * g[2];
  uint32_t out = 0;
  uint32_t *rec = malloc(48u * items);
  CHECK(st, vt_rt_alloc(f->rt, 48u * items, &out) == 0);
  CHECK(st, vt_rt_set_arg_buffer(k, 0, out, 0) == 0);
  vt_rt_launch_info info;
  int rc = vt_rt_launch(k, nd, &info);
  if (rc) fprintf(stderr, "launch: %s\n", vt_rt_error(f->rt));
  CHECK(st, rc == 0);
  CHECK(st, vt_rt_read(f->rt, out, rec, 48u * items) == 0);
  unsigned bad = 0;
  for (uint32_t z = 0; z < g[2]; z++)
    for (uint32_t y = 0; y < g[1]; y++)
      for (uint32_t x = 0; x < g[0]; x++) {
        const uint32_t *r = rec + 12 * ((z * g[1] + y) * g[0] + x);
        uint32_t want[12] = {x + off[0],           y + off[1],           z + off[2],
                             x % info.local[0],    y % info.local[1],    z % info.local[2],
                             x / info.local[0],    y / info.local[1],    z / info.local[2],
                             nd->dims,             info.warps_per_group, info.threads_per_warp};
        if (memcmp(r, want, sizeof want) != 0 && bad++ < 3) {
          st->failed_checks++;
          fprintf(stderr, "item (%u,%u,%u):", x, y, z);
          for (int i = 0; i < 12; i++) fprintf(stderr, " %u/%u", r[i], want[i]);
          fprintf(stderr, " (got/want)\n");
        }
      }
  /* KNL contents */
  uint32_t knl[17];
  CHECK(st, vt_rt_read(f->rt, info.knl_addr, knl, sizeof knl) == 0);
  CHECK_EQ_U32(st, knl[0], vt_rt_kernel_entry(k));
  CHECK_EQ_U32(st, knl[1], info.args_addr);
  CHECK_EQ_U32(st, knl[2], nd->dims);
  for (int d = 0; d < 3; d++) {
    CHECK_EQ_U32(st, knl[3 + d], g[d]);
    CHECK_EQ_U32(st, knl[6 + d], info.local[d]);
    CHECK_EQ_U32(st, knl[9 + d], off[d]);
  }
  CHECK_EQ_U32(st, knl[12], info.print_addr);
  CHECK_EQ_U32(st, knl[13], info.print_size);
  CHECK_EQ_U32(st, knl[14], 1024);
  CHECK_EQ_U32(st, knl[15], info.lds_size - 1024 * info.warps_per_group);
  CHECK_EQ_U32(st, knl[16], info.private_per_thread);
  CHECK_EQ_U32(st, info.pds_bytes, info.private_per_thread * info.threads_per_warp *
                                       info.warps_per_group * info.groups[0] * info.groups[1] *
                                       info.groups[2]);
  if (info_out) *info_out = info;
  free(rec);
  vt_rt_kernel_free(k);
}

TEST(one_dimension) {
  fixture f;
  if (setup(st, &f)) return;
  vt_rt_launch_info info;
  vt_rt_ndrange a = {.dims = 1, .global = {40}, .local = {8}, .offset = {5}};
  check_ids(st, &f, &a, &info);
  CHECK_EQ_U32(st, info.groups[0], 5);
  CHECK_EQ_U32(st, info.threads_per_warp, 8);
  CHECK_EQ_U32(st, info.warps_per_group, 1);
  vt_rt_ndrange b = {.dims = 1, .global = {96}, .local = {48}};
  check_ids(st, &f, &b, &info); /* 48 items: 2 warps of 32, 16 idle lanes */
  CHECK_EQ_U32(st, info.threads_per_warp, 32);
  CHECK_EQ_U32(st, info.warps_per_group, 2);
  vt_rt_ndrange c = {.dims = 1, .global = {3}, .local = {3}, .offset = {1000}};
  check_ids(st, &f, &c, &info);
  CHECK_EQ_U32(st, info.threads_per_warp, 4);
  teardown(&f);
}

TEST(two_dimensions) {
  fixture f;
  if (setup(st, &f)) return;
  vt_rt_launch_info info;
  vt_rt_ndrange a = {.dims = 2, .global = {12, 6}, .local = {4, 3}, .offset = {1, 2}};
  check_ids(st, &f, &a, &info);
  CHECK_EQ_U32(st, info.groups[0], 3);
  CHECK_EQ_U32(st, info.groups[1], 2);
  CHECK_EQ_U32(st, info.threads_per_warp, 16);
  vt_rt_ndrange b = {.dims = 2, .global = {64, 16}, .local = {16, 4}};
  check_ids(st, &f, &b, &info);
  CHECK_EQ_U32(st, info.warps_per_group, 2);
  vt_rt_ndrange c = {.dims = 2, .global = {10, 10}}; /* default local size */
  check_ids(st, &f, &c, NULL);
  teardown(&f);
}

TEST(three_dimensions) {
  fixture f;
  if (setup(st, &f)) return;
  vt_rt_launch_info info;
  vt_rt_ndrange a = {.dims = 3, .global = {4, 6, 4}, .local = {2, 3, 2}, .offset = {7, 0, 3}};
  check_ids(st, &f, &a, &info);
  CHECK_EQ_U32(st, info.groups[2], 2);
  vt_rt_ndrange b = {.dims = 3, .global = {8, 8, 8}, .local = {4, 4, 4}, .offset = {1, 1, 1}};
  check_ids(st, &f, &b, &info);
  CHECK_EQ_U32(st, info.warps_per_group, 2);
  vt_rt_ndrange c = {.dims = 3, .global = {5, 3, 7}};
  check_ids(st, &f, &c, NULL);
  teardown(&f);
}

TEST(threads_per_warp_option) {
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.threads_per_warp = 4;
  fixture f;
  if (setup_opts(st, &f, &o)) return;
  vt_rt_launch_info info;
  vt_rt_ndrange a = {.dims = 2, .global = {8, 8}, .local = {4, 4}, .offset = {3, 0}};
  check_ids(st, &f, &a, &info);
  CHECK_EQ_U32(st, info.threads_per_warp, 4);
  CHECK_EQ_U32(st, info.warps_per_group, 4);
  teardown(&f);
}

TEST(default_local_size) {
  fixture f;
  if (setup(st, &f)) return;
  vt_rt_kernel *k = kernel(st, &f, "nop");
  if (!k) return;
  struct {
    unsigned dims;
    uint32_t g[3], l[3];
    unsigned t, w;
  } cases[] = {
      {1, {1000, 0, 0}, {250, 1, 1}, 32, 8}, /* largest divisor <= 32 * 8 warp slots */
      {1, {1009, 0, 0}, {1, 1, 1}, 1, 1},    /* a prime */
      {1, {6, 0, 0}, {6, 1, 1}, 8, 1},
      {2, {64, 64, 0}, {64, 4, 1}, 32, 8},
      {3, {3, 5, 7}, {3, 5, 7}, 32, 4},
      {1, {4096, 0, 0}, {256, 1, 1}, 32, 8},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    vt_rt_ndrange nd = {.dims = cases[i].dims};
    memcpy(nd.global, cases[i].g, sizeof nd.global);
    vt_rt_launch_info info;
    CHECK(st, vt_rt_plan(k, &nd, &info) == 0);
    for (int d = 0; d < 3; d++) CHECK_EQ_U32(st, info.local[d], cases[i].l[d]);
    CHECK_EQ_U32(st, info.threads_per_warp, cases[i].t);
    CHECK_EQ_U32(st, info.warps_per_group, cases[i].w);
  }
  vt_rt_kernel_free(k);
  teardown(&f);
}

TEST(local_arguments) {
  fixture f;
  if (setup(st, &f)) return;
  vt_rt_kernel *k = kernel(st, &f, "localptrs");
  if (!k) return;
  uint32_t out = 0, x = 0xabcd1234;
  CHECK(st, vt_rt_alloc(f.rt, 64, &out) == 0);
  CHECK(st, vt_rt_set_arg_buffer(k, 0, out, 0) == 0);
  CHECK(st, vt_rt_set_arg_local(k, 1, 100) == 0);
  CHECK(st, vt_rt_set_arg_scalar(k, 2, &x, 4) == 0);
  CHECK(st, vt_rt_set_arg_local(k, 3, 40) == 0);
  vt_rt_ndrange nd = {.dims = 1, .global = {64}, .local = {64}}; /* 2 warps */
  vt_rt_launch_info info;
  CHECK(st, vt_rt_launch(k, &nd, &info) == 0);
  uint32_t w[5];
  CHECK(st, vt_rt_read(f.rt, out, w, sizeof w) == 0);
  uint32_t s0 = 0x70000000u + 1024 * 2;
  CHECK_EQ_U32(st, w[2], s0);                 /* crt0's __local base */
  CHECK_EQ_U32(st, w[0], s0);                 /* first local argument (no static data) */
  CHECK_EQ_U32(st, w[1], s0 + 128);           /* next, 128-byte aligned */
  CHECK_EQ_U32(st, w[3], x);
  CHECK_EQ_U32(st, w[4], x);                  /* written and read back through it */
  CHECK_EQ_U32(st, info.local_args_base, s0);
  CHECK_EQ_U32(st, info.lds_size, 2048 + 128 + 40);
  /* static __local data moves the arguments behind it */
  CHECK(st, vt_rt_kernel_set_static_local(k, 300) == 0);
  CHECK(st, vt_rt_launch(k, &nd, &info) == 0);
  CHECK(st, vt_rt_read(f.rt, out, w, sizeof w) == 0);
  CHECK_EQ_U32(st, w[0], s0 + 384);
  CHECK_EQ_U32(st, w[1], s0 + 512);
  CHECK_EQ_U32(st, info.lds_size, 2048 + 512 + 40);
  uint32_t knl[17];
  CHECK(st, vt_rt_read(f.rt, info.knl_addr, knl, sizeof knl) == 0);
  CHECK_EQ_U32(st, knl[15], 512 + 40);
  CHECK(st, w[0] >= 0x70000000u && w[1] < 0x80000000u);
  vt_rt_kernel_free(k);
  teardown(&f);
}

TEST(local_memory_with_barrier) {
  fixture f;
  if (setup(st, &f)) return;
  vt_rt_kernel *k = kernel(st, &f, "lrev");
  if (!k) return;
  enum { N = 512, L = 128 };
  uint32_t in[N], out[N], din = 0, dout = 0;
  for (int i = 0; i < N; i++) in[i] = (uint32_t)i * 7919u;
  CHECK(st, vt_rt_alloc(f.rt, sizeof in, &din) == 0 && vt_rt_alloc(f.rt, sizeof out, &dout) == 0);
  CHECK(st, vt_rt_write(f.rt, din, in, sizeof in) == 0);
  CHECK(st, vt_rt_set_arg_buffer(k, 0, din, 0) == 0 && vt_rt_set_arg_buffer(k, 1, dout, 0) == 0);
  CHECK(st, vt_rt_set_arg_local(k, 2, 4 * L) == 0);
  vt_rt_ndrange nd = {.dims = 1, .global = {N}, .local = {L}};
  vt_rt_launch_info info;
  CHECK(st, vt_rt_launch(k, &nd, &info) == 0);
  CHECK_EQ_U32(st, info.warps_per_group, 4);
  CHECK(st, vt_rt_read(f.rt, dout, out, sizeof out) == 0);
  for (int i = 0; i < N; i++) {
    int g = i / L * L, l = i % L;
    if (out[i] != in[g + L - 1 - l]) {
      st->failed_checks++;
      fprintf(stderr, "out[%d] = %u, expected %u\n", i, out[i], in[g + L - 1 - l]);
      break;
    }
  }
  vt_rt_kernel_free(k);
  teardown(&f);
}

TEST(sequence_sharing_buffers) {
  fixture f;
  if (setup(st, &f)) return;
  vt_rt_kernel *add = kernel(st, &f, "addone"), *mul = kernel(st, &f, "scale");
  if (!add || !mul) return;
  enum { N = 256 };
  int32_t v[N], r[N];
  uint32_t buf = 0;
  for (int i = 0; i < N; i++) v[i] = i - 100;
  CHECK(st, vt_rt_alloc(f.rt, sizeof v, &buf) == 0 && vt_rt_write(f.rt, buf, v, sizeof v) == 0);
  int32_t three = 3, minus = -2;
  CHECK(st, vt_rt_set_arg_buffer(add, 0, buf, 0) == 0);
  CHECK(st, vt_rt_set_arg_buffer(mul, 0, buf, 0) == 0);
  vt_rt_ndrange nd = {.dims = 1, .global = {N}, .local = {64}};
  CHECK(st, vt_rt_set_arg_scalar(mul, 1, &three, 4) == 0);
  CHECK(st, vt_rt_launch(add, &nd, NULL) == 0);
  CHECK(st, vt_rt_launch(mul, &nd, NULL) == 0);
  CHECK(st, vt_rt_launch(add, &nd, NULL) == 0);
  CHECK(st, vt_rt_set_arg_scalar(mul, 1, &minus, 4) == 0);
  CHECK(st, vt_rt_launch(mul, &nd, NULL) == 0);
  CHECK(st, vt_rt_read(f.rt, buf, r, sizeof r) == 0);
  for (int i = 0; i < N; i++) {
    int32_t want = ((v[i] + 1) * 3 + 1) * -2;
    if (r[i] != want) {
      st->failed_checks++;
      fprintf(stderr, "r[%d] = %d, expected %d\n", i, r[i], want);
      break;
    }
  }
  /* a sub-buffer: the second half only, through the argument offset */
  nd.global[0] = N / 2;
  CHECK(st, vt_rt_set_arg_buffer(add, 0, buf, 4 * N / 2) == 0);
  CHECK(st, vt_rt_launch(add, &nd, NULL) == 0);
  int32_t s[N];
  CHECK(st, vt_rt_read(f.rt, buf, s, sizeof s) == 0);
  for (int i = 0; i < N; i++) CHECK(st, s[i] == r[i] + (i >= N / 2));
  CHECK(st, vt_rt_counter(f.rt, VT_C_launches) == 5);
  CHECK(st, vt_rt_counter(f.rt, VT_C_warp_instructions) > 0);
  vt_rt_kernel_free(add);
  vt_rt_kernel_free(mul);
  teardown(&f);
}

/* two programs on one context: each launch uploads its own image */
TEST(two_programs_from_file_and_memory) {
  fixture f;
  if (setup(st, &f)) return;
  const char *path = VT_TEST_TMP "/rt_prog.elf";
  CHECK(st, rt_test_write_file(path, f.img, f.size) == 0);
  vt_rt_program *p2 = NULL;
  CHECK(st, vt_rt_program_load_file(f.rt, path, &p2) == 0);
  if (!p2) return;
  CHECK(st, vt_rt_program_kernel_count(p2) == vt_rt_program_kernel_count(f.p));
  vt_rt_kernel *a = kernel(st, &f, "addone"), *b = NULL;
  CHECK(st, vt_rt_kernel_create(p2, "scale", &b) == 0);
  uint32_t buf = 0;
  int32_t v[32], two = 2;
  for (int i = 0; i < 32; i++) v[i] = i;
  CHECK(st, vt_rt_alloc(f.rt, sizeof v, &buf) == 0 && vt_rt_write(f.rt, buf, v, sizeof v) == 0);
  vt_rt_set_arg_buffer(a, 0, buf, 0);
  vt_rt_set_arg_buffer(b, 0, buf, 0);
  vt_rt_set_arg_scalar(b, 1, &two, 4);
  vt_rt_ndrange nd = {.dims = 1, .global = {32}};
  CHECK(st, vt_rt_launch(a, &nd, NULL) == 0);
  CHECK(st, vt_rt_launch(b, &nd, NULL) == 0);
  CHECK(st, vt_rt_launch(a, &nd, NULL) == 0);
  CHECK(st, vt_rt_read(f.rt, buf, v, sizeof v) == 0);
  for (int i = 0; i < 32; i++) CHECK(st, v[i] == (i + 1) * 2 + 1);
  vt_rt_kernel_free(a);
  vt_rt_kernel_free(b);
  vt_rt_program_free(p2);
  teardown(&f);
}

/* the runtime on a device the caller opened */
TEST(callers_device) {
  vt_device_h dev;
  CHECK(st, vt_dev_open(&dev) == 0);
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.device = dev;
  fixture f;
  if (setup_opts(st, &f, &o)) return;
  vt_rt_ndrange nd = {.dims = 1, .global = {16}, .local = {8}, .offset = {2}};
  check_ids(st, &f, &nd, NULL);
  teardown(&f);
  /* the device is still open and usable */
  uint64_t a;
  CHECK(st, vt_buf_alloc(dev, 64, &a, READ_WRITE, 0, 0) == 0);
  CHECK(st, vt_dev_close(dev) == 0);
}

RUN_TESTS(T(one_dimension), T(two_dimensions), T(three_dimensions), T(threads_per_warp_option),
          T(default_local_size), T(local_arguments), T(local_memory_with_barrier),
          T(sequence_sharing_buffers), T(two_programs_from_file_and_memory), T(callers_device))
