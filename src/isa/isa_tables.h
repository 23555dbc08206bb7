/* Declarations of the tables isagen generates (build/.../isa_tables.c). */
#ifndef VT_ISA_TABLES_H
#define VT_ISA_TABLES_H
#include "vt/isa.h"

extern const vt_insn_desc vt_isa_insns_tbl[VT_INSN_COUNT];
extern const vt_alias_desc vt_isa_aliases_tbl[];
extern const size_t vt_isa_alias_n;
extern const uint16_t vt_isa_decode_start[1025];
extern const uint16_t vt_isa_decode_list[];
extern const size_t vt_isa_decode64_n;
extern const uint16_t vt_isa_decode64_list[];
extern const uint16_t vt_isa_insn_by_name[VT_INSN_COUNT];
extern const uint16_t vt_isa_alias_by_name[];
extern const uint16_t vt_isa_print_alias_start[VT_INSN_COUNT + 1];
extern const uint16_t vt_isa_print_alias_list[];
#endif
