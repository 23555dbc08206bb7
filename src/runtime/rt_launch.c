/* One launch, built the way pocl's Ventus device builds it (host-stack.md
 * 2.7): KNL metadata buffer, argument buffer, private memory, print buffer,
 * the 96-byte launch descriptor; then start, wait and drain the printf
 * output. Layouts: docs/runtime.md. */
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"
#include "vt/driver_ext.h"

#define KNL_WORDS 17 /* 68 bytes: offsets 0..64 */

static uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) & ~(a - 1); }

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

static int drain(vt_rt *rt, const vt_rt_program *prog, vt_rt_launch_info *info) {
  uint32_t a = 0, b = 0, lost = 0;
  int rc = rt_print_drain(rt, prog, &a, &lost);
  if (rt_window_drain(rt, &b) != 0) rc = -1;
  info->print_bytes = a + b;
  info->print_lost = lost;
  return rc;
}

/* The argument buffer is reused from launch to launch: the bytes past this
 * launch's arguments that an earlier launch wrote are zeroed, so a kernel
 * reading more arguments than were set sees 0 (a NULL pointer faults)
 * instead of an earlier launch's values (docs/runtime.md). 'args' has
 * VT_RT_MAX_ARG_BUFFER bytes, the first 'n' packed. */
static int write_args(vt_rt *rt, uint8_t *args, uint32_t n) {
  uint32_t before = rt->args_addr;
  if (rt_ensure_buffer(rt, &rt->args_addr, &rt->args_cap, n, "argument buffer")) return -1;
  if (rt->args_addr != before) rt->args_written = 0; /* a new buffer is all zero */
  uint32_t span = n > rt->args_written ? n : rt->args_written;
  memset(args + n, 0, span - n);
  if (vt_rt_write(rt, rt->args_addr, args, span)) return -1;
  rt->args_written = n;
  return 0;
}

/* local memory: W warp stacks, the kernel's static __local data (at s0),
 * then the __local arguments */
static int place_local(vt_rt_kernel *k, vt_rt_launch_info *info) {
  vt_rt *rt = k->prog->rt;
  unsigned w = info->warps_per_group;
  uint64_t local_base =
      align_up(VT_ADDR_LDS_BASE + VT_RT_LDS_STACK_PER_WARP * w + k->static_local,
               VT_RT_LOCAL_ARG_ALIGN);
  uint32_t local_bytes = rt_local_arg_bytes(k);
  uint64_t lds = local_base + local_bytes - VT_ADDR_LDS_BASE;
  if (lds > VT_ADDR_LDS_SIZE)
    return rt_fail(rt, "kernel '%s': %llu bytes of local memory exceed the %u MiB window",
                   k->name, (unsigned long long)lds, VT_ADDR_LDS_SIZE >> 20);
  if (rt->shape.fixed && lds > rt->shape.lds_bytes)
    return rt_fail(rt,
                   "kernel '%s': a workgroup needs %llu bytes of local memory (%u warp stacks of "
                   "%u bytes, %u static, %u for __local arguments); an SM has %u",
                   k->name, (unsigned long long)lds, w, VT_RT_LDS_STACK_PER_WARP, k->static_local,
                   local_bytes, rt->shape.lds_bytes);
  info->local_args_base = (uint32_t)local_base;
  info->lds_size = align_up((uint32_t)lds, 4);
  return 0;
}

/* the argument buffer */
static int place_args(vt_rt_kernel *k, vt_rt_launch_info *info) {
  vt_rt *rt = k->prog->rt;
  uint8_t *args = malloc(VT_RT_MAX_ARG_BUFFER);
  if (!args) return rt_fail(rt, "out of memory");
  uint32_t nargs_bytes = 0;
  int rc = rt_pack_args(k, info->local_args_base, args, &nargs_bytes, NULL);
  if (rc == 0 && nargs_bytes) rc = write_args(rt, args, nargs_bytes);
  free(args);
  if (rc) return -1;
  info->args_addr = nargs_bytes ? rt->args_addr : 0;
  info->args_size = nargs_bytes;
  return 0;
}

/* private memory: per thread x T x W x workgroups, capped (pocl); at least
 * what the kernel's .ventus.resource section asks for */
static int place_private(vt_rt_kernel *k, vt_rt_launch_info *info) {
  vt_rt *rt = k->prog->rt;
  uint64_t groups = (uint64_t)info->groups[0] * info->groups[1] * info->groups[2];
  uint32_t pds = rt->opt.private_size;
  if (k->private_need > pds) pds = (k->private_need + 3) & ~3u;
  uint64_t pds_total = (uint64_t)pds * info->threads_per_warp * info->warps_per_group * groups;
  if (pds_total > VT_RT_PRIVATE_CAP) pds_total = VT_RT_PRIVATE_CAP;
  if (rt_ensure_buffer(rt, &rt->pds_addr, &rt->pds_cap, (uint32_t)pds_total, "private memory"))
    return -1;
  info->pds_addr = rt->pds_addr;
  info->pds_bytes = (uint32_t)pds_total;
  info->private_per_thread = pds;
  return 0;
}

/* the kernel metadata (KNL) buffer, formats-and-launch.md 3 */
static int write_knl(vt_rt_kernel *k, const vt_rt_ndrange *nd, vt_rt_launch_info *info) {
  vt_rt *rt = k->prog->rt;
  uint32_t knl[KNL_WORDS] = {0};
  knl[0] = k->entry;
  knl[1] = info->args_addr;
  knl[2] = nd->dims;
  for (unsigned d = 0; d < 3; d++) {
    knl[3 + d] = info->groups[d] * info->local[d];
    knl[6 + d] = info->local[d];
    knl[9 + d] = d < nd->dims ? nd->offset[d] : 0;
  }
  knl[12] = info->print_addr;
  knl[13] = info->print_size;
  knl[14] = VT_RT_LDS_STACK_PER_WARP;
  knl[15] = info->lds_size - VT_RT_LDS_STACK_PER_WARP * info->warps_per_group;
  knl[16] = info->private_per_thread;
  uint8_t knl_bytes[4 * KNL_WORDS];
  for (unsigned i = 0; i < KNL_WORDS; i++) put32(knl_bytes + 4 * i, knl[i]);
  if (rt_ensure_buffer(rt, &rt->knl_addr, &rt->knl_cap, sizeof knl_bytes, "metadata buffer") ||
      vt_rt_write(rt, rt->knl_addr, knl_bytes, sizeof knl_bytes))
    return -1;
  info->knl_addr = rt->knl_addr;
  return 0;
}

/* the launch descriptor to the driver, then the wait and the printf drain */
static int start_and_wait(vt_rt_kernel *k, vt_rt_launch_info *info) {
  vt_rt *rt = k->prog->rt;
  vt_launch_meta m;
  memset(&m, 0, sizeof m);
  m.kernel_id = rt->launches++;
  for (unsigned d = 0; d < 3; d++) m.kernel_size[d] = info->groups[d];
  m.wf_size = info->threads_per_warp;
  m.wg_size = info->warps_per_group;
  m.metaDataBaseAddr = rt->knl_addr;
  m.ldsSize = info->lds_size;
  m.pdsSize = info->private_per_thread;
  m.sgprUsage = k->sgprs;
  m.vgprUsage = k->vgprs;
  m.pdsBaseAddr = rt->pds_addr;
  vt_dev_name_launch(rt->dev, k->name);
  if (vt_start(rt->dev, &m, rt->task) != 0) return rt_fail_driver(rt, "kernel '%s': launch refused", k->name);
  if (vt_ready_wait(rt->dev, rt->opt.timeout_ms) != 0) {
    char why[700];
    snprintf(why, sizeof why, "%s", vt_last_error());
    drain(rt, k->prog, info); /* what the kernel printed before it failed */
    return rt_fail(rt, "kernel '%s' failed: %s", k->name, why);
  }
  return drain(rt, k->prog, info);
}

int vt_rt_launch(vt_rt_kernel *k, const vt_rt_ndrange *nd, vt_rt_launch_info *info_out) {
  vt_rt_launch_info tmp;
  vt_rt_launch_info *info = info_out ? info_out : &tmp;
  vt_rt *rt = k->prog->rt;
  if (rt_plan(k, nd, info) != 0 || rt_check_args(k) != 0) return -1;
  if (place_local(k, info) || place_args(k, info) || place_private(k, info)) return -1;
  if (rt_print_prepare(rt) != 0) return -1;
  info->print_addr = rt->print_addr;
  info->print_size = rt->print_addr ? rt->print_size : 0;
  if (write_knl(k, nd, info) != 0) return -1;
  /* the program image, every launch (spike loads the ELF for each run),
   * from the ELF parsed when the program was loaded */
  if (vt_dev_load_elf_task(rt->dev, k->prog->elf, rt->task) != 0)
    return rt_fail_driver(rt, "kernel '%s': uploading %s", k->name, k->prog->name);
  if (rt_label_launch(k, info) != 0) return -1;
  return start_and_wait(k, info);
}
