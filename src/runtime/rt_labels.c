/* Names for the memory of a launch, so that the memory checker's messages
 * say which allocation an access missed: every buffer argument ("argument
 * 2"), the argument buffer, the kernel metadata, the private area and the
 * print buffer, each with the bytes this launch uses (docs/run.md, "Memory
 * checking"). */
#include <stdio.h>

#include "rt_internal.h"
#include "vt/driver_ext.h"

static int label(vt_rt *rt, uint32_t addr, uint64_t size, const char *what) {
  if (!addr || !size) return 0;
  if (vt_dev_label(rt->dev, addr, size, what) != 0)
    return rt_fail_driver(rt, "cannot name the %s", what);
  return 0;
}

int rt_label_launch(vt_rt_kernel *k, const vt_rt_launch_info *info) {
  vt_rt *rt = k->prog->rt;
  if (label(rt, info->args_addr, info->args_size, "the argument buffer") ||
      label(rt, info->knl_addr, 68, "the kernel metadata (KNL, 68 bytes)") ||
      label(rt, info->pds_addr, info->pds_bytes, "the private memory") ||
      label(rt, info->print_addr, info->print_size, "the print buffer"))
    return -1;
  for (unsigned i = 0; i < k->nargs; i++) {
    if (k->args[i].kind != ARG_BUFFER || !k->args[i].value) continue;
    uint32_t base = 0;
    uint64_t size = 0;
    for (size_t b = 0; b < rt->nbufs && !size; b++)
      if (k->args[i].value - rt->bufs[b].addr < rt->bufs[b].size)
        base = rt->bufs[b].addr, size = rt->bufs[b].size;
    char what[64];
    snprintf(what, sizeof what, "argument %u", i);
    if (label(rt, base, size, what)) return -1;
  }
  return 0;
}
