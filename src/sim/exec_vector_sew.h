/* Integer vector arithmetic at SEW = 8 and 16 (exec_vector_sew.c): the
 * generic element path next to the SEW = 32 lane loops of exec_vector.c. */
#ifndef VT_SIM_EXEC_VECTOR_SEW_H
#define VT_SIM_EXEC_VECTOR_SEW_H
#include "exec_util.h"

/* Executes vector instruction 'in' with vtype's SEW = 8 or 16. m: the
 * active elements (SIMT mask, [vstart, vl), v0 when vm = 0); rmask: the
 * elements in [vstart, vl) below numt (for the instructions that ignore the
 * SIMT mask). Does not reset vstart. */
int vt_exec_vector_sew(vt_device *dev, vt_warp *w, vt_insn *in, uint32_t m, uint32_t rmask,
                       vt_error *err);

/* Fixed point (RVV 1.0 3.8): rounding increment for shifting v right by d
 * bits under vxrm, and the averaging add/subtract result. */
static inline uint64_t vt_round_inc(unsigned vxrm, uint64_t v, unsigned d) {
  if (d == 0) return 0;
  uint64_t lsb = (v >> d) & 1, half = (v >> (d - 1)) & 1;
  uint64_t rest = d >= 2 ? (v & ((1ull << (d - 1)) - 1)) != 0 : 0;
  switch (vxrm & 3) {
  case 0: return half;                       /* rnu */
  case 1: return half & (rest | lsb);        /* rne */
  case 2: return 0;                          /* rdn */
  default: return (lsb ^ 1) & (half | rest); /* rod */
  }
}
static inline uint32_t vt_avg(unsigned vxrm, int64_t s) {
  return (uint32_t)((s >> 1) + (int64_t)vt_round_inc(vxrm, (uint64_t)s, 1));
}
#endif
