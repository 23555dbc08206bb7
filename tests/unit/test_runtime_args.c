/* Runtime argument buffer (formats-and-launch.md 4): every by-value size
 * (1, 2, 4, 8, 12, 16, 32, 64 and more) in several orders with buffers and
 * __local arguments, checked byte for byte in device memory (vt_copy_from_dev
 * at the launch's argument buffer) and as the kernel sees it (argcopy). */
#include "check.h"
#include "rt_test_util.h"

typedef struct desc {
  char kind; /* 'b' buffer, 's' scalar, 'l' local */
  uint32_t size;
} desc;

typedef struct fixture {
  vt_rt *rt;
  vt_rt_program *p;
  vt_rt_kernel *k;
} fixture;

static int setup(check_state *st, fixture *f, const char *kernel) {
  memset(f, 0, sizeof *f);
  size_t n;
  uint8_t *img = rt_test_image(&n);
  char msg[256];
  CHECK(st, img != NULL);
  if (!img) return -1;
  int rc = vt_rt_create(NULL, &f->rt, msg, sizeof msg);
  CHECK(st, rc == 0);
  if (rc == 0) rc = vt_rt_program_load_mem(f->rt, img, n, "test", &f->p);
  if (rc == 0) rc = vt_rt_kernel_create(f->p, kernel, &f->k);
  free(img);
  if (rc) fprintf(stderr, "setup: %s\n", f->rt ? vt_rt_error(f->rt) : msg);
  CHECK(st, rc == 0);
  return rc;
}

static void teardown(fixture *f) {
  vt_rt_kernel_free(f->k);
  vt_rt_program_free(f->p);
  vt_rt_destroy(f->rt);
}

/* independent reference of the packing rule; local arguments get the
 * addresses in loc[] */
static uint32_t ref_pack(const desc *d, unsigned n, const uint32_t *vals, const uint32_t *loc,
                         uint8_t *out) {
  uint32_t off = 0;
  unsigned li = 0;
  memset(out, 0, 4096);
  for (unsigned i = 0; i < n; i++) {
    if (d[i].kind == 's') {
      uint32_t a = 4;
      while (a < d[i].size) a *= 2;
      off = (off + a - 1) / a * a;
      for (uint32_t b = 0; b < d[i].size; b++) out[off + b] = (uint8_t)(i * 16 + b + 1);
      off += d[i].size;
    } else {
      off = (off + 3) / 4 * 4;
      uint32_t v = d[i].kind == 'b' ? vals[i] : loc[li++];
      memcpy(out + off, &v, 4);
      off += 4;
    }
  }
  return off;
}

/* set the arguments of d (arg 0 is always a buffer 'out'), launch, compare */
static void run_case(check_state *st, const desc *d, unsigned n, const char *name) {
  fixture f;
  if (setup(st, &f, "argcopy")) return;
  uint32_t vals[32] = {0}, out = 0;
  uint8_t bytes[1024];
  CHECK(st, vt_rt_alloc(f.rt, 4096, &out) == 0);
  for (unsigned i = 0; i < n; i++) {
    int rc = 0;
    if (d[i].kind == 'b') {
      vals[i] = i == 0 ? out : 0x90000000u + 0x1000u * i + 4u * i;
      rc = i == 0 ? vt_rt_set_arg_buffer(f.k, i, out, 0)
                  : vt_rt_set_arg_buffer(f.k, i, 0x90000000u + 0x1000u * i, 4u * i);
    } else if (d[i].kind == 's') {
      for (uint32_t b = 0; b < d[i].size; b++) bytes[b] = (uint8_t)(i * 16 + b + 1);
      rc = vt_rt_set_arg_scalar(f.k, i, bytes, d[i].size);
    } else {
      rc = vt_rt_set_arg_local(f.k, i, d[i].size);
    }
    CHECK(st, rc == 0);
  }
  vt_rt_ndrange nd = {.dims = 1, .global = {4}};
  vt_rt_launch_info info;
  int rc = vt_rt_launch(f.k, &nd, &info);
  if (rc) fprintf(stderr, "%s: %s\n", name, vt_rt_error(f.rt));
  CHECK(st, rc == 0);
  /* local arguments: consecutive from local_args_base, 128-byte aligned */
  uint32_t loc[32], at = info.local_args_base;
  unsigned nl = 0;
  for (unsigned i = 0; i < n; i++)
    if (d[i].kind == 'l') {
      at = (at + 127) & ~127u;
      loc[nl++] = at;
      at += d[i].size;
    }
  static uint8_t want[4096], got[4096], seen[256];
  uint32_t size = ref_pack(d, n, vals, loc, want);
  CHECK_EQ_U32(st, info.args_size, size);
  memset(got, 0xee, sizeof got);
  vt_device_h dev = vt_rt_device(f.rt);
  CHECK(st, vt_copy_from_dev(dev, info.args_addr, got, size, 0, 0) == 0);
  if (memcmp(got, want, size) != 0) {
    st->failed_checks++;
    for (uint32_t i = 0; i < size; i++)
      if (got[i] != want[i]) {
        fprintf(stderr, "%s: argument byte %u = 0x%02x, expected 0x%02x\n", name, i, got[i],
                want[i]);
        break;
      }
  }
  /* the kernel's view through a0 */
  CHECK(st, vt_rt_read(f.rt, out, seen, sizeof seen) == 0);
  uint32_t cmp = size < sizeof seen ? size : sizeof seen;
  if (memcmp(seen, want, cmp) != 0) {
    st->failed_checks++;
    fprintf(stderr, "%s: the kernel sees different argument bytes\n", name);
  }
  teardown(&f);
}

TEST(every_scalar_size_after_a_buffer) {
  static const uint32_t sizes[] = {1, 2, 3, 4, 5, 8, 12, 16, 24, 32, 64, 100, 128};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    desc d[] = {{'b', 4}, {'s', sizes[i]}, {'b', 4}};
    char name[64];
    snprintf(name, sizeof name, "scalar of %u bytes", sizes[i]);
    run_case(st, d, 3, name);
  }
}

TEST(known_layout) {
  /* out, char, long, float4, char, float16, int: offsets 0, 4, 8, 16, 32,
   * 64, 128; 132 bytes */
  desc d[] = {{'b', 4}, {'s', 1}, {'s', 8}, {'s', 16}, {'s', 1}, {'s', 64}, {'s', 4}};
  run_case(st, d, 7, "known layout");
  uint8_t want[4096];
  uint32_t vals[7] = {0}, loc[1] = {0};
  CHECK_EQ_U32(st, ref_pack(d, 7, vals, loc, want), 132);
  /* a 12-byte struct after an int goes to offset 16 (not 8) */
  desc e[] = {{'b', 4}, {'s', 4}, {'s', 12}, {'s', 2}};
  CHECK_EQ_U32(st, ref_pack(e, 4, vals, loc, want), 30);
  run_case(st, e, 4, "12-byte struct");
}

/* offsets worked out by hand from formats-and-launch.md 4 (A = the next
 * power of two >= max(s, 4)): each value's bytes at its offset, zero
 * padding everywhere else */
static void hand_case(check_state *st, const desc *d, const uint32_t *offsets, unsigned n,
                      uint32_t total) {
  fixture f;
  if (setup(st, &f, "nop")) return;
  uint8_t want[256] = {0}, bytes[64];
  uint32_t out = 0;
  CHECK(st, vt_rt_alloc(f.rt, 4096, &out) == 0);
  for (unsigned i = 0; i < n; i++) {
    for (uint32_t b = 0; b < d[i].size; b++) bytes[b] = (uint8_t)(0x10 * (i + 1) + b + 1);
    if (d[i].kind == 's') {
      CHECK(st, vt_rt_set_arg_scalar(f.k, i, bytes, d[i].size) == 0);
      memcpy(want + offsets[i], bytes, d[i].size);
    } else {
      CHECK(st, vt_rt_set_arg_buffer(f.k, i, out, 0) == 0);
      memcpy(want + offsets[i], &out, 4);
    }
  }
  vt_rt_ndrange nd = {.dims = 1, .global = {1}};
  vt_rt_launch_info info;
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK_EQ_U32(st, info.args_size, total);
  uint8_t got[256];
  CHECK(st, total <= sizeof got &&
                vt_copy_from_dev(vt_rt_device(f.rt), info.args_addr, got, total, 0, 0) == 0);
  for (uint32_t i = 0; i < total && i < sizeof got; i++)
    if (got[i] != want[i]) {
      st->failed_checks++;
      fprintf(stderr, "argument byte %u = 0x%02x, expected 0x%02x\n", i, got[i], want[i]);
      break;
    }
  teardown(&f);
}

TEST(hand_computed_offsets) {
  /* pointer, char, long, short, double, int, long, float4, char, long2, int */
  desc a[] = {{'b', 4}, {'s', 1}, {'s', 8}, {'s', 2}, {'s', 8}, {'s', 4},
              {'s', 8}, {'s', 16}, {'s', 1}, {'s', 16}, {'s', 4}};
  uint32_t ao[] = {0, 4, 8, 16, 24, 32, 40, 48, 64, 80, 96};
  hand_case(st, a, ao, 11, 100);
  /* long, char, long: 0, 8, 16 */
  desc b[] = {{'s', 8}, {'s', 1}, {'s', 8}};
  uint32_t bo[] = {0, 8, 16};
  hand_case(st, b, bo, 3, 24);
  /* int, int, long, short, short, long: 0, 4, 8, 16, 20, 24 */
  desc c[] = {{'s', 4}, {'s', 4}, {'s', 8}, {'s', 2}, {'s', 2}, {'s', 8}};
  uint32_t co[] = {0, 4, 8, 16, 20, 24};
  hand_case(st, c, co, 6, 32);
  /* char3 (3 bytes), pointer, long: 0, 4, 8 */
  desc e[] = {{'s', 3}, {'b', 4}, {'s', 8}};
  uint32_t eo[] = {0, 4, 8};
  hand_case(st, e, eo, 3, 16);
}

TEST(mixed_orders) {
  static const uint32_t sizes[] = {1, 2, 4, 8, 12, 16, 32, 64};
  unsigned seed = 1;
  for (int round = 0; round < 24; round++) {
    desc d[12];
    unsigned n = 2 + (unsigned)(round % 10);
    d[0] = (desc){'b', 4};
    for (unsigned i = 1; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      unsigned r = (seed >> 16) % 10;
      if (r < 8)
        d[i] = (desc){'s', sizes[r]};
      else if (r == 8)
        d[i] = (desc){'b', 4};
      else
        d[i] = (desc){'l', 4 + (seed >> 8) % 300};
    }
    char name[64];
    snprintf(name, sizeof name, "mixed order %d", round);
    run_case(st, d, n, name);
  }
}

TEST(descending_and_ascending) {
  desc up[] = {{'b', 4}, {'s', 1}, {'s', 2}, {'s', 4}, {'s', 8}, {'s', 12}, {'s', 16}, {'s', 32}, {'s', 64}};
  desc down[] = {{'b', 4}, {'s', 64}, {'s', 32}, {'s', 16}, {'s', 12}, {'s', 8}, {'s', 4}, {'s', 2}, {'s', 1}};
  desc locals[] = {{'b', 4}, {'l', 1}, {'s', 1}, {'l', 200}, {'b', 4}, {'l', 129}};
  run_case(st, up, 9, "ascending");
  run_case(st, down, 9, "descending");
  run_case(st, locals, 6, "locals between scalars");
}

TEST(no_arguments_means_no_buffer) {
  fixture f;
  if (setup(st, &f, "nop")) return;
  vt_rt_ndrange nd = {.dims = 1, .global = {1}};
  vt_rt_launch_info info;
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK_EQ_U32(st, info.args_addr, 0);
  CHECK_EQ_U32(st, info.args_size, 0);
  uint32_t knl[17];
  CHECK(st, vt_rt_read(f.rt, info.knl_addr, knl, sizeof knl) == 0);
  CHECK_EQ_U32(st, knl[1], 0);
  teardown(&f);
}

TEST(resetting_an_argument) {
  fixture f;
  if (setup(st, &f, "argcopy")) return;
  uint32_t out = 0, v = 7;
  uint64_t big = 0x1122334455667788ull;
  CHECK(st, vt_rt_alloc(f.rt, 4096, &out) == 0);
  CHECK(st, vt_rt_set_arg_buffer(f.k, 0, out, 0) == 0);
  CHECK(st, vt_rt_set_arg_scalar(f.k, 1, &big, 8) == 0);
  CHECK(st, vt_rt_set_arg_scalar(f.k, 1, &v, 4) == 0); /* replaces the 8-byte value */
  vt_rt_ndrange nd = {.dims = 1, .global = {1}};
  vt_rt_launch_info info;
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK_EQ_U32(st, info.args_size, 8);
  uint32_t words[2];
  CHECK(st, vt_rt_read(f.rt, info.args_addr, words, 8) == 0);
  CHECK_EQ_U32(st, words[0], out);
  CHECK_EQ_U32(st, words[1], 7);
  teardown(&f);
}

RUN_TESTS(T(every_scalar_size_after_a_buffer), T(known_layout), T(hand_computed_offsets),
          T(mixed_orders),
          T(descending_and_ascending), T(no_arguments_means_no_buffer), T(resetting_an_argument))
