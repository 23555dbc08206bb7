/* vt/kargs.h - the kernel argument section `.vt.kernel_args` of a kernel
 * ELF: for each kernel, its arguments in order with kind, size in the
 * argument buffer, address space, name, type name and type qualifiers.
 * `vt as` writes it from `.vt_kernel` / `.vt_kernel_arg` directives
 * (docs/as.md); the OpenCL platform (docs/opencl.md) reads it for
 * CL_KERNEL_NUM_ARGS, clGetKernelArgInfo and clSetKernelArg checks. The
 * byte layout is in docs/formats.md ("Kernel argument section").
 *
 * The reader checks every count, offset and string; a malformed section
 * gives a message, never a crash or an out-of-bounds read. No global state. */
#ifndef VT_KARGS_H
#define VT_KARGS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VT_KARGS_SECTION ".vt.kernel_args"
#define VT_KARGS_VERSION 1u
#define VT_KARGS_MAX_ARGS 256u     /* per kernel (the runtime's VT_RT_MAX_ARGS) */
#define VT_KARGS_MAX_VALUE 1024u   /* largest by-value argument (VT_RT_MAX_SCALAR) */
#define VT_KARGS_MAX_KERNELS 4096u /* per section */

/* What the argument buffer slot holds. */
typedef enum vt_karg_kind {
  VT_KARG_BUFFER = 0, /* a global or constant pointer: a buffer's device address */
  VT_KARG_LOCAL = 1,  /* a __local pointer: the runtime places the local memory */
  VT_KARG_VALUE = 2   /* a by-value argument (scalar, vector or struct) */
} vt_karg_kind;

/* Address spaces, numbered as in SPIR (private 0, global 1, constant 2,
 * local 3). A by-value argument is private. */
typedef enum vt_karg_space {
  VT_KSPACE_PRIVATE = 0,
  VT_KSPACE_GLOBAL = 1,
  VT_KSPACE_CONSTANT = 2,
  VT_KSPACE_LOCAL = 3
} vt_karg_space;

/* Type qualifiers (bits). */
enum { VT_KQUAL_CONST = 1, VT_KQUAL_RESTRICT = 2, VT_KQUAL_VOLATILE = 4 };

typedef struct vt_karg {
  uint8_t kind;  /* vt_karg_kind */
  uint8_t space; /* vt_karg_space */
  uint8_t quals; /* VT_KQUAL_* */
  uint32_t size; /* bytes in the argument buffer: 4 for pointers, 1..1024 by value */
  const char *name;
  const char *type; /* e.g. "float*", "int", "float4"; "" when not given */
} vt_karg;

typedef struct vt_kargs_kernel {
  const char *name;
  uint32_t nargs;
  const vt_karg *args;
} vt_kargs_kernel;

/* The kind and address space must agree: BUFFER with GLOBAL or CONSTANT,
 * LOCAL with LOCAL, VALUE with PRIVATE; pointers are 4 bytes, values 1 to
 * VT_KARGS_MAX_VALUE. Returns NULL if a is valid, else what is wrong. */
const char *vt_karg_check(const vt_karg *a);

/* Encode kernels into the section's bytes (malloc'd). Returns 0, or -1 with
 * a message (an invalid argument, more than VT_KARGS_MAX_ARGS arguments or
 * VT_KARGS_MAX_KERNELS kernels, an empty kernel name, out of memory). */
int vt_kargs_encode(const vt_kargs_kernel *kernels, size_t n, uint8_t **out, size_t *size,
                    char *err, size_t errn);

/* A parsed section. */
typedef struct vt_kargs vt_kargs;

/* Parse section bytes (copied). Returns 0, or -1 with a message such as
 * "bad magic", "argument 2 of kernel 'k': kind 7 is unknown". */
int vt_kargs_parse(const uint8_t *data, size_t size, vt_kargs **out, char *err, size_t errn);
void vt_kargs_free(vt_kargs *k);
size_t vt_kargs_count(const vt_kargs *k);
const vt_kargs_kernel *vt_kargs_at(const vt_kargs *k, size_t i);
/* The kernel called name, or NULL. */
const vt_kargs_kernel *vt_kargs_find(const vt_kargs *k, const char *name);

#ifdef __cplusplus
}
#endif
#endif
