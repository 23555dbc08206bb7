/* NDRange geometry: validation, the default workgroup size, threads per
 * warp and warps per workgroup (docs/runtime.md "Geometry"). */
#include <string.h>

#include "rt_internal.h"

static uint32_t largest_divisor(uint32_t g, uint32_t limit) {
  if (limit == 0) limit = 1;
  for (uint32_t d = g < limit ? g : limit; d > 1; d--)
    if (g % d == 0) return d;
  return 1;
}

int rt_plan(vt_rt_kernel *k, const vt_rt_ndrange *nd, vt_rt_launch_info *info) {
  vt_rt *rt = k->prog->rt;
  const char *kn = k->name;
  memset(info, 0, sizeof *info);
  if (!nd) return rt_fail(rt, "kernel '%s': no NDRange given", kn);
  unsigned dims = nd->dims;
  if (dims < 1 || dims > 3)
    return rt_fail(rt, "kernel '%s': work dimension %u out of range (1 to 3)", kn, dims);
  uint32_t g[3], l[3];
  bool any_local = false;
  for (unsigned d = 0; d < 3; d++) {
    if (d >= dims) {
      if (nd->global[d] > 1 || nd->local[d] > 1 || nd->offset[d] != 0)
        return rt_fail(rt,
                       "kernel '%s': dimension %u has sizes but the work dimension is %u", kn,
                       d, dims);
      g[d] = 1;
      continue;
    }
    if (nd->global[d] == 0)
      return rt_fail(rt, "kernel '%s': the global size in dimension %u is 0", kn, d);
    if ((uint64_t)nd->offset[d] + nd->global[d] > 0x100000000ull)
      return rt_fail(rt, "kernel '%s': global offset %u + size %u in dimension %u exceed 32 bits",
                     kn, nd->offset[d], nd->global[d], d);
    g[d] = nd->global[d];
    any_local |= nd->local[d] != 0;
  }
  const rt_shape *sh = &rt->shape;
  unsigned tfix = rt->opt.threads_per_warp ? rt->opt.threads_per_warp : sh->threads;
  if (any_local) {
    for (unsigned d = 0; d < dims; d++) {
      if (nd->local[d] == 0)
        return rt_fail(rt, "kernel '%s': the local size in dimension %u is 0", kn, d);
      if (g[d] % nd->local[d] != 0)
        return rt_fail(rt,
                       "kernel '%s': the global size %u in dimension %u is not a multiple of the "
                       "local size %u (non-uniform workgroups are not supported)",
                       kn, g[d], d, nd->local[d]);
      l[d] = nd->local[d];
    }
    for (unsigned d = dims; d < 3; d++) l[d] = 1;
  } else {
    uint32_t limit = (tfix ? tfix : 32) * sh->warp_slots;
    if (limit > 1024) limit = 1024;
    for (unsigned d = 0; d < 3; d++) {
      l[d] = largest_divisor(g[d], limit);
      limit /= l[d];
    }
  }
  uint64_t items = (uint64_t)l[0] * l[1] * l[2];
  unsigned t = tfix;
  if (!t) {
    t = 1;
    while (t < 32 && t < items) t <<= 1;
  }
  uint64_t w = (items + t - 1) / t;
  if (w > 32)
    return rt_fail(rt,
                   "kernel '%s': a workgroup of %llu work-items needs %llu warps of %u threads; "
                   "at most 32 warps per workgroup",
                   kn, (unsigned long long)items, (unsigned long long)w, t);
  if (sh->fixed && w > sh->warp_slots)
    return rt_fail(rt,
                   "kernel '%s': a workgroup of %llu work-items needs %llu warps of %u threads; "
                   "the device has %u warp slots per SM",
                   kn, (unsigned long long)items, (unsigned long long)w, t, sh->warp_slots);
  uint64_t groups = 1;
  for (unsigned d = 0; d < 3; d++) {
    info->local[d] = l[d];
    info->groups[d] = g[d] / l[d];
    groups *= info->groups[d];
  }
  if (groups > 0xffffffffull)
    return rt_fail(rt, "kernel '%s': %llu workgroups are too many", kn, (unsigned long long)groups);
  info->threads_per_warp = t;
  info->warps_per_group = (unsigned)w;
  return 0;
}

int vt_rt_plan(vt_rt_kernel *k, const vt_rt_ndrange *nd, vt_rt_launch_info *info) {
  vt_rt_launch_info tmp;
  return rt_plan(k, nd, info ? info : &tmp);
}
