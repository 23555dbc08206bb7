/* vt/driver_ext.h - vt's extensions of the driver API (ventus.h). They are
 * part of libvt but not of the official driver library's interface (a
 * program written for the official library never needs them).
 *
 * vt_dev_open reads its settings from the environment (VT_CONFIG and the
 * VT_<KEY> variables of vt/settings.def); vt_dev_open_settings takes them
 * from the caller, so that a tool can pass its command-line settings without
 * touching the environment. Every device runs its launches on a session
 * (vt/session.h): vt_dev_session gives access to its statistics, warp dump
 * and interrupt flag. Use it only while no launch runs (after vt_ready_wait),
 * except vt_session_set_interrupt, which may be called at any time before a
 * launch. */
#ifndef VT_DRIVER_EXT_H
#define VT_DRIVER_EXT_H

#include "ventus.h"
#include "vt/session.h"
#include "vt/settings.h"

#ifdef __cplusplus
extern "C" {
#endif

/* settings NULL: as vt_dev_open. 0, or -1 (vt_last_error). */
int vt_dev_open_settings(vt_device_h *hdevice, const vt_settings *settings);
/* NULL for an unknown handle. */
vt_session *vt_dev_session(vt_device_h hdevice);
/* Load the PT_LOAD segments of an already parsed ELF program (as
 * vt_upload_kernel_file does, without parsing the file again). */
struct vt_elf;
int vt_dev_load_elf(vt_device_h hdevice, const struct vt_elf *elf);
/* The same into context taskID's address space (MMU on; vt_dev_load_elf
 * loads into context 0's). */
int vt_dev_load_elf_task(vt_device_h hdevice, const struct vt_elf *elf, int taskID);
/* Name the exact bytes of an allocation ("argument 2", "print buffer"):
 * the memory checker's messages name it (vt_mem_label, vt/sim.h). */
int vt_dev_label(vt_device_h hdevice, uint64_t addr, uint64_t size, const char *label);
/* Allocate a buffer at exactly addr (4 KiB aligned) when
 * [addr, addr + size) lies in the buffer range and overlaps no live buffer:
 * a fixed-address window such as libclc's printf buffer (docs/printf.md).
 * Freed with vt_one_buf_free. 0, or -1 (vt_last_error). */
int vt_dev_buf_alloc_at(vt_device_h hdevice, uint64_t addr, uint64_t size);
/* The same in context taskID's address space (MMU on; vt_dev_buf_alloc_at
 * allocates in context 0's). */
int vt_dev_buf_alloc_at_task(vt_device_h hdevice, uint64_t addr, uint64_t size, int taskID);
/* Name the next vt_start's launch on the progress line ("kernel 'NAME'");
 * otherwise it is "kernel N" from the descriptor's kernel_id. */
int vt_dev_name_launch(vt_device_h hdevice, const char *name);

#ifdef __cplusplus
}
#endif
#endif
