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
#endif
