/* The runtime's default local size (docs/runtime.md "Geometry": the local
 * size keeping the largest share of warp lanes busy, multiples of the warp
 * width first, within the device's warp slots and 1024 work-items), the
 * one-line geometry text (vt_rt_geometry_format) and its line in
 * `vt launch`. Expected sizes are worked out by hand in the comments. */
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "rt_test_util.h"

typedef struct expect {
  unsigned dims;
  uint32_t g[3], l[3];
  unsigned t, w;
} expect;

static void plan_cases(check_state *st, const vt_rt_options *o, const expect *cases, size_t n) {
  size_t size = 0;
  uint8_t *img = rt_test_image(&size);
  vt_rt *rt = NULL;
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  char msg[256];
  CHECK(st, img && vt_rt_create(o, &rt, msg, sizeof msg) == 0);
  if (rt) CHECK(st, vt_rt_program_load_mem(rt, img, size, "test", &p) == 0);
  if (p) CHECK(st, vt_rt_kernel_create(p, "nop", &k) == 0);
  for (size_t i = 0; k && i < n; i++) {
    vt_rt_ndrange nd = {.dims = cases[i].dims};
    memcpy(nd.global, cases[i].g, sizeof nd.global);
    vt_rt_launch_info info;
    CHECK(st, vt_rt_plan(k, &nd, &info) == 0);
    bool ok = info.threads_per_warp == cases[i].t && info.warps_per_group == cases[i].w;
    for (int d = 0; d < 3; d++) ok = ok && info.local[d] == cases[i].l[d];
    if (!ok) {
      st->failed_checks++;
      fprintf(stderr, "global %u,%u,%u: local %u,%u,%u T %u W %u, expected %u,%u,%u T %u W %u\n",
              cases[i].g[0], cases[i].g[1], cases[i].g[2], info.local[0], info.local[1],
              info.local[2], info.threads_per_warp, info.warps_per_group, cases[i].l[0],
              cases[i].l[1], cases[i].l[2], cases[i].t, cases[i].w);
    }
  }
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  vt_rt_destroy(rt);
  free(img);
}

/* default device: 8 warp slots, T chosen per launch (32 for the rule), so
 * at most 256 work-items */
TEST(default_local_size_prefers_warp_multiples) {
  static const expect cases[] = {
      /* 1056 = 2^5 * 3 * 11: multiples of 32 dividing it are 32, 96, 352..;
       * 96 is the largest within 256 (the largest divisor, 176, leaves 16
       * of 192 lanes idle) */
      {1, {1056, 1, 1}, {96, 1, 1}, 32, 3},
      /* 480 = 2^5 * 3 * 5: 32, 96, 160 within 256 -> 160 (not 240) */
      {1, {480, 1, 1}, {160, 1, 1}, 32, 5},
      /* 1000 = 2^3 * 5^3: no multiple of 32 divides it; 250 and 125 both
       * keep 250/256 of the lanes busy, the larger wins */
      {1, {1000, 1, 1}, {250, 1, 1}, 32, 8},
      {1, {4096, 1, 1}, {256, 1, 1}, 32, 8},
      {1, {1009, 1, 1}, {1, 1, 1}, 1, 1}, /* a prime above 256 */
      {1, {6, 1, 1}, {6, 1, 1}, 8, 1},
      /* 1000 x 1000: x*y a multiple of 32 needs 2^5 of the 2^6 available:
       * 32, 64, 160 within 256; 160 = 40 x 4 with the largest x */
      {2, {1000, 1000, 1}, {40, 4, 1}, 32, 5},
      {2, {64, 64, 1}, {64, 4, 1}, 32, 8},
      /* 10 x 10: no product of divisors is a multiple of 32; 100 keeps
       * 100/128 busy, as do 50 and 25; the most items win */
      {2, {10, 10, 1}, {10, 10, 1}, 32, 4},
      {3, {3, 5, 7}, {3, 5, 7}, 32, 4},
      /* 8 x 8 x 8: 256 items as 8 x 8 x 4 (the largest x, then y) */
      {3, {8, 8, 8}, {8, 8, 4}, 32, 8},
  };
  plan_cases(st, NULL, cases, sizeof cases / sizeof cases[0]);
}

/* 8 threads per warp: at most 8 x 8 = 64 work-items */
TEST(default_local_size_with_fixed_threads) {
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.threads_per_warp = 8;
  static const expect cases[] = {
      /* multiples of 8 dividing 1000 within 64: 8, 40 -> 40 (not 50) */
      {1, {1000, 1, 1}, {40, 1, 1}, 8, 5},
      {1, {96, 1, 1}, {48, 1, 1}, 8, 6}, /* 8, 16, 24, 32, 48 -> 48 */
      {1, {7, 1, 1}, {7, 1, 1}, 8, 1},
  };
  plan_cases(st, &o, cases, sizeof cases / sizeof cases[0]);
}

/* a device with 2 warp slots: at most 64 work-items */
TEST(default_local_size_within_the_warp_slots) {
  setenv("VT_WARP_SLOTS", "2", 1);
  static const expect cases[] = {
      /* 1000 within 64: 50 and 25 keep 50/64 = 25/32 busy -> 50 */
      {1, {1000, 1, 1}, {50, 1, 1}, 32, 2},
      {1, {4096, 1, 1}, {64, 1, 1}, 32, 2},
  };
  plan_cases(st, NULL, cases, sizeof cases / sizeof cases[0]);
  unsetenv("VT_WARP_SLOTS");
}

/* a fixed device with 4 KiB of local memory: a workgroup's 1 KiB warp
 * stacks and the 128-byte alignment slack of its __local data leave room
 * for (4096 - 128) / 1024 = 3 warps, 96 work-items */
TEST(default_local_size_within_the_local_memory) {
  setenv("VT_WARP_SLOTS", "8", 1);
  setenv("VT_LDS_BYTES", "4096", 1);
  static const expect cases[] = {
      {1, {4096, 1, 1}, {64, 1, 1}, 32, 2}, /* multiples of 32 within 96: 32, 64 */
      {1, {1000, 1, 1}, {50, 1, 1}, 32, 2}, /* divisors within 96: 50 keeps 50/64 busy */
  };
  plan_cases(st, NULL, cases, sizeof cases / sizeof cases[0]);
  unsetenv("VT_WARP_SLOTS");
  unsetenv("VT_LDS_BYTES");
}

TEST(geometry_line) {
  vt_rt_launch_info info;
  memset(&info, 0, sizeof info);
  char buf[256];
  CHECK(st, vt_rt_geometry_format(&info, buf, sizeof buf) == -1); /* no geometry */
  CHECK(st, vt_rt_geometry_format(NULL, buf, sizeof buf) == -1);
  info.dims = 1;
  info.local[0] = 250;
  info.local[1] = info.local[2] = 1;
  info.groups[0] = 4;
  info.groups[1] = info.groups[2] = 1;
  info.threads_per_warp = 32;
  info.warps_per_group = 8;
  const char *want =
      "global 1000, local 250, 4 workgroups, 8 warps/workgroup, 32 threads/warp (last warp: 26 "
      "of 32 lanes)";
  CHECK(st, vt_rt_geometry_format(&info, buf, sizeof buf) == (int)strlen(want));
  CHECK_STR(st, buf, want);
  /* cut to the buffer, length as snprintf */
  char small[11];
  CHECK(st, vt_rt_geometry_format(&info, small, sizeof small) == (int)strlen(want));
  CHECK_STR(st, small, "global 100");
  /* 2-D, full warps */
  vt_rt_launch_info b = {.dims = 2, .local = {16, 4, 1}, .groups = {4, 16, 1},
                         .threads_per_warp = 32, .warps_per_group = 2};
  CHECK(st, vt_rt_geometry_format(&b, buf, sizeof buf) > 0);
  CHECK_STR(st, buf,
            "global 64x64, local 16x4, 64 workgroups (4x16), 2 warps/workgroup, 32 threads/warp");
  /* 3-D, one warp short */
  vt_rt_launch_info c = {.dims = 3, .local = {3, 2, 3}, .groups = {2, 2, 2},
                         .threads_per_warp = 4, .warps_per_group = 5};
  CHECK(st, vt_rt_geometry_format(&c, buf, sizeof buf) > 0);
  CHECK_STR(st, buf,
            "global 6x4x6, local 3x2x3, 8 workgroups (2x2x2), 5 warps/workgroup, 4 threads/warp "
            "(last warp: 2 of 4 lanes)");
  vt_rt_launch_info d = {.dims = 1, .local = {3, 1, 1}, .groups = {1, 1, 1},
                         .threads_per_warp = 4, .warps_per_group = 1};
  CHECK(st, vt_rt_geometry_format(&d, buf, sizeof buf) > 0);
  CHECK_STR(st, buf,
            "global 3, local 3, 1 workgroup, 1 warp/workgroup, 4 threads/warp (last warp: 3 of 4 "
            "lanes)");
}

/* vt_rt_plan fills dims, so its info formats as the launch would */
TEST(geometry_line_from_a_plan) {
  size_t size = 0;
  uint8_t *img = rt_test_image(&size);
  vt_rt *rt = NULL;
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  char msg[256];
  CHECK(st, img && vt_rt_create(NULL, &rt, msg, sizeof msg) == 0);
  if (rt) CHECK(st, vt_rt_program_load_mem(rt, img, size, "test", &p) == 0);
  if (p) CHECK(st, vt_rt_kernel_create(p, "nop", &k) == 0);
  if (k) {
    vt_rt_ndrange nd = {.dims = 2, .global = {12, 10}, .local = {6, 5}};
    vt_rt_launch_info info;
    char buf[256];
    CHECK(st, vt_rt_plan(k, &nd, &info) == 0);
    CHECK(st, vt_rt_geometry_format(&info, buf, sizeof buf) > 0);
    CHECK_STR(st, buf,
              "global 12x10, local 6x5, 4 workgroups (2x2), 1 warp/workgroup, 32 threads/warp "
              "(last warp: 30 of 32 lanes)");
  }
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  vt_rt_destroy(rt);
  free(img);
}

/* `vt launch` prints the geometry it used */
TEST(vt_launch_prints_the_geometry) {
  char dir[] = VT_TEST_TMP "/geometryXXXXXX";
  CHECK(st, mkdtemp(dir) != NULL);
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "'%s' as '%s/examples/kernels/crt0.s' '%s/tests/kernels/runtime.s' '%s/examples/kernels/vtprintf.s' -o '%s/k.elf' && "
           "'%s' launch '%s/k.elf' --kernel addone --global 1000 --arg out:4000 2>'%s/err'",
           VT_BINARY, VT_SOURCE_DIR, VT_SOURCE_DIR, VT_SOURCE_DIR, dir, VT_BINARY, dir, dir);
  int rc = system(cmd);
  CHECK(st, rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
  char path[4200];
  snprintf(path, sizeof path, "%s/err", dir);
  char *err = test_slurp(path, NULL);
  const char *want = "vt launch: global 1000, local 250, 4 workgroups, 8 warps/workgroup, 32 "
                     "threads/warp (last warp: 26 of 32 lanes)\n";
  if (!err || !strstr(err, want)) {
    st->failed_checks++;
    fprintf(stderr, "vt launch printed \"%s\", without \"%s\"\n", err ? err : "", want);
  }
  free(err);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(st, system(cmd) == 0);
}

RUN_TESTS(T(default_local_size_prefers_warp_multiples), T(default_local_size_with_fixed_threads),
          T(default_local_size_within_the_warp_slots),
          T(default_local_size_within_the_local_memory), T(geometry_line),
          T(geometry_line_from_a_plan), T(vt_launch_prints_the_geometry))
