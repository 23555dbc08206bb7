/* Virtual memory in the simulator (vt/mmu.h, docs/memory.md), the host's
 * side: vt_mem_map/unmap/write/read and ELF loading on the current address
 * space, physical memory, walks on request and the address-space API. The
 * kernel's side is mmu_sim.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_util.h"
#include "mmu/mmu_internal.h"

#define PAGE VT_SV39_PAGE

static int mmu_off(vt_error *err, const char *fn) {
  vt_err_set(err, VT_ERR_ARG, "%s: the device's MMU is off (setting mmu)", fn);
  return VT_ERR_ARG;
}

/* is [va, va + n) mapped in the current address space? (else the first
 * unmapped address in *bad) */
static bool host_mapped(vt_mmu *m, uint64_t va, uint64_t n, uint64_t *bad) {
  for (uint64_t a = va & ~(uint64_t)(PAGE - 1); a < va + n; a += PAGE) {
    vt_mmu_walk wk;
    vt_mmu_walk_in(m, m->cur->root, a, VT_MMU_HOST, &wk);
    if (wk.fault != VT_MMU_OK) {
      *bad = a < va ? va : a;
      return false;
    }
  }
  return true;
}

/* ---- the memory API on the current address space ---- */
int vt_mmu_mem_map(vt_device *dev, uint32_t base, uint32_t size, vt_error *err) {
  if (size == 0) return VT_OK;
  /* the program window holds code: executable there (docs/memory.md) */
  unsigned prot = VT_PROT_R | VT_PROT_W;
  if (base < VT_ADDR_PROGRAM_BASE + (uint64_t)VT_ADDR_PROGRAM_SIZE &&
      (uint64_t)base + size > VT_ADDR_PROGRAM_BASE)
    prot |= VT_PROT_X;
  return vt_aspace_add(dev->mmu, dev->mmu->cur, base, size, prot, err);
}

int vt_mmu_mem_unmap(vt_device *dev, uint32_t base, uint32_t size, vt_error *err) {
  if (vt_aspace_remove(dev->mmu, dev->mmu->cur, base, size, err) != VT_OK) {
    vt_err_set(err, VT_ERR_ARG, "no buffer is mapped at 0x%08x (+0x%x)", base, size);
    return VT_ERR_ARG;
  }
  return VT_OK;
}

/* an ELF segment's pages: mapped once however often the program is loaded */
int vt_mmu_ensure(vt_device *dev, uint32_t base, uint32_t size, vt_error *err) {
  if (!dev->mmu || size == 0 || vt_aspace_has(dev->mmu->cur, base, size)) return VT_OK;
  return vt_aspace_add(dev->mmu, dev->mmu->cur, base, size, VT_PROT_R | VT_PROT_W | VT_PROT_X, err);
}

int vt_mmu_host_copy(vt_device *dev, uint32_t addr, void *buf, size_t n, bool to_dev,
                     vt_error *err) {
  vt_mmu *m = dev->mmu;
  uint64_t bad;
  if (!host_mapped(m, addr, n, &bad)) {
    vt_err_set(err, VT_ERR_ACCESS, "host %s of %zu bytes at 0x%08x: 0x%08llx is not mapped in "
               "the address space (ASID %u)", to_dev ? "write" : "read", n, addr,
               (unsigned long long)bad, m->cur->asid);
    return VT_ERR_ACCESS;
  }
  uint8_t *b = buf;
  for (uint64_t a = addr; n > 0;) {
    size_t chunk = PAGE - (a & (PAGE - 1));
    if (chunk > n) chunk = n;
    vt_mmu_walk wk;
    vt_mmu_walk_in(m, m->cur->root, a, VT_MMU_HOST, &wk);
    if (to_dev) {
      uint8_t *p = vt_pages_get(m->phys, (uint32_t)wk.pa);
      if (!p) {
        vt_err_set(err, VT_ERR_NOMEM, "out of host memory");
        return VT_ERR_NOMEM;
      }
      memcpy(p, b, chunk);
    } else {
      const uint8_t *p = vt_pages_peek(m->phys, (uint32_t)wk.pa);
      if (p) memcpy(b, p, chunk);
      else memset(b, 0, chunk);
    }
    b += chunk;
    a += chunk;
    n -= chunk;
  }
  return VT_OK;
}

/* ---- the public API (vt/mmu.h) ---- */
static int phys_copy(vt_device *dev, uint64_t pa, void *buf, size_t n, bool to_dev,
                     vt_error *err) {
  if (!dev->mmu) return mmu_off(err, to_dev ? "vt_phys_write" : "vt_phys_read");
  vt_mmu *m = dev->mmu;
  if (pa > m->phys_bytes || n > m->phys_bytes - pa) {
    vt_err_set(err, VT_ERR_ACCESS, "physical [0x%llx, +0x%zx) is beyond physical memory "
               "(%llu bytes)", (unsigned long long)pa, n, (unsigned long long)m->phys_bytes);
    return VT_ERR_ACCESS;
  }
  uint8_t *b = buf;
  for (uint64_t a = pa; n > 0;) {
    size_t chunk = PAGE - (a & (PAGE - 1));
    if (chunk > n) chunk = n;
    if (to_dev) {
      uint8_t *p = vt_pages_get(m->phys, (uint32_t)a);
      if (!p) {
        vt_err_set(err, VT_ERR_NOMEM, "out of host memory");
        return VT_ERR_NOMEM;
      }
      memcpy(p, b, chunk);
    } else {
      const uint8_t *p = vt_pages_peek(m->phys, (uint32_t)a);
      if (p) memcpy(b, p, chunk);
      else memset(b, 0, chunk);
    }
    b += chunk;
    a += chunk;
    n -= chunk;
  }
  if (to_dev) vt_mmu_changed(m); /* page tables may have changed */
  return VT_OK;
}

int vt_phys_write(vt_device *dev, uint64_t pa, const void *src, size_t n, vt_error *err) {
  return phys_copy(dev, pa, (void *)src, n, true, err);
}
int vt_phys_read(vt_device *dev, uint64_t pa, void *dst, size_t n, vt_error *err) {
  return phys_copy(dev, pa, dst, n, false, err);
}

int vt_mmu_translate(vt_device *dev, uint64_t root, uint64_t va, vt_mmu_access kind,
                     vt_mmu_walk *out, vt_error *err) {
  if (!dev->mmu) return mmu_off(err, "vt_mmu_translate");
  vt_mmu_walk_in(dev->mmu, root ? root : dev->mmu->cur->root, va, kind, out);
  return VT_OK;
}

vt_aspace *vt_aspace_new(vt_device *dev, uint16_t asid, vt_error *err) {
  if (!dev->mmu) {
    mmu_off(err, "vt_aspace_new");
    return NULL;
  }
  vt_aspace *as = vt_aspace_create(dev->mmu, asid, err);
  if (as) vt_mmu_changed(dev->mmu);
  return as;
}

void vt_aspace_free(vt_device *dev, vt_aspace *as) {
  if (!dev->mmu || !as || as == dev->mmu->dflt) return;
  if (dev->mmu->cur == as) dev->mmu->cur = dev->mmu->dflt;
  vt_aspace_destroy(dev->mmu, as);
}

int vt_aspace_map(vt_device *dev, vt_aspace *as, uint64_t va, uint64_t size, unsigned prot,
                  vt_error *err) {
  if (!dev->mmu) return mmu_off(err, "vt_aspace_map");
  return vt_aspace_add(dev->mmu, as, va, size, prot, err);
}

int vt_aspace_unmap(vt_device *dev, vt_aspace *as, uint64_t va, uint64_t size, vt_error *err) {
  if (!dev->mmu) return mmu_off(err, "vt_aspace_unmap");
  return vt_aspace_remove(dev->mmu, as, va, size, err);
}

void vt_device_set_aspace(vt_device *dev, vt_aspace *as) {
  if (dev->mmu) dev->mmu->cur = as ? as : dev->mmu->dflt;
}

vt_aspace *vt_device_aspace(const vt_device *dev) { return dev->mmu ? dev->mmu->cur : NULL; }
