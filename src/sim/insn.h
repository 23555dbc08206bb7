/* A decoded warp instruction: the table row, the operands with register
 * extension applied (isa.md 2.6), and the next pc its execution sets. */
#ifndef VT_SIM_INSN_H
#define VT_SIM_INSN_H

#include <stdbool.h>
#include <stdint.h>

#include "vt/isa.h"

typedef struct vt_insn {
  uint32_t word, pc;
  uint32_t word_hi;           /* second parcel of a 64-bit instruction (isa2025.md D1) */
  uint16_t id;
  const vt_insn_desc *d;      /* the table row: what the instruction does */
  unsigned rd, rs1, rs2, rs3; /* after regext (0..255) */
  unsigned vs3;               /* store data register: rd field, rs3 extension */
  bool vm;                    /* 1 = unmasked */
  int32_t imm;
  int32_t vimm;               /* 5-bit vector immediate, after regexti */
  uint32_t next_pc;           /* set by the executor */
} vt_insn;

#endif
