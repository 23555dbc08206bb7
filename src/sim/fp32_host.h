/* Binary32 vector add, subtract and multiply under round-to-nearest-even
 * on the host's floating-point unit, for the cases where it gives the same
 * bits and flags as the exact software arithmetic of src/fp (fp32_host.c):
 * every active lane's operands finite, no overflow, underflow, invalid
 * operation or subnormal operand. */
#ifndef VT_SIM_FP32_HOST_H
#define VT_SIM_FP32_HOST_H
#include <stdbool.h>
#include <stdint.h>

#include "fp/fp32.h"
#include "vt/isa.h"
#include "vt/sim.h"

/* d[i] = a[i] op b[i] (op VT_SEM_FADD, FSUB or FMUL) for the lanes of m,
 * VT_FFLAG_NX added to *flags when some lane was inexact; false, with d and
 * *flags untouched, when any case above is not met (src/fp must run). */
bool vt_f32_host_op(unsigned op, uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t m,
                    uint32_t *flags);
#endif
