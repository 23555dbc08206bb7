/* Runtime errors: every launch validation rule, argument errors, a kernel
 * trap, loading (missing kernel, non-function symbol, corrupt and
 * truncated ELF, wrong machine, missing and empty files), bad options and a
 * device with a fixed warp count. */
#include <stdbool.h>
#include <unistd.h>

#include "check.h"
#include "rt_test_util.h"

typedef struct fixture {
  vt_rt *rt;
  vt_rt_program *p;
  vt_rt_kernel *k;
  uint8_t *img;
  size_t size;
} fixture;

static int setup(check_state *st, fixture *f, const char *kernel) {
  memset(f, 0, sizeof *f);
  f->img = rt_test_image(&f->size);
  char msg[256];
  int rc = f->img ? vt_rt_create(NULL, &f->rt, msg, sizeof msg) : -1;
  if (rc == 0) rc = vt_rt_program_load_mem(f->rt, f->img, f->size, "test.elf", &f->p);
  if (rc == 0 && kernel) rc = vt_rt_kernel_create(f->p, kernel, &f->k);
  CHECK(st, rc == 0);
  return rc;
}

static void teardown(fixture *f) {
  vt_rt_kernel_free(f->k);
  vt_rt_program_free(f->p);
  vt_rt_destroy(f->rt);
  free(f->img);
}

static void expect_error(check_state *st, int rc, vt_rt *rt, const char *needle) {
  CHECK(st, rc != 0);
  const char *e = vt_rt_error(rt);
  if (!strstr(e, needle)) {
    st->failed_checks++;
    fprintf(stderr, "error \"%s\" lacks \"%s\"\n", e, needle);
  }
}

static void expect_launch_error(check_state *st, fixture *f, vt_rt_ndrange nd,
                                const char *needle) {
  expect_error(st, vt_rt_launch(f->k, &nd, NULL), f->rt, needle);
  vt_rt_launch_info info;
  expect_error(st, vt_rt_plan(f->k, &nd, &info), f->rt, needle);
}

TEST(ndrange_validation) {
  fixture f;
  if (setup(st, &f, "nop")) return;
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 0, .global = {4}}, "work dimension 0 out of range (1 to 3)");
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 4, .global = {4, 1, 1}}, "work dimension 4 out of range");
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 2, .global = {4, 0}}, "the global size in dimension 1 is 0");
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 1, .global = {10}, .local = {4}},
                      "the global size 10 in dimension 0 is not a multiple of the local size 4 "
                      "(non-uniform workgroups are not supported)");
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 2, .global = {8, 8}, .local = {4, 0}},
                      "the local size in dimension 1 is 0");
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 1, .global = {8, 2}},
                      "dimension 1 has sizes but the work dimension is 1");
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 1, .global = {8}, .offset = {0, 3}},
                      "dimension 1 has sizes but the work dimension is 1");
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 1, .global = {2048}, .local = {2048}},
                      "a workgroup of 2048 work-items needs 64 warps of 32 threads; at most 32 "
                      "warps per workgroup");
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 1, .global = {16}, .offset = {0xfffffff8u}},
                      "exceed 32 bits");
  expect_error(st, vt_rt_launch(f.k, NULL, NULL), f.rt, "no NDRange");
  /* the largest legal workgroup works */
  vt_rt_ndrange ok = {.dims = 3, .global = {16, 8, 8}, .local = {16, 8, 8}};
  CHECK(st, vt_rt_launch(f.k, &ok, NULL) == 0);
  teardown(&f);
}

TEST(fixed_device_warp_slots) {
  setenv("VT_WARP_SLOTS", "2", 1);
  fixture f;
  int rc = setup(st, &f, "nop");
  unsetenv("VT_WARP_SLOTS");
  if (rc) return;
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 1, .global = {128}, .local = {128}},
                      "needs 4 warps of 32 threads; the device has 2 warp slots per SM");
  vt_rt_ndrange ok = {.dims = 1, .global = {128}, .local = {64}};
  CHECK(st, vt_rt_launch(f.k, &ok, NULL) == 0);
  /* default local size respects the slots: 32 * 2 */
  vt_rt_launch_info info;
  vt_rt_ndrange d = {.dims = 1, .global = {1024}};
  CHECK(st, vt_rt_plan(f.k, &d, &info) == 0);
  CHECK_EQ_U32(st, info.local[0], 64);
  teardown(&f);
}

TEST(fixed_device_local_memory) {
  setenv("VT_WARP_SLOTS", "8", 1);
  setenv("VT_LDS_BYTES", "8000", 1);
  fixture f;
  int rc = setup(st, &f, "localptrs");
  unsetenv("VT_WARP_SLOTS");
  unsetenv("VT_LDS_BYTES");
  if (rc) return;
  uint32_t out = 0, x = 1;
  CHECK(st, vt_rt_alloc(f.rt, 64, &out) == 0);
  vt_rt_set_arg_buffer(f.k, 0, out, 0);
  vt_rt_set_arg_local(f.k, 1, 4096);
  vt_rt_set_arg_scalar(f.k, 2, &x, 4);
  vt_rt_set_arg_local(f.k, 3, 2048);
  vt_rt_ndrange nd = {.dims = 1, .global = {64}, .local = {64}};
  expect_error(st, vt_rt_launch(f.k, &nd, NULL), f.rt,
               "a workgroup needs 8192 bytes of local memory (2 warp stacks of 1024 bytes, 0 "
               "static, 6144 for __local arguments); an SM has 8000");
  teardown(&f);
}

TEST(fixed_device_threads) {
  setenv("VT_THREADS", "8", 1);
  fixture f;
  int rc = setup(st, &f, "nop");
  unsetenv("VT_THREADS");
  if (rc) return;
  vt_rt_launch_info info;
  vt_rt_ndrange nd = {.dims = 1, .global = {64}, .local = {64}};
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK_EQ_U32(st, info.threads_per_warp, 8);
  CHECK_EQ_U32(st, info.warps_per_group, 8);
  nd.local[0] = 2; /* tiny workgroups still use the device's 8 lanes */
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK_EQ_U32(st, info.threads_per_warp, 8);
  expect_launch_error(st, &f, (vt_rt_ndrange){.dims = 1, .global = {512}, .local = {512}},
                      "needs 64 warps of 8 threads");
  teardown(&f);
}

TEST(argument_errors) {
  fixture f;
  if (setup(st, &f, "argcopy")) return;
  uint32_t out = 0, v = 1;
  CHECK(st, vt_rt_alloc(f.rt, 100, &out) == 0);
  vt_rt_ndrange nd = {.dims = 1, .global = {1}};
  /* missing argument in the middle */
  CHECK(st, vt_rt_set_arg_buffer(f.k, 0, out, 0) == 0);
  CHECK(st, vt_rt_set_arg_scalar(f.k, 2, &v, 4) == 0);
  expect_error(st, vt_rt_launch(f.k, &nd, NULL), f.rt, "kernel 'argcopy': argument 1 is not set");
  /* declared count: index out of range, trailing argument missing */
  CHECK(st, vt_rt_kernel_set_num_args(f.k, 4) == 0);
  expect_error(st, vt_rt_set_arg_scalar(f.k, 4, &v, 4), f.rt,
               "argument index 4 out of range (the kernel has 4)");
  CHECK(st, vt_rt_set_arg_scalar(f.k, 1, &v, 4) == 0);
  expect_error(st, vt_rt_launch(f.k, &nd, NULL), f.rt, "argument 3 is not set");
  CHECK(st, vt_rt_set_arg_local(f.k, 3, 16) == 0);
  CHECK(st, vt_rt_launch(f.k, &nd, NULL) == 0);
  /* sizes */
  expect_error(st, vt_rt_set_arg_scalar(f.k, 1, &v, 0), f.rt,
               "argument 1: a by-value argument of 0 bytes (1 to 1024 allowed)");
  uint8_t big[2000] = {0};
  expect_error(st, vt_rt_set_arg_scalar(f.k, 1, big, sizeof big), f.rt, "of 2000 bytes");
  expect_error(st, vt_rt_set_arg_scalar(f.k, 1, NULL, 4), f.rt, "no value");
  expect_error(st, vt_rt_set_arg_local(f.k, 3, 0), f.rt, "a __local argument of 0 bytes");
  expect_error(st, vt_rt_set_arg_buffer(f.k, 0, out, 100), f.rt,
               "offset 100 is outside the buffer at 0x");
  expect_error(st, vt_rt_set_arg_buffer(f.k, 0, 0, 4), f.rt, "offset 4 on a NULL buffer");
  CHECK(st, vt_rt_set_arg_buffer(f.k, 0, out, 99) == 0);
  expect_error(st, vt_rt_kernel_set_num_args(f.k, 1000), f.rt, "1000 arguments");
  vt_rt_kernel *k2;
  CHECK(st, vt_rt_kernel_create(f.p, "nop", &k2) == 0);
  expect_error(st, vt_rt_set_arg_scalar(k2, 300, &v, 4), f.rt, "argument index 300 out of range");
  /* too many argument bytes */
  uint8_t blob[1024] = {0};
  for (unsigned i = 0; i < 64; i++) CHECK(st, vt_rt_set_arg_scalar(k2, i, blob, 1024) == 0);
  expect_error(st, vt_rt_launch(k2, &nd, NULL), f.rt, "the arguments need more than 65535 bytes");
  vt_rt_kernel_free(k2);
  teardown(&f);
}

TEST(kernel_trap) {
  fixture f;
  if (setup(st, &f, "trap")) return;
  vt_rt_ndrange nd = {.dims = 1, .global = {4}};
  expect_error(st, vt_rt_launch(f.k, &nd, NULL), f.rt, "kernel 'trap' failed: ");
  expect_error(st, -1, f.rt, "lw t0, 0(zero)");
  expect_error(st, -1, f.rt, "workgroup 0, warp 0");
  /* the context stays usable */
  vt_rt_kernel *k;
  CHECK(st, vt_rt_kernel_create(f.p, "nop", &k) == 0);
  CHECK(st, vt_rt_launch(k, &nd, NULL) == 0);
  vt_rt_kernel_free(k);
  teardown(&f);
}

TEST(missing_kernel_and_bad_symbols) {
  fixture f;
  if (setup(st, &f, NULL)) return;
  vt_rt_kernel *k = NULL;
  expect_error(st, vt_rt_kernel_create(f.p, "nope", &k), f.rt,
               "test.elf: no kernel 'nope' in the program (kernels: nop, argcopy, ids");
  CHECK(st, k == NULL);
  expect_error(st, vt_rt_kernel_create(f.p, "BUFFER_ADDR", &k), f.rt,
               "'BUFFER_ADDR' is not a kernel function");
  expect_error(st, vt_rt_kernel_create(f.p, "_start", &k), f.rt, "'_start' is not a kernel");
  expect_error(st, vt_rt_kernel_create(f.p, "", &k), f.rt, "no kernel name");
  bool has_hello = false, has_start = false;
  for (size_t i = 0; i < vt_rt_program_kernel_count(f.p); i++) {
    has_hello |= !strcmp(vt_rt_program_kernel_name(f.p, i), "hello");
    has_start |= !strcmp(vt_rt_program_kernel_name(f.p, i), "_start");
  }
  CHECK(st, has_hello && !has_start);
  CHECK(st, vt_rt_program_kernel_name(f.p, 1000) == NULL);
  teardown(&f);
}

TEST(corrupt_programs) {
  fixture f;
  if (setup(st, &f, NULL)) return;
  vt_rt_program *p = NULL;
  expect_error(st, vt_rt_program_load_mem(f.rt, f.img, 40, "short.elf", &p), f.rt,
               "short.elf: not a loadable kernel ELF: ");
  CHECK(st, p == NULL);
  uint8_t junk[256];
  for (int i = 0; i < 256; i++) junk[i] = (uint8_t)(i * 37);
  expect_error(st, vt_rt_program_load_mem(f.rt, junk, sizeof junk, NULL, &p), f.rt,
               "<memory>: not a loadable kernel ELF");
  expect_error(st, vt_rt_program_load_mem(f.rt, junk, 0, "x", &p), f.rt, "x: empty program image");
  uint8_t *copy = malloc(f.size);
  memcpy(copy, f.img, f.size);
  copy[18] = 62; /* e_machine = x86-64 */
  expect_error(st, vt_rt_program_load_mem(f.rt, copy, f.size, "amd64.elf", &p), f.rt,
               "amd64.elf: not a RISC-V ELF");
  memcpy(copy, f.img, f.size);
  copy[16] = 1; /* ET_REL */
  expect_error(st, vt_rt_program_load_mem(f.rt, copy, f.size, "rel.elf", &p), f.rt,
               "not an executable (ET_EXEC) ELF");
  memcpy(copy, f.img, f.size);
  copy[24] = 4; /* entry 0x80000004 */
  expect_error(st, vt_rt_program_load_mem(f.rt, copy, f.size, "entry.elf", &p), f.rt,
               "the entry point is not 0x80000000");
  /* truncated in the middle of the section headers */
  expect_error(st, vt_rt_program_load_mem(f.rt, f.img, f.size - 20, "cut.elf", &p), f.rt,
               "cut.elf: not a loadable kernel ELF");
  free(copy);
  expect_error(st, vt_rt_program_load_file(f.rt, VT_TEST_TMP "/does-not-exist.elf", &p), f.rt,
               "does-not-exist.elf: No such file or directory");
  const char *empty = VT_TEST_TMP "/rt_empty.elf";
  CHECK(st, rt_test_write_file(empty, "", 0) == 0);
  expect_error(st, vt_rt_program_load_file(f.rt, empty, &p), f.rt, "rt_empty.elf: empty file");
  const char *bad = VT_TEST_TMP "/rt_junk.elf";
  CHECK(st, rt_test_write_file(bad, junk, sizeof junk) == 0);
  expect_error(st, vt_rt_program_load_file(f.rt, bad, &p), f.rt, "rt_junk.elf: not a loadable");
  teardown(&f);
}

TEST(bad_options_and_buffers) {
  vt_rt_options o;
  char msg[256];
  vt_rt *rt = NULL;
  vt_rt_options_default(&o);
  o.threads_per_warp = 12;
  CHECK(st, vt_rt_create(&o, &rt, msg, sizeof msg) != 0 && rt == NULL);
  CHECK(st, strstr(msg, "power of two") != NULL);
  vt_rt_options_default(&o);
  o.print_buffer_size = 8;
  CHECK(st, vt_rt_create(&o, &rt, msg, sizeof msg) != 0);
  CHECK(st, strstr(msg, "at least 16 bytes") != NULL);
  vt_rt_options_default(&o);
  o.private_size = 6;
  CHECK(st, vt_rt_create(&o, &rt, msg, sizeof msg) != 0);
  setenv("VT_THREADS", "3", 1);
  CHECK(st, vt_rt_create(NULL, &rt, msg, sizeof msg) != 0);
  CHECK(st, strstr(msg, "VT_THREADS") != NULL);
  unsetenv("VT_THREADS");
  CHECK(st, vt_rt_create(NULL, &rt, msg, sizeof msg) == 0);
  uint32_t a;
  expect_error(st, vt_rt_alloc(rt, 0, &a), rt, "0 bytes");
  CHECK(st, vt_rt_alloc(rt, 100, &a) == 0);
  CHECK(st, vt_rt_buffer_size(rt, a + 50) == 100);
  CHECK(st, vt_rt_buffer_size(rt, a + 100) == 0);
  uint8_t buf[8192] = {0};
  expect_error(st, vt_rt_write(rt, a, buf, 8192), rt, "writing 8192 bytes at 0x");
  expect_error(st, vt_rt_read(rt, 0x1000, buf, 4), rt, "not inside an allocated buffer");
  CHECK(st, vt_rt_free(rt, a) == 0);
  expect_error(st, vt_rt_free(rt, a), rt, "is not a buffer allocated by this runtime");
  vt_rt_destroy(rt);
}

RUN_TESTS(T(ndrange_validation), T(fixed_device_warp_slots), T(fixed_device_local_memory),
          T(fixed_device_threads),
          T(argument_errors), T(kernel_trap), T(missing_kernel_and_bad_symbols),
          T(corrupt_programs), T(bad_options_and_buffers))
