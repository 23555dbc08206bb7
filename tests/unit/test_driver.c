/* The vt_* driver API (include/ventus.h): every function, every error path
 * (bad handle, zero size, out-of-range copy, double free, timeout, kernel
 * trap), asynchronous launches and several devices in one process. */
#include <stdlib.h>

#include "check.h"
#include "ventus.h"
#include "vt/driver_ext.h"
#include "vt/asm.h"

/* a kernel without crt0: stores 'value' at the address held in CSR_KNL (the
 * launch descriptor's metaDataBaseAddr), then ends the warp */
static uint8_t *build_kernel(const char *body, size_t *size) {
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *img = NULL;
  char src[1024];
  snprintf(src, sizeof src, "    .text\n    .globl _start\n_start:\n%s", body);
  if (!as || vt_asm_add_source(as, "k.s", src, strlen(src)) != 0 ||
      vt_asm_link(as, &img, size) != 0) {
    fprintf(stderr, "assembling failed: %s\n", as ? vt_asm_errors(as) : "oom");
    img = NULL;
  }
  vt_asm_free(as);
  return img;
}

static const char STORE_KERNEL[] =
    "    csrr t0, CSR_KNL\n    csrr t1, CSR_WGID\n    slli t2, t1, 2\n    add t0, t0, t2\n"
    "    addi t1, t1, 100\n    sw t1, 0(t0)\n    endprg x0, x0, x0\n";

static vt_launch_meta meta_for(uint64_t out, unsigned nwg, uint64_t id) {
  vt_launch_meta m;
  memset(&m, 0, sizeof m);
  m.kernel_id = id;
  m.kernel_size[0] = nwg;
  m.kernel_size[1] = m.kernel_size[2] = 1;
  m.wf_size = 4;
  m.wg_size = 1;
  m.metaDataBaseAddr = out;
  m.ldsSize = 0x1000;
  m.pdsSize = 0;
  m.pdsBaseAddr = out;
  return m;
}

TEST(open_close_and_bad_handles) {
  vt_device_h h = NULL;
  CHECK(st, vt_dev_open(NULL) == -1);
  CHECK(st, strstr(vt_last_error(), "null handle pointer") != NULL);
  CHECK(st, vt_dev_open(&h) == 0 && h != NULL);
  CHECK(st, vt_dev_close(h) == 0);
  CHECK(st, vt_dev_close(h) == -1); /* closed */
  CHECK(st, strstr(vt_last_error(), "unknown or closed device handle") != NULL);
  CHECK(st, vt_dev_close(NULL) == -1);
  int not_a_device = 0;
  uint64_t v = 0, a = 0;
  CHECK(st, vt_buf_alloc(&not_a_device, 16, &a, 0, 0, 0) == -1);
  CHECK(st, vt_dev_caps((vt_device_h *)NULL, VT_CAPS_VERSION, &v) == -1);
  CHECK(st, vt_ready_wait(&not_a_device, 1) == -1);
}

TEST(capabilities) {
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  uint64_t v = 0;
  CHECK(st, vt_dev_caps(&h, VT_CAPS_MAX_CORES, &v) == 0 && v == 2);
  CHECK(st, vt_dev_caps(&h, VT_CAPS_MAX_WARPS, &v) == 0 && v == 8);
  CHECK(st, vt_dev_caps(&h, VT_CAPS_MAX_THREADS, &v) == 0 && v == 32);
  CHECK(st, vt_dev_caps(&h, VT_CAPS_ALLOC_BASE_ADDR, &v) == 0 && v == 0x90000000u);
  CHECK(st, vt_dev_caps(&h, VT_CAPS_KERNEL_BASE_ADDR, &v) == 0 && v == 0x80000000u);
  CHECK(st, vt_dev_caps(&h, VT_CAPS_LOCAL_MEM_SIZE, &v) == 0 && v == 128 * 1024);
  CHECK(st, vt_dev_caps(&h, VT_CAPS_VERSION, &v) == 0);
  CHECK(st, vt_dev_caps(&h, VT_CAPS_CACHE_LINE_SIZE, &v) == 0 && v > 0);
  CHECK(st, vt_dev_caps(&h, 99, &v) == -1);
  CHECK(st, strstr(vt_last_error(), "unknown capability id 99") != NULL);
  CHECK(st, vt_dev_caps(&h, VT_CAPS_VERSION, NULL) == -1);
  CHECK(st, vt_dev_close(h) == 0);
}

TEST(configuration_from_environment) {
  setenv("VT_SMS", "3", 1);
  setenv("VT_WARP_SLOTS", "16", 1);
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  uint64_t v = 0;
  CHECK(st, vt_dev_caps(&h, VT_CAPS_MAX_CORES, &v) == 0 && v == 3);
  CHECK(st, vt_dev_caps(&h, VT_CAPS_MAX_WARPS, &v) == 0 && v == 16);
  vt_dev_close(h);
  setenv("VT_SMS", "zero", 1);
  CHECK(st, vt_dev_open(&h) == -1);
  CHECK(st, strstr(vt_last_error(), "VT_SMS: 'zero' is not a valid value for sms") != NULL);
  unsetenv("VT_SMS");
  unsetenv("VT_WARP_SLOTS");
  char path[512];
  snprintf(path, sizeof path, "%s/driver.cfg", VT_TEST_TMP);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs("# test\nsms = 4\nbogus = 1\n", f);
    fclose(f);
  }
  setenv("VT_CONFIG", path, 1);
  CHECK(st, vt_dev_open(&h) == -1);
  CHECK(st, strstr(vt_last_error(), "driver.cfg:3: unknown setting 'bogus'") != NULL);
  unsetenv("VT_CONFIG");
}

TEST(contexts) {
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  CHECK(st, vt_root_mem_alloc(h, 0) == 0);
  CHECK(st, vt_root_mem_alloc(h, 0) == -1);
  CHECK(st, vt_root_mem_alloc(h, 1) == 0);
  CHECK(st, vt_root_mem_free(h, 0) == 0);
  CHECK(st, vt_root_mem_free(h, 0) == -1);
  CHECK(st, vt_root_mem_free(h, 7) == -1);
  vt_dev_close(h);
}

TEST(buffers_and_copies) {
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  uint64_t a = 0, b = 0, c = 0;
  CHECK(st, vt_buf_alloc(h, 0, &a, 0, 0, 0) == -1);
  CHECK(st, strstr(vt_last_error(), "size 0") != NULL);
  CHECK(st, vt_buf_alloc(h, 100, NULL, 0, 0, 0) == -1);
  CHECK(st, vt_buf_alloc(h, 100, &a, 9, 0, 0) == -1);
  CHECK(st, vt_buf_alloc(h, 100, &a, READ_WRITE, 0, 0) == 0 && a == 0x90000000u);
  CHECK(st, vt_buf_alloc(h, 5000, &b, READ_ONLY, 0, 0) == 0 && b == 0x90001000u);
  CHECK(st, vt_buf_alloc(h, 4096, &c, KERNEL_MEM, 0, 0) == 0 && c == 0x90003000u);
  uint32_t w[4] = {1, 2, 3, 4}, r[4] = {0};
  CHECK(st, vt_copy_to_dev(h, a + 8, w, sizeof w, 0, 0) == 0);
  CHECK(st, vt_copy_from_dev(h, a + 8, r, sizeof r, 0, 0) == 0 && !memcmp(w, r, sizeof w));
  /* out of range: past the allocation, unallocated, straddling, zero, null */
  CHECK(st, vt_copy_to_dev(h, a + 4090, w, 16, 0, 0) == -1);
  CHECK(st, strstr(vt_last_error(), "is not inside an allocated buffer") != NULL);
  CHECK(st, vt_copy_from_dev(h, 0x80000000u, r, 4, 0, 0) == -1);
  CHECK(st, vt_copy_to_dev(h, 0xa0000000u, w, 4, 0, 0) == -1);
  CHECK(st, vt_copy_to_dev(h, b + 0x1ffc, w, 8, 0, 0) == -1);
  CHECK(st, vt_copy_to_dev(h, a, w, 0, 0, 0) == -1);
  CHECK(st, vt_copy_to_dev(h, a, NULL, 4, 0, 0) == -1);
  CHECK(st, vt_copy_from_dev(h, 0x1ffffffffull, r, 4, 0, 0) == -1);
  /* freeing exactly one buffer; the others stay usable */
  CHECK(st, vt_buf_free(h, 100, &a, 0, 0) == 0);
  CHECK(st, vt_copy_to_dev(h, a, w, 4, 0, 0) == -1);
  CHECK(st, vt_copy_to_dev(h, b, w, 4, 0, 0) == 0);
  CHECK(st, vt_buf_free(h, 100, &a, 0, 0) == -1); /* double free */
  CHECK(st, strstr(vt_last_error(), "already freed") != NULL);
  uint64_t bogus = 0x90000800u;
  CHECK(st, vt_one_buf_free(h, 4, &bogus, 0, 0) == -1);
  CHECK(st, vt_one_buf_free(h, 4, NULL, 0, 0) == -1);
  CHECK(st, vt_one_buf_free(h, 5000, &b, 0, 0) == 0);
  /* freed addresses are reused, lowest gap first: a (one page) and b (two
   * pages) left [0x90000000, 0x90003000) free below c */
  uint64_t d = 0, e = 0, g = 0;
  CHECK(st, vt_buf_alloc(h, 16, &d, 0, 0, 0) == 0 && d == 0x90000000u);
  CHECK(st, vt_buf_alloc(h, 8192, &e, 0, 0, 0) == 0 && e == 0x90001000u);
  CHECK(st, vt_buf_alloc(h, 1, &g, 0, 0, 0) == 0 && g == 0x90004000u); /* after c */
  /* a fixed address (vt/driver_ext.h): free, taken, misaligned */
  uint64_t fixed = 0xa0024000u;
  CHECK(st, vt_dev_buf_alloc_at(h, fixed, 1024) == 0);
  CHECK(st, vt_dev_buf_alloc_at(h, fixed + 4096, 1) == 0);
  CHECK(st, vt_dev_buf_alloc_at(h, fixed - 4096, 4097) == -1);
  CHECK(st, strstr(vt_last_error(), "overlaps a live buffer") != NULL);
  CHECK(st, vt_dev_buf_alloc_at(h, fixed + 100, 4) == -1);
  CHECK(st, vt_dev_buf_alloc_at(h, 0x80000000u, 4) == -1);
  CHECK(st, vt_copy_to_dev(h, fixed + 1020, w, 4, 0, 0) == 0);
  CHECK(st, vt_one_buf_free(h, 1024, &fixed, 0, 0) == 0);
  vt_dev_close(h);
}

static int upload(check_state *st, vt_device_h h, const char *body) {
  size_t n = 0;
  uint8_t *img = build_kernel(body, &n);
  CHECK(st, img != NULL);
  if (!img) return -1;
  int rc = vt_upload_kernel_bytes(h, img, n, 0);
  free(img);
  return rc;
}

TEST(launch_and_wait) {
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  uint64_t out = 0;
  CHECK(st, vt_buf_alloc(h, 64, &out, 0, 0, 0) == 0);
  CHECK(st, upload(st, h, STORE_KERNEL) == 0);
  vt_launch_meta m = meta_for(out, 5, 7);
  CHECK(st, vt_start(h, &m, 0) == 0);
  CHECK(st, vt_ready_wait(h, MAX_TIMEOUT) == 0);
  uint32_t r[5] = {0};
  CHECK(st, vt_copy_from_dev(h, out, r, sizeof r, 0, 0) == 0);
  for (unsigned i = 0; i < 5; i++) CHECK_EQ_U32(st, r[i], 100 + i);
  int fin[4] = {0}, nfin = -1;
  CHECK(st, vt_finish_all_kernel(h, fin, 4, &nfin) == 0 && nfin == 1 && fin[0] == 7);
  /* launches run in order, ids reported in order */
  vt_launch_meta m2 = meta_for(out, 1, 3), m3 = meta_for(out, 2, 5);
  CHECK(st, vt_start(h, &m2, 0) == 0 && vt_start(h, &m3, 0) == 0);
  CHECK(st, vt_finish_all_kernel(h, fin, 4, &nfin) == 0);
  CHECK(st, nfin == 2 && fin[0] == 3 && fin[1] == 5);
  /* perf dump */
  char path[512];
  snprintf(path, sizeof path, "%s/perf.txt", VT_TEST_TMP);
  FILE *f = fopen(path, "w+");
  CHECK(st, f && vt_dump_perf(h, f) == 0);
  if (f) {
    rewind(f);
    char buf[1024] = {0};
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    buf[got] = 0;
    CHECK(st, strstr(buf, "launches 3\n") != NULL);
    CHECK(st, strstr(buf, "workgroups 8\n") != NULL);
    CHECK(st, strstr(buf, "warp_instructions 56\n") != NULL); /* 7 insns x 8 warps */
    fclose(f);
  }
  CHECK(st, vt_dump_perf(h, NULL) == -1);
  /* bad descriptors */
  vt_launch_meta bad = meta_for(out, 1, 0);
  bad.wf_size = 3;
  CHECK(st, vt_start(h, &bad, 0) == -1);
  CHECK(st, strstr(vt_last_error(), "power of two") != NULL);
  bad = meta_for(out, 0, 0);
  CHECK(st, vt_start(h, &bad, 0) == -1);
  CHECK(st, vt_start(h, NULL, 0) == -1);
  vt_dev_close(h);
}

TEST(kernel_trap_is_an_error) {
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  uint64_t out = 0;
  CHECK(st, vt_buf_alloc(h, 64, &out, 0, 0, 0) == 0);
  CHECK(st, upload(st, h, "    li t0, 0x10\n    lw t1, 0(t0)\n    endprg x0, x0, x0\n") == 0);
  vt_launch_meta m = meta_for(out, 1, 1);
  CHECK(st, vt_start(h, &m, 0) == 0);
  CHECK(st, vt_ready_wait(h, MAX_TIMEOUT) == -1);
  const char *e = vt_last_error();
  CHECK(st, strstr(e, "SM 0, workgroup 0, warp 0, pc 0x80000004") != NULL);
  CHECK(st, strstr(e, "load of unmapped address 0x00000010") != NULL);
  /* reported once; the device stays usable */
  CHECK(st, vt_ready_wait(h, 10) == 0);
  CHECK(st, upload(st, h, STORE_KERNEL) == 0);
  CHECK(st, vt_start(h, &m, 0) == 0 && vt_ready_wait(h, MAX_TIMEOUT) == 0);
  vt_dev_close(h);
}

TEST(asynchronous_start_and_timeout) {
  setenv("VT_MAX_INSNS", "3000000", 1);
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  unsetenv("VT_MAX_INSNS");
  uint64_t out = 0;
  CHECK(st, vt_buf_alloc(h, 64, &out, 0, 0, 0) == 0);
  CHECK(st, upload(st, h, "1:  j 1b\n") == 0);
  vt_launch_meta m = meta_for(out, 1, 1);
  CHECK(st, vt_start(h, &m, 0) == 0); /* returns at once */
  CHECK(st, vt_ready_wait(h, 1) == -1);
  CHECK(st, strstr(vt_last_error(), "timed out after 1 ms") != NULL);
  CHECK(st, vt_ready_wait(h, MAX_TIMEOUT) == -1); /* the loop hits the budget */
  CHECK(st, strstr(vt_last_error(), "instruction budget") != NULL);
  vt_dev_close(h);
}

TEST(kernel_files) {
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  CHECK(st, vt_upload_kernel_file(h, "/no/such/file.elf", 0) == -1);
  CHECK(st, strstr(vt_last_error(), "/no/such/file.elf") != NULL);
  char path[512];
  snprintf(path, sizeof path, "%s/not_elf.bin", VT_TEST_TMP);
  FILE *f = fopen(path, "wb");
  if (f) {
    fputs("\177ELF garbage", f);
    fclose(f);
  }
  CHECK(st, vt_upload_kernel_file(h, path, 0) == -1);
  CHECK(st, vt_upload_kernel_file(h, NULL, 0) == -1);
  CHECK(st, vt_upload_kernel_bytes(h, "\177ELFxx", 6, 0) == -1);
  CHECK(st, vt_upload_kernel_bytes(h, NULL, 4, 0) == -1);
  /* a real ELF file */
  size_t n = 0;
  uint8_t *img = build_kernel(STORE_KERNEL, &n);
  snprintf(path, sizeof path, "%s/store.elf", VT_TEST_TMP);
  f = fopen(path, "wb");
  if (f && img) {
    fwrite(img, 1, n, f);
    fclose(f);
  }
  free(img);
  CHECK(st, vt_upload_kernel_file(h, path, 0) == 0);
  uint64_t out = 0;
  CHECK(st, vt_buf_alloc(h, 64, &out, 0, 0, 0) == 0);
  vt_launch_meta m = meta_for(out, 1, 1);
  uint32_t r = 0;
  CHECK(st, vt_start(h, &m, 0) == 0 && vt_ready_wait(h, MAX_TIMEOUT) == 0);
  CHECK(st, vt_copy_from_dev(h, out, &r, 4, 0, 0) == 0 && r == 100);
  /* raw code bytes (no ELF): li t1, 7; csrr t0, knl; sw t1, 0(t0); endprg */
  static const uint32_t raw[] = {0x00700313, 0x803022f3, 0x0062a023, 0x0000400b};
  CHECK(st, vt_upload_kernel_bytes(h, raw, sizeof raw, 0) == 0);
  CHECK(st, vt_start(h, &m, 0) == 0 && vt_ready_wait(h, MAX_TIMEOUT) == 0);
  CHECK(st, vt_copy_from_dev(h, out, &r, 4, 0, 0) == 0 && r == 7);
  vt_dev_close(h);
}

TEST(two_devices_in_one_process) {
  vt_device_h h1 = NULL, h2 = NULL;
  CHECK(st, vt_dev_open(&h1) == 0 && vt_dev_open(&h2) == 0 && h1 != h2);
  uint64_t o1 = 0, o2 = 0;
  CHECK(st, vt_buf_alloc(h1, 64, &o1, 0, 0, 0) == 0 && vt_buf_alloc(h2, 64, &o2, 0, 0, 0) == 0);
  CHECK(st, o1 == o2); /* separate address spaces */
  CHECK(st, upload(st, h1, STORE_KERNEL) == 0);
  CHECK(st, upload(st, h2, "    csrr t0, CSR_KNL\n    li t1, 55\n    sw t1, 0(t0)\n"
                           "    endprg x0, x0, x0\n") == 0);
  vt_launch_meta m1 = meta_for(o1, 1, 1), m2 = meta_for(o2, 1, 1);
  CHECK(st, vt_start(h1, &m1, 0) == 0 && vt_start(h2, &m2, 0) == 0);
  CHECK(st, vt_ready_wait(h1, MAX_TIMEOUT) == 0 && vt_ready_wait(h2, MAX_TIMEOUT) == 0);
  uint32_t r1 = 0, r2 = 0;
  CHECK(st, vt_copy_from_dev(h1, o1, &r1, 4, 0, 0) == 0 && r1 == 100);
  CHECK(st, vt_copy_from_dev(h2, o2, &r2, 4, 0, 0) == 0 && r2 == 55);
  CHECK(st, vt_dev_close(h1) == 0 && vt_dev_close(h2) == 0);
}

/* VT_TIMING runs launches on the timing model; vt_dump_perf then prints its
 * FIN line and counter report */
TEST(timing_model_through_the_driver) {
  setenv("VT_TIMING", "verilog-2024", 1);
  setenv("VT_DRAM_LATENCY", "9", 1);
  vt_device_h h = NULL;
  CHECK(st, vt_dev_open(&h) == 0);
  unsetenv("VT_DRAM_LATENCY");
  vt_session *s = vt_dev_session(h);
  CHECK(st, s && vt_session_settings(s)->dram_latency == 9 && vt_session_settings(s)->line_bytes == 8);
  uint64_t out = 0;
  CHECK(st, vt_buf_alloc(h, 64, &out, 0, 0, 0) == 0);
  CHECK(st, upload(st, h, STORE_KERNEL) == 0);
  vt_launch_meta m = meta_for(out, 2, 1);
  CHECK(st, vt_start(h, &m, 0) == 0 && vt_ready_wait(h, MAX_TIMEOUT) == 0);
  uint32_t r[2] = {0};
  CHECK(st, vt_copy_from_dev(h, out, r, sizeof r, 0, 0) == 0 && r[0] == 100 && r[1] == 101);
  char path[512];
  snprintf(path, sizeof path, "%s/perf_timing.txt", VT_TEST_TMP);
  FILE *f = fopen(path, "w+");
  CHECK(st, f && vt_dump_perf(h, f) == 0);
  if (f) {
    rewind(f);
    static char buf[1 << 16];
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    buf[got] = 0;
    CHECK(st, strstr(buf, "\nFIN ") != NULL);
    CHECK(st, strstr(strstr(buf, "\nFIN ") + 1, "\nFIN ") == NULL); /* once */
    CHECK(st, strstr(buf, "cycles") != NULL);
    fclose(f);
  }
  vt_dev_close(h);
  setenv("VT_TIMING", "no-such-preset", 1);
  CHECK(st, vt_dev_open(&h) == -1);
  CHECK(st, strstr(vt_last_error(), "VT_TIMING: 'no-such-preset' is not 0, 1 or a preset") != NULL);
  setenv("VT_TIMING", "1", 1);
  setenv("VT_L2_SETS", "many", 1);
  CHECK(st, vt_dev_open(&h) == -1);
  CHECK(st, strstr(vt_last_error(), "VT_L2_SETS: 'many' is not a valid value for l2_sets") != NULL);
  unsetenv("VT_L2_SETS");
  unsetenv("VT_TIMING");
}

RUN_TESTS(T(timing_model_through_the_driver), T(open_close_and_bad_handles), T(capabilities), T(configuration_from_environment),
          T(contexts), T(buffers_and_copies), T(launch_and_wait), T(kernel_trap_is_an_error),
          T(asynchronous_start_and_timeout), T(kernel_files), T(two_devices_in_one_process))
