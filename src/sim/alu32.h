/* The 32-bit integer operations shared by the scalar ALU (exec_scalar.c)
 * and the specialised executors (exec_fast.c, exec_fast_vec.h): add,
 * subtract, and, or, xor, shifts by the amount mod 32, multiply (low word). */
#ifndef VT_SIM_ALU32_H
#define VT_SIM_ALU32_H
#include <stdbool.h>
#include <stdint.h>

#include "vt/isa.h"

/* whether vt_alu32 computes the operation */
static inline bool vt_alu32_has(unsigned sem) {
  return sem == VT_SEM_ADD || sem == VT_SEM_SUB || sem == VT_SEM_AND || sem == VT_SEM_OR ||
         sem == VT_SEM_XOR || sem == VT_SEM_SLL || sem == VT_SEM_SRL || sem == VT_SEM_SRA ||
         sem == VT_SEM_MUL;
}

/* sem is a constant where this is inlined in a lane loop */
static inline __attribute__((always_inline)) uint32_t vt_alu32(unsigned sem, uint32_t a,
                                                               uint32_t b) {
  switch (sem) {
  case VT_SEM_ADD: return a + b;
  case VT_SEM_SUB: return a - b;
  case VT_SEM_AND: return a & b;
  case VT_SEM_OR: return a | b;
  case VT_SEM_XOR: return a ^ b;
  case VT_SEM_SLL: return a << (b & 31);
  case VT_SEM_SRL: return a >> (b & 31);
  case VT_SEM_SRA: return (uint32_t)((int32_t)a >> (b & 31));
  default: return a * b; /* VT_SEM_MUL */
  }
}
#endif
