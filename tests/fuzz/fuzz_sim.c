/* libFuzzer target: the simulator's executors on arbitrary instruction
 * streams. Input: 4 shape bytes (threads per warp, warps, workgroups, SMs),
 * then instruction words placed after a fixed prologue that sets vl, turns
 * FP on and points a0/a1/v1/v2 into a mapped buffer (so loads and stores
 * often hit memory). The program runs on the functional model and then on
 * the timing model (bits 1-2 of the fourth byte choose its fetch group
 * size), each with a small instruction budget; any outcome is fine except a
 * crash, a hang, a sanitizer report, an error without a message or
 * location, or a budget overrun. */
#include <string.h>

#include "counters_util.h"
#include "fuzz_check.h"
#include "vt/sim.h"
#include "vt/timing.h"

#define BUF 0x90000000u

static const uint32_t prologue[] = {
    0x02000e93, /* li t4, 32 */
    0x0d0efed7, /* vsetvli t4, t4, e32, m1, ta, ma */
    0x00002eb7, /* lui t4, 2 */
    0x300eaef3, /* csrrs t4, mstatus, t4 */
    0x90000537, /* lui a0, 0x90000 */
    0x000505b3, /* add a1, a0, zero */
    0x5208a0d7, /* vid.v v1 */
    0x96113157, /* vsll.vi v2, v1, 2 */
    0x02254157, /* vadd.vx v2, v2, a0 */
};

/* a device holding the prologue and the input's words, with the buffer */
static vt_device *make_device(const uint8_t *data, size_t size) {
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.max_insns = 5000;
  cfg.sms = 1 + data[3] % 2;
  cfg.simt_depth = 64;
  vt_device *dev = vt_device_new(&cfg);
  FUZZ_CHECK(dev != NULL, "out of memory");
  vt_error err;
  size_t nwords = (size - 4) / 4;
  if (nwords > 4096) nwords = 4096;
  FUZZ_CHECK(vt_mem_write(dev, VT_PROGRAM_BASE, prologue, sizeof prologue, &err) == VT_OK, "%s",
             err.message);
  if (nwords)
    FUZZ_CHECK(vt_mem_write(dev, VT_PROGRAM_BASE + sizeof prologue, data + 4, 4 * nwords, &err) ==
                   VT_OK, "%s", err.message);
  FUZZ_CHECK(vt_mem_map(dev, BUF, 0x10000, &err) == VT_OK, "%s", err.message);
  return dev;
}

static void check_outcome(vt_device *dev, int rc, const vt_error *err, const char *model) {
  FUZZ_CHECK(rc == VT_OK || err->message[0] != 0, "%s: error %d without a message", model, rc);
  if (rc != VT_OK && rc != VT_ERR_NOMEM && rc != VT_ERR_CONFIG)
    FUZZ_CHECK(err->has_location, "%s: error %d without a location: %s", model, rc, err->message);
  double s[VT_C_COUNT];
  vt_test_counters(dev, s);
  FUZZ_CHECK(s[VT_C_warp_instructions] <= 5000, "%s: budget exceeded: %llu", model,
             (unsigned long long)s[VT_C_warp_instructions]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  unsigned t = 1u << (data[0] % 6), w = 1 + data[1] % 4, g = 1 + data[2] % 3;
  vt_launch l;
  memset(&l, 0, sizeof l);
  l.start_pc = VT_PROGRAM_BASE;
  l.num_wg[0] = g;
  l.num_wg[1] = l.num_wg[2] = 1;
  l.threads_per_warp = t;
  l.warps_per_wg = w;
  l.knl_addr = BUF;
  l.lds_size = 0x1000;
  l.pds_size = 16;
  l.pds_base = BUF + 0x8000;
  vt_error err;
  memset(&err, 0, sizeof err);
  vt_device *dev = make_device(data, size);
  int rc = vt_device_run(dev, &l, NULL, &err);
  check_outcome(dev, rc, &err, "functional");
  vt_device_free(dev);
  /* the timing model on a fresh device; bits 1-2 of byte 3 pick the fetch
   * group size (the preset's, or the extremes 4, 1024, 4096 bytes) */
  static const unsigned fetch[4] = {0, 4, 1024, 4096};
  vt_settings tc;
  vt_settings_default(&tc);
  if (fetch[(data[3] >> 1) & 3]) tc.fetch_bytes = fetch[(data[3] >> 1) & 3];
  vt_timing *tm = vt_timing_new(&tc);
  FUZZ_CHECK(tm != NULL, "out of memory");
  dev = make_device(data, size);
  memset(&err, 0, sizeof err);
  rc = vt_timing_run(tm, dev, &l, "fuzz", &err);
  check_outcome(dev, rc, &err, "timing");
  vt_timing_free(tm);
  vt_device_free(dev);
  return 0;
}
