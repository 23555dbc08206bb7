/* Device buffers through the driver (vt_buf_alloc, vt_copy_*), with the
 * runtime's own list so argument offsets can be checked. */
#include <stdlib.h>

#include "rt_internal.h"

int vt_rt_alloc(vt_rt *rt, uint64_t size, uint32_t *addr) {
  *addr = 0;
  if (size == 0) return rt_fail(rt, "cannot allocate a buffer of 0 bytes");
  if (size > VT_ADDR_BUFFER_SIZE) return rt_fail(rt, "buffer of %llu bytes is too large", (unsigned long long)size);
  if (rt->nbufs == rt->capbufs) {
    size_t cap = rt->capbufs ? 2 * rt->capbufs : 16;
    rt_buffer *b = realloc(rt->bufs, cap * sizeof *b);
    if (!b) return rt_fail(rt, "out of memory");
    rt->bufs = b;
    rt->capbufs = cap;
  }
  uint64_t a = 0;
  if (vt_buf_alloc(rt->dev, size, &a, READ_WRITE, rt->task, 0) != 0)
    return rt_fail_driver(rt, "cannot allocate %llu bytes of device memory",
                          (unsigned long long)size);
  rt->bufs[rt->nbufs].addr = (uint32_t)a;
  rt->bufs[rt->nbufs].size = size;
  rt->nbufs++;
  *addr = (uint32_t)a;
  return 0;
}

int vt_rt_free(vt_rt *rt, uint32_t addr) {
  for (size_t i = 0; i < rt->nbufs; i++) {
    if (rt->bufs[i].addr != addr) continue;
    uint64_t a = addr;
    int rc = vt_one_buf_free(rt->dev, rt->bufs[i].size, &a, rt->task, 0);
    rt->bufs[i] = rt->bufs[--rt->nbufs];
    if (rc != 0) return rt_fail_driver(rt, "freeing the buffer at 0x%08x", addr);
    return 0;
  }
  return rt_fail(rt, "0x%08x is not a buffer allocated by this runtime", addr);
}

int vt_rt_write(vt_rt *rt, uint32_t addr, const void *src, uint64_t n) {
  if (n == 0) return 0;
  if (vt_copy_to_dev(rt->dev, addr, src, n, rt->task, 0) != 0)
    return rt_fail_driver(rt, "writing %llu bytes at 0x%08x", (unsigned long long)n, addr);
  return 0;
}

int vt_rt_read(vt_rt *rt, uint32_t addr, void *dst, uint64_t n) {
  if (n == 0) return 0;
  if (vt_copy_from_dev(rt->dev, addr, dst, n, rt->task, 0) != 0)
    return rt_fail_driver(rt, "reading %llu bytes at 0x%08x", (unsigned long long)n, addr);
  return 0;
}

uint64_t vt_rt_buffer_size(const vt_rt *rt, uint32_t addr) {
  for (size_t i = 0; i < rt->nbufs; i++)
    if (addr >= rt->bufs[i].addr && addr - rt->bufs[i].addr < rt->bufs[i].size)
      return rt->bufs[i].size;
  return 0;
}
