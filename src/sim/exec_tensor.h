/* The v2025 tensor and asynchronous-copy instructions in the simulator
 * (isa2025.md 3.6, 3.7, 3.9): MMA/MMA64 (exec_mma.c) and the cp_dma family
 * (exec_dma.c, exec_dma_tensor.c). The timing model sees an MMA's form and
 * the copy an instruction made through src/sim/step.h (vt_step_mma,
 * vt_step_copy). */
#ifndef VT_SIM_EXEC_TENSOR_H
#define VT_SIM_EXEC_TENSOR_H
#include "exec_util.h"
#include "tensor/mma_form.h"

/* Table rows with the MMA operation (32- and 64-bit). */
int vt_exec_mma(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
/* The DMA unit's rows: cp_dma, cp_dma_bulk, cp_dma_tensor, cp_dma_mbarrier. */
int vt_exec_dma(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);

/* Shared by the copies (exec_dma.c): the checks of a global source range
 * (GLOBAL_OK of 3.9.1, not local memory (C16), mapped) and of a local
 * destination range (LOCAL_OK, inside the workgroup's local memory), each
 * ACCESS with the instruction's name, the addresses and the limits; the
 * page-wise copy and store into checked ranges; the record of the copy for
 * the timing model (vt_device.dma). */
int vt_dma_check_src(vt_device *dev, vt_warp *w, const char *name, uint32_t p, uint64_t n,
                     vt_error *err);
int vt_dma_check_dst(vt_device *dev, vt_warp *w, const char *name, uint32_t p, uint64_t n,
                     vt_error *err);
int vt_dma_copy(vt_device *dev, vt_warp *w, uint32_t dst, uint32_t src, uint64_t n,
                vt_error *err);
int vt_dma_store(vt_device *dev, vt_warp *w, uint32_t dst, const uint8_t *buf, uint64_t n,
                 vt_error *err);
void vt_dma_rec_start(vt_device *dev, bool tensor, uint64_t bytes);
void vt_dma_rec_read(vt_device *dev, uint32_t addr, uint32_t len);
/* cp_dma_tensor (exec_dma_tensor.c, 3.9.4) */
int vt_dma_tensor(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);

/* A 64-bit word that no table row matches: UNSUPPORTED ("unsupported: wg",
 * "a", "SP") for an MMA64 word that is legal apart from those fields (D13,
 * 5.3), otherwise ILLEGAL with the reason. Returns the status set in err. */
int vt_mma64_reject(uint64_t insn, vt_error *err);

/* The decoded MMA/MMA64 of an instruction with its registers after register
 * extension (MMA: vd names C and D), and the form's geometry. 0, or -1 for
 * a word that is not a legal MMA/MMA64 (msg says why). */
int vt_mma_insn(const vt_insn *in, vt_mma_op *op, vt_mma_geom *g, char *msg, size_t msz);


#endif
