/* Addressing of the v2025 memory instructions (isa2025.md 3.1.3, 3.3-3.5.3)
 * and their executors: scalar ld/sd and every scalar or per-lane access
 * under PREFIX_MEMORY, the global/local/private families and the 64-bit
 * address family (mem_space.c). */
#ifndef VT_SIM_MEM_SPACE_H
#define VT_SIM_MEM_SPACE_H
#include "exec_util.h"

/* What an instruction's accesses need, resolved once: its space after
 * PREFIX_MEMORY, whether offsets are 64-bit sums of a pair, the number of
 * words of a wide access (0: the instruction's own access), the bytes per
 * access, and the CSRs read when the instruction executes (3.3.2). */
typedef struct vt_mem_plan {
  unsigned space; /* VT_SPACE_*: DEFAULT is flat (offset = address) */
  bool wide64, store;
  bool va64; /* a 64-bit flat address with the MMU on: a full Sv39 virtual
                address (docs/memory.md, 64-bit addresses); set by the caller */
  unsigned words, size;
  uint32_t gds, gds_limit, lds, lds_limit, pds, stride, tid;
} vt_mem_plan;

void vt_mem_plan_make(const vt_warp *w, const vt_insn *in, vt_mem_plan *p);
/* The offset o = base + imm: mod 2^32, or for 64-bit addresses mod 2^64 and
 * below 2^32 unless va64 (else ACCESS naming the lane; lane < 0: scalar). */
int vt_mem_offset(const vt_mem_plan *p, uint64_t base, int32_t imm, int lane, uint64_t *o,
                  vt_error *err);
/* The address of word k (or of the own access, k = 0) at offset o for a
 * lane: the space's mapping and range check (ACCESS); above 2^32 only with
 * va64. */
int vt_mem_addr(const vt_mem_plan *p, uint64_t o, unsigned k, int lane, uint64_t *addr,
                vt_error *err);

/* Executors: scalar loads/stores with a 64-bit address or a PREFIX_MEMORY,
 * and the per-lane families outside the v2.02 fast path. */
int vt_mem_scalar(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
int vt_mem_lanes(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
#endif
