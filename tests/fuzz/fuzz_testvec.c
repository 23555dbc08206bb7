/* libFuzzer target: the test-vector loader and the simulator.
 *
 * The input is "<metadata text>\0<data text>". A vector the loader accepts
 * is applied to a device and run with a small instruction budget on the
 * functional model, then on a fresh device on the timing model, so both
 * execute whatever program the data holds: random instruction streams, wild
 * addresses, divergence, barriers, odd launch shapes and register usage.
 * Any outcome is fine except a crash, a hang, a sanitizer report or an
 * error without a message. */
#include <string.h>

#include "counters_util.h"
#include "fuzz_check.h"
#include "vt/sim.h"
#include "vt/testvec.h"
#include "vt/timing.h"

/* applies the vector to a fresh device and runs it on the functional
 * model (tm NULL) or the timing model */
static void run_vector(const vt_testvec *tv, vt_timing *tm) {
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.max_insns = 4000;
  vt_device *dev = vt_device_new(&cfg);
  FUZZ_CHECK(dev != NULL, "out of memory");
  vt_launch l;
  vt_error err;
  memset(&err, 0, sizeof err);
  int rc = vt_testvec_apply(dev, tv, &l, &err);
  if (rc == VT_OK) {
    memset(&err, 0, sizeof err);
    rc = tm ? vt_timing_run(tm, dev, &l, "fuzz", &err) : vt_device_run(dev, &l, NULL, &err);
  }
  FUZZ_CHECK(rc == VT_OK || err.message[0] != 0, "error %d without a message", rc);
  double s[VT_C_COUNT];
  vt_test_counters(dev, s);
  FUZZ_CHECK(s[VT_C_warp_instructions] <= 4000, "budget exceeded: %llu", (unsigned long long)s[VT_C_warp_instructions]);
  vt_device_free(dev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, 0, size);
  size_t meta_len = nul ? (size_t)(nul - data) : size;
  const char *meta = (const char *)data;
  const char *dat = nul ? (const char *)nul + 1 : "";
  size_t dat_len = nul ? size - meta_len - 1 : 0;
  vt_testvec *tv = NULL;
  vt_error err;
  memset(&err, 0, sizeof err);
  int rc = vt_testvec_parse(meta, meta_len, "fuzz.metadata", dat, dat_len, "fuzz.data", &tv, &err);
  if (rc != VT_OK) {
    FUZZ_CHECK(tv == NULL, "a failed parse returned a test vector");
    FUZZ_CHECK(err.message[0] != 0, "a failed parse has no message");
    return 0;
  }
  FUZZ_CHECK(tv != NULL, "a successful parse returned no test vector");
  uint64_t wgs = (uint64_t)tv->num_wg[0] * tv->num_wg[1] * tv->num_wg[2];
  if (wgs <= 16) {
    run_vector(tv, NULL);
    vt_settings tc;
    vt_settings_default(&tc);
    vt_timing *tm = vt_timing_new(&tc);
    FUZZ_CHECK(tm != NULL, "out of memory");
    run_vector(tv, tm);
    vt_timing_free(tm);
  }
  vt_testvec_free(tv);
  return 0;
}
