/* Runtime contexts: options, creation on a device, error messages. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"
#include "vt/driver_ext.h"

void vt_rt_options_default(vt_rt_options *o) {
  memset(o, 0, sizeof *o);
  o->print_window = VT_RT_WINDOW_AUTO;
}

int rt_fail(vt_rt *rt, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rt->err, sizeof rt->err, fmt, ap);
  va_end(ap);
  return -1;
}

int rt_fail_driver(vt_rt *rt, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rt->err, sizeof rt->err, fmt, ap);
  va_end(ap);
  const char *d = vt_last_error();
  size_t n = strlen(rt->err);
  if (d && *d && n < sizeof rt->err) snprintf(rt->err + n, sizeof rt->err - n, ": %s", d);
  return -1;
}

int vt_rt_create(const vt_rt_options *opts, vt_rt **out, char *err, size_t errn) {
  *out = NULL;
  vt_rt_options o;
  if (opts)
    o = *opts;
  else
    vt_rt_options_default(&o);
  const char *bad = NULL;
  if (o.threads_per_warp > 32 || (o.threads_per_warp & (o.threads_per_warp - 1)))
    bad = "threads per warp must be a power of two from 1 to 32";
  else if (o.print_window < VT_RT_WINDOW_AUTO || o.print_window > VT_RT_WINDOW_OFF)
    bad = "bad print_window setting";
  else if (o.private_size % 4)
    bad = "the private size per thread must be a multiple of 4";
  else if (!o.no_print_buffer && o.print_buffer_size && o.print_buffer_size < 16)
    bad = "the print buffer needs at least 16 bytes";
  if (bad) {
    if (err && errn) snprintf(err, errn, "%s", bad);
    return -1;
  }
  if (o.timeout_ms == 0) o.timeout_ms = MAX_TIMEOUT;
  vt_rt *rt = calloc(1, sizeof *rt);
  if (!rt) {
    if (err && errn) snprintf(err, errn, "out of memory");
    return -1;
  }
  rt->opt = o;
  if (o.device) {
    rt->dev = o.device;
  } else {
    if (vt_dev_open_settings(&rt->dev, o.settings) != 0) {
      if (err && errn) snprintf(err, errn, "cannot open the device: %s", vt_last_error());
      free(rt);
      return -1;
    }
    rt->own_dev = true;
  }
  if (rt_apply_settings(rt) != 0 || rt_query_shape(rt) != 0 || rt_own_context(rt) != 0) {
    if (err && errn) snprintf(err, errn, "%s", rt->err);
    vt_rt_destroy(rt);
    return -1;
  }
  *out = rt;
  return 0;
}

void vt_rt_destroy(vt_rt *rt) {
  if (!rt) return;
  if (rt->own_dev) {
    vt_dev_close(rt->dev);
  } else {
    /* give the caller's device back without the runtime's buffers */
    for (size_t i = 0; i < rt->nbufs; i++) {
      uint64_t a = rt->bufs[i].addr;
      vt_one_buf_free(rt->dev, rt->bufs[i].size, &a, rt->task, 0);
    }
    uint64_t own[4] = {rt->knl_addr, rt->args_addr, rt->pds_addr, rt->print_addr};
    uint64_t size[4] = {rt->knl_cap, rt->args_cap, rt->pds_cap, rt->print_size};
    for (int i = 0; i < 4; i++)
      if (own[i]) vt_one_buf_free(rt->dev, size[i], &own[i], rt->task, 0);
    if (rt->task) vt_root_mem_free(rt->dev, rt->task);
  }
  free(rt->bufs);
  free(rt);
}

const char *vt_rt_error(const vt_rt *rt) { return rt ? rt->err : "no runtime context"; }

vt_device_h vt_rt_device(const vt_rt *rt) { return rt->dev; }
