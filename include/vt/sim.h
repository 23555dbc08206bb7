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

#include "vt/addrmap.h"
#include "vt/counters.h"
#include "vt/settings.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VT_MAX_LANES 32
#define VT_NUM_XREGS 256
#define VT_NUM_VREGS 256

/* Address map (vt/addrmap.def; spec README decision 14). */
#define VT_LDS_BASE VT_ADDR_LDS_BASE
#define VT_PROGRAM_BASE VT_ADDR_PROGRAM_BASE
#define VT_BUFFER_BASE VT_ADDR_BUFFER_BASE
#define VT_MAX_WG_WARPS 1024u /* warps per workgroup (an SM grows to hold them) */

typedef struct vt_device vt_device;

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
  VT_ERR_ARG = -12,          /* bad argument to a library call */
  VT_ERR_INTERRUPTED = -13,  /* stopped by the host (interrupt flag, Ctrl-C) */
  VT_ERR_TIMEOUT = -14,      /* the time limit (setting timeout) passed */
  VT_ERR_STRICT = -15        /* a strict check failed (setting strict) */
} vt_status;

typedef struct vt_error {
  vt_status status;
  bool has_location; /* the fields below are meaningful */
  unsigned sm, wg, warp;
  uint32_t pc, insn;
  char message[512]; /* complete human-readable text */
  uint32_t insn_hi;  /* second parcel of an 8-byte instruction at pc (0 otherwise) */
} vt_error;

/* A device shaped by the DEVICE settings of s (vt/settings.h; NULL:
 * defaults). The settings are copied. */
vt_device *vt_device_new(const vt_settings *s);
void vt_device_free(vt_device *dev);
const vt_settings *vt_device_settings(const vt_device *dev);

/* --- memory --- */
/* Name the exact bytes [base, base+size) of an allocation ("argument 2",
 * "ELF segment 1"): memory checking (setting memcheck) accepts global
 * accesses only inside named allocations and names the nearest one in its
 * errors. A new name at the same base replaces the old one; vt_mem_unmap
 * drops the names inside the region. */
int vt_mem_label(vt_device *dev, uint32_t base, uint32_t size, const char *label, vt_error *err);

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
  uint32_t wg_threads;       /* work-items per workgroup; 0 = W * T. The lanes of the
                                last warp at and past it start inactive (docs/run.md) */
  uint32_t local_bytes;      /* bytes of each workgroup's local memory from VT_LDS_BASE;
                                0 = lds_size + W warp stacks of VT_STACK_PER_WARP bytes
                                (formats-and-launch.md 5, 7). The lds_size bytes below
                                0x80000000, rounded up to 4 KiB, are local memory too:
                                pocl places __local arguments there (docs/run.md) */
  uint32_t pds_wg_slots;     /* private areas of W * T * pds_size bytes at pds_base; 0 = one
                                per workgroup (workgroup i at area i). Otherwise a workgroup
                                takes a free area when it starts and at most this many are
                                resident at once (docs/driver.md, private memory) */
  uint64_t ptbr;             /* with the MMU on (vt/mmu.h): physical address of the root
                                page table; 0 = the device's current address space */
  uint16_t asid;             /* the address-space ID that goes with ptbr */
} vt_launch;

/* Run a launch to completion (all workgroups). Memory persists between
 * launches. 'name' labels the launch in the statistics (may be NULL).
 * Returns VT_OK or an error code with *err filled. */
int vt_device_run(vt_device *dev, const vt_launch *launch, const char *name, vt_error *err);

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
  uint32_t addr_hi; /* bits 63..32 of a v2025 64-bit address (0 below 2^32) */
} vt_trace_mem;

typedef struct vt_trace_event {
  unsigned sm, wg, warp;
  uint32_t pc, insn, mask; /* SIMT mask before the instruction */
  unsigned nwrites, nmem;
  const vt_trace_write *writes;
  const vt_trace_mem *mem;
  unsigned length;  /* bytes of the instruction: 4, or 8 (isa2025.md D1) */
  uint32_t insn_hi; /* the second parcel of an 8-byte instruction (0 otherwise) */
  const struct vt_warp *handle; /* the warp, after the instruction (vt/sim_debug.h) */
} vt_trace_event;

typedef void (*vt_trace_fn)(void *ctx, const vt_trace_event *ev);
/* Called after every executed warp instruction; NULL switches tracing off. */
void vt_device_set_trace(vt_device *dev, vt_trace_fn fn, void *ctx);

/* --- run control --- */
typedef struct vt_run_progress {
  uint64_t warp_insns;                     /* executed so far in this launch */
  uint64_t workgroups_done, workgroups_total;
} vt_run_progress;
/* Called every few thousand warp instructions while a launch runs; a
 * non-zero return (an error code, with err filled) stops the launch. */
typedef int (*vt_poll_fn)(void *ctx, const vt_run_progress *p, vt_error *err);
void vt_device_set_poll(vt_device *dev, vt_poll_fn fn, void *ctx);
/* Receives warnings (complete lines without the newline); NULL: none. */
typedef void (*vt_warn_fn)(void *ctx, const char *message);
void vt_device_set_warn(vt_device *dev, vt_warn_fn fn, void *ctx);
/* After a launch stopped early (interrupted, time limit, budget, deadlock):
 * one line per live warp; "" otherwise. Valid until the next launch. */
const char *vt_device_warp_dump(const vt_device *dev);

/* The device's statistics: every launch's counters per SM (vt/counters.h). */
const vt_stats *vt_device_stats(const vt_device *dev);

#ifdef __cplusplus
}
#endif
#endif
