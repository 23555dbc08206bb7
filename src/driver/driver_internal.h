/* Internals of the vt_* driver (src/driver): the device object, shared by
 * driver.c and driver_buffers.c. The functions behind the public names are
 * in driver_core.h. */
#ifndef VT_DRIVER_INTERNAL_H
#define VT_DRIVER_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "driver_core.h"
#include "driver_mmu.h"
#include "ventus.h"
#include "vt/session.h"
#include "vt/settings.h"
#include "vt/sim.h"

#define VTD_PAGE 4096u
#define VTD_QUEUE_MAX 64

typedef struct vtd_buf {
  uint32_t base, size; /* size rounded up to pages: what the simulator maps */
  uint64_t requested;  /* the size asked for: what host copies may touch */
} vtd_buf;

typedef struct vtd_dev {
  vt_device *sim;      /* the session's device */
  vt_session *session; /* the device, timing model and outputs (vt/session.h) */
  vt_settings cfg;
  pthread_mutex_t mem;  /* simulator, buffers */
  pthread_mutex_t lock; /* queue, results */
  pthread_cond_t work, idle;
  pthread_t worker;
  bool stop;
  /* buffers, sorted by base */
  vtd_buf *bufs;
  size_t nbufs, cap;
  /* contexts of vt_root_mem_alloc; with the MMU on, their address spaces */
  int contexts[64];
  size_t ncontexts;
  vtd_mmu *mmu; /* NULL with the MMU off (driver_mmu.h) */
  /* launch queue */
  vt_launch_meta queue[VTD_QUEUE_MAX];
  uint64_t queue_task[VTD_QUEUE_MAX]; /* the context each launch runs in */
  char queue_name[VTD_QUEUE_MAX][80]; /* progress line: vt_dev_name_launch or "kernel N" */
  char next_name[64];
  uint32_t window_low; /* lowest local-window address the host wrote since vt_start; 0: none */
  size_t qhead, qlen;
  bool running;
  /* results */
  int failed;
  char error[600];
  int finished[256];
  size_t nfinished;
  uint64_t launches;
} vtd_dev;

/* The open device behind h, or NULL after vtd_fail ("fn: unknown or closed
 * device handle"). Clears the last error on success. */
vtd_dev *vtd_lookup(vt_device_h h, const char *fn);

/* The buffer whose pages hold addr, or NULL (d->mem held). */
const vtd_buf *vtd_buffer_at(const vtd_dev *d, uint64_t addr);
/* The number of per-workgroup private areas the private buffer of launch
 * m holds when it holds fewer than the launch's workgroups, else 0
 * (vt_launch.pds_wg_slots; d->mem held). */
uint32_t vtd_pds_slots(const vtd_dev *d, const vt_launch_meta *m);

#endif
