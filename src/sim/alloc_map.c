/* The exact bytes that were allocated or loaded, with names: driver buffers
 * (named by the runtime after their role, e.g. "argument 2"), test-vector
 * buffers and ELF segments. The memory checker (setting memcheck) accepts a
 * global access only inside one of them and names the nearest one when it
 * rejects an access (docs/run.md, "Memory checking"). */
#include <stdlib.h>
#include <string.h>

#include "exec_util.h"

static size_t find_base(const vt_alloc_map *m, uint32_t base) {
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->a[mid].base < base) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int vt_mem_label(vt_device *dev, uint32_t base, uint32_t size, const char *label, vt_error *err) {
  vt_alloc_map *m = &dev->allocs;
  if (size == 0 || (uint64_t)base + size > 0x100000000ull) {
    vt_err_set(err, VT_ERR_ARG, "cannot name [0x%08x, +0x%x): not a byte range of the address space",
               base, size);
    return VT_ERR_ARG;
  }
  size_t i = find_base(m, base);
  if (i == m->n || m->a[i].base != base) {
    if (m->n == m->cap) {
      size_t cap = m->cap ? 2 * m->cap : 32;
      vt_alloc *a = realloc(m->a, cap * sizeof *a);
      if (!a) {
        vt_err_set(err, VT_ERR_NOMEM, "out of host memory");
        return VT_ERR_NOMEM;
      }
      m->a = a;
      m->cap = cap;
    }
    memmove(&m->a[i + 1], &m->a[i], (m->n - i) * sizeof *m->a);
    m->n++;
  }
  m->a[i].base = base;
  m->a[i].size = size;
  snprintf(m->a[i].label, sizeof m->a[i].label, "%s", label ? label : "allocation");
  m->gen++;
  return VT_OK;
}

void vt_alloc_map_remove(vt_alloc_map *m, uint32_t base, uint32_t size) {
  size_t w = 0;
  for (size_t i = 0; i < m->n; i++)
    if (m->a[i].base < base || (uint64_t)m->a[i].base >= (uint64_t)base + size) m->a[w++] = m->a[i];
  m->n = w;
  m->gen++;
}

void vt_alloc_map_free(vt_alloc_map *m) {
  free(m->a);
  memset(m, 0, sizeof *m);
}

/* the allocation holding [addr, addr + size), or NULL */
static const vt_alloc *containing(const vt_alloc_map *m, uint32_t addr, unsigned size) {
  size_t i = addr == UINT32_MAX ? m->n : find_base(m, addr + 1); /* first base > addr */
  while (i > 0) { /* allocations are few: look at every one starting below addr */
    const vt_alloc *a = &m->a[--i];
    if ((uint64_t)addr + size <= (uint64_t)a->base + a->size) return a;
  }
  return NULL;
}

/* "N bytes past the end of L (S bytes at B)" for the nearest allocation */
static void describe_nearest(const vt_alloc_map *m, uint32_t addr, unsigned size, char *buf,
                             size_t n) {
  const vt_alloc *best = NULL;
  uint64_t dist = UINT64_MAX;
  for (size_t i = 0; i < m->n; i++) {
    const vt_alloc *a = &m->a[i];
    uint64_t end = (uint64_t)a->base + a->size;
    uint64_t d = addr >= end ? addr - end : a->base >= (uint64_t)addr + size ? a->base - ((uint64_t)addr + size) : 0;
    if (d < dist) dist = d, best = a;
  }
  if (!best) {
    snprintf(buf, n, "nothing is allocated");
    return;
  }
  uint64_t end = (uint64_t)best->base + best->size;
  if (addr >= end)
    snprintf(buf, n, "%llu bytes past the end of %s (%u bytes at 0x%08x)",
             (unsigned long long)(addr - end), best->label, best->size, best->base);
  else if (addr < best->base)
    snprintf(buf, n, "%llu bytes before %s (%u bytes at 0x%08x)",
             (unsigned long long)(best->base - addr), best->label, best->size, best->base);
  else
    snprintf(buf, n, "crossing the end of %s (%u bytes at 0x%08x)", best->label, best->size,
             best->base);
}

/* The warp's allocation before the last one holds the access: the two
 * trade places (a warp alternating between two buffers searches nothing). */
static bool recall(const vt_device *dev, vt_warp *w, uint32_t addr, unsigned size) {
  if (w->mc_gen2 != dev->allocs.gen || addr < w->mc_lo2 || (uint64_t)addr + size > w->mc_hi2)
    return false;
  uint64_t lo = w->mc_lo, hi = w->mc_hi;
  uint32_t gen = w->mc_gen;
  w->mc_lo = w->mc_lo2, w->mc_hi = w->mc_hi2, w->mc_gen = w->mc_gen2;
  w->mc_lo2 = lo, w->mc_hi2 = hi, w->mc_gen2 = gen;
  return true;
}

/* allocation a becomes the warp's last one, the last one its one before */
static void remember(const vt_device *dev, vt_warp *w, const vt_alloc *a) {
  w->mc_lo2 = w->mc_lo, w->mc_hi2 = w->mc_hi, w->mc_gen2 = w->mc_gen;
  w->mc_lo = a->base;
  w->mc_hi = a->base + (uint64_t)a->size;
  w->mc_gen = dev->allocs.gen;
}

bool vt_memcheck_span(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size) {
  if (recall(dev, w, addr, size)) return true;
  const vt_alloc *a = containing(&dev->allocs, addr, size);
  if (!a) return false;
  remember(dev, w, a);
  return true;
}

bool vt_memcheck_slow(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size, bool store,
                      vt_error *err) {
  if (recall(dev, w, addr, size)) return true;
  const vt_alloc *a = containing(&dev->allocs, addr, size);
  if (a) {
    remember(dev, w, a);
    return true;
  }
  /* an unmapped address is reported as such by the access itself, which is
   * clearer than a distance to the nearest allocation */
  if (!vt_sim_mapped(dev, addr, size)) return true;
  char where[200];
  describe_nearest(&dev->allocs, addr, size, where, sizeof where);
  char lane[24] = "";
  if (dev->cur_lane >= 0) snprintf(lane, sizeof lane, " (lane %d)", dev->cur_lane);
  vt_err_set(err, VT_ERR_ACCESS, "memcheck: %u-byte %s at 0x%08x%s is outside every allocation: %s",
             size, store ? "store" : "load", addr, lane, where);
  return false;
}
