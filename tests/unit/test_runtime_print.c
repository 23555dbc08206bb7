/* printf through the runtime: the print-buffer protocol (hello kernel +
 * vt_printf's formatted records, a kernel's own text record), a full
 * buffer, no buffer, and the official library's fixed window at 0xa0024000
 * (auto, forced off, output before a trap). Formats: test_runtime_printf.c. */
#include "check.h"
#include "rt_test_util.h"

typedef struct fixture {
  vt_rt *rt;
  vt_rt_program *p;
  vt_rt_kernel *k;
  rt_capture cap;
} fixture;

static int setup(check_state *st, fixture *f, vt_rt_options *o, const char *kernel) {
  memset(f, 0, sizeof *f);
  size_t n;
  uint8_t *img = rt_test_image(&n);
  vt_rt_options def;
  if (!o) {
    vt_rt_options_default(&def);
    o = &def;
  }
  o->print_fn = rt_capture_fn;
  o->print_user = &f->cap;
  char msg[256];
  int rc = img ? vt_rt_create(o, &f->rt, msg, sizeof msg) : -1;
  if (rc == 0) rc = vt_rt_program_load_mem(f->rt, img, n, "test", &f->p);
  if (rc == 0) rc = vt_rt_kernel_create(f->p, kernel, &f->k);
  if (rc && f->rt) fprintf(stderr, "setup: %s\n", vt_rt_error(f->rt));
  free(img);
  CHECK(st, rc == 0);
  return rc;
}

static void teardown(fixture *f) {
  vt_rt_kernel_free(f->k);
  vt_rt_program_free(f->p);
  vt_rt_destroy(f->rt);
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

TEST(print_buffer_records) {
  fixture f;
  if (setup(st, &f, NULL, "hello")) return;
  uint32_t out = 0;
  CHECK(st, vt_rt_alloc(f.rt, 64, &out) == 0 && vt_rt_set_arg_buffer(f.k, 0, out, 0) == 0);
  vt_rt_ndrange nd = {.dims = 1, .global = {8}, .local = {8}, .offset = {3}};
  vt_rt_launch_info info;
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK(st, strstr(f.cap.text, "[A] workgroup 0: 1 warp(s) x 8 threads, 100% ready\n") != NULL);
  CHECK(st, strstr(f.cap.text, "gid 3: square 9 = 0x9 (odd), negated -3, warp 0\n") != NULL);
  CHECK(st, strstr(f.cap.text, "gid 10: square 100 = 0x64 (even), negated -10, warp 0\n") != NULL);
  CHECK(st, count_lines(f.cap.text) == 9);
  CHECK_EQ_U32(st, info.print_bytes, f.cap.len);
  CHECK_EQ_U32(st, info.print_lost, 0);
  CHECK(st, info.print_addr >= 0x90000000u);
  CHECK_EQ_U32(st, info.print_size, VT_RT_DEFAULT_PRINT_SIZE);
  /* the record layout in device memory: the host reset the header */
  uint32_t hdr[2];
  CHECK(st, vt_rt_read(f.rt, info.print_addr, hdr, 8) == 0);
  CHECK_EQ_U32(st, hdr[0], 0);
  uint32_t len;
  CHECK(st, vt_rt_read(f.rt, info.print_addr + 8, &len, 4) == 0);
  /* the first record's length word stays: a formatted record (bit 31) of
   * vt_printf's 32 bytes (a0..a7) */
  CHECK_EQ_U32(st, len, 0x80000000u | 32);
  /* a second launch prints again from an empty buffer */
  f.cap.len = 0;
  f.cap.text[0] = 0;
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK(st, count_lines(f.cap.text) == 9);
  teardown(&f);
}

TEST(full_print_buffer_loses_records) {
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.print_buffer_size = 128; /* 8-byte header + 120 bytes: three 36-byte records fit */
  fixture f;
  if (setup(st, &f, &o, "hello")) return;
  uint32_t out = 0;
  CHECK(st, vt_rt_alloc(f.rt, 64, &out) == 0 && vt_rt_set_arg_buffer(f.k, 0, out, 0) == 0);
  vt_rt_ndrange nd = {.dims = 1, .global = {8}, .local = {8}};
  vt_rt_launch_info info;
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK(st, info.print_lost > 0);
  CHECK(st, strstr(f.cap.text, "[A] workgroup 0") == f.cap.text);
  CHECK(st, strstr(f.cap.text, "printf record(s) lost: the print buffer (128 bytes) is full") != NULL);
  CHECK_EQ_U32(st, info.print_lost + 3, 9);
  teardown(&f);
}

/* a text record written by the kernel itself (length word without bit 31)
 * prints as is, also next to formatted records */
TEST(text_records) {
  fixture f;
  if (setup(st, &f, NULL, "textrec")) return;
  vt_rt_ndrange nd = {.dims = 1, .global = {1}};
  vt_rt_launch_info info;
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK_STR(st, f.cap.text, "raw text\n");
  CHECK_EQ_U32(st, info.print_bytes, 9);
  uint32_t rec[4];
  CHECK(st, vt_rt_read(f.rt, info.print_addr + 8, rec, sizeof rec) == 0);
  CHECK_EQ_U32(st, rec[0], 9);
  CHECK(st, memcmp(rec + 1, "raw text\n", 9) == 0);
  vt_rt_kernel *h = NULL;
  uint32_t out = 0;
  CHECK(st, vt_rt_kernel_create(f.p, "hello", &h) == 0);
  CHECK(st, vt_rt_alloc(f.rt, 64, &out) == 0 && vt_rt_set_arg_buffer(h, 0, out, 0) == 0);
  CHECK(st, vt_rt_launch(h, &nd, NULL) == 0);
  CHECK(st, vt_rt_launch(f.k, &nd, NULL) == 0);
  CHECK(st, strstr(f.cap.text, "gid 0: square 0 = 0x0 (even), negated 0, warp 0\nraw text\n") !=
                NULL);
  vt_rt_kernel_free(h);
  teardown(&f);
}

TEST(no_print_buffer) {
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.no_print_buffer = 1;
  fixture f;
  if (setup(st, &f, &o, "hello")) return;
  uint32_t out = 0;
  CHECK(st, vt_rt_alloc(f.rt, 64, &out) == 0 && vt_rt_set_arg_buffer(f.k, 0, out, 0) == 0);
  vt_rt_ndrange nd = {.dims = 1, .global = {8}};
  vt_rt_launch_info info;
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0); /* vt_printf sees BUFFER_ADDR = 0 */
  CHECK_EQ_U32(st, info.print_addr, 0);
  CHECK_EQ_U32(st, info.print_bytes, 0);
  CHECK(st, f.cap.len == 0);
  int32_t r[8];
  CHECK(st, vt_rt_read(f.rt, out, r, sizeof r) == 0);
  CHECK(st, r[7] == 49);
  teardown(&f);
}

TEST(official_window) {
  fixture f;
  if (setup(st, &f, NULL, "window")) return; /* the program defines _printf_buffer */
  vt_rt_ndrange nd = {.dims = 1, .global = {64}, .local = {32}};
  vt_rt_launch_info info;
  int rc = vt_rt_launch(f.k, &nd, &info);
  if (rc) fprintf(stderr, "%s\n", vt_rt_error(f.rt));
  CHECK(st, rc == 0);
  CHECK_STR(st, f.cap.text, "hello from the printf window\n");
  CHECK_EQ_U32(st, info.print_bytes, 29);
  uint8_t win[1024], zero[1024] = {0};
  CHECK(st, vt_rt_read(f.rt, VT_RT_PRINT_WINDOW_ADDR, win, sizeof win) == 0);
  CHECK(st, memcmp(win, zero, sizeof win) == 0); /* cleared after the launch */
  /* every launch uploads the ELF again, so _printf_pos starts at 0 */
  f.cap.len = 0;
  CHECK(st, vt_rt_launch(f.k, &nd, &info) == 0);
  CHECK_STR(st, f.cap.text, "hello from the printf window\n");
  /* buffers allocated later stay out of the window */
  uint32_t b;
  CHECK(st, vt_rt_alloc(f.rt, 16, &b) == 0);
  CHECK(st, b + 16 <= VT_RT_PRINT_WINDOW_ADDR ||
                b >= VT_RT_PRINT_WINDOW_ADDR + VT_RT_PRINT_WINDOW_SIZE);
  teardown(&f);
}

TEST(window_off_makes_the_store_fault) {
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.print_window = VT_RT_WINDOW_OFF;
  fixture f;
  if (setup(st, &f, &o, "window")) return;
  vt_rt_ndrange nd = {.dims = 1, .global = {1}};
  CHECK(st, vt_rt_launch(f.k, &nd, NULL) != 0);
  CHECK(st, strstr(vt_rt_error(f.rt), "kernel 'window' failed") != NULL);
  CHECK(st, strstr(vt_rt_error(f.rt), "0xa0024000") != NULL);
  teardown(&f);
}

/* output printed before a trap in a later launch of the same context */
TEST(window_and_buffer_together) {
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.print_window = VT_RT_WINDOW_ON;
  fixture f;
  if (setup(st, &f, &o, "hello")) return;
  vt_rt_kernel *w = NULL;
  CHECK(st, vt_rt_kernel_create(f.p, "window", &w) == 0);
  uint32_t out = 0;
  CHECK(st, vt_rt_alloc(f.rt, 64, &out) == 0 && vt_rt_set_arg_buffer(f.k, 0, out, 0) == 0);
  vt_rt_ndrange one = {.dims = 1, .global = {1}};
  CHECK(st, vt_rt_launch(f.k, &one, NULL) == 0);
  CHECK(st, vt_rt_launch(w, &one, NULL) == 0);
  CHECK(st, strstr(f.cap.text, "gid 0: square 0") != NULL);
  CHECK(st, strstr(f.cap.text, "hello from the printf window\n") != NULL);
  vt_rt_kernel_free(w);
  teardown(&f);
}

RUN_TESTS(T(print_buffer_records), T(full_print_buffer_loses_records), T(text_records),
          T(no_print_buffer),
          T(official_window), T(window_off_makes_the_store_fault), T(window_and_buffer_together))
