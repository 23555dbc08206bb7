/* Host copies of the driver (vt_copy_to_dev / vt_copy_from_dev) are checked
 * against the size asked for at vt_buf_alloc, not the page-rounded
 * mapping, with a message naming the buffer, its size and the overrun; a
 * failing copy writes nothing. Writes into the local-memory window
 * [0x70000000, 0x80000000) are accepted and reach no kernel; reads of it
 * fail (docs/driver.md "Host copies"). */
#include <stdlib.h>

#include "check.h"
#include "ventus.h"
#include "vt/asm.h"

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

static int contains(const char *hay, const char *needle) { return strstr(hay, needle) != NULL; }

TEST(copies_stay_inside_the_requested_size) {
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  uint64_t b = 0, next = 0;
  CHECK(st, vt_buf_alloc(h, 64, &b, READ_WRITE, 0, 0) == 0 && b == 0x90000000u);
  CHECK(st, vt_buf_alloc(h, 100, &next, READ_WRITE, 0, 0) == 0 && next == 0x90001000u);
  uint8_t src[64], back[64];
  for (int i = 0; i < 64; i++) src[i] = (uint8_t)(0xa0 + i);
  /* exactly the buffer, and its last word */
  CHECK(st, vt_copy_to_dev(h, b, src, 64, 0, 0) == 0);
  CHECK(st, vt_copy_to_dev(h, b + 60, src, 4, 0, 0) == 0);
  CHECK(st, vt_copy_from_dev(h, b, back, 64, 0, 0) == 0);
  CHECK(st, memcmp(back, src, 60) == 0 && memcmp(back + 60, src, 4) == 0);

  /* the case of the issue: 64 bytes at B + 60 run 60 bytes into the padding */
  uint8_t other[64];
  memset(other, 0x55, sizeof other);
  CHECK(st, vt_copy_to_dev(h, b + 60, other, 64, 0, 0) == -1);
  CHECK_STR(st, vt_last_error(),
            "vt_copy_to_dev: 64 bytes at 0x9000003c overrun the buffer at 0x90000000 (64 bytes) "
            "by 60 bytes");
  /* nothing was written, not even the part inside the buffer */
  CHECK(st, vt_copy_from_dev(h, b + 60, back, 4, 0, 0) == 0 && memcmp(back, src, 4) == 0);

  /* reads are checked the same way */
  CHECK(st, vt_copy_from_dev(h, b, back, 65, 0, 0) == -1);
  CHECK_STR(st, vt_last_error(),
            "vt_copy_from_dev: 65 bytes at 0x90000000 overrun the buffer at 0x90000000 (64 "
            "bytes) by 1 bytes");
  /* starting in the padding of the page */
  CHECK(st, vt_copy_to_dev(h, b + 64, src, 4, 0, 0) == -1);
  CHECK(st, contains(vt_last_error(), "is not inside an allocated buffer: it starts 0 bytes past "
                                      "the end of the buffer at 0x90000000 (64 bytes)"));
  CHECK(st, vt_copy_from_dev(h, b + 4092, back, 4, 0, 0) == -1);
  CHECK(st, contains(vt_last_error(), "starts 4028 bytes past the end"));
  /* a 100-byte buffer: 96 + 4 fits, 97 + 4 does not */
  CHECK(st, vt_copy_to_dev(h, next + 96, src, 4, 0, 0) == 0);
  CHECK(st, vt_copy_to_dev(h, next + 97, src, 4, 0, 0) == -1);
  CHECK(st, contains(vt_last_error(), "the buffer at 0x90001000 (100 bytes) by 1 bytes"));
  /* a copy reaching from one buffer into the next is an overrun of the first */
  static uint8_t big[4100];
  CHECK(st, vt_copy_to_dev(h, b, big, sizeof big, 0, 0) == -1);
  CHECK(st, contains(vt_last_error(), "(64 bytes) by 4036 bytes"));
  CHECK(st, vt_dev_close(h) == 0);
}

/* sizes over 4 GiB and addresses over 32 bits never wrap around */
TEST(huge_sizes_and_addresses) {
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  uint64_t b = 0;
  CHECK(st, vt_buf_alloc(h, 8, &b, READ_WRITE, 0, 0) == 0);
  uint8_t x[8] = {0};
  CHECK(st, vt_copy_to_dev(h, b, x, 0xffffffffffffffffull, 0, 0) == -1);
  CHECK(st, contains(vt_last_error(), "overrun the buffer at 0x90000000 (8 bytes)"));
  CHECK(st, vt_copy_to_dev(h, b + 0x100000000ull, x, 4, 0, 0) == -1);
  CHECK(st, contains(vt_last_error(), "is not inside an allocated buffer"));
  CHECK(st, vt_copy_to_dev(h, 0x7ffffffcu, x, 0xffffffffffffffffull, 0, 0) == -1);
  CHECK(st, contains(vt_last_error(), "crosses the end of the local-memory window"));
  CHECK(st, vt_dev_close(h) == 0);
}

/* pocl zero-fills __local arguments at placeholder addresses just below
 * 0x80000000: accepted, and no kernel sees what was written there */
TEST(local_window_writes_are_accepted_and_reach_no_kernel) {
  vt_device_h h;
  CHECK(st, vt_dev_open(&h) == 0);
  uint32_t junk[1024];
  for (int i = 0; i < 1024; i++) junk[i] = 0xdeadbeefu;
  CHECK(st, vt_copy_to_dev(h, 0x7ffff000u, junk, sizeof junk, 0, 0) == 0);
  CHECK(st, vt_copy_to_dev(h, 0x70000000u, junk, 4, 0, 0) == 0);
  CHECK(st, vt_copy_to_dev(h, 0x7ffffffcu, junk, 8, 0, 0) == -1);
  CHECK_STR(st, vt_last_error(),
            "vt_copy_to_dev: [0x7ffffffc, +0x8) crosses the end of the local-memory window "
            "(0x80000000)");
  CHECK(st, vt_copy_from_dev(h, 0x7ffff000u, junk, 4, 0, 0) == -1);
  CHECK(st, contains(vt_last_error(), "0x7ffff000 is in the local-memory window"));
  CHECK(st, vt_copy_to_dev(h, 0x7ffff000u, NULL, 4, 0, 0) == -1);
  CHECK(st, vt_copy_to_dev(h, 0x7ffff000u, junk, 0, 0, 0) == -1);

  /* a kernel reads local memory at 0x7ffff000 and 0x70000000 into out */
  uint64_t out = 0;
  CHECK(st, vt_buf_alloc(h, 8, &out, READ_WRITE, 0, 0) == 0);
  uint32_t ones[2] = {1, 1};
  CHECK(st, vt_copy_to_dev(h, out, ones, 8, 0, 0) == 0);
  size_t n = 0;
  uint8_t *img = build_kernel("    li t0, 0x7ffff000\n    lw t1, 0(t0)\n    li t0, 0x70000000\n"
                              "    lw t3, 0(t0)\n    csrr t2, CSR_KNL\n    sw t1, 0(t2)\n"
                              "    sw t3, 4(t2)\n    endprg x0, x0, x0\n",
                              &n);
  CHECK(st, img != NULL);
  if (img) {
    CHECK(st, vt_upload_kernel_bytes(h, img, n, 0) == 0);
    vt_launch_meta m;
    memset(&m, 0, sizeof m);
    m.kernel_size[0] = m.kernel_size[1] = m.kernel_size[2] = 1;
    m.wf_size = 4;
    m.wg_size = 1;
    m.metaDataBaseAddr = out;
    m.ldsSize = 0x1000;
    CHECK(st, vt_start(h, &m, 0) == 0);
    CHECK(st, vt_ready_wait(h, MAX_TIMEOUT) == 0);
    uint32_t r[2] = {7, 7};
    CHECK(st, vt_copy_from_dev(h, out, r, 8, 0, 0) == 0);
    CHECK_EQ_U32(st, r[0], 0); /* local memory is zero at workgroup start */
    CHECK_EQ_U32(st, r[1], 0);
    free(img);
  }
  CHECK(st, vt_dev_close(h) == 0);
}

RUN_TESTS(T(copies_stay_inside_the_requested_size), T(huge_sizes_and_addresses),
          T(local_window_writes_are_accepted_and_reach_no_kernel))
