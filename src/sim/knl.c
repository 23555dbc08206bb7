/* The work-items per workgroup a launch's KNL buffer describes (vt/knl.h). */
#include "vt/knl.h"

static uint32_t word(const uint8_t *p, unsigned i) {
  p += 4 * i;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t vt_knl_wg_threads(const uint8_t *knl, size_t n, unsigned threads_per_warp,
                           unsigned warps_per_wg) {
  if (!knl || n < VT_KNL_GEOMETRY_BYTES || warps_per_wg == 0) return 0;
  uint64_t items = 1;
  for (unsigned d = 0; d < 3; d++) {
    items *= word(knl, VT_KNL_LOCAL_SIZE + d);
    if (items == 0 || items > 0xffffffffull) return 0;
  }
  uint64_t lanes = (uint64_t)warps_per_wg * threads_per_warp;
  if (items > lanes || items <= lanes - threads_per_warp) return 0;
  return (uint32_t)items;
}
