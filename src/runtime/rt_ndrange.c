/* NDRange geometry: validation, the default workgroup size, threads per
 * warp and warps per workgroup (docs/runtime.md "Geometry"). */
#include <stdio.h>
#include <string.h>

#include "rt_internal.h"

#define MAX_LOCAL_ITEMS 1024u /* pocl's limit on a workgroup */

/* The default local size (docs/runtime.md "Geometry"): among the local
 * sizes whose every dimension divides the global size and whose work-items
 * fit 'limit', the one that keeps the largest share of its warps' lanes
 * busy with warps of tw lanes (a multiple of tw keeps all of them); then
 * the most work-items; then the largest x, then the largest y. */
typedef struct pick {
  uint32_t l[3];
  uint64_t items, lanes; /* lanes = items rounded up to a multiple of tw */
} pick;

static bool better(const pick *a, const pick *b) {
  if (b->items == 0) return true;
  uint64_t ua = a->items * b->lanes, ub = b->items * a->lanes; /* a/al vs b/bl */
  if (ua != ub) return ua > ub;
  if (a->items != b->items) return a->items > b->items;
  if (a->l[0] != b->l[0]) return a->l[0] > b->l[0];
  return a->l[1] > b->l[1];
}

/* divisors of g up to limit, ascending; returns their count */
static unsigned divisors(uint32_t g, uint32_t limit, uint32_t *out) {
  unsigned n = 0;
  for (uint32_t d = 1; d <= limit && d <= g; d++)
    if (g % d == 0) out[n++] = d;
  return n;
}

static void default_local(const uint32_t g[3], uint32_t limit, unsigned tw, uint32_t l[3]) {
  uint32_t dv[3][MAX_LOCAL_ITEMS];
  unsigned nd[3];
  for (unsigned d = 0; d < 3; d++) nd[d] = divisors(g[d], limit, dv[d]);
  pick best = {{1, 1, 1}, 0, 0};
  for (unsigned i = 0; i < nd[0]; i++)
    for (unsigned j = 0; j < nd[1] && (uint64_t)dv[0][i] * dv[1][j] <= limit; j++)
      for (unsigned k = 0; k < nd[2]; k++) {
        uint64_t items = (uint64_t)dv[0][i] * dv[1][j] * dv[2][k];
        if (items > limit) break;
        pick c = {{dv[0][i], dv[1][j], dv[2][k]}, items, (items + tw - 1) / tw * tw};
        if (better(&c, &best)) best = c;
      }
  memcpy(l, best.l, sizeof best.l);
}

/* Work-items a default workgroup may hold with warps of tw lanes: it fits
 * one SM's warp slots (and 32 warps, 1024 items); on a fixed device also
 * its local memory: W warp stacks beside the static __local data and the
 * __local arguments (with alignment slack). */
static uint32_t default_limit(const vt_rt_kernel *k, unsigned tw) {
  const rt_shape *sh = &k->prog->rt->shape;
  uint64_t maxw = sh->warp_slots < 32 ? sh->warp_slots : 32;
  if (sh->fixed) {
    uint64_t other = (uint64_t)k->static_local + rt_local_arg_bytes(k) + VT_RT_LOCAL_ARG_ALIGN;
    uint64_t lds_w = sh->lds_bytes > other ? (sh->lds_bytes - other) / VT_RT_LDS_STACK_PER_WARP : 0;
    if (lds_w < maxw) maxw = lds_w ? lds_w : 1;
  }
  uint64_t limit = tw * maxw;
  return limit > MAX_LOCAL_ITEMS ? MAX_LOCAL_ITEMS : (uint32_t)limit;
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
    unsigned tw = tfix ? tfix : 32;
    default_local(g, default_limit(k, tw), tw, l);
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
  info->dims = dims;
  return 0;
}

int vt_rt_plan(vt_rt_kernel *k, const vt_rt_ndrange *nd, vt_rt_launch_info *info) {
  vt_rt_launch_info tmp;
  return rt_plan(k, nd, info ? info : &tmp);
}

/* "A", "AxB" or "AxBxC" of the first dims values */
static int dims_text(char *buf, size_t size, unsigned dims, const uint32_t *v) {
  int n = 0;
  for (unsigned d = 0; d < dims; d++) {
    int w = snprintf(buf + n, size - (size_t)n, "%s%u", d ? "x" : "", v[d]);
    if (w < 0 || (size_t)w >= size - (size_t)n) return -1;
    n += w;
  }
  return n;
}

int vt_rt_geometry_format(const vt_rt_launch_info *info, char *buf, size_t size) {
  if (!info || !buf || size == 0) return -1;
  unsigned dims = info->dims, t = info->threads_per_warp, w = info->warps_per_group;
  if (dims < 1 || dims > 3 || t == 0 || w == 0) return -1;
  uint32_t global[3];
  uint64_t groups = 1, items = 1;
  for (unsigned d = 0; d < 3; d++) {
    global[d] = info->groups[d] * info->local[d];
    groups *= info->groups[d];
    items *= info->local[d];
  }
  char g[40], l[40], n[40];
  if (dims_text(g, sizeof g, dims, global) < 0 || dims_text(l, sizeof l, dims, info->local) < 0 ||
      dims_text(n, sizeof n, dims, info->groups) < 0)
    return -1;
  char count[64];
  if (dims == 1)
    snprintf(count, sizeof count, "%llu workgroup%s", (unsigned long long)groups,
             groups == 1 ? "" : "s");
  else
    snprintf(count, sizeof count, "%llu workgroup%s (%s)", (unsigned long long)groups,
             groups == 1 ? "" : "s", n);
  char last[80] = "";
  uint64_t used = items - (uint64_t)(w - 1) * t; /* lanes of the last warp with a work-item */
  if (used < t)
    snprintf(last, sizeof last, " (last warp: %llu of %u lanes)", (unsigned long long)used, t);
  return snprintf(buf, size, "global %s, local %s, %s, %u warp%s/workgroup, %u threads/warp%s", g,
                  l, count, w, w == 1 ? "" : "s", t, last);
}
