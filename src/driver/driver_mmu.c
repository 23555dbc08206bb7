/* The driver's contexts with the MMU on (driver_mmu.h): a table of
 * contexts (task ID -> address space, ASID = slot + 1; context 0 is the
 * device's default address space, ASID 0), the device-wide list of buffer
 * ranges with their contexts, and the next-fit choice of buffer addresses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_mmu.h"

#define MAX_CONTEXTS 64
#define WINDOW_END ((uint64_t)VT_ADDR_BUFFER_BASE + VT_ADDR_BUFFER_SIZE)

typedef struct vrange {
  uint32_t va;
  uint64_t size;
  int64_t task;
} vrange;

typedef struct context {
  bool used;
  int64_t task;
  vt_aspace *as;
  uint64_t image; /* bytes of the program window mapped for raw images */
} context;

struct vtd_mmu {
  context ctx[MAX_CONTEXTS];
  uint64_t image0;  /* context 0's */
  vrange *r;        /* buffers, sorted by address */
  size_t n, cap;
  uint64_t cursor;  /* the next search starts here */
};

vtd_mmu *vtd_mmu_new(void) {
  vtd_mmu *m = calloc(1, sizeof *m);
  if (m) m->cursor = VT_ADDR_BUFFER_BASE;
  return m;
}

void vtd_mmu_free(vtd_mmu *m, vt_device *sim) {
  if (!m) return;
  vt_device_set_aspace(sim, NULL);
  for (int i = 0; i < MAX_CONTEXTS; i++)
    if (m->ctx[i].used) vt_aspace_free(sim, m->ctx[i].as);
  free(m->r);
  free(m);
}

static context *find(vtd_mmu *m, int64_t task) {
  for (int i = 0; i < MAX_CONTEXTS; i++)
    if (m->ctx[i].used && m->ctx[i].task == task) return &m->ctx[i];
  return NULL;
}

int vtd_mmu_context_new(vtd_mmu *m, vt_device *sim, int64_t task, char *msg, size_t n) {
  if (task == 0 || find(m, task)) return 0; /* the caller keeps the list of IDs */
  int i = 0;
  while (i < MAX_CONTEXTS && m->ctx[i].used) i++;
  if (i == MAX_CONTEXTS) {
    snprintf(msg, n, "too many contexts (%d)", MAX_CONTEXTS);
    return -1;
  }
  vt_error err;
  vt_aspace *as = vt_aspace_new(sim, (uint16_t)(i + 1), &err);
  if (!as) {
    snprintf(msg, n, "%s", err.message);
    return -1;
  }
  m->ctx[i] = (context){true, task, as, 0};
  return 0;
}

int vtd_mmu_select(vtd_mmu *m, vt_device *sim, int64_t task, char *msg, size_t n) {
  if (task == 0) {
    vt_device_set_aspace(sim, NULL);
    return 0;
  }
  context *c = find(m, task);
  if (!c) {
    snprintf(msg, n, "no context %lld (vt_root_mem_alloc)", (long long)task);
    return -1;
  }
  vt_device_set_aspace(sim, c->as);
  return 0;
}

int vtd_mmu_context_free(vtd_mmu *m, vt_device *sim, int64_t task, char *msg, size_t n) {
  context *c = task ? find(m, task) : NULL;
  if (task && !c) {
    snprintf(msg, n, "no context %lld", (long long)task);
    return -1;
  }
  /* its buffers went with it (the caller drops them from its list) */
  size_t w = 0;
  for (size_t i = 0; i < m->n; i++)
    if (m->r[i].task != task) m->r[w++] = m->r[i];
  m->n = w;
  if (c) {
    vt_device_set_aspace(sim, NULL);
    vt_aspace_free(sim, c->as);
    memset(c, 0, sizeof *c);
  }
  return 0;
}

/* the first gap of 'size' bytes in [from, to), or 0 */
static uint64_t gap(const vtd_mmu *m, uint64_t from, uint64_t to, uint64_t size) {
  uint64_t a = from;
  for (size_t i = 0; i <= m->n; i++) {
    uint64_t b = i < m->n ? m->r[i].va : WINDOW_END, e = i < m->n ? b + m->r[i].size : WINDOW_END;
    if (e <= a) continue;
    if (b >= a && b - a >= size && a + size <= to) return a;
    if (e > a) a = e;
  }
  return 0;
}

/* the range [va, +size) of the context, kept in address order */
static int insert(vtd_mmu *m, uint32_t va, uint64_t size, int64_t task, char *msg, size_t n) {
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 32;
    vrange *r = realloc(m->r, cap * sizeof *r);
    if (!r) {
      snprintf(msg, n, "out of memory");
      return -1;
    }
    m->r = r;
    m->cap = cap;
  }
  size_t i = m->n;
  while (i > 0 && m->r[i - 1].va > va) {
    m->r[i] = m->r[i - 1];
    i--;
  }
  m->r[i] = (vrange){va, size, task};
  m->n++;
  return 0;
}

int vtd_mmu_buffer(vtd_mmu *m, vt_device *sim, int64_t task, uint64_t size, uint32_t *va,
                   char *msg, size_t n) {
  if (vtd_mmu_select(m, sim, task, msg, n) != 0) return -1;
  /* next fit: from the cursor to the end, then from the window's start */
  uint64_t a = gap(m, m->cursor, WINDOW_END, size);
  if (!a) a = gap(m, VT_ADDR_BUFFER_BASE, m->cursor, size);
  if (!a) {
    snprintf(msg, n, "out of device address space (%llu bytes requested)", (unsigned long long)size);
    return -1;
  }
  if (insert(m, (uint32_t)a, size, task, msg, n) != 0) return -1;
  m->cursor = a + size;
  *va = (uint32_t)a;
  return 0;
}

int vtd_mmu_buffer_at(vtd_mmu *m, vt_device *sim, int64_t task, uint32_t va, uint64_t size,
                      char *msg, size_t n) {
  if (vtd_mmu_select(m, sim, task, msg, n) != 0) return -1;
  if (gap(m, va, (uint64_t)va + size, size) != va) {
    snprintf(msg, n, "[0x%08x, +0x%llx) overlaps a live buffer", va, (unsigned long long)size);
    return -1;
  }
  return insert(m, va, size, task, msg, n);
}

void vtd_mmu_buffer_free(vtd_mmu *m, vt_device *sim, uint32_t va) {
  for (size_t i = 0; i < m->n; i++)
    if (m->r[i].va == va) {
      char msg[8];
      vtd_mmu_select(m, sim, m->r[i].task, msg, sizeof msg);
      memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof *m->r);
      m->n--;
      return;
    }
}

int64_t vtd_mmu_owner(const vtd_mmu *m, uint64_t va) {
  for (size_t i = 0; i < m->n; i++)
    if (va >= m->r[i].va && va - m->r[i].va < m->r[i].size) return m->r[i].task;
  return -1;
}

int vtd_mmu_image(vtd_mmu *m, vt_device *sim, int64_t task, uint64_t size, char *msg, size_t n) {
  if (vtd_mmu_select(m, sim, task, msg, n) != 0) return -1;
  context *c = task ? find(m, task) : NULL;
  uint64_t *mapped = c ? &c->image : &m->image0;
  if (size <= *mapped) return 0;
  vt_error err;
  if (vt_mem_map(sim, VT_ADDR_PROGRAM_BASE, (uint32_t)size, &err) != VT_OK) {
    snprintf(msg, n, "%s", err.message);
    return -1;
  }
  *mapped = size;
  return 0;
}

int vtd_mmu_launch(vtd_mmu *m, vt_device *sim, int64_t task, vt_launch *l, char *msg, size_t n) {
  if (vtd_mmu_select(m, sim, task, msg, n) != 0) return -1;
  const vt_aspace *as = vt_device_aspace(sim);
  l->ptbr = vt_aspace_root(as);
  l->asid = vt_aspace_asid(as);
  return 0;
}
