/* Placing an ELF32 kernel image in device memory: the rule for where its
 * PT_LOAD segments may go, shared by the loader (vt_device_load_elf) and
 * the runtime, which checks a program when it is loaded. */
#ifndef VT_SIM_ELF_LOAD_H
#define VT_SIM_ELF_LOAD_H
#include <stddef.h>

#include "vt/elf.h"

/* 0 when every non-empty PT_LOAD segment lies inside the program window
 * [0x80000000, 0x90000000) (spec README decision 14); otherwise -1 and
 * "ELF segment N [START, END) is outside ..." in msg, naming what the
 * segment would overwrite (local memory, buffers, the print window). */
int vt_elf_check_placement(const vt_elf *elf, char *msg, size_t msgn);
#endif
