/* What can be derived about a kernel's arguments from an ELF without a
 * .vt.kernel_args section (the official toolchain's): the bytes of the
 * argument buffer it reads.
 *
 * A kernel receives the argument buffer in a0 and the official compiler
 * loads its arguments from it at the start, before its first call (which
 * overwrites a0; host-stack.md 6, e.g. `lw t0, 8(a0)` in matadd). The scan
 * follows the straight-line code from the kernel's entry and stops at the
 * first control transfer, a write to a0 or after 256 instructions; every
 * scalar load based on a0 on the way extends the extent to its offset +
 * size. The instruction after a `regext` uses extended register numbers:
 * its loads are not counted, and it stops the scan if its rd field is 10. Loads
 * after a branch are not seen, so the extent is a lower bound: enough to
 * catch missing trailing arguments, never a false alarm. */
#include <stdlib.h>

#include "ocl_internal.h"
#include "vt/elf.h"
#include "vt/isa.h"

#define REG_A0 10
#define SCAN_LIMIT 256

static bool stops_scan(const vt_insn_desc *d) {
  switch (d->exec_class) {
  case VT_EX_BRANCH: case VT_EX_JUMP: case VT_EX_VBRANCH: case VT_EX_SIMT:
  case VT_EX_BARRIER: case VT_EX_ENDPRG: case VT_EX_SYSTEM:
    return true;
  default: return (d->flags & VT_F_CTRL) != 0;
  }
}

/* The x register the instruction writes, or -1. */
static int written_xreg(const vt_insn_desc *d, uint32_t word) {
  for (unsigned i = 0; i < d->nops; i++)
    if (d->ops[i] == VT_OP_RD || d->ops[i] == VT_OP_XRD)
      return vt_operand_get((vt_operand_id)d->ops[i], word);
  return -1;
}

static int32_t operand(const vt_insn_desc *d, uint32_t word, vt_operand_id op, bool *found) {
  for (unsigned i = 0; i < d->nops; i++)
    if (d->ops[i] == op) {
      *found = true;
      return vt_operand_get(op, word);
    }
  *found = false;
  return 0;
}

/* The loaded bytes that hold the code at 'entry' (and how many follow). */
static const uint8_t *code_at(const vt_elf *elf, uint32_t entry, size_t *avail) {
  for (size_t i = 0; i < vt_elf_segment_count(elf); i++) {
    const vt_elf_segment *s = vt_elf_segment_at(elf, i);
    if (s->type == 1 && s->data && entry >= s->vaddr && entry - s->vaddr < s->filesz) {
      *avail = s->filesz - (entry - s->vaddr);
      return s->data + (entry - s->vaddr);
    }
  }
  return NULL;
}

uint32_t vtcl_derive_arg_extent(const uint8_t *image, size_t size, uint32_t entry) {
  vt_elf *elf = NULL;
  char msg[64];
  if (!image || vt_elf_open_mem(image, size, &elf, msg, sizeof msg) != 0) return 0;
  size_t avail = 0;
  const uint8_t *code = code_at(elf, entry, &avail);
  uint32_t extent = 0;
  bool extended = false; /* the previous instruction was a regext */
  for (size_t n = 0; code && n < SCAN_LIMIT && 4 * n + 4 <= avail; n++) {
    const uint8_t *p = code + 4 * n;
    uint32_t word = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    vt_insn_id id = vt_decode(word);
    if (id == VT_INSN_INVALID) break;
    const vt_insn_desc *d = vt_isa_insn(id);
    if (stops_scan(d)) break;
    bool has_base, has_imm, was_extended = extended;
    extended = d->exec_class == VT_EX_REGEXT;
    if (extended) continue;
    int32_t base = operand(d, word, VT_OP_RS1, &has_base);
    int32_t imm = operand(d, word, VT_OP_IMM12, &has_imm);
    if (!was_extended && d->mem == VT_MEM_LOAD && d->amode == VT_AM_BASE && has_base &&
        has_imm && base == REG_A0 && imm >= 0 && (uint32_t)imm + d->msize > extent)
      extent = (uint32_t)imm + d->msize;
    if (written_xreg(d, word) == REG_A0) break;
  }
  vt_elf_free(elf);
  return extent;
}
