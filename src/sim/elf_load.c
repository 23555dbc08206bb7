/* Loading an ELF32 kernel image into device memory: every PT_LOAD segment at
 * its address (host-stack.md 8), inside the program window only (spec
 * README decision 14); the part past p_filesz reads as zero. The zero fill
 * costs nothing: the pages of that range are dropped (sparse memory reads
 * as zero), only partial pages at its ends are cleared, so a huge .bss
 * neither allocates memory nor keeps what an earlier launch wrote there. */
#include "elf_load.h"

#include <stdio.h>

#include "sim_internal.h"
#include "vt_runtime.h"

#define PT_LOAD_TYPE 1u
#define PROGRAM_END 0x90000000ull

/* what [a, e) overlaps outside the program window, for the message */
static const char *overlapped(uint64_t a, uint64_t e) {
  if (a < VT_RT_PRINT_WINDOW_ADDR + VT_RT_PRINT_WINDOW_SIZE && e > VT_RT_PRINT_WINDOW_ADDR)
    return "; it overlaps the runtime's print window at 0xa0024000";
  if (a < VT_PROGRAM_BASE && e > VT_LDS_BASE)
    return "; it overlaps the local-memory window [0x70000000, 0x80000000)";
  if (e > VT_BUFFER_BASE) return "; it overlaps the buffers allocated from 0x90000000";
  return "; nothing is mapped there";
}

int vt_elf_check_placement(const vt_elf *elf, char *msg, size_t msgn) {
  size_t n = vt_elf_segment_count(elf);
  for (size_t i = 0; i < n; i++) {
    const vt_elf_segment *s = vt_elf_segment_at(elf, i);
    if (s->type != PT_LOAD_TYPE || s->memsz == 0) continue;
    uint64_t a = s->paddr, e = a + s->memsz;
    if (a >= VT_PROGRAM_BASE && e <= PROGRAM_END) continue;
    if (msgn)
      snprintf(msg, msgn,
               "ELF segment %zu [0x%08llx, 0x%08llx) is outside the program window "
               "[0x80000000, 0x90000000)%s",
               i, (unsigned long long)a, (unsigned long long)e, overlapped(a, e));
    return -1;
  }
  return 0;
}

int vt_device_load_elf(vt_device *dev, const vt_elf *elf, vt_error *err) {
  vt_error local;
  if (!err) err = &local;
  char msg[sizeof err->message];
  if (vt_elf_check_placement(elf, msg, sizeof msg) != 0) {
    vt_err_set(err, VT_ERR_FORMAT, "%s", msg);
    return VT_ERR_FORMAT;
  }
  size_t n = vt_elf_segment_count(elf);
  for (size_t i = 0; i < n; i++) {
    const vt_elf_segment *s = vt_elf_segment_at(elf, i);
    if (s->type != PT_LOAD_TYPE || s->memsz == 0) continue;
    int rc = vt_mem_write(dev, s->paddr, s->data, s->filesz, err);
    char label[40];
    snprintf(label, sizeof label, "ELF segment %zu", i);
    if (rc == VT_OK) rc = vt_mem_label(dev, (uint32_t)s->paddr, (uint32_t)s->memsz, label, err);
    if (rc) return rc;
    vt_pages_zero(&dev->mem.global, s->paddr + s->filesz, s->memsz - s->filesz);
  }
  return VT_OK;
}
