/* Kernels: clCreateKernel, clCreateKernelsInProgram, clRetainKernel,
 * clReleaseKernel, clSetKernelArg, clGetKernelInfo, clGetKernelArgInfo,
 * clGetKernelWorkGroupInfo.
 *
 * With the program's .vt.kernel_args section each argument's kind and size
 * are known and clSetKernelArg checks them. Without it (the official
 * toolchain's ELFs) the kind is taken from the call: a NULL value is a
 * __local size, a value holding a buffer of the context (or a NULL cl_mem)
 * is a buffer, anything else is a by-value argument; CL_KERNEL_NUM_ARGS is
 * derived from the argument bytes the kernel reads (ocl_derive.c) and
 * clGetKernelArgInfo answers CL_KERNEL_ARG_INFO_NOT_AVAILABLE. Buffers set
 * as arguments are retained until replaced or the kernel is released. */
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"

bool vtcl_is_kernel(cl_kernel k) { return k && k->magic == VTCL_KERNEL; }

void vtcl_kernel_retain(cl_kernel k) { atomic_fetch_add(&k->refs, 1); }

unsigned vtcl_kernel_num_args(cl_kernel k) {
  return k->info ? k->info->nargs : k->derived_args;
}

static void arg_clear(vtcl_arg *a, cl_mem *drop) {
  *drop = a->mem;
  free(a->bytes);
  memset(a, 0, sizeof *a);
}

/* Not with the context locked. */
void vtcl_kernel_release(cl_kernel k) {
  if (atomic_fetch_sub(&k->refs, 1) != 1) return;
  cl_program p = k->prog;
  vtcl_lock(p->ctx);
  vt_rt_kernel_free(k->rtk);
  atomic_fetch_sub(&p->attached, 1);
  vtcl_unlock(p->ctx);
  for (unsigned i = 0; i < k->nargs; i++) {
    cl_mem m;
    arg_clear(&k->args[i], &m);
    if (m) vtcl_mem_release(m);
  }
  free(k->args);
  free(k->name);
  k->magic = VTCL_DEAD;
  free(k);
  vtcl_program_release(p);
}

static bool has_kernel(cl_program p, const char *name) {
  for (size_t i = 0; i < p->nkernels; i++)
    if (!strcmp(p->kernel_names[i], name)) return true;
  return false;
}

/* ctx locked, program built */
static cl_int kernel_new(cl_program p, const char *name, cl_kernel *out) {
  *out = NULL;
  if (!has_kernel(p, name)) return CL_INVALID_KERNEL_NAME;
  cl_kernel k = calloc(1, sizeof *k);
  if (!k || !(k->name = vtcl_strdup(name))) {
    free(k);
    return CL_OUT_OF_HOST_MEMORY;
  }
  if (vt_rt_kernel_create(p->rtp, name, &k->rtk) != 0) {
    vtcl_notify(p->ctx, false, "clCreateKernel: %s", vt_rt_error(p->ctx->rt));
    free(k->name);
    free(k);
    return CL_INVALID_KERNEL_NAME;
  }
  k->info = vt_kargs_find(p->kargs, name);
  unsigned n = k->info ? k->info->nargs : 0;
  if (k->info) {
    vt_rt_kernel_set_num_args(k->rtk, n);
  } else {
    k->derived_extent =
        vtcl_derive_arg_extent(p->binary, p->binary_size, vt_rt_kernel_entry(k->rtk));
    k->derived_args = (k->derived_extent + 3) / 4;
  }
  k->dispatch = &vtcl_dispatch;
  k->magic = VTCL_KERNEL;
  atomic_init(&k->refs, 1);
  k->prog = p;
  vtcl_program_retain(p);
  atomic_fetch_add(&p->attached, 1);
  *out = k;
  return CL_SUCCESS;
}

cl_kernel CL_API_CALL vtcl_CreateKernel(cl_program program, const char *kernel_name,
                                        cl_int *errcode_ret) {
  cl_int dummy;
  if (!errcode_ret) errcode_ret = &dummy;
  if (!vtcl_is_program(program)) {
    *errcode_ret = CL_INVALID_PROGRAM;
    return NULL;
  }
  if (!kernel_name) {
    *errcode_ret = CL_INVALID_VALUE;
    return NULL;
  }
  cl_kernel k = NULL;
  vtcl_lock(program->ctx);
  *errcode_ret = program->status != CL_BUILD_SUCCESS ? CL_INVALID_PROGRAM_EXECUTABLE
                                                     : kernel_new(program, kernel_name, &k);
  vtcl_unlock(program->ctx);
  return k;
}

cl_int CL_API_CALL vtcl_CreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                               cl_kernel *kernels, cl_uint *num_kernels_ret) {
  if (!vtcl_is_program(program)) return CL_INVALID_PROGRAM;
  vtcl_lock(program->ctx);
  cl_int rc = CL_SUCCESS;
  size_t n = program->nkernels;
  if (program->status != CL_BUILD_SUCCESS) rc = CL_INVALID_PROGRAM_EXECUTABLE;
  else if (kernels && num_kernels < n) rc = CL_INVALID_VALUE;
  for (size_t i = 0; rc == CL_SUCCESS && kernels && i < n; i++) {
    rc = kernel_new(program, program->kernel_names[i], &kernels[i]);
    if (rc != CL_SUCCESS) {
      vtcl_unlock(program->ctx);
      while (i--) vtcl_kernel_release(kernels[i]);
      return rc;
    }
  }
  vtcl_unlock(program->ctx);
  if (rc == CL_SUCCESS && num_kernels_ret) *num_kernels_ret = (cl_uint)n;
  return rc;
}

cl_int CL_API_CALL vtcl_RetainKernel(cl_kernel kernel) {
  if (!vtcl_is_kernel(kernel)) return CL_INVALID_KERNEL;
  vtcl_kernel_retain(kernel);
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_ReleaseKernel(cl_kernel kernel) {
  if (!vtcl_is_kernel(kernel)) return CL_INVALID_KERNEL;
  vtcl_kernel_release(kernel);
  return CL_SUCCESS;
}
