/* Fetch of 64-bit instructions and the gate for the v2025 rows whose
 * execution is not implemented yet (isa2025.md part 1: the table, the
 * assembler and the disassembler know them; the executors do not). The gate
 * stops such an instruction with "unimplemented instruction" before an
 * executor could treat it as its v2.02 relative (a W-form as a 32-bit add, a
 * global load as a flat one). It decides from the table's semantic columns
 * only; remove a criterion when its semantics are implemented. */
#include "exec_tensor.h"

int vt_sim_fetch64(vt_device *dev, vt_warp *w, uint32_t first, vt_insn *in, vt_error *err) {
  /* isa2025.md 2.1: the second parcel follows; a fault there is a fetch
   * fault of this instruction */
  const uint8_t *p = vt_sim_fetch(dev, w, w->pc + 4, err);
  if (!p) {
    vt_err_prefix(err, "instruction fetch: ");
    return err ? err->status : VT_ERR_ACCESS;
  }
  uint32_t second = load_le(p, 4);
  vt_insn_id id = vt_decode64((uint64_t)second << 32 | first);
  if (id == VT_INSN_INVALID) /* UNSUPPORTED for MMA64 wg/a/SP (D13), else ILLEGAL */
    return vt_mma64_reject((uint64_t)second << 32 | first, err);
  memset(in, 0, sizeof *in);
  in->word = first;
  in->word_hi = second;
  in->pc = w->pc;
  in->id = (uint16_t)id;
  in->d = vt_isa_insn(id);
  in->vm = true;
  in->next_pc = w->pc + 8;
  return VT_OK;
}

static bool v2025_pending(const vt_insn *in) {
  const vt_insn_desc *d = in->d;
  if (d->sem == VT_SEM_MMA) return false; /* exec_mma.c */
  const uint32_t new_flags =
      VT_F_W | VT_F_PRD | VT_F_PRS1 | VT_F_PRS2 | VT_F_PRS3 | VT_F_VILL | VT_F_BF16;
  if (d->length == 8 || (d->flags & new_flags)) return true;
  switch ((vt_amode)d->amode) {
  case VT_AM_BASE64: case VT_AM_GLOBAL: case VT_AM_LOCAL: case VT_AM_FLAT64: return true;
  default: break;
  }
  switch ((vt_ew)d->ew) {
  case VT_EW_HALF_IN: case VT_EW_HALF_OUT: case VT_EW_LANESEL: return true;
  default: break;
  }
  return d->sem == VT_SEM_PREFIX || d->sem == VT_SEM_PREFIXI || d->sem == VT_SEM_PREFIX_MEM;
}

int vt_exec_v2025_gate(const vt_insn *in, vt_error *err) {
  const vt_insn_desc *d = in->d;
  if (v2025_pending(in)) {
    vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction: %s (isa2025.md)", d->mnemonic);
    return VT_ERR_ILLEGAL;
  }
  /* D18: slli/srli/srai decode a 6-bit amount; >= 32 needs a pair prefix,
   * which is not executed yet, so such a shift is always illegal here */
  bool shift = d->sem == VT_SEM_SLL || d->sem == VT_SEM_SRL || d->sem == VT_SEM_SRA;
  if (shift && d->exec_class == VT_EX_ALU && (d->flags & VT_F_BI) && in->imm >= 32) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: shift amount %d >= 32 without a pair prefix",
               in->imm);
    return VT_ERR_ILLEGAL;
  }
  return VT_OK;
}
