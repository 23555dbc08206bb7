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

/* what [a, e) overlaps outside the program window, for the message */
static void overlapped(uint64_t a, uint64_t e, char *buf, size_t n) {
  if (a < (uint64_t)VT_ADDR_PRINT_BASE + VT_ADDR_PRINT_SIZE && e > VT_ADDR_PRINT_BASE)
    snprintf(buf, n, "; it overlaps the runtime's print window at 0x%08x", VT_ADDR_PRINT_BASE);
  else if (a < VT_ADDR_LDS_BASE + (uint64_t)VT_ADDR_LDS_SIZE && e > VT_ADDR_LDS_BASE)
    snprintf(buf, n, "; it overlaps the local-memory window [0x%08x, 0x%08llx)", VT_ADDR_LDS_BASE,
             (unsigned long long)VT_ADDR_LDS_BASE + VT_ADDR_LDS_SIZE);
  else if (e > VT_ADDR_BUFFER_BASE)
    snprintf(buf, n, "; it overlaps the buffers allocated from 0x%08x", VT_ADDR_BUFFER_BASE);
  else
    snprintf(buf, n, "; nothing is mapped there");
}

int vt_elf_check_placement(const vt_elf *elf, char *msg, size_t msgn) {
  size_t n = vt_elf_segment_count(elf);
  uint64_t lo = VT_ADDR_PROGRAM_BASE, hi = lo + VT_ADDR_PROGRAM_SIZE;
  for (size_t i = 0; i < n; i++) {
    const vt_elf_segment *s = vt_elf_segment_at(elf, i);
    if (s->type != PT_LOAD_TYPE || s->memsz == 0) continue;
    uint64_t a = s->paddr, e = a + s->memsz;
    if (a >= lo && e <= hi) continue;
    char why[128];
    overlapped(a, e, why, sizeof why);
    if (msgn)
      snprintf(msg, msgn,
               "ELF segment %zu [0x%08llx, 0x%08llx) is outside the program window "
               "[0x%08llx, 0x%08llx)%s",
               i, (unsigned long long)a, (unsigned long long)e, (unsigned long long)lo,
               (unsigned long long)hi, why);
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
    int rc = vt_mmu_ensure(dev, (uint32_t)s->paddr, (uint32_t)s->memsz, err);
    if (rc == VT_OK) rc = vt_mem_write(dev, s->paddr, s->data, s->filesz, err);
    char label[40];
    snprintf(label, sizeof label, "ELF segment %zu", i);
    if (rc == VT_OK) rc = vt_mem_label(dev, (uint32_t)s->paddr, (uint32_t)s->memsz, label, err);
    if (rc) return rc;
    vt_sim_zero(dev, s->paddr + s->filesz, s->memsz - s->filesz);
  }
  return VT_OK;
}
