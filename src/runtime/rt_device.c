/* The device's shape (threads per warp, warp slots, fixed or growable) and
 * the grow-only per-context buffers. */
#include <stdio.h>

#include "vt/driver_ext.h"
#include "rt_internal.h"

/* The runtime settings of the device's session (print buffer, private
 * memory) where the options leave them open. */
int rt_apply_settings(vt_rt *rt) {
  vt_session *s = vt_dev_session(rt->dev);
  if (!s) return rt_fail_driver(rt, "not a vt device");
  const vt_settings *st = vt_session_settings(s);
  if (!rt->opt.no_print_buffer && rt->opt.print_buffer_size == 0) {
    rt->opt.print_buffer_size = st->print_buffer;
    if (st->print_buffer == 0) rt->opt.no_print_buffer = 1;
    else if (st->print_buffer < 16) return rt_fail(rt, "the print buffer needs at least 16 bytes");
  }
  if (rt->opt.private_size == 0) rt->opt.private_size = st->private_bytes & ~3u;
  return 0;
}

/* Warp slots come from vt_dev_caps. Whether the configuration is fixed and
 * whether it fixes the threads per warp is not in the official caps (which
 * report 32 threads for a device that takes T from each launch): the
 * device's session settings say (docs/driver.md). */
int rt_query_shape(vt_rt *rt) {
  uint64_t slots = 0, threads = 0, lds = 0;
  if (vt_dev_caps(&rt->dev, VT_CAPS_MAX_WARPS, &slots) != 0 ||
      vt_dev_caps(&rt->dev, VT_CAPS_MAX_THREADS, &threads) != 0 ||
      vt_dev_caps(&rt->dev, VT_CAPS_LOCAL_MEM_SIZE, &lds) != 0)
    return rt_fail_driver(rt, "cannot query the device");
  const vt_settings *cfg = vt_session_settings(vt_dev_session(rt->dev));
  rt->shape.warp_slots = slots ? (unsigned)slots : 8;
  rt->shape.fixed =
      vt_settings_explicit(cfg, VT_S_warp_slots) || vt_settings_explicit(cfg, VT_S_threads);
  rt->shape.lds_bytes = lds > 0xffffffffu ? 0xffffffffu : (uint32_t)lds;
  rt->shape.threads = cfg->threads;
  if (!rt->shape.threads && threads != 32 && threads >= 1 && threads <= 32)
    rt->shape.threads = (unsigned)threads;
  return 0;
}

/* With the MMU on, a runtime on a device it does not own takes a context
 * of its own (the first free taskID from 1): its buffers, program and
 * launches live in their own address space (docs/memory.md). */
int rt_own_context(vt_rt *rt) {
  const vt_settings *cfg = vt_session_settings(vt_dev_session(rt->dev));
  if (rt->own_dev || !cfg->mmu) return 0;
  for (int t = 1; t <= 64; t++)
    if (vt_root_mem_alloc(rt->dev, t) == 0) {
      rt->task = t;
      return 0;
    }
  return rt_fail_driver(rt, "cannot create a context on the device");
}

int rt_ensure_buffer(vt_rt *rt, uint32_t *addr, uint32_t *cap, uint32_t need, const char *what) {
  if (*addr && *cap >= need) return 0;
  uint32_t want = need < 4096 ? 4096 : (need + 4095) & ~4095u;
  if (*addr) {
    uint64_t a = *addr;
    vt_one_buf_free(rt->dev, *cap, &a, rt->task, 0);
    *addr = 0;
    *cap = 0;
  }
  uint64_t a = 0;
  if (vt_buf_alloc(rt->dev, want, &a, READ_WRITE, rt->task, 0) != 0)
    return rt_fail_driver(rt, "cannot allocate the %s (%u bytes)", what, want);
  *addr = (uint32_t)a;
  *cap = want;
  return 0;
}
