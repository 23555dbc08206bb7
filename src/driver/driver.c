/* The vt_* driver API (include/ventus.h) on the functional simulator.
 *
 * A device owns a simulator instance, its buffer list and a worker thread
 * that runs the launches queued by vt_start in order. Two locks: 'mem'
 * guards the simulator (memory, buffers, statistics) and is held by the
 * worker while a launch runs, so a copy issued meanwhile waits for it
 * (in-order semantics, as an OpenCL in-order queue); 'lock' guards the queue
 * and results, so vt_ready_wait can time out while a launch runs. Lock
 * order: mem before lock. Handles are checked against the set of open devices, so unknown
 * and closed handles are errors rather than crashes (docs/decisions.md). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver_config.h"
#include "driver_mmu.h"
#include "ventus.h"
#include "vt/elf.h"
#include "vt/knl.h"
#include "vt/sim.h"
#include "vt/driver_ext.h"
#include "vt/session.h"

#define PAGE 4096u
#define QUEUE_MAX 64
#define KERNEL_BASE VT_ADDR_PROGRAM_BASE

typedef struct dbuf {
  uint32_t base, size; /* size rounded up to pages: what the simulator maps */
  uint64_t requested;  /* the size asked for: what host copies may touch */
} dbuf;

typedef struct dev {
  vt_device *sim;      /* the session's device */
  vt_session *session; /* the device, timing model and outputs (vt/session.h) */
  vt_settings cfg;
  pthread_mutex_t mem;  /* simulator, buffers */
  pthread_mutex_t lock; /* queue, results */
  pthread_cond_t work, idle;
  pthread_t worker;
  bool stop;
  /* buffers, sorted by base */
  dbuf *bufs;
  size_t nbufs, cap;
  uint32_t next_alloc;
  /* contexts of vt_root_mem_alloc; with the MMU on, their address spaces */
  int contexts[64];
  size_t ncontexts;
  vtd_mmu *mmu;
  /* launch queue */
  vt_launch_meta queue[QUEUE_MAX];
  uint64_t queue_task[QUEUE_MAX];
  char queue_name[QUEUE_MAX][80]; /* progress line: vt_dev_name_launch or "kernel N" */
  char next_name[64];
  size_t qhead, qlen;
  bool running;
  /* results */
  int failed;
  char error[600];
  int finished[256];
  size_t nfinished;
  uint64_t launches;
} dev;

/* ---- open-device registry and per-thread last error ---- */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static dev *registry[64];
static _Thread_local char last_error[640];

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return -1;
}

const char *vt_last_error(void) { return last_error; }

static bool registered(const dev *d) {
  bool ok = false;
  pthread_mutex_lock(&registry_lock);
  for (size_t i = 0; i < 64 && !ok; i++) ok = d && registry[i] == d;
  pthread_mutex_unlock(&registry_lock);
  return ok;
}

static dev *lookup(vt_device_h h, const char *fn) {
  dev *d = (dev *)h;
  if (!d) {
    fail("%s: null device handle", fn);
    return NULL;
  }
  if (!registered(d)) {
    fail("%s: unknown or closed device handle %p", fn, h);
    return NULL;
  }
  last_error[0] = 0;
  return d;
}

/* ---- worker ---- */
/* The descriptor has no work-item count: it comes from the local sizes in
 * the KNL buffer as the kernel will read them (vt/knl.h; 0 = every lane).
 * Called with 'mem' held. */
static uint32_t knl_wg_threads(dev *d, const vt_launch *l) {
  uint8_t knl[VT_KNL_GEOMETRY_BYTES];
  vt_error err;
  if (vt_mem_read(d->sim, l->knl_addr, knl, sizeof knl, &err) != VT_OK) return 0;
  return vt_knl_wg_threads(knl, sizeof knl, l->threads_per_warp, l->warps_per_wg);
}

static void *worker_main(void *arg) {
  dev *d = arg;
  pthread_mutex_lock(&d->lock);
  for (;;) {
    while (!d->stop && d->qlen == 0) pthread_cond_wait(&d->work, &d->lock);
    if (d->qlen == 0 && d->stop) break;
    vt_launch_meta m = d->queue[d->qhead];
    d->running = true;
    vt_launch l;
    memset(&l, 0, sizeof l);
    l.start_pc = KERNEL_BASE;
    for (int k = 0; k < 3; k++) l.num_wg[k] = (uint32_t)m.kernel_size[k];
    l.threads_per_warp = (unsigned)m.wf_size;
    l.warps_per_wg = (unsigned)m.wg_size;
    l.knl_addr = (uint32_t)m.metaDataBaseAddr;
    l.lds_size = (uint32_t)m.ldsSize;
    l.pds_size = (uint32_t)m.pdsSize;
    l.pds_base = (uint32_t)m.pdsBaseAddr;
    l.sgpr_usage = m.sgprUsage > 256 ? 256 : (uint32_t)m.sgprUsage;
    l.vgpr_usage = m.vgprUsage > 256 ? 256 : (uint32_t)m.vgprUsage;
    pthread_mutex_unlock(&d->lock);
    uint64_t task = d->queue_task[d->qhead];
    vt_error err;
    pthread_mutex_lock(&d->mem);
    int rc = VT_OK;
    if (d->mmu && vtd_mmu_launch(d->mmu, d->sim, (int64_t)task, &l, err.message,
                                 sizeof err.message) != 0)
      rc = VT_ERR_ARG; /* the context's page table (driver_mmu.c) */
    l.wg_threads = knl_wg_threads(d, &l);
    char name[sizeof d->queue_name[0]];
    memcpy(name, d->queue_name[d->qhead], sizeof name);
    if (rc == VT_OK) rc = vt_session_launch(d->session, &l, name, &err);
    pthread_mutex_unlock(&d->mem);
    pthread_mutex_lock(&d->lock);
    d->qhead = (d->qhead + 1) % QUEUE_MAX;
    d->qlen--;
    d->running = false;
    d->launches++;
    if (rc != VT_OK) {
      if (!d->failed) snprintf(d->error, sizeof d->error, "kernel %llu: %s",
                               (unsigned long long)m.kernel_id, err.message);
      d->failed = 1;
    } else if (d->nfinished < sizeof d->finished / sizeof d->finished[0]) {
      d->finished[d->nfinished++] = (int)m.kernel_id;
    }
    if (d->qlen == 0) pthread_cond_broadcast(&d->idle);
  }
  pthread_mutex_unlock(&d->lock);
  return NULL;
}

/* ---- devices ---- */
static void destroy(dev *d) {
  vtd_mmu_free(d->mmu, d->sim);
  vt_session_free(d->session);
  free(d->bufs);
  free(d);
}

/* A device running on a session with the given settings. */
static int open_device(vt_device_h *hdevice, const vt_settings *settings) {
  dev *d = calloc(1, sizeof *d);
  if (!d) return fail("vt_dev_open: out of memory");
  char msg[700];
  if (vt_session_new(settings, &d->session, msg, sizeof msg) != 0) {
    free(d);
    return fail("vt_dev_open: %s", msg);
  }
  d->sim = vt_session_device(d->session);
  d->cfg = *vt_session_settings(d->session);
  d->next_alloc = VT_BUFFER_BASE;
  if (d->cfg.mmu && !(d->mmu = vtd_mmu_new())) {
    destroy(d);
    return fail("vt_dev_open: out of memory");
  }
  pthread_mutex_init(&d->lock, NULL);
  pthread_mutex_init(&d->mem, NULL);
  pthread_cond_init(&d->work, NULL);
  pthread_cond_init(&d->idle, NULL);
  if (pthread_create(&d->worker, NULL, worker_main, d) != 0) {
    destroy(d);
    return fail("vt_dev_open: cannot start the worker thread");
  }
  pthread_mutex_lock(&registry_lock);
  size_t i;
  for (i = 0; i < 64 && registry[i]; i++) {
  }
  if (i < 64) registry[i] = d;
  pthread_mutex_unlock(&registry_lock);
  if (i == 64) {
    pthread_mutex_lock(&d->lock);
    d->stop = true;
    pthread_cond_signal(&d->work);
    pthread_mutex_unlock(&d->lock);
    pthread_join(d->worker, NULL);
    destroy(d);
    return fail("vt_dev_open: too many open devices (64)");
  }
  *hdevice = d;
  last_error[0] = 0;
  return 0;
}

int vt_dev_open(vt_device_h *hdevice) {
  if (!hdevice) return fail("vt_dev_open: null handle pointer");
  *hdevice = NULL;
  vt_settings s;
  char msg[700];
  if (vt_driver_config(&s, msg, sizeof msg) != 0) return fail("vt_dev_open: %s", msg);
  return open_device(hdevice, &s);
}

int vt_dev_open_settings(vt_device_h *hdevice, const vt_settings *settings) {
  if (!hdevice) return fail("vt_dev_open_settings: null handle pointer");
  *hdevice = NULL;
  if (!settings) return vt_dev_open(hdevice);
  return open_device(hdevice, settings);
}

vt_session *vt_dev_session(vt_device_h hdevice) {
  dev *d = lookup(hdevice, "vt_dev_session");
  return d ? d->session : NULL;
}

int vt_dev_close(vt_device_h hdevice) {
  dev *d = lookup(hdevice, "vt_dev_close");
  if (!d) return -1;
  pthread_mutex_lock(&registry_lock);
  for (size_t i = 0; i < 64; i++)
    if (registry[i] == d) registry[i] = NULL;
  pthread_mutex_unlock(&registry_lock);
  pthread_mutex_lock(&d->lock);
  d->stop = true; /* queued launches still run before the worker exits */
  pthread_cond_signal(&d->work);
  pthread_mutex_unlock(&d->lock);
  pthread_join(d->worker, NULL);
  pthread_cond_destroy(&d->work);
  pthread_cond_destroy(&d->idle);
  pthread_mutex_destroy(&d->lock);
  pthread_mutex_destroy(&d->mem);
  char msg[700];
  int rc = vt_session_finish(d->session, msg, sizeof msg);
  destroy(d);
  return rc == 0 ? 0 : fail("vt_dev_close: %s", msg);
}

int vt_dev_caps(vt_device_h *hdevice, uint64_t caps_id, uint64_t *value) {
  if (!hdevice) return fail("vt_dev_caps: null handle pointer");
  dev *d = lookup(*hdevice, "vt_dev_caps");
  if (!d) return -1;
  if (!value) return fail("vt_dev_caps: null value pointer");
  switch (caps_id) {
  case VT_CAPS_VERSION: *value = 1; break;
  case VT_CAPS_MAX_CORES: *value = d->cfg.sms; break;
  case VT_CAPS_MAX_WARPS: *value = d->cfg.warp_slots; break;
  case VT_CAPS_MAX_THREADS: *value = d->cfg.threads ? d->cfg.threads : 32; break;
  case VT_CAPS_CACHE_LINE_SIZE: *value = 128; break;
  case VT_CAPS_LOCAL_MEM_SIZE: *value = d->cfg.lds_bytes; break;
  case VT_CAPS_ALLOC_BASE_ADDR: *value = VT_BUFFER_BASE; break;
  case VT_CAPS_KERNEL_BASE_ADDR: *value = KERNEL_BASE; break;
  default: return fail("vt_dev_caps: unknown capability id %llu", (unsigned long long)caps_id);
  }
  return 0;
}

int vt_root_mem_alloc(vt_device_h hdevice, int taskID) {
  dev *d = lookup(hdevice, "vt_root_mem_alloc");
  if (!d) return -1;
  int rc = 0;
  char msg[600];
  if (d->mmu) pthread_mutex_lock(&d->mem); /* the context's address space */
  pthread_mutex_lock(&d->lock);
  for (size_t i = 0; i < d->ncontexts; i++)
    if (d->contexts[i] == taskID) rc = fail("vt_root_mem_alloc: context %d exists", taskID);
  if (rc == 0 && d->ncontexts == 64) rc = fail("vt_root_mem_alloc: too many contexts");
  if (rc == 0 && d->mmu && vtd_mmu_context_new(d->mmu, d->sim, taskID, msg, sizeof msg) != 0)
    rc = fail("vt_root_mem_alloc: %s", msg);
  if (rc == 0) d->contexts[d->ncontexts++] = taskID;
  pthread_mutex_unlock(&d->lock);
  if (d->mmu) pthread_mutex_unlock(&d->mem);
  return rc;
}

int vt_root_mem_free(vt_device_h hdevice, int taskID) {
  dev *d = lookup(hdevice, "vt_root_mem_free");
  if (!d) return -1;
  int rc = fail("vt_root_mem_free: no context %d", taskID);
  if (d->mmu) pthread_mutex_lock(&d->mem);
  pthread_mutex_lock(&d->lock);
  for (size_t i = 0; i < d->ncontexts; i++)
    if (d->contexts[i] == taskID) {
      d->contexts[i] = d->contexts[--d->ncontexts];
      rc = 0;
      last_error[0] = 0;
      break;
    }
  if (rc == 0 && d->mmu) { /* its address space goes, and its buffers with it */
    size_t w = 0;
    for (size_t i = 0; i < d->nbufs; i++) {
      vt_error err;
      if (vtd_mmu_owner(d->mmu, d->bufs[i].base) != taskID) {
        d->bufs[w++] = d->bufs[i];
        continue;
      }
      vtd_mmu_buffer_free(d->mmu, d->sim, d->bufs[i].base); /* selects its context */
      vt_mem_unmap(d->sim, d->bufs[i].base, d->bufs[i].size, &err);
    }
    d->nbufs = w;
    char msg[600];
    if (vtd_mmu_context_free(d->mmu, d->sim, taskID, msg, sizeof msg) != 0)
      rc = fail("vt_root_mem_free: %s", msg);
  }
  pthread_mutex_unlock(&d->lock);
  if (d->mmu) pthread_mutex_unlock(&d->mem);
  return rc;
}

/* ---- buffers ---- */
int vt_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, int BUF_TYPE,
                 uint64_t taskID, uint64_t kernelID) {
  (void)taskID;
  (void)kernelID;
  dev *d = lookup(hdevice, "vt_buf_alloc");
  if (!d) return -1;
  if (!vaddr) return fail("vt_buf_alloc: null address pointer");
  if (size == 0) return fail("vt_buf_alloc: size 0");
  if (BUF_TYPE < READ_WRITE || BUF_TYPE > KERNEL_MEM)
    return fail("vt_buf_alloc: unknown buffer type %d", BUF_TYPE);
  uint64_t rounded = (size + PAGE - 1) & ~(uint64_t)(PAGE - 1);
  int rc = 0;
  pthread_mutex_lock(&d->mem);
  if (!d->mmu && (uint64_t)d->next_alloc + rounded > 0x100000000ull) {
    rc = fail("vt_buf_alloc: out of device address space (%llu bytes requested)",
              (unsigned long long)size);
  } else if (d->nbufs == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 32;
    dbuf *b = realloc(d->bufs, cap * sizeof *b);
    if (!b)
      rc = fail("vt_buf_alloc: out of memory");
    else
      d->bufs = b, d->cap = cap;
  }
  if (rc == 0) {
    vt_error err;
    uint32_t base = d->next_alloc;
    if (d->mmu && vtd_mmu_buffer(d->mmu, d->sim, (int64_t)taskID, rounded, &base, err.message,
                                 sizeof err.message) != 0) { /* address and context */
      rc = fail("vt_buf_alloc: %s", err.message);
    } else if (vt_mem_map(d->sim, base, (uint32_t)rounded, &err) != VT_OK) {
      if (d->mmu) vtd_mmu_buffer_free(d->mmu, d->sim, base);
      rc = fail("vt_buf_alloc: %s", err.message);
    } else {
      d->bufs[d->nbufs++] = (dbuf){base, (uint32_t)rounded, size};
      char label[48];
      snprintf(label, sizeof label, "a buffer of %llu bytes", (unsigned long long)size);
      vt_mem_label(d->sim, base, (uint32_t)size, label, &err);
      if (!d->mmu) d->next_alloc = (uint32_t)(base + rounded); /* addresses are never reused */
      *vaddr = base;
    }
  }
  pthread_mutex_unlock(&d->mem);
  return rc;
}

int vt_one_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                    uint64_t kernelID) {
  (void)size;
  (void)taskID;
  (void)kernelID;
  dev *d = lookup(hdevice, "vt_one_buf_free");
  if (!d) return -1;
  if (!vaddr) return fail("vt_one_buf_free: null address pointer");
  int rc = -1;
  pthread_mutex_lock(&d->mem);
  size_t i;
  for (i = 0; i < d->nbufs; i++)
    if (d->bufs[i].base == *vaddr) break;
  if (i == d->nbufs) {
    fail("vt_one_buf_free: no buffer at 0x%llx (never allocated or already freed)",
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

/* host-stack.md 1.6: frees exactly the buffer at *vaddr (the official spike
 * backend freed every buffer) */
int vt_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                uint64_t kernelID) {
  return vt_one_buf_free(hdevice, size, vaddr, taskID, kernelID);
}

/* The buffer whose pages hold addr (called with the lock held), or NULL. */
static const dbuf *buffer_at(const dev *d, uint64_t addr) {
  for (size_t i = 0; i < d->nbufs; i++)
    if (addr >= d->bufs[i].base && addr - d->bufs[i].base < d->bufs[i].size) return &d->bufs[i];
  return NULL;
}

/* Host copies must stay inside the size asked for at vt_buf_alloc, not the
 * page-rounded mapping (host-stack.md 1.6). Returns 0 or fails with a
 * message naming the buffer, its size and the overrun. */
static int check_copy(const dev *d, uint64_t addr, uint64_t size, const char *fn) {
  const dbuf *b = addr > 0xffffffffull ? NULL : buffer_at(d, addr);
  if (!b)
    return fail("%s: [0x%llx, +0x%llx) is not inside an allocated buffer", fn,
                (unsigned long long)addr, (unsigned long long)size);
  uint64_t end = (uint64_t)b->base + b->requested;
  if (addr >= end)
    return fail("%s: [0x%llx, +0x%llx) is not inside an allocated buffer: it starts %llu bytes "
                "past the end of the buffer at 0x%08x (%llu bytes)",
                fn, (unsigned long long)addr, (unsigned long long)size,
                (unsigned long long)(addr - end), b->base, (unsigned long long)b->requested);
  if (size > end - addr)
    return fail("%s: %llu bytes at 0x%llx overrun the buffer at 0x%08x (%llu bytes) by %llu "
                "bytes",
                fn, (unsigned long long)size, (unsigned long long)addr, b->base,
                (unsigned long long)b->requested, (unsigned long long)(size - (end - addr)));
  return 0;
}

/* Host writes into the local-memory window [VT_LDS_BASE, VT_PROGRAM_BASE)
 * (pocl zero-fills __local arguments through it) are accepted and applied
 * nowhere: that memory is per workgroup and zero when a workgroup starts
 * (spec README decision 14), so no kernel could see them. Reads fail: the
 * window has no contents the host could read (docs/driver.md). */
static int local_window_copy(uint64_t addr, uint64_t size, bool to_dev, const char *fn) {
  if (!to_dev)
    return fail("%s: 0x%llx is in the local-memory window [0x%08x, 0x%08x), which is private to "
                "each workgroup; the host cannot read it",
                fn, (unsigned long long)addr, VT_LDS_BASE, VT_PROGRAM_BASE);
  if (size > VT_PROGRAM_BASE - addr)
    return fail("%s: [0x%llx, +0x%llx) crosses the end of the local-memory window (0x%08x)", fn,
                (unsigned long long)addr, (unsigned long long)size, VT_PROGRAM_BASE);
  return 0;
}

/* With the MMU on, a copy goes through the page table of the context it
 * names, which must own the buffer. */
static int mmu_copy_context(dev *d, uint64_t addr, uint64_t task, const char *fn) {
  int64_t owner = vtd_mmu_owner(d->mmu, addr);
  if (owner != (int64_t)task)
    return fail("%s: the buffer at 0x%llx belongs to context %lld, not to context %llu", fn,
                (unsigned long long)addr, (long long)owner, (unsigned long long)task);
  char msg[600];
  if (vtd_mmu_select(d->mmu, d->sim, (int64_t)task, msg, sizeof msg) != 0)
    return fail("%s: %s", fn, msg);
  return 0;
}

static int copy(vt_device_h hdevice, uint64_t addr, void *host, uint64_t size, bool to_dev,
                uint64_t task, const char *fn) {
  dev *d = lookup(hdevice, fn);
  if (!d) return -1;
  if (!host) return fail("%s: null host pointer", fn);
  if (size == 0) return fail("%s: size 0", fn);
  if (addr >= VT_LDS_BASE && addr < VT_PROGRAM_BASE)
    return local_window_copy(addr, size, to_dev, fn);
  pthread_mutex_lock(&d->mem);
  int rc = check_copy(d, addr, size, fn);
  if (rc == 0 && d->mmu) /* through the context's page table */
    rc = mmu_copy_context(d, addr, task, fn);
  if (rc == 0) {
    vt_error err;
    int s = to_dev ? vt_mem_write(d->sim, (uint32_t)addr, host, (size_t)size, &err)
                   : vt_mem_read(d->sim, (uint32_t)addr, host, (size_t)size, &err);
    if (s != VT_OK) rc = fail("%s: %s", fn, err.message);
  }
  pthread_mutex_unlock(&d->mem);
  return rc;
}

int vt_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void *src, uint64_t size,
                   uint64_t taskID, uint64_t kernelID) {
  (void)taskID;
  (void)kernelID;
  return copy(hdevice, dev_vaddr, (void *)src, size, true, taskID, "vt_copy_to_dev");
}

int vt_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void *dst, uint64_t size,
                     uint64_t taskID, uint64_t kernelID) {
  (void)taskID;
  (void)kernelID;
  return copy(hdevice, dev_vaddr, dst, size, false, taskID, "vt_copy_from_dev");
}

/* ---- kernels ---- */
/* 'what' names the image in messages: "FUNCTION: FILE" or "FUNCTION" */
static int load_elf_image(dev *d, const vt_elf *elf, int64_t task, const char *what) {
  vt_error err;
  pthread_mutex_lock(&d->mem);
  int rc = d->mmu && vtd_mmu_select(d->mmu, d->sim, task, err.message, sizeof err.message) != 0
               ? VT_ERR_ARG : vt_device_load_elf(d->sim, elf, &err);
  pthread_mutex_unlock(&d->mem);
  if (rc != VT_OK) return fail("%s: %s", what, err.message);
  return 0;
}

int vt_upload_kernel_file(vt_device_h hdevice, const char *filename, int taskID) {
  dev *d = lookup(hdevice, "vt_upload_kernel_file");
  if (!d) return -1;
  if (!filename) return fail("vt_upload_kernel_file: null file name");
  char msg[512];
  vt_elf *elf;
  if (vt_elf_open_file(filename, &elf, msg, sizeof msg) != 0)
    return fail("vt_upload_kernel_file: %s", msg);
  char what[600];
  snprintf(what, sizeof what, "vt_upload_kernel_file: %s", filename);
  int rc = load_elf_image(d, elf, taskID, what);
  vt_elf_free(elf);
  return rc;
}

/* An ELF image is loaded segment by segment; anything else is taken as the
 * raw code image of the program window (the .vmem contents). */
int vt_upload_kernel_bytes(vt_device_h hdevice, const void *content, uint64_t size, int taskID) {
  dev *d = lookup(hdevice, "vt_upload_kernel_bytes");
  if (!d) return -1;
  if (!content || size == 0) return fail("vt_upload_kernel_bytes: empty image");
  if (size >= 4 && memcmp(content, "\177ELF", 4) == 0) {
    char msg[512];
    vt_elf *elf;
    if (vt_elf_open_mem(content, (size_t)size, &elf, msg, sizeof msg) != 0)
      return fail("vt_upload_kernel_bytes: %s", msg);
    int rc = load_elf_image(d, elf, taskID, "vt_upload_kernel_bytes");
    vt_elf_free(elf);
    return rc;
  }
  if (size > VT_ADDR_PROGRAM_SIZE)
    return fail("vt_upload_kernel_bytes: image of %llu bytes is larger than the program window "
                "(%u MiB)", (unsigned long long)size, VT_ADDR_PROGRAM_SIZE >> 20);
  vt_error err;
  pthread_mutex_lock(&d->mem);
  int rc = d->mmu && vtd_mmu_image(d->mmu, d->sim, taskID, size, err.message,
                                   sizeof err.message) != 0
               ? VT_ERR_ARG : vt_mem_write(d->sim, KERNEL_BASE, content, (size_t)size, &err);
  if (rc == VT_OK) rc = vt_mem_label(d->sim, KERNEL_BASE, (uint32_t)size, "the program image", &err);
  pthread_mutex_unlock(&d->mem);
  if (rc != VT_OK) return fail("vt_upload_kernel_bytes: %s", err.message);
  return 0;
}

int vt_dev_load_elf(vt_device_h hdevice, const vt_elf *elf) {
  return vt_dev_load_elf_task(hdevice, elf, 0);
}

int vt_dev_load_elf_task(vt_device_h hdevice, const vt_elf *elf, int taskID) {
  dev *d = lookup(hdevice, "vt_dev_load_elf");
  if (!d) return -1;
  if (!elf) return fail("vt_dev_load_elf: null program");
  return load_elf_image(d, elf, taskID, "vt_dev_load_elf");
}

int vt_dev_label(vt_device_h hdevice, uint64_t addr, uint64_t size, const char *label) {
  dev *d = lookup(hdevice, "vt_dev_label");
  if (!d) return -1;
  if (addr > 0xffffffffull || size == 0 || size > 0x100000000ull - addr)
    return fail("vt_dev_label: [0x%llx, +0x%llx) is not a byte range of the address space",
                (unsigned long long)addr, (unsigned long long)size);
  vt_error err;
  pthread_mutex_lock(&d->mem);
  int rc = vt_mem_label(d->sim, (uint32_t)addr, (uint32_t)size, label, &err);
  pthread_mutex_unlock(&d->mem);
  return rc == VT_OK ? 0 : fail("vt_dev_label: %s", err.message);
}

int vt_dev_name_launch(vt_device_h hdevice, const char *name) {
  dev *d = lookup(hdevice, "vt_dev_name_launch");
  if (!d) return -1;
  pthread_mutex_lock(&d->lock);
  snprintf(d->next_name, sizeof d->next_name, "%s", name ? name : "");
  pthread_mutex_unlock(&d->lock);
  return 0;
}

int vt_start(vt_device_h hdevice, void *metaData, uint64_t taskID) {
  dev *d = lookup(hdevice, "vt_start");
  if (!d) return -1;
  if (!metaData) return fail("vt_start: null launch descriptor");
  vt_launch_meta m;
  memcpy(&m, metaData, sizeof m);
  for (int k = 0; k < 3; k++)
    if (m.kernel_size[k] == 0 || m.kernel_size[k] > 0xffffffffu)
      return fail("vt_start: bad workgroup count %llu in dimension %d",
                  (unsigned long long)m.kernel_size[k], k);
  if (m.wf_size == 0 || m.wf_size > 32 || (m.wf_size & (m.wf_size - 1)))
    return fail("vt_start: threads per warp %llu is not a power of two from 1 to 32",
                (unsigned long long)m.wf_size);
  if (m.wg_size == 0 || m.wg_size > 32)
    return fail("vt_start: warps per workgroup %llu is not 1 to 32", (unsigned long long)m.wg_size);
  if (m.metaDataBaseAddr > 0xffffffffu || m.pdsBaseAddr > 0xffffffffu)
    return fail("vt_start: addresses must fit 32 bits");
  int rc = 0;
  pthread_mutex_lock(&d->lock);
  if (d->qlen == QUEUE_MAX) {
    rc = fail("vt_start: %d launches already queued", QUEUE_MAX);
  } else {
    size_t slot = (d->qhead + d->qlen) % QUEUE_MAX;
    d->queue[slot] = m;
    d->queue_task[slot] = taskID;
    if (d->next_name[0])
      snprintf(d->queue_name[slot], sizeof d->queue_name[slot], "kernel '%s'", d->next_name);
    else
      snprintf(d->queue_name[slot], sizeof d->queue_name[slot], "kernel %llu",
               (unsigned long long)m.kernel_id);
    d->next_name[0] = 0;
    d->qlen++;
    pthread_cond_signal(&d->work);
  }
  pthread_mutex_unlock(&d->lock);
  return rc;
}

static int wait_idle(dev *d, uint64_t timeout_ms, const char *fn) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += (time_t)(timeout_ms / 1000);
  deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec++;
    deadline.tv_nsec -= 1000000000L;
  }
  int rc = 0;
  pthread_mutex_lock(&d->lock);
  while (d->qlen > 0) {
    int w = pthread_cond_timedwait(&d->idle, &d->lock, &deadline);
    if (w == ETIMEDOUT && d->qlen > 0) {
      rc = fail("%s: timed out after %llu ms with %zu launch(es) pending", fn,
                (unsigned long long)timeout_ms, d->qlen);
      break;
    }
  }
  if (rc == 0 && d->failed) {
    rc = fail("%s: %s", fn, d->error);
    d->failed = 0; /* reported once */
  }
  pthread_mutex_unlock(&d->lock);
  return rc;
}

int vt_ready_wait(vt_device_h hdevice, uint64_t timeout) {
  dev *d = lookup(hdevice, "vt_ready_wait");
  if (!d) return -1;
  return wait_idle(d, timeout, "vt_ready_wait");
}

int vt_finish_all_kernel(vt_device_h hdevice, int *finished, int capacity, int *count) {
  dev *d = lookup(hdevice, "vt_finish_all_kernel");
  if (!d) return -1;
  if (capacity < 0 || (capacity > 0 && !finished)) return fail("vt_finish_all_kernel: bad buffer");
  int rc = wait_idle(d, MAX_TIMEOUT, "vt_finish_all_kernel");
  pthread_mutex_lock(&d->lock);
  int n = 0;
  for (size_t i = 0; i < d->nfinished && n < capacity; i++) finished[n++] = d->finished[i];
  d->nfinished = 0;
  pthread_mutex_unlock(&d->lock);
  if (count) *count = n;
  return rc;
}

int vt_dump_perf(vt_device_h hdevice, FILE *stream) {
  dev *d = lookup(hdevice, "vt_dump_perf");
  if (!d) return -1;
  if (!stream) return fail("vt_dump_perf: null stream");
  /* every counter (vt/counters.def): the functional ones as 'name value'
   * lines, then the timing report when a launch was timed */
  pthread_mutex_lock(&d->mem);
  const vt_stats *st = vt_session_stats(d->session);
  for (int c = 0; c < VT_C_COUNT; c++) {
    const vt_counter_info *in = vt_counter_info_of(c);
    if (in->model != VT_CM_FUNC || in->kind == VT_CK_RATIO) continue;
    double v = vt_stats_value(st, -1, -1, (vt_counter)c);
    if (in->kind == VT_CK_SEC) fprintf(stream, "%s %.6f\n", in->name, v);
    else fprintf(stream, "%s %.0f\n", in->name, v);
  }
  if (vt_stats_timed(st)) vt_session_report(d->session, stream);
  pthread_mutex_unlock(&d->mem);
  return ferror(stream) ? fail("vt_dump_perf: write error") : 0;
}
