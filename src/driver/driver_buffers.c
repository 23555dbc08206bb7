/* Device buffers of the driver: allocation, freeing, host copies, and the
 * private-memory slots a launch's private buffer holds.
 *
 * Allocation is first fit from VT_BUFFER_BASE in 4 KiB pages: the lowest
 * gap between live buffers that holds the page-rounded size, so the
 * addresses of freed buffers are reused (docs/decisions.md). A long pocl
 * session allocates and frees its argument, private and metadata buffers
 * at every launch; with a bump allocator it ran out of the 1.75 GiB buffer
 * range after a few hundred launches. With the MMU on, addresses are
 * unique on the device and handed out next-fit instead, and each buffer is
 * mapped into its context's address space (driver_mmu.c, docs/memory.md). */
#include <stdlib.h>
#include <string.h>

#include "driver_internal.h"
#include "vt/driver_ext.h"

#define ADDRESS_END ((uint64_t)VT_ADDR_BUFFER_BASE + VT_ADDR_BUFFER_SIZE)

/* Index in d->bufs where a buffer of 'rounded' bytes fits, its base in
 * *base; -1 if no gap is large enough. */
static long first_fit(const vtd_dev *d, uint64_t rounded, uint32_t *base) {
  uint64_t prev_end = VT_BUFFER_BASE;
  for (size_t i = 0; i <= d->nbufs; i++) {
    uint64_t next = i < d->nbufs ? d->bufs[i].base : ADDRESS_END;
    if (next - prev_end >= rounded) {
      *base = (uint32_t)prev_end;
      return (long)i;
    }
    if (i < d->nbufs) prev_end = (uint64_t)d->bufs[i].base + d->bufs[i].size;
  }
  return -1;
}

static int grow(vtd_dev *d) {
  if (d->nbufs < d->cap) return 0;
  size_t cap = d->cap ? 2 * d->cap : 32;
  vtd_buf *b = realloc(d->bufs, cap * sizeof *b);
  if (!b) return vtd_fail("vt_buf_alloc: out of memory");
  d->bufs = b;
  d->cap = cap;
  return 0;
}

static long fits_at(const vtd_dev *d, uint32_t base, uint64_t rounded);

/* With the MMU on: the next-fit address of the context's new buffer, its
 * index in d->bufs (d->mem held). */
static long mmu_place(vtd_dev *d, uint64_t rounded, uint64_t task, uint32_t *base) {
  char msg[600];
  if (vtd_mmu_buffer(d->mmu, d->sim, (int64_t)task, rounded, base, msg, sizeof msg) != 0) {
    vtd_fail("vt_buf_alloc: %s", msg);
    return -1;
  }
  long at = fits_at(d, *base, rounded);
  if (at < 0) { /* cannot happen: both lists hold every buffer */
    vtd_mmu_buffer_free(d->mmu, d->sim, *base);
    vtd_fail("vt_buf_alloc: 0x%08x is in use", *base);
  }
  return at;
}

/* d->mem held */
static int place(vtd_dev *d, uint64_t size, uint64_t rounded, uint64_t task, uint64_t *vaddr) {
  uint32_t base;
  long at = d->mmu ? mmu_place(d, rounded, task, &base) : first_fit(d, rounded, &base);
  if (at < 0 && d->mmu) return -1;
  if (at < 0)
    return vtd_fail("vt_buf_alloc: out of device address space (%llu bytes requested, %zu "
                    "buffers live)",
                    (unsigned long long)size, d->nbufs);
  vt_error err;
  int rc = grow(d);
  if (rc == 0 && vt_mem_map(d->sim, base, (uint32_t)rounded, &err) != VT_OK)
    rc = vtd_fail("vt_buf_alloc: %s", err.message);
  if (rc != 0) {
    if (d->mmu) vtd_mmu_buffer_free(d->mmu, d->sim, base);
    return rc;
  }
  memmove(&d->bufs[at + 1], &d->bufs[at], (d->nbufs - (size_t)at) * sizeof *d->bufs);
  d->bufs[at] = (vtd_buf){base, (uint32_t)rounded, size};
  d->nbufs++;
  char label[48];
  snprintf(label, sizeof label, "a buffer of %llu bytes", (unsigned long long)size);
  vt_mem_label(d->sim, base, (uint32_t)size, label, &err);
  *vaddr = base;
  return 0;
}

int vtd_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, int BUF_TYPE,
                  uint64_t taskID) {
  vtd_dev *d = vtd_lookup(hdevice, "vt_buf_alloc");
  if (!d) return -1;
  if (!vaddr) return vtd_fail("vt_buf_alloc: null address pointer");
  if (size == 0) return vtd_fail("vt_buf_alloc: size 0");
  if (BUF_TYPE < READ_WRITE || BUF_TYPE > KERNEL_MEM)
    return vtd_fail("vt_buf_alloc: unknown buffer type %d", BUF_TYPE);
  if (size > ADDRESS_END - VT_BUFFER_BASE)
    return vtd_fail("vt_buf_alloc: %llu bytes do not fit the device's buffer range",
                    (unsigned long long)size);
  uint64_t rounded = (size + VTD_PAGE - 1) & ~(uint64_t)(VTD_PAGE - 1);
  pthread_mutex_lock(&d->mem);
  int rc = place(d, size, rounded, taskID, vaddr);
  pthread_mutex_unlock(&d->mem);
  return rc;
}

/* The index where a buffer at base of 'rounded' bytes goes, or -1 if it
 * overlaps a live buffer (d->mem held). */
static long fits_at(const vtd_dev *d, uint32_t base, uint64_t rounded) {
  size_t i = 0;
  while (i < d->nbufs && d->bufs[i].base < base) i++;
  if (i > 0 && (uint64_t)d->bufs[i - 1].base + d->bufs[i - 1].size > base) return -1;
  if (i < d->nbufs && base + rounded > d->bufs[i].base) return -1;
  return (long)i;
}

int vt_dev_buf_alloc_at(vt_device_h hdevice, uint64_t addr, uint64_t size) {
  return vt_dev_buf_alloc_at_task(hdevice, addr, size, 0);
}

int vt_dev_buf_alloc_at_task(vt_device_h hdevice, uint64_t addr, uint64_t size, int taskID) {
  vtd_dev *d = vtd_lookup(hdevice, "vt_dev_buf_alloc_at");
  if (!d) return -1;
  uint64_t rounded = (size + VTD_PAGE - 1) & ~(uint64_t)(VTD_PAGE - 1);
  if (size == 0 || addr % VTD_PAGE || addr < VT_BUFFER_BASE || addr >= ADDRESS_END ||
      size > ADDRESS_END - addr)
    return vtd_fail("vt_dev_buf_alloc_at: [0x%llx, +0x%llx) is not a page-aligned range of the "
                    "buffer range [0x%08x, 2^32)",
                    (unsigned long long)addr, (unsigned long long)size, VT_BUFFER_BASE);
  pthread_mutex_lock(&d->mem);
  long at = fits_at(d, (uint32_t)addr, rounded);
  int rc = at < 0 ? vtd_fail("vt_dev_buf_alloc_at: [0x%llx, +0x%llx) overlaps a live buffer",
                             (unsigned long long)addr, (unsigned long long)size)
                  : grow(d);
  vt_error err;
  if (rc == 0 && d->mmu && /* the range in the context's address space */
      vtd_mmu_buffer_at(d->mmu, d->sim, taskID, (uint32_t)addr, rounded, err.message,
                        sizeof err.message) != 0)
    rc = vtd_fail("vt_dev_buf_alloc_at: %s", err.message);
  else if (rc == 0 && vt_mem_map(d->sim, (uint32_t)addr, (uint32_t)rounded, &err) != VT_OK) {
    if (d->mmu) vtd_mmu_buffer_free(d->mmu, d->sim, (uint32_t)addr);
    rc = vtd_fail("vt_dev_buf_alloc_at: %s", err.message);
  }
  if (rc == 0) {
    memmove(&d->bufs[at + 1], &d->bufs[at], (d->nbufs - (size_t)at) * sizeof *d->bufs);
    d->bufs[at] = (vtd_buf){(uint32_t)addr, (uint32_t)rounded, size};
    d->nbufs++;
    char label[48];
    snprintf(label, sizeof label, "a buffer of %llu bytes", (unsigned long long)size);
    vt_mem_label(d->sim, (uint32_t)addr, (uint32_t)size, label, &err);
  }
  pthread_mutex_unlock(&d->mem);
  return rc;
}

int vtd_one_buf_free(vt_device_h hdevice, uint64_t *vaddr, const char *fn) {
  vtd_dev *d = vtd_lookup(hdevice, fn);
  if (!d) return -1;
  if (!vaddr) return vtd_fail("%s: null address pointer", fn);
  int rc = -1;
  pthread_mutex_lock(&d->mem);
  size_t i;
  for (i = 0; i < d->nbufs; i++)
    if (d->bufs[i].base == *vaddr) break;
  if (i == d->nbufs) {
    vtd_fail("%s: no buffer at 0x%llx (never allocated or already freed)", fn,
             (unsigned long long)*vaddr);
  } else {
    vt_error err;
    if (d->mmu) vtd_mmu_buffer_free(d->mmu, d->sim, d->bufs[i].base); /* selects its context */
    vt_mem_unmap(d->sim, d->bufs[i].base, d->bufs[i].size, &err);
    memmove(&d->bufs[i], &d->bufs[i + 1], (d->nbufs - i - 1) * sizeof *d->bufs);
    d->nbufs--;
    rc = 0;
  }
  pthread_mutex_unlock(&d->mem);
  return rc;
}

const vtd_buf *vtd_buffer_at(const vtd_dev *d, uint64_t addr) {
  for (size_t i = 0; i < d->nbufs && d->bufs[i].base <= addr; i++)
    if (addr - d->bufs[i].base < d->bufs[i].size) return &d->bufs[i];
  return NULL;
}

static uint64_t saturating_mul(uint64_t a, uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* pocl reserves min(4 KiB x work-items, 256 MiB) of private memory
 * (host-stack.md 2.7 step F): past 65,536 work-items a private area per
 * workgroup no longer fits. The workgroups then share the areas the buffer
 * holds, one per workgroup resident at a time (the official simulator
 * runs workgroups one by one on one area). */
uint32_t vtd_pds_slots(const vtd_dev *d, const vt_launch_meta *m) {
  if (m->pdsSize == 0 || m->pdsBaseAddr > 0xffffffffu) return 0;
  const vtd_buf *b = vtd_buffer_at(d, m->pdsBaseAddr);
  if (!b || m->pdsBaseAddr - b->base >= b->requested) return 0;
  uint64_t area = b->base + b->requested - m->pdsBaseAddr;
  uint64_t per_wg = saturating_mul(saturating_mul(m->pdsSize, m->wf_size), m->wg_size);
  uint64_t wgs =
      saturating_mul(saturating_mul(m->kernel_size[0], m->kernel_size[1]), m->kernel_size[2]);
  if (area / per_wg >= wgs) return 0;
  uint64_t slots = area / per_wg;
  /* less than one workgroup's area: one slot; the memory checker and
   * unmapped pages report the accesses past it */
  return slots == 0 ? 1 : (uint32_t)(slots > 0xffffffffu ? 0xffffffffu : slots);
}

/* Host copies must stay inside the size asked for at vt_buf_alloc, not the
 * page-rounded mapping (host-stack.md 1.6). Returns 0 or fails with a
 * message naming the buffer, its size and the overrun. */
static int check_copy(const vtd_dev *d, uint64_t addr, uint64_t size, const char *fn) {
  const vtd_buf *b = addr > 0xffffffffull ? NULL : vtd_buffer_at(d, addr);
  if (!b)
    return vtd_fail("%s: [0x%llx, +0x%llx) is not inside an allocated buffer", fn,
                    (unsigned long long)addr, (unsigned long long)size);
  uint64_t end = (uint64_t)b->base + b->requested;
  if (addr >= end)
    return vtd_fail("%s: [0x%llx, +0x%llx) is not inside an allocated buffer: it starts %llu "
                    "bytes past the end of the buffer at 0x%08x (%llu bytes)",
                    fn, (unsigned long long)addr, (unsigned long long)size,
                    (unsigned long long)(addr - end), b->base, (unsigned long long)b->requested);
  if (size > end - addr)
    return vtd_fail("%s: %llu bytes at 0x%llx overrun the buffer at 0x%08x (%llu bytes) by %llu "
                    "bytes",
                    fn, (unsigned long long)size, (unsigned long long)addr, b->base,
                    (unsigned long long)b->requested, (unsigned long long)(size - (end - addr)));
  return 0;
}

/* Host writes into the local-memory window [VT_LDS_BASE, VT_PROGRAM_BASE)
 * (pocl zero-fills __local arguments through it) are accepted and applied
 * nowhere: that memory is per workgroup and zero when a workgroup starts
 * (spec README decision 14), so no kernel could see them. They tell where
 * the next launch's __local arguments lie (vtd_start) when they are in the
 * top lds_bytes of the window, where pocl puts them. Reads fail: the
 * window has no contents the host could read (docs/driver.md). */
static int local_window_copy(vtd_dev *d, uint64_t addr, uint64_t size, bool to_dev,
                             const char *fn) {
  if (!to_dev)
    return vtd_fail("%s: 0x%llx is in the local-memory window [0x%08x, 0x%08x), which is "
                    "private to each workgroup; the host cannot read it",
                    fn, (unsigned long long)addr, VT_LDS_BASE, VT_PROGRAM_BASE);
  if (size > VT_PROGRAM_BASE - addr)
    return vtd_fail("%s: [0x%llx, +0x%llx) crosses the end of the local-memory window (0x%08x)",
                    fn, (unsigned long long)addr, (unsigned long long)size, VT_PROGRAM_BASE);
  /* pocl's placeholders lie within the top lds_bytes (local memory per SM)
   * of the window: the next launch's local memory reaches down to them */
  if (addr < (uint64_t)VT_PROGRAM_BASE - d->cfg.lds_bytes) return 0;
  pthread_mutex_lock(&d->lock);
  uint32_t low = (uint32_t)addr & ~(VTD_PAGE - 1);
  if (!d->window_low || low < d->window_low) d->window_low = low;
  pthread_mutex_unlock(&d->lock);
  return 0;
}

/* With the MMU on, a copy goes through the page table of the context it
 * names, which must own the buffer. */
static int mmu_copy_context(vtd_dev *d, uint64_t addr, uint64_t task, const char *fn) {
  int64_t owner = vtd_mmu_owner(d->mmu, addr);
  if (owner != (int64_t)task)
    return vtd_fail("%s: the buffer at 0x%llx belongs to context %lld, not to context %llu", fn,
                    (unsigned long long)addr, (long long)owner, (unsigned long long)task);
  char msg[600];
  if (vtd_mmu_select(d->mmu, d->sim, (int64_t)task, msg, sizeof msg) != 0)
    return vtd_fail("%s: %s", fn, msg);
  return 0;
}

static int copy(vt_device_h hdevice, uint64_t addr, void *host, uint64_t size, bool to_dev,
                uint64_t task, const char *fn) {
  vtd_dev *d = vtd_lookup(hdevice, fn);
  if (!d) return -1;
  if (!host) return vtd_fail("%s: null host pointer", fn);
  if (size == 0) return vtd_fail("%s: size 0", fn);
  if (addr >= VT_LDS_BASE && addr < VT_PROGRAM_BASE)
    return local_window_copy(d, addr, size, to_dev, fn);
  pthread_mutex_lock(&d->mem);
  int rc = check_copy(d, addr, size, fn);
  if (rc == 0 && d->mmu) /* through the context's page table */
    rc = mmu_copy_context(d, addr, task, fn);
  if (rc == 0) {
    vt_error err;
    int s = to_dev ? vt_mem_write(d->sim, (uint32_t)addr, host, (size_t)size, &err)
                   : vt_mem_read(d->sim, (uint32_t)addr, host, (size_t)size, &err);
    if (s != VT_OK) rc = vtd_fail("%s: %s", fn, err.message);
  }
  pthread_mutex_unlock(&d->mem);
  return rc;
}

int vtd_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void *src, uint64_t size,
                    uint64_t taskID) {
  return copy(hdevice, dev_vaddr, (void *)src, size, true, taskID, "vt_copy_to_dev");
}

int vtd_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void *dst, uint64_t size,
                      uint64_t taskID) {
  return copy(hdevice, dev_vaddr, dst, size, false, taskID, "vt_copy_from_dev");
}
