/* The device's shape (threads per warp, warp slots, fixed or growable) and
 * the grow-only per-context buffers. */
#include <stdio.h>

#include "driver/driver_config.h"
#include "rt_internal.h"

/* Warp slots come from vt_dev_caps. Whether the configuration is fixed and
 * whether it fixes the threads per warp is not in the official caps (which
 * report 32 threads for a device that takes T from each launch), so the
 * runtime reads the same configuration the driver's vt_dev_open read:
 * VT_CONFIG and the VT_* variables (docs/driver.md). */
int rt_query_shape(vt_rt *rt) {
  uint64_t slots = 0, threads = 0, lds = 0;
  if (vt_dev_caps(&rt->dev, VT_CAPS_MAX_WARPS, &slots) != 0 ||
      vt_dev_caps(&rt->dev, VT_CAPS_MAX_THREADS, &threads) != 0 ||
      vt_dev_caps(&rt->dev, VT_CAPS_LOCAL_MEM_SIZE, &lds) != 0)
    return rt_fail_driver(rt, "cannot query the device");
  vt_dev_config cfg;
  char msg[512];
  if (vt_driver_config(&cfg, msg, sizeof msg) != 0) return rt_fail(rt, "%s", msg);
  rt->shape.warp_slots = slots ? (unsigned)slots : 8;
  rt->shape.fixed = cfg.fixed;
  rt->shape.lds_bytes = lds > 0xffffffffu ? 0xffffffffu : (uint32_t)lds;
  rt->shape.threads = cfg.threads_per_warp;
  if (!rt->shape.threads && threads != 32 && threads >= 1 && threads <= 32)
    rt->shape.threads = (unsigned)threads;
  return 0;
}

int rt_ensure_buffer(vt_rt *rt, uint32_t *addr, uint32_t *cap, uint32_t need, const char *what) {
  if (*addr && *cap >= need) return 0;
  uint32_t want = need < 4096 ? 4096 : (need + 4095) & ~4095u;
  if (*addr) {
    uint64_t a = *addr;
    vt_one_buf_free(rt->dev, *cap, &a, 0, 0);
    *addr = 0;
    *cap = 0;
  }
  uint64_t a = 0;
  if (vt_buf_alloc(rt->dev, want, &a, READ_WRITE, 0, 0) != 0)
    return rt_fail_driver(rt, "cannot allocate the %s (%u bytes)", what, want);
  *addr = (uint32_t)a;
  *cap = want;
  return 0;
}
