/* Programs: clCreateProgramWithSource, clCreateProgramWithBinary,
 * clBuildProgram, clGetProgramInfo, clGetProgramBuildInfo, clRetainProgram,
 * clReleaseProgram. A binary is a kernel ELF (`vt as` or the official
 * Ventus toolchain); building loads it into the context's runtime, which
 * checks it, and reads its .vt.kernel_args section when it has one. Source
 * goes through the compiler hook (ocl_compile.c) first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"
#include "vt/elf.h"

bool vtcl_is_program(cl_program p) { return p && p->magic == VTCL_PROGRAM; }

void vtcl_program_retain(cl_program p) { atomic_fetch_add(&p->refs, 1); }

void vtcl_program_clear_build(cl_program p) {
  vt_rt_program_free(p->rtp);
  p->rtp = NULL;
  vt_kargs_free(p->kargs);
  p->kargs = NULL;
  for (size_t i = 0; i < p->nkernels; i++) free(p->kernel_names[i]);
  free(p->kernel_names);
  p->kernel_names = NULL;
  p->nkernels = 0;
}

/* Not with the context locked. */
void vtcl_program_release(cl_program p) {
  if (atomic_fetch_sub(&p->refs, 1) != 1) return;
  cl_context ctx = p->ctx;
  vtcl_lock(ctx);
  vtcl_program_clear_build(p);
  vtcl_unlock(ctx);
  free(p->source);
  free(p->binary);
  free(p->log);
  free(p->options);
  free(p->unit);
  free(p->unit_options);
  p->magic = VTCL_DEAD;
  free(p);
  vtcl_context_release(ctx);
}

cl_program vtcl_program_new(cl_context ctx) {
  cl_program p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->dispatch = &vtcl_dispatch;
  p->magic = VTCL_PROGRAM;
  atomic_init(&p->refs, 1);
  p->ctx = ctx;
  p->status = CL_BUILD_NONE;
  vtcl_context_retain(ctx);
  return p;
}

cl_program CL_API_CALL vtcl_CreateProgramWithSource(cl_context context, cl_uint count,
                                                    const char **strings, const size_t *lengths,
                                                    cl_int *errcode_ret) {
  cl_int dummy;
  if (!errcode_ret) errcode_ret = &dummy;
  if (!vtcl_is_context(context)) {
    *errcode_ret = CL_INVALID_CONTEXT;
    return NULL;
  }
  size_t total = 1;
  for (cl_uint i = 0; strings && i < count; i++) {
    if (!strings[i]) count = 0; /* reported below */
    else total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
  }
  if (!count || !strings) {
    *errcode_ret = CL_INVALID_VALUE;
    return NULL;
  }
  cl_program p = vtcl_program_new(context);
  char *src = p ? malloc(total) : NULL;
  if (!src) {
    if (p) vtcl_program_release(p);
    *errcode_ret = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  size_t at = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(src + at, strings[i], n);
    at += n;
  }
  src[at] = 0;
  p->source = src;
  *errcode_ret = CL_SUCCESS;
  return p;
}

/* A RISC-V ELF executable (what the runtime checks further at build). */
static bool plausible_binary(const unsigned char *bin, size_t n) {
  vt_elf *elf = NULL;
  char msg[128];
  if (vt_elf_open_mem(bin, n, &elf, msg, sizeof msg) != 0) return false;
  bool ok = vt_elf_machine(elf) == 243 && vt_elf_type(elf) == 2;
  vt_elf_free(elf);
  return ok;
}

cl_program CL_API_CALL vtcl_CreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                    const cl_device_id *device_list,
                                                    const size_t *lengths,
                                                    const unsigned char **binaries,
                                                    cl_int *binary_status,
                                                    cl_int *errcode_ret) {
  cl_int dummy, err = CL_SUCCESS;
  if (!errcode_ret) errcode_ret = &dummy;
  if (!vtcl_is_context(context)) err = CL_INVALID_CONTEXT;
  else if (!num_devices || !device_list) err = CL_INVALID_VALUE;
  for (cl_uint i = 0; err == CL_SUCCESS && i < num_devices; i++)
    if (!vtcl_is_device(device_list[i])) err = CL_INVALID_DEVICE;
  for (cl_uint i = 0; err == CL_SUCCESS && i < num_devices; i++) {
    cl_int st = !lengths || !binaries || !lengths[i] || !binaries[i] ? CL_INVALID_VALUE
                : plausible_binary(binaries[i], lengths[i]) ? CL_SUCCESS
                                                            : CL_INVALID_BINARY;
    if (binary_status) binary_status[i] = st;
    if (st != CL_SUCCESS) err = st;
  }
  *errcode_ret = err;
  if (err != CL_SUCCESS) return NULL;
  cl_program p = vtcl_program_new(context);
  if (p && (p->binary = malloc(lengths[0]))) {
    memcpy(p->binary, binaries[0], lengths[0]);
    p->binary_size = lengths[0];
    p->btype = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return p;
  }
  if (p) vtcl_program_release(p);
  *errcode_ret = CL_OUT_OF_HOST_MEMORY;
  return NULL;
}

cl_int CL_API_CALL vtcl_RetainProgram(cl_program program) {
  if (!vtcl_is_program(program)) return CL_INVALID_PROGRAM;
  vtcl_program_retain(program);
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_ReleaseProgram(cl_program program) {
  if (!vtcl_is_program(program)) return CL_INVALID_PROGRAM;
  vtcl_program_release(program);
  return CL_SUCCESS;
}
