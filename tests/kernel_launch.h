/* kernel_launch.h - test helper: assemble a kernel (examples/kernels/crt0.s +
 * tests/kernels/NAME.s) with the library assembler and launch it on a fresh
 * device the way the Ventus driver lays a launch out (formats-and-launch.md
 * 3-5): buffers from 0x90000000 (4 KiB aligned), then the argument buffer,
 * the KNL metadata buffer and the private (PDS) area. */
#ifndef VT_TEST_KERNEL_LAUNCH_H
#define VT_TEST_KERNEL_LAUNCH_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters_util.h"
#include "vt/asm.h"
#include "vt/elf.h"
#include "vt/sim.h"

#define KL_PAGE 4096u
#define KL_MAX_BUFS 8
#define KL_MAX_ARGS 16

typedef struct kl_kernel {
  const char *name; /* kernel symbol and tests/kernels/NAME.s */
  vt_elf *elf;
  uint32_t entry;
  uint8_t *image; /* the linked ELF bytes */
  size_t image_size;
} kl_kernel;

/* A launch shape: threads per warp, warps per workgroup, workgroups (x, y),
 * local size (x, y) with lx * ly == tpw * wpg, device SMs and warp slots. */
typedef struct kl_shape {
  unsigned tpw, wpg;
  unsigned nwg[2];
  unsigned local[2];
  unsigned sms, slots;
} kl_shape;

typedef struct kl_buf {
  void *data;    /* initial contents, overwritten with the final contents */
  uint32_t size; /* bytes */
  uint32_t addr; /* assigned by kl_place */
} kl_buf;

static inline uint32_t kl_round(uint32_t n) { return (n + KL_PAGE - 1) & ~(KL_PAGE - 1); }

/* Assign device addresses to the buffers (in order, page aligned); returns
 * the first free address after them. */
static inline uint32_t kl_place(kl_buf *b, unsigned n) {
  uint32_t a = VT_BUFFER_BASE;
  for (unsigned i = 0; i < n; i++) {
    b[i].addr = a;
    a += kl_round(b[i].size ? b[i].size : 1);
  }
  return a;
}

static inline int kl_build(kl_kernel *k, const char *name, char *msg, size_t msgn) {
  memset(k, 0, sizeof *k);
  k->name = name;
  char path[1024];
  vt_asm *as = vt_asm_new(NULL);
  if (!as) {
    snprintf(msg, msgn, "out of memory");
    return -1;
  }
  snprintf(path, sizeof path, "%s/examples/kernels/crt0.s", VT_SOURCE_DIR);
  int rc = vt_asm_add_file(as, path);
  snprintf(path, sizeof path, "%s/tests/kernels/%s.s", VT_SOURCE_DIR, name);
  rc |= vt_asm_add_file(as, path);
  if (rc == 0) rc = vt_asm_link(as, &k->image, &k->image_size);
  if (rc != 0) {
    snprintf(msg, msgn, "%s: assembly failed:\n%s", name, vt_asm_errors(as));
    vt_asm_free(as);
    return -1;
  }
  vt_asm_free(as);
  if (vt_elf_open_mem(k->image, k->image_size, &k->elf, msg, msgn) != 0) return -1;
  if (vt_elf_find_symbol(k->elf, name, &k->entry) != 0) {
    snprintf(msg, msgn, "%s: no symbol '%s'", name, name);
    return -1;
  }
  return 0;
}

static inline void kl_free(kl_kernel *k) {
  vt_elf_free(k->elf);
  free(k->image);
  memset(k, 0, sizeof *k);
}

/* Run one launch on a new device: map and fill the buffers, write the
 * argument buffer (args[0..nargs-1]) and the KNL buffer, run, read every
 * buffer back into its data. pds (optional): the private area, pds->size
 * bytes for the whole launch (size / work-items per work-item); its address
 * is filled in and, when pds->data is set, its final contents read back.
 * Returns VT_OK or the error code with msg filled. */
static inline int kl_run(const kl_kernel *k, const kl_shape *s, kl_buf *bufs, unsigned nbufs,
                         const uint32_t *args, unsigned nargs, kl_buf *pds, double *stats,
                         char *msg, size_t msgn) {
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.sms = s->sms;
  cfg.warp_slots = s->slots;
  vt_device *dev = vt_device_new(&cfg);
  vt_error err;
  memset(&err, 0, sizeof err);
  if (!dev) {
    snprintf(msg, msgn, "out of memory");
    return VT_ERR_NOMEM;
  }
  uint32_t args_addr = kl_place(bufs, nbufs);
  uint32_t knl = args_addr + KL_PAGE, pds_addr = knl + KL_PAGE;
  unsigned nwg = s->nwg[0] * s->nwg[1];
  uint32_t pds_per_thread = pds ? pds->size / (s->tpw * s->wpg * nwg) : 0;
  uint32_t pds_bytes = pds ? pds->size : 0;
  if (pds) pds->addr = pds_addr;
  int rc = vt_device_load_elf(dev, k->elf, &err);
  for (unsigned i = 0; rc == VT_OK && i < nbufs; i++) {
    rc = vt_mem_map(dev, bufs[i].addr, kl_round(bufs[i].size ? bufs[i].size : 1), &err);
    if (rc == VT_OK && bufs[i].size)
      rc = vt_mem_write(dev, bufs[i].addr, bufs[i].data, bufs[i].size, &err);
  }
  uint32_t meta[16] = {k->entry, nargs ? args_addr : 0, s->nwg[1] > 1 || s->local[1] > 1 ? 2 : 1,
                       s->nwg[0] * s->local[0], s->nwg[1] * s->local[1], 1,
                       s->local[0], s->local[1], 1, 0, 0, 0, 0, 0, 0, 0};
  if (rc == VT_OK) rc = vt_mem_map(dev, args_addr, KL_PAGE, &err);
  if (rc == VT_OK && nargs) rc = vt_mem_write(dev, args_addr, args, 4 * nargs, &err);
  if (rc == VT_OK) rc = vt_mem_map(dev, knl, KL_PAGE, &err);
  if (rc == VT_OK) rc = vt_mem_write(dev, knl, meta, sizeof meta, &err);
  if (rc == VT_OK && pds_bytes) rc = vt_mem_map(dev, pds_addr, kl_round(pds_bytes), &err);
  vt_launch l = {.start_pc = VT_PROGRAM_BASE,
                 .num_wg = {s->nwg[0], s->nwg[1], 1},
                 .threads_per_warp = s->tpw,
                 .warps_per_wg = s->wpg,
                 .knl_addr = knl,
                 .lds_size = 0x4000,
                 .pds_size = pds_per_thread,
                 .pds_base = pds_addr};
  if (rc == VT_OK) rc = vt_device_run(dev, &l, NULL, &err);
  for (unsigned i = 0; rc == VT_OK && i < nbufs; i++)
    if (bufs[i].size) rc = vt_mem_read(dev, bufs[i].addr, bufs[i].data, bufs[i].size, &err);
  if (rc == VT_OK && pds && pds->data)
    rc = vt_mem_read(dev, pds_addr, pds->data, pds->size, &err);
  if (rc != VT_OK) snprintf(msg, msgn, "%s", err.message);
  if (stats) vt_test_counters(dev, stats);
  vt_device_free(dev);
  return rc;
}

static inline int kl_shape_str(const kl_shape *s, char *buf, size_t n) {
  return snprintf(buf, n, "tpw %u wpg %u wg %ux%u local %ux%u sms %u slots %u", s->tpw, s->wpg,
                  s->nwg[0], s->nwg[1], s->local[0], s->local[1], s->sms, s->slots);
}
#endif
