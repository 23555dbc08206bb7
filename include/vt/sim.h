/* vt/sim.h - the functional Ventus GPU: device memory, launches of
 * workgroups over SMs and warps, exact execution of every instruction of the
 * table, errors that name SM/workgroup/warp/PC/instruction, traces and
 * statistics. No global state: several devices may live in one process. */
#ifndef VT_SIM_H
#define VT_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VT_MAX_LANES 32
#define VT_NUM_XREGS 256
#define VT_NUM_VREGS 256

/* Address map (spec README decision 14). */
#define VT_LDS_BASE 0x70000000u
#define VT_PROGRAM_BASE 0x80000000u
#define VT_BUFFER_BASE 0x90000000u

typedef struct vt_device vt_device;

typedef struct vt_dev_config {
  unsigned num_sms;          /* default 2 */
  unsigned warp_slots;       /* warps per SM, default 8 */
  unsigned threads_per_warp; /* 0: take it from each launch */
  uint32_t lds_bytes;        /* local memory per SM (bytes), default 128 KiB */
  unsigned sgprs, vgprs;     /* registers per warp, default 256 / 256 */
  uint64_t max_insns;        /* per-launch budget of warp instructions; 0 = default */
  unsigned simt_depth;       /* SIMT stack entries per warp; 0 = default (1024; the
                                reference's stack is unbounded, the hardware's is
                                num_thread deep) */
  bool fixed;                /* user fixed the shape: oversized workgroups are errors
                                instead of growing the device */
} vt_dev_config;

void vt_dev_config_default(vt_dev_config *cfg);
/* Set one key (sms, warp_slots, threads, lds_bytes, simt_depth, max_insns;
 * '-' may replace '_'); 'where' prefixes messages ("file:line"). 0 or -1. */
int vt_dev_config_set(vt_dev_config *cfg, const char *key, const char *value, const char *where,
                      char *err, size_t errn);
/* Apply a file of 'key = value' lines ('#' comments). 0 or -1 with err. */
int vt_dev_config_load(vt_dev_config *cfg, const char *path, char *err, size_t errn);
/* Read a file of 'key = value' lines ('#' comments), calling fn for each
 * setting with "file:line" as 'where'; stops at the first non-zero return.
 * 0 or the failing return (-1 with err for a malformed line or an unreadable
 * file). */
typedef int (*vt_config_fn)(void *ctx, const char *key, const char *value, const char *where,
                            char *err, size_t errn);
int vt_config_file_parse(const char *path, vt_config_fn fn, void *ctx, char *err, size_t errn);
/* The effective settings as 'key = value' lines. */
void vt_dev_config_print(FILE *f, const vt_dev_config *cfg);

/* Error codes (negative returns of the library). */
typedef enum vt_status {
  VT_OK = 0,
  VT_ERR_ILLEGAL = -1,       /* illegal or unimplemented instruction */
  VT_ERR_ACCESS = -2,        /* unmapped address */
  VT_ERR_MISALIGNED = -3,    /* misaligned access */
  VT_ERR_ECALL = -4,         /* ecall / ebreak */
  VT_ERR_VILL = -5,          /* vector instruction with an illegal vtype */
  VT_ERR_SIMT_OVERFLOW = -6, /* SIMT stack overflow */
  VT_ERR_DEADLOCK = -7,      /* barrier deadlock */
  VT_ERR_BUDGET = -8,        /* instruction budget exhausted */
  VT_ERR_CONFIG = -9,        /* launch does not fit / bad configuration */
  VT_ERR_FORMAT = -10,       /* malformed input file */
  VT_ERR_NOMEM = -11,
  VT_ERR_ARG = -12           /* bad argument to a library call */
} vt_status;

typedef struct vt_error {
  vt_status status;
  bool has_location; /* the fields below are meaningful */
  unsigned sm, wg, warp;
  uint32_t pc, insn;
  char message[512]; /* complete human-readable text */
} vt_error;

vt_device *vt_device_new(const vt_dev_config *cfg);
void vt_device_free(vt_device *dev);
const vt_dev_config *vt_device_config(const vt_device *dev);

/* --- memory --- */
/* Make [base, base+size) accessible (a buffer the driver allocated). */
int vt_mem_map(vt_device *dev, uint32_t base, uint32_t size, vt_error *err);
/* Remove the region mapped at exactly [base, base+size); its contents are
 * dropped. VT_ERR_ARG if no such region exists. */
int vt_mem_unmap(vt_device *dev, uint32_t base, uint32_t size, vt_error *err);
/* Host copies: fail with VT_ERR_ACCESS if any byte is unmapped. */
int vt_mem_write(vt_device *dev, uint32_t addr, const void *src, size_t n, vt_error *err);
int vt_mem_read(vt_device *dev, uint32_t addr, void *dst, size_t n, vt_error *err);

struct vt_elf;
/* Place every PT_LOAD segment of an ELF kernel at its address (zero-filled
 * to p_memsz); a segment outside the program window is an error. */
int vt_device_load_elf(vt_device *dev, const struct vt_elf *elf, vt_error *err);

/* --- launches --- */
typedef struct vt_launch {
  uint32_t start_pc;
  uint32_t num_wg[3];        /* workgroups per dimension */
  unsigned threads_per_warp; /* T: power of two 1..32 */
  unsigned warps_per_wg;     /* W */
  uint32_t knl_addr;         /* CSR_KNL */
  uint32_t lds_size;         /* local memory per workgroup (bytes) */
  uint32_t pds_size;         /* private memory per thread (bytes) */
  uint32_t pds_base;
  uint32_t sgpr_usage, vgpr_usage; /* registers per warp (0: unknown); the timing
                                      model's CTA scheduler checks them */
} vt_launch;

/* Run a launch to completion (all workgroups). Memory persists between
 * launches. Returns VT_OK or an error code with *err filled. */
int vt_device_run(vt_device *dev, const vt_launch *launch, vt_error *err);

/* --- observation --- */
typedef struct vt_trace_write {
  uint8_t kind; /* 'x' scalar register, 'v' vector register, 'c' CSR */
  uint16_t reg;
  uint32_t lanes;                /* vector: lanes written */
  uint32_t value[VT_MAX_LANES];  /* scalar/CSR: value[0] */
} vt_trace_write;

typedef struct vt_trace_mem {
  uint32_t addr, value;
  uint8_t size, is_store, lane;
} vt_trace_mem;

typedef struct vt_trace_event {
  unsigned sm, wg, warp;
  uint32_t pc, insn, mask; /* SIMT mask before the instruction */
  unsigned nwrites, nmem;
  const vt_trace_write *writes;
  const vt_trace_mem *mem;
} vt_trace_event;

typedef void (*vt_trace_fn)(void *ctx, const vt_trace_event *ev);
/* Called after every executed warp instruction; NULL switches tracing off. */
void vt_device_set_trace(vt_device *dev, vt_trace_fn fn, void *ctx);

typedef struct vt_run_stats {
  uint64_t launches, workgroups, warps;
  uint64_t warp_insns, thread_insns;
  uint64_t scalar_insns, vector_insns;
  uint64_t vbranches, divergent_vbranches, barriers;
  unsigned max_simt_depth;
  double host_seconds;
} vt_run_stats;

void vt_device_stats(const vt_device *dev, vt_run_stats *out);

#ifdef __cplusplus
}
#endif
#endif
