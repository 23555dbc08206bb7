/* Loading an ELF32 kernel image into device memory: every PT_LOAD segment at
 * its address, zero-filled from p_filesz to p_memsz (host-stack.md 8). */
#include "sim_internal.h"
#include "vt/elf.h"

#define PT_LOAD_TYPE 1u

int vt_device_load_elf(vt_device *dev, const vt_elf *elf, vt_error *err) {
  vt_error local;
  if (!err) err = &local;
  size_t n = vt_elf_segment_count(elf);
  for (size_t i = 0; i < n; i++) {
    const vt_elf_segment *s = vt_elf_segment_at(elf, i);
    if (s->type != PT_LOAD_TYPE || s->memsz == 0) continue;
    if ((uint64_t)s->paddr + s->memsz > 0x100000000ull) {
      vt_err_set(err, VT_ERR_FORMAT, "ELF segment %zu at 0x%08x (+0x%x) exceeds 4 GiB", i,
                 s->paddr, s->memsz);
      return VT_ERR_FORMAT;
    }
    /* the program window is always mapped; anything else becomes a region */
    if (!(s->paddr >= VT_PROGRAM_BASE && (uint64_t)s->paddr + s->memsz <= 0x90000000ull)) {
      int rc = vt_mem_map(dev, s->paddr, s->memsz, err);
      if (rc) return rc;
    }
    int rc = vt_mem_write(dev, s->paddr, s->data, s->filesz, err);
    if (rc) return rc;
    for (uint32_t off = s->filesz; off < s->memsz;) {
      static const uint8_t zeros[4096];
      uint32_t chunk = s->memsz - off < sizeof zeros ? s->memsz - off : (uint32_t)sizeof zeros;
      rc = vt_mem_write(dev, s->paddr + off, zeros, chunk, err);
      if (rc) return rc;
      off += chunk;
    }
  }
  return VT_OK;
}
