/* Internal structures of the host runtime (include/vt_runtime.h). */
#ifndef VT_RT_INTERNAL_H
#define VT_RT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "vt/elf.h"
#include "vt/kargs.h"
#include "vt_runtime.h"

typedef struct rt_buffer {
  uint32_t addr;
  uint64_t size;
} rt_buffer;

/* The device's shape as the runtime sees it (rt_device.c). */
typedef struct rt_shape {
  unsigned threads;    /* threads per warp the device fixes; 0 = free */
  unsigned warp_slots; /* warp slots per SM */
  bool fixed;          /* workgroups larger than warp_slots / lds_bytes are refused */
  uint32_t lds_bytes;  /* local memory per SM */
} rt_shape;

struct vt_rt {
  vt_device_h dev;
  bool own_dev;
  int task; /* the driver context (taskID) of its buffers and launches: with the MMU
               on, a runtime on a caller's device has an address space of its own */
  vt_rt_options opt;
  rt_shape shape;
  char err[1024];
  /* buffers allocated through vt_rt_alloc */
  rt_buffer *bufs;
  size_t nbufs, capbufs;
  /* per-context launch buffers, reused (grown) across launches rather than
   * allocated and freed per launch */
  uint32_t knl_addr, knl_cap;
  uint32_t args_addr, args_cap;
  uint32_t args_written; /* bytes of the argument buffer that may be non-zero */
  uint32_t pds_addr, pds_cap;
  uint32_t print_addr, print_size;
  bool window_mapped;
  uint64_t launches;
};

struct vt_rt_program {
  vt_rt *rt;
  char *name;
  uint8_t *image;
  size_t size;
  vt_elf *elf;
  char **kernels;
  size_t nkernels;
  bool wants_window; /* defines printf / _printf_buffer (libclc printf) */
  vt_kargs *kargs;   /* its .vt.kernel_args section, or NULL */
};

enum { ARG_UNSET = 0, ARG_BUFFER, ARG_SCALAR, ARG_LOCAL };

typedef struct rt_arg {
  int kind;
  uint32_t size;  /* scalar: bytes; local: bytes of local memory */
  uint32_t value; /* buffer: addr + offset */
  uint8_t *bytes; /* scalar: the value */
} rt_arg;

struct vt_rt_kernel {
  vt_rt_program *prog;
  char *name;
  uint32_t entry;
  rt_arg *args;
  unsigned nargs, capargs;
  bool declared;
  unsigned ndeclared;
  const vt_kargs_kernel *sig; /* its arguments from .vt.kernel_args, or NULL */
  uint32_t static_local;
  uint32_t private_need; /* private bytes per work-item the ELF asks for (PDS field) */
  uint32_t sgprs, vgprs;
};

/* rt_context.c */
int rt_fail(vt_rt *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rt_fail with ": <vt_last_error()>" appended */
int rt_fail_driver(vt_rt *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* rt_device.c */
int rt_query_shape(vt_rt *rt);
int rt_apply_settings(vt_rt *rt);
int rt_own_context(vt_rt *rt);
/* rt_labels.c: name the memory of a launch for the memory checker */
int rt_label_launch(vt_rt_kernel *k, const vt_rt_launch_info *info);
/* grow-only per-context buffer: (re)allocates *addr when *cap < need */
int rt_ensure_buffer(vt_rt *rt, uint32_t *addr, uint32_t *cap, uint32_t need, const char *what);

/* rt_args.c: pack the argument buffer; local arguments are placed from
 * local_base. Returns the packed size via *size (buf has VT_RT_MAX_ARG_BUFFER
 * bytes). */
int rt_check_args(vt_rt_kernel *k);
int rt_pack_args(vt_rt_kernel *k, uint32_t local_base, uint8_t *buf, uint32_t *size,
                 uint32_t *local_bytes);
uint32_t rt_local_arg_bytes(const vt_rt_kernel *k);

/* rt_ndrange.c */
int rt_plan(vt_rt_kernel *k, const vt_rt_ndrange *nd, vt_rt_launch_info *info);

/* rt_print.c */
int rt_print_prepare(vt_rt *rt);
/* prog: the launched program (formats and %s strings in its image) */
int rt_print_drain(vt_rt *rt, const vt_rt_program *prog, uint32_t *bytes, uint32_t *dropped);
int rt_window_map(vt_rt *rt);
int rt_window_drain(vt_rt *rt, uint32_t *bytes);
void rt_emit(vt_rt *rt, const char *text, size_t n);

/* rt_devstr.c: the NUL-terminated string at a device address, from the
 * program image or a driver buffer; the contract of rt_devstr_fn
 * (rt_printf_format.h) */
long rt_read_device_string(vt_rt *rt, const vt_rt_program *prog, uint32_t addr, char *buf,
                           size_t max);

#endif
