/* Host writes and reads of simulated memory (vt_mem_write/vt_mem_read,
 * src/sim/device.c): zeros written to a page nobody touched allocate
 * nothing, since such a page reads as zeros; zeros written over a page
 * that holds data must still replace it. Expected values are the bytes the
 * test wrote. */
#include "check.h"
#include "vt/sim.h"

#define BASE 0x90000000u
#define SIZE (3u * 4096u)

static vt_device *mapped(void) {
  vt_device *dev = vt_device_new(NULL);
  vt_error err;
  if (dev && vt_mem_map(dev, BASE, SIZE, &err) != VT_OK) {
    vt_device_free(dev);
    return NULL;
  }
  return dev;
}

/* data written to the middle page, then zeros over all three pages */
TEST(zeros_replace_data) {
  vt_device *dev = mapped();
  CHECK(st, dev != NULL);
  if (!dev) return;
  static uint8_t buf[SIZE];
  vt_error err;
  for (unsigned i = 0; i < 64; i++) buf[i] = (uint8_t)(0xa0 + i);
  CHECK_EQ_U32(st, vt_mem_write(dev, BASE + 4096u + 100u, buf, 64, &err), VT_OK);
  memset(buf, 0, sizeof buf);
  CHECK_EQ_U32(st, vt_mem_write(dev, BASE, buf, SIZE, &err), VT_OK);
  memset(buf, 0x55, sizeof buf);
  CHECK_EQ_U32(st, vt_mem_read(dev, BASE, buf, SIZE, &err), VT_OK);
  unsigned nonzero = 0;
  for (unsigned i = 0; i < SIZE; i++) nonzero += buf[i] != 0;
  CHECK_EQ_U32(st, nonzero, 0);
  vt_device_free(dev);
}

/* zeros first (no page), then a few bytes, partly across a page boundary */
TEST(data_after_zeros) {
  vt_device *dev = mapped();
  CHECK(st, dev != NULL);
  if (!dev) return;
  static uint8_t buf[SIZE];
  vt_error err;
  memset(buf, 0, sizeof buf);
  CHECK_EQ_U32(st, vt_mem_write(dev, BASE, buf, SIZE, &err), VT_OK);
  const uint8_t bytes[6] = {1, 2, 3, 4, 5, 6};
  CHECK_EQ_U32(st, vt_mem_write(dev, BASE + 2u * 4096u - 3u, bytes, 6, &err), VT_OK);
  memset(buf, 0x55, sizeof buf);
  CHECK_EQ_U32(st, vt_mem_read(dev, BASE, buf, SIZE, &err), VT_OK);
  for (unsigned i = 0; i < SIZE; i++) {
    unsigned at = i - (2u * 4096u - 3u);
    uint8_t want = at < 6 ? bytes[at] : 0;
    if (buf[i] != want) {
      fprintf(stderr, "byte %u: 0x%02x, expected 0x%02x\n", i, buf[i], want);
      CHECK(st, buf[i] == want);
      break;
    }
  }
  vt_device_free(dev);
}

RUN_TESTS(T(zeros_replace_data), T(data_after_zeros))
