/* Device statistics through the driver's vt_dump_perf ("name value" lines). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

int vt_rt_stats_get(vt_rt *rt, vt_rt_stats *out) {
  memset(out, 0, sizeof *out);
  FILE *f = tmpfile();
  if (!f) return rt_fail(rt, "cannot create a temporary file for the statistics");
  if (vt_dump_perf(rt->dev, f) != 0) {
    fclose(f);
    return rt_fail_driver(rt, "cannot read the device statistics");
  }
  rewind(f);
  char name[64], val[64];
  /* the "name value" block ends where a timing report starts ("timing: ...") */
  while (fscanf(f, "%63s %63s", name, val) == 2 && strcmp(name, "timing:") != 0) {
    uint64_t u = strtoull(val, NULL, 10);
    double v = strtod(val, NULL);
    if (!strcmp(name, "launches")) out->launches = u;
    else if (!strcmp(name, "workgroups")) out->workgroups = u;
    else if (!strcmp(name, "warps")) out->warps = u;
    else if (!strcmp(name, "warp_instructions")) out->warp_insns = u;
    else if (!strcmp(name, "thread_instructions")) out->thread_insns = u;
    else if (!strcmp(name, "scalar_instructions")) out->scalar_insns = u;
    else if (!strcmp(name, "vector_instructions")) out->vector_insns = u;
    else if (!strcmp(name, "vector_branches")) out->vbranches = u;
    else if (!strcmp(name, "divergent_vector_branches")) out->divergent_vbranches = u;
    else if (!strcmp(name, "barriers")) out->barriers = u;
    else if (!strcmp(name, "max_simt_depth")) out->max_simt_depth = (unsigned)u;
    else if (!strcmp(name, "host_seconds")) out->host_seconds = v;
  }
  fclose(f);
  return 0;
}
