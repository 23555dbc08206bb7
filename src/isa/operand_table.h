/* The operand descriptors, built from vt/isa_operands.def. Included by the
 * generator and by isa.c (a constant array, no runtime initialisation). */
#ifndef VT_OPERAND_TABLE_H
#define VT_OPERAND_TABLE_H
#include "vt/isa.h"

#define F(hi, lo) {hi, lo}
static const vt_operand_desc vt_operand_table[VT_OP_COUNT] = {
#define OPERAND(id, name, kind, flags, def, nf, ...) {name, kind, flags, nf, def, {__VA_ARGS__}},
#include "vt/isa_operands.def"
#undef OPERAND
};
#undef F
#endif
