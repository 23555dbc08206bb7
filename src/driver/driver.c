/* The driver's devices (driver_internal.h) on the functional simulator:
 * open/close, capabilities, contexts, kernel images, launches, waits.
 * Buffers and copies are in driver_buffers.c, the public vt_* names of
 * libvt in driver_api.c.
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
#include "driver_internal.h"
#include "vt/elf.h"
#include "vt/knl.h"
#include "vt/driver_ext.h"

#define KERNEL_BASE VT_ADDR_PROGRAM_BASE

typedef vtd_dev dev;

/* ---- open-device registry and per-thread last error ---- */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static dev *registry[64];
static _Thread_local char last_error[640];

int vtd_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return -1;
}

const char *vtd_last_error(void) { return last_error; }

const char *vt_last_error(void) { return last_error; }

static bool registered(const dev *d) {
  bool ok = false;
  pthread_mutex_lock(&registry_lock);
  for (size_t i = 0; i < 64 && !ok; i++) ok = d && registry[i] == d;
  pthread_mutex_unlock(&registry_lock);
  return ok;
}

dev *vtd_lookup(vt_device_h h, const char *fn) {
  dev *d = (dev *)h;
  if (!d) {
    vtd_fail("%s: null device handle", fn);
    return NULL;
  }
  if (!registered(d)) {
    vtd_fail("%s: unknown or closed device handle %p", fn, h);
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
    l.pds_wg_slots = vtd_pds_slots(d, &m);
    char name[sizeof d->queue_name[0]];
    memcpy(name, d->queue_name[d->qhead], sizeof name);
    if (rc == VT_OK) rc = vt_session_launch(d->session, &l, name, &err);
    pthread_mutex_unlock(&d->mem);
    pthread_mutex_lock(&d->lock);
    d->qhead = (d->qhead + 1) % VTD_QUEUE_MAX;
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
  if (!d) return vtd_fail("vt_dev_open: out of memory");
  char msg[700];
  if (vt_session_new(settings, &d->session, msg, sizeof msg) != 0) {
    free(d);
    return vtd_fail("vt_dev_open: %s", msg);
  }
  d->sim = vt_session_device(d->session);
  d->cfg = *vt_session_settings(d->session);
  if (d->cfg.mmu && !(d->mmu = vtd_mmu_new())) {
    destroy(d);
    return vtd_fail("vt_dev_open: out of memory");
  }
  pthread_mutex_init(&d->lock, NULL);
  pthread_mutex_init(&d->mem, NULL);
  pthread_cond_init(&d->work, NULL);
  pthread_cond_init(&d->idle, NULL);
  if (pthread_create(&d->worker, NULL, worker_main, d) != 0) {
    destroy(d);
    return vtd_fail("vt_dev_open: cannot start the worker thread");
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
    return vtd_fail("vt_dev_open: too many open devices (64)");
  }
  *hdevice = d;
  last_error[0] = 0;
  return 0;
}

int vtd_dev_open(vt_device_h *hdevice) {
  if (!hdevice) return vtd_fail("vt_dev_open: null handle pointer");
  *hdevice = NULL;
  vt_settings s;
  char msg[700];
  if (vt_driver_config(&s, msg, sizeof msg) != 0) return vtd_fail("vt_dev_open: %s", msg);
  return open_device(hdevice, &s);
}

int vt_dev_open_settings(vt_device_h *hdevice, const vt_settings *settings) {
  if (!hdevice) return vtd_fail("vt_dev_open_settings: null handle pointer");
  *hdevice = NULL;
  if (!settings) return vtd_dev_open(hdevice);
  return open_device(hdevice, settings);
}

vt_session *vt_dev_session(vt_device_h hdevice) {
  dev *d = vtd_lookup(hdevice, "vt_dev_session");
  return d ? d->session : NULL;
}

int vtd_dev_close(vt_device_h hdevice) {
  dev *d = vtd_lookup(hdevice, "vt_dev_close");
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
  return rc == 0 ? 0 : vtd_fail("vt_dev_close: %s", msg);
}

int vtd_dev_caps(vt_device_h *hdevice, uint64_t caps_id, uint64_t *value) {
  if (!hdevice) return vtd_fail("vt_dev_caps: null handle pointer");
  dev *d = vtd_lookup(*hdevice, "vt_dev_caps");
  if (!d) return -1;
  if (!value) return vtd_fail("vt_dev_caps: null value pointer");
  switch (caps_id) {
  case VT_CAPS_VERSION: *value = 1; break;
  case VT_CAPS_MAX_CORES: *value = d->cfg.sms; break;
  case VT_CAPS_MAX_WARPS: *value = d->cfg.warp_slots; break;
  case VT_CAPS_MAX_THREADS: *value = d->cfg.threads ? d->cfg.threads : 32; break;
  case VT_CAPS_CACHE_LINE_SIZE: *value = 128; break;
  case VT_CAPS_LOCAL_MEM_SIZE: *value = d->cfg.lds_bytes; break;
  case VT_CAPS_ALLOC_BASE_ADDR: *value = VT_BUFFER_BASE; break;
  case VT_CAPS_KERNEL_BASE_ADDR: *value = KERNEL_BASE; break;
  default: return vtd_fail("vt_dev_caps: unknown capability id %llu", (unsigned long long)caps_id);
  }
  return 0;
}

int vtd_root_mem_alloc(vt_device_h hdevice, int taskID) {
  dev *d = vtd_lookup(hdevice, "vt_root_mem_alloc");
  if (!d) return -1;
  int rc = 0;
  char msg[600];
  if (d->mmu) pthread_mutex_lock(&d->mem); /* the context's address space */
  pthread_mutex_lock(&d->lock);
  for (size_t i = 0; i < d->ncontexts; i++)
    if (d->contexts[i] == taskID) rc = vtd_fail("vt_root_mem_alloc: context %d exists", taskID);
  if (rc == 0 && d->ncontexts == 64) rc = vtd_fail("vt_root_mem_alloc: too many contexts");
  if (rc == 0 && d->mmu && vtd_mmu_context_new(d->mmu, d->sim, taskID, msg, sizeof msg) != 0)
    rc = vtd_fail("vt_root_mem_alloc: %s", msg);
  if (rc == 0) d->contexts[d->ncontexts++] = taskID;
  pthread_mutex_unlock(&d->lock);
  if (d->mmu) pthread_mutex_unlock(&d->mem);
  return rc;
}

int vtd_root_mem_free(vt_device_h hdevice, int taskID) {
  dev *d = vtd_lookup(hdevice, "vt_root_mem_free");
  if (!d) return -1;
  int rc = vtd_fail("vt_root_mem_free: no context %d", taskID);
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
      rc = vtd_fail("vt_root_mem_free: %s", msg);
  }
  pthread_mutex_unlock(&d->lock);
  if (d->mmu) pthread_mutex_unlock(&d->mem);
  return rc;
}

/* ---- kernels ---- */
/* 'what' names the image in messages: "FUNCTION: FILE" or "FUNCTION" */
static int load_elf_image(dev *d, const vt_elf *elf, int64_t task, const char *what) {
  vt_error err;
  pthread_mutex_lock(&d->mem);
  int rc = d->mmu && vtd_mmu_select(d->mmu, d->sim, task, err.message, sizeof err.message) != 0
               ? VT_ERR_ARG : vt_device_load_elf(d->sim, elf, &err);
  pthread_mutex_unlock(&d->mem);
  if (rc != VT_OK) return vtd_fail("%s: %s", what, err.message);
  return 0;
}

int vtd_upload_kernel_file(vt_device_h hdevice, const char *filename, int taskID) {
  dev *d = vtd_lookup(hdevice, "vt_upload_kernel_file");
  if (!d) return -1;
  if (!filename) return vtd_fail("vt_upload_kernel_file: null file name");
  char msg[512];
  vt_elf *elf;
  if (vt_elf_open_file(filename, &elf, msg, sizeof msg) != 0)
    return vtd_fail("vt_upload_kernel_file: %s", msg);
  char what[600];
  snprintf(what, sizeof what, "vt_upload_kernel_file: %s", filename);
  int rc = load_elf_image(d, elf, taskID, what);
  vt_elf_free(elf);
  return rc;
}

/* An ELF image is loaded segment by segment; anything else is taken as the
 * raw code image of the program window (the .vmem contents). */
int vtd_upload_kernel_bytes(vt_device_h hdevice, const void *content, uint64_t size, int taskID) {
  dev *d = vtd_lookup(hdevice, "vt_upload_kernel_bytes");
  if (!d) return -1;
  if (!content || size == 0) return vtd_fail("vt_upload_kernel_bytes: empty image");
  if (size >= 4 && memcmp(content, "\177ELF", 4) == 0) {
    char msg[512];
    vt_elf *elf;
    if (vt_elf_open_mem(content, (size_t)size, &elf, msg, sizeof msg) != 0)
      return vtd_fail("vt_upload_kernel_bytes: %s", msg);
    int rc = load_elf_image(d, elf, taskID, "vt_upload_kernel_bytes");
    vt_elf_free(elf);
    return rc;
  }
  if (size > VT_ADDR_PROGRAM_SIZE)
    return vtd_fail("vt_upload_kernel_bytes: image of %llu bytes is larger than the program "
                    "window (%u MiB)", (unsigned long long)size, VT_ADDR_PROGRAM_SIZE >> 20);
  vt_error err;
  pthread_mutex_lock(&d->mem);
  int rc = d->mmu && vtd_mmu_image(d->mmu, d->sim, taskID, size, err.message,
                                   sizeof err.message) != 0
               ? VT_ERR_ARG : vt_mem_write(d->sim, KERNEL_BASE, content, (size_t)size, &err);
  if (rc == VT_OK) rc = vt_mem_label(d->sim, KERNEL_BASE, (uint32_t)size, "the program image", &err);
  pthread_mutex_unlock(&d->mem);
  if (rc != VT_OK) return vtd_fail("vt_upload_kernel_bytes: %s", err.message);
  return 0;
}

int vt_dev_load_elf(vt_device_h hdevice, const vt_elf *elf) {
  return vt_dev_load_elf_task(hdevice, elf, 0);
}

int vt_dev_load_elf_task(vt_device_h hdevice, const vt_elf *elf, int taskID) {
  dev *d = vtd_lookup(hdevice, "vt_dev_load_elf");
  if (!d) return -1;
  if (!elf) return vtd_fail("vt_dev_load_elf: null program");
  return load_elf_image(d, elf, taskID, "vt_dev_load_elf");
}

int vt_dev_label(vt_device_h hdevice, uint64_t addr, uint64_t size, const char *label) {
  dev *d = vtd_lookup(hdevice, "vt_dev_label");
  if (!d) return -1;
  if (addr > 0xffffffffull || size == 0 || size > 0x100000000ull - addr)
    return vtd_fail("vt_dev_label: [0x%llx, +0x%llx) is not a byte range of the address space",
                (unsigned long long)addr, (unsigned long long)size);
  vt_error err;
  pthread_mutex_lock(&d->mem);
  int rc = vt_mem_label(d->sim, (uint32_t)addr, (uint32_t)size, label, &err);
  pthread_mutex_unlock(&d->mem);
  return rc == VT_OK ? 0 : vtd_fail("vt_dev_label: %s", err.message);
}

int vt_dev_name_launch(vt_device_h hdevice, const char *name) {
  dev *d = vtd_lookup(hdevice, "vt_dev_name_launch");
  if (!d) return -1;
  pthread_mutex_lock(&d->lock);
  snprintf(d->next_name, sizeof d->next_name, "%s", name ? name : "");
  pthread_mutex_unlock(&d->lock);
  return 0;
}

int vtd_start(vt_device_h hdevice, void *metaData, uint64_t taskID) {
  dev *d = vtd_lookup(hdevice, "vt_start");
  if (!d) return -1;
  if (!metaData) return vtd_fail("vt_start: null launch descriptor");
  vt_launch_meta m;
  memcpy(&m, metaData, sizeof m);
  for (int k = 0; k < 3; k++)
    if (m.kernel_size[k] == 0 || m.kernel_size[k] > 0xffffffffu)
      return vtd_fail("vt_start: bad workgroup count %llu in dimension %d",
                  (unsigned long long)m.kernel_size[k], k);
  if (m.wf_size == 0 || m.wf_size > 32 || (m.wf_size & (m.wf_size - 1)))
    return vtd_fail("vt_start: threads per warp %llu is not a power of two from 1 to 32",
                (unsigned long long)m.wf_size);
  if (m.wg_size == 0 || m.wg_size > VT_MAX_WG_WARPS)
    return vtd_fail("vt_start: warps per workgroup %llu is not 1 to %u",
                    (unsigned long long)m.wg_size, VT_MAX_WG_WARPS);
  if (m.metaDataBaseAddr > 0xffffffffu || m.pdsBaseAddr > 0xffffffffu)
    return vtd_fail("vt_start: addresses must fit 32 bits");
  if (m.ldsSize > VT_PROGRAM_BASE - VT_LDS_BASE || m.pdsSize > 0xffffffffu)
    return vtd_fail("vt_start: ldsSize 0x%llx or pdsSize 0x%llx too large",
                    (unsigned long long)m.ldsSize, (unsigned long long)m.pdsSize);
  int rc = 0;
  pthread_mutex_lock(&d->lock);
  if (d->qlen == VTD_QUEUE_MAX) {
    rc = vtd_fail("vt_start: %d launches already queued", VTD_QUEUE_MAX);
  } else {
    size_t slot = (d->qhead + d->qlen) % VTD_QUEUE_MAX;
    /* __local arguments the host zero-filled in the local-memory window
     * since the last launch (pocl places them below 0x80000000 and leaves
     * them out of ldsSize, host-stack.md 2.7 step B) are this launch's
     * local memory too */
    if (d->window_low && VT_PROGRAM_BASE - d->window_low > m.ldsSize)
      m.ldsSize = VT_PROGRAM_BASE - d->window_low;
    d->window_low = 0;
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

/* Absolute CLOCK_REALTIME deadline timeout_ms from now. */
static struct timespec deadline_in(uint64_t timeout_ms) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  uint64_t sec = timeout_ms / 1000;
  t.tv_sec += sec > (uint64_t)INT32_MAX ? INT32_MAX : (time_t)sec;
  t.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (t.tv_nsec >= 1000000000L) {
    t.tv_sec++;
    t.tv_nsec -= 1000000000L;
  }
  return t;
}

int vtd_wait(vt_device_h hdevice, uint64_t timeout_ms, const char *fn, bool *launch_failed) {
  if (launch_failed) *launch_failed = false;
  dev *d = vtd_lookup(hdevice, fn);
  if (!d) return -1;
  bool forever = timeout_ms == UINT64_MAX;
  struct timespec deadline = deadline_in(forever ? 0 : timeout_ms);
  int rc = 0;
  pthread_mutex_lock(&d->lock);
  while (d->qlen > 0) {
    if (forever) {
      pthread_cond_wait(&d->idle, &d->lock);
      continue;
    }
    int w = pthread_cond_timedwait(&d->idle, &d->lock, &deadline);
    if (w == ETIMEDOUT && d->qlen > 0) {
      rc = vtd_fail("%s: timed out after %llu ms with %zu launch(es) pending", fn,
                    (unsigned long long)timeout_ms, d->qlen);
      break;
    }
  }
  if (rc == 0 && d->failed) {
    rc = vtd_fail("%s: %s", fn, d->error);
    d->failed = 0; /* reported once */
    if (launch_failed) *launch_failed = true;
  }
  pthread_mutex_unlock(&d->lock);
  return rc;
}

int vtd_take_finished(vt_device_h hdevice, int *finished, int capacity) {
  dev *d = hdevice;
  if (!registered(d)) return -1;
  pthread_mutex_lock(&d->lock);
  int n = 0;
  for (size_t i = 0; i < d->nfinished && n < capacity; i++) finished[n++] = d->finished[i];
  d->nfinished = 0;
  pthread_mutex_unlock(&d->lock);
  return n;
}

int vtd_dump_perf(vt_device_h hdevice, FILE *stream) {
  dev *d = vtd_lookup(hdevice, "vt_dump_perf");
  if (!d) return -1;
  if (!stream) return vtd_fail("vt_dump_perf: null stream");
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
  return ferror(stream) ? vtd_fail("vt_dump_perf: write error") : 0;
}
