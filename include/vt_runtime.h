/* vt_runtime.h - a small OpenCL-like host runtime over the vt_* driver API
 * (ventus.h): load a kernel program (an ELF from the official Ventus
 * toolchain or from `vt as`), find kernels by name, set their arguments and
 * launch 1-3-D NDRanges. It builds each launch the way pocl's Ventus device
 * does (host-stack.md 2.7; formats-and-launch.md 3-6): the 68-byte kernel
 * metadata (KNL) buffer, the argument buffer, the private-memory area, the
 * print buffer, and the 96-byte driver launch descriptor; then it waits and
 * drains the device's printf output. Layouts and rules: docs/runtime.md;
 * printf protocol: docs/printf.md.
 *
 * Every function returns 0 on success and -1 on error; vt_rt_error() then
 * tells why. A context (vt_rt) and everything made from it must be used by
 * one thread at a time. There is no global state.
 *
 * Minimal use:
 *   vt_rt *rt; vt_rt_program *p; vt_rt_kernel *k; uint32_t a;
 *   vt_rt_create(NULL, &rt);
 *   vt_rt_program_load_file(rt, "vecadd.elf", &p);
 *   vt_rt_kernel_create(p, "vecadd", &k);
 *   vt_rt_alloc(rt, bytes, &a); vt_rt_write(rt, a, host, bytes);
 *   vt_rt_set_arg_buffer(k, 0, a, 0); ...
 *   vt_rt_ndrange nd = {.dims = 1, .global = {n}};
 *   vt_rt_launch(k, &nd, NULL);
 *   vt_rt_read(rt, c, out, bytes);
 */
#ifndef VT_RUNTIME_H
#define VT_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "ventus.h"
#include "vt/addrmap.h"
#include "vt/counters.h"
#include "vt/session.h"
#include "vt/settings.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vt_rt vt_rt;
typedef struct vt_rt_program vt_rt_program;
typedef struct vt_rt_kernel vt_rt_kernel;

/* Receives the text kernels print (both printf paths, docs/printf.md). */
typedef void (*vt_rt_print_fn)(void *user, const char *text, size_t len);

/* When to map the official device library's fixed printf window
 * (0xa0024000, 1 KiB): AUTO maps it for programs that define a symbol
 * `printf` or `_printf_buffer` (libclc's printf). */
enum { VT_RT_WINDOW_AUTO = 0, VT_RT_WINDOW_ON = 1, VT_RT_WINDOW_OFF = 2 };

#define VT_RT_PRINT_WINDOW_ADDR VT_ADDR_PRINT_BASE
#define VT_RT_PRINT_WINDOW_SIZE VT_ADDR_PRINT_SIZE
#define VT_RT_DEFAULT_PRINT_SIZE (1u << 20)   /* pocl's PRINT_BUFFER_SIZE */
#define VT_RT_DEFAULT_PRIVATE_SIZE 0x1000u    /* bytes per thread, pocl's pdsSize */
#define VT_RT_PRIVATE_CAP 0x10000000u         /* private area cap (pocl) */
#define VT_RT_LDS_STACK_PER_WARP VT_STACK_PER_WARP       /* crt0 variant C */
#define VT_RT_LOCAL_ARG_ALIGN 128u            /* alignment of __local arguments */
#define VT_RT_MAX_ARGS 256u
#define VT_RT_MAX_ARG_BUFFER 0xffffu          /* pocl's limit on the argument buffer */
#define VT_RT_MAX_SCALAR 1024u                /* largest by-value argument (bytes) */

typedef struct vt_rt_options {
  /* Device to use; NULL opens one (with 'settings' below, or, when that is
   * NULL too, from the environment: VT_CONFIG and the VT_<KEY> variables of
   * vt/settings.def) and closes it in vt_rt_destroy. A device passed here
   * stays the caller's. */
  vt_device_h device;
  const vt_settings *settings;
  /* Threads per warp for every launch (power of two 1..32); 0 = the
   * device's fixed value, or automatic (docs/runtime.md). */
  unsigned threads_per_warp;
  uint32_t print_buffer_size;  /* bytes; 0 = the device's setting print_buffer */
  int no_print_buffer;         /* nonzero: KNL words 48/52 stay 0 */
  uint32_t private_size;       /* private bytes per thread; 0 = the setting private_bytes */
  int print_window;            /* VT_RT_WINDOW_* */
  uint64_t timeout_ms;         /* per launch; 0 = MAX_TIMEOUT */
  vt_rt_print_fn print_fn;     /* NULL: write to stdout */
  void *print_user;
} vt_rt_options;

void vt_rt_options_default(vt_rt_options *o);

/* opts may be NULL (defaults). On failure *out is NULL and the message is
 * written to err (if given). */
int vt_rt_create(const vt_rt_options *opts, vt_rt **out, char *err, size_t errn);
void vt_rt_destroy(vt_rt *rt);
const char *vt_rt_error(const vt_rt *rt);
vt_device_h vt_rt_device(const vt_rt *rt);

/* --- buffers (device memory through the driver) --- */
int vt_rt_alloc(vt_rt *rt, uint64_t size, uint32_t *addr);
int vt_rt_free(vt_rt *rt, uint32_t addr);
int vt_rt_write(vt_rt *rt, uint32_t addr, const void *src, uint64_t n);
int vt_rt_read(vt_rt *rt, uint32_t addr, void *dst, uint64_t n);
/* Size of the runtime-allocated buffer that contains addr (0 if none). */
uint64_t vt_rt_buffer_size(const vt_rt *rt, uint32_t addr);

/* --- programs --- */
int vt_rt_program_load_file(vt_rt *rt, const char *path, vt_rt_program **out);
/* The image is copied. 'name' is used in messages (NULL: "<memory>"). */
int vt_rt_program_load_mem(vt_rt *rt, const void *elf, size_t size, const char *name,
                           vt_rt_program **out);
void vt_rt_program_free(vt_rt_program *p);
/* Kernel candidates: global functions in executable sections other than the
 * start-up code's (_start, spike_end). */
size_t vt_rt_program_kernel_count(const vt_rt_program *p);
const char *vt_rt_program_kernel_name(const vt_rt_program *p, size_t i);

/* --- kernels --- */
int vt_rt_kernel_create(vt_rt_program *p, const char *name, vt_rt_kernel **out);
void vt_rt_kernel_free(vt_rt_kernel *k);
const char *vt_rt_kernel_name(const vt_rt_kernel *k);
uint32_t vt_rt_kernel_entry(const vt_rt_kernel *k);
/* Optional: the kernel's parameter count. Then indices >= n are rejected
 * and every one of 0..n-1 must be set before a launch. Without it, the
 * arguments are 0..(highest index set) and all of them must be set. */
int vt_rt_kernel_set_num_args(vt_rt_kernel *k, unsigned n);
/* Bytes of static __local data the kernel places at s0 (default: the LDS
 * field of the ELF's .ventus.resource.<kernel> section, else 0). */
int vt_rt_kernel_set_static_local(vt_rt_kernel *k, uint32_t bytes);

/* A global buffer: the argument value is addr + offset (addr 0 = NULL). */
int vt_rt_set_arg_buffer(vt_rt_kernel *k, unsigned index, uint32_t addr, uint32_t offset);
/* A by-value argument of 1..VT_RT_MAX_SCALAR bytes (copied). */
int vt_rt_set_arg_scalar(vt_rt_kernel *k, unsigned index, const void *value, size_t size);
/* A __local pointer argument: 'size' bytes of the workgroup's local memory. */
int vt_rt_set_arg_local(vt_rt_kernel *k, unsigned index, uint32_t size);

/* --- launches --- */
typedef struct vt_rt_ndrange {
  unsigned dims;       /* 1..3 */
  uint32_t global[3];  /* work-items per dimension (unused dimensions: 0 or 1) */
  uint32_t local[3];   /* workgroup size; all 0 = chosen by the runtime */
  uint32_t offset[3];  /* global offset */
} vt_rt_ndrange;

/* What a launch used (filled by vt_rt_launch even when the kernel traps,
 * as far as it got). */
typedef struct vt_rt_launch_info {
  uint32_t local[3], groups[3];
  unsigned threads_per_warp, warps_per_group;
  uint32_t knl_addr;          /* the 68-byte KNL buffer */
  uint32_t args_addr, args_size;
  uint32_t pds_addr, pds_bytes, private_per_thread;
  uint32_t print_addr, print_size;
  uint32_t lds_size;          /* ldsSize of the launch descriptor */
  uint32_t local_args_base;   /* first __local argument address */
  uint32_t print_bytes;       /* printf output of this launch (both paths) */
  uint32_t print_lost;        /* records lost (print buffer full or incomplete) */
  unsigned dims;              /* work dimension of the NDRange */
} vt_rt_launch_info;

/* Build, start and wait for one launch; then drain the printf output. The
 * program image is uploaded before every launch (like spike, which loads
 * the ELF for each run): buffers persist between launches, ELF .data does
 * not. 'info' may be NULL. */
int vt_rt_launch(vt_rt_kernel *k, const vt_rt_ndrange *nd, vt_rt_launch_info *info);

/* Geometry only: validate nd and fill local/groups/threads/warps of info as
 * vt_rt_launch would, without launching. */
int vt_rt_plan(vt_rt_kernel *k, const vt_rt_ndrange *nd, vt_rt_launch_info *info);

/* The geometry of a launch as one line, e.g. "global 1000, local 250, 4
 * workgroups, 8 warps/workgroup, 32 threads/warp (last warp: 26 of 32
 * lanes)" (docs/runtime.md "Geometry"), from the info of vt_rt_launch or
 * vt_rt_plan. Returns the length snprintf would (the text is cut to fit
 * 'size'), or -1 for an info that holds no geometry. */
int vt_rt_geometry_format(const vt_rt_launch_info *info, char *buf, size_t size);

/* --- statistics of the device (all launches so far, vt/counters.h) --- */
/* The total of one counter over every launch and SM. */
double vt_rt_counter(vt_rt *rt, vt_counter c);
/* The device's session (vt/session.h): statistics, report, warp dump,
 * interrupt flag. */
vt_session *vt_rt_session(vt_rt *rt);

/* Simulated cycles of all launches so far when the device runs on the
 * timing model (VT_TIMING, docs/timing.md): *timed = 1 and *cycles the
 * total; otherwise *timed = 0 and *cycles = 0. */
int vt_rt_timing_cycles(vt_rt *rt, uint64_t *cycles, int *timed);

#ifdef __cplusplus
}
#endif
#endif
