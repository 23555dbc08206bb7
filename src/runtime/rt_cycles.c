/* Simulated cycles of a context's device (vt_rt_timing_cycles): the total
 * of the "timing: N launch(es), C cycles" line that vt_dump_perf writes
 * when the device runs on the timing model (docs/timing.md). An addition
 * for API layers that report per-command times (the OpenCL platform's
 * event profiling, docs/opencl.md). */
#include <stdio.h>
#include <string.h>

#include "rt_internal.h"

int vt_rt_timing_cycles(vt_rt *rt, uint64_t *cycles, int *timed) {
  *cycles = 0;
  *timed = 0;
  FILE *f = tmpfile();
  if (!f) return rt_fail(rt, "cannot create a temporary file for the statistics");
  if (vt_dump_perf(rt->dev, f) != 0) {
    fclose(f);
    return rt_fail_driver(rt, "cannot read the device statistics");
  }
  rewind(f);
  char line[256];
  while (fgets(line, sizeof line, f)) {
    unsigned launches;
    unsigned long long c;
    if (sscanf(line, "timing: %u launch(es), %llu cycles", &launches, &c) == 2) {
      *cycles = c;
      *timed = 1;
      break;
    }
  }
  fclose(f);
  return 0;
}
