/* clSetKernelArg and the kernel queries: clGetKernelInfo,
 * clGetKernelArgInfo, clGetKernelWorkGroupInfo (see ocl_kernel.c for how
 * arguments are classified with and without argument information). */
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"

/* The argument as the call describes it; CL_SUCCESS or the error. */
static cl_int classify(cl_kernel k, cl_uint index, size_t size, const void *value, vtcl_arg *a) {
  cl_context ctx = k->prog->ctx;
  const vt_karg *info = k->info ? &k->info->args[index] : NULL;
  cl_mem mem = value && size == sizeof(cl_mem) ? *(const cl_mem *)value : NULL;
  int kind;
  if (info)
    kind = info->kind == VT_KARG_BUFFER  ? VTCL_ARG_BUFFER
           : info->kind == VT_KARG_LOCAL ? VTCL_ARG_LOCAL
                                         : VTCL_ARG_VALUE;
  else if (!value)
    kind = VTCL_ARG_LOCAL;
  else if (size == sizeof(cl_mem) && (!mem || vtcl_mem_of_context(ctx, mem)))
    kind = VTCL_ARG_BUFFER;
  else
    kind = VTCL_ARG_VALUE;
  a->kind = kind;
  switch (kind) {
  case VTCL_ARG_BUFFER:
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    if (mem && !vtcl_mem_of_context(ctx, mem)) return CL_INVALID_MEM_OBJECT;
    a->mem = mem;
    return CL_SUCCESS;
  case VTCL_ARG_LOCAL:
    if (value) return CL_INVALID_ARG_VALUE;
    if (size == 0 || size > 0x01000000u) return CL_INVALID_ARG_SIZE;
    a->size = (uint32_t)size;
    return CL_SUCCESS;
  default:
    if (!value) return CL_INVALID_ARG_VALUE;
    if (info ? size != info->size : (size == 0 || size > VT_KARGS_MAX_VALUE))
      return CL_INVALID_ARG_SIZE;
    if (!(a->bytes = malloc(size))) return CL_OUT_OF_HOST_MEMORY;
    memcpy(a->bytes, value, size);
    a->size = (uint32_t)size;
    return CL_SUCCESS;
  }
}

static cl_int grow_args(cl_kernel k, unsigned n) {
  if (n <= k->nargs) return CL_SUCCESS;
  vtcl_arg *a = realloc(k->args, n * sizeof *a);
  if (!a) return CL_OUT_OF_HOST_MEMORY;
  memset(a + k->nargs, 0, (n - k->nargs) * sizeof *a);
  k->args = a;
  k->nargs = n;
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_SetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                     const void *arg_value) {
  if (!vtcl_is_kernel(kernel)) return CL_INVALID_KERNEL;
  unsigned limit = kernel->info ? kernel->info->nargs : VT_RT_MAX_ARGS;
  if (arg_index >= limit) return CL_INVALID_ARG_INDEX;
  cl_context ctx = kernel->prog->ctx;
  vtcl_arg a = {0};
  vtcl_lock(ctx);
  cl_int rc = classify(kernel, arg_index, arg_size, arg_value, &a);
  if (rc == CL_SUCCESS) rc = grow_args(kernel, arg_index + 1);
  cl_mem old = NULL;
  if (rc == CL_SUCCESS) {
    old = kernel->args[arg_index].mem;
    free(kernel->args[arg_index].bytes);
    if (a.mem) vtcl_mem_retain(a.mem);
    kernel->args[arg_index] = a;
  } else {
    free(a.bytes);
  }
  vtcl_defer_release(ctx, VTCL_REL_MEM, old);
  vtcl_unlock(ctx);
  return rc;
}

static size_t local_bytes(cl_kernel k) { /* ctx locked */
  size_t n = 0;
  for (unsigned i = 0; i < k->nargs; i++)
    if (k->args[i].kind == VTCL_ARG_LOCAL) n += k->args[i].size;
  return n;
}

cl_int CL_API_CALL vtcl_GetKernelInfo(cl_kernel k, cl_kernel_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret) {
  if (!vtcl_is_kernel(k)) return CL_INVALID_KERNEL;
  cl_uint u;
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME:
    return vtcl_info_str(k->name, param_value_size, param_value, param_value_size_ret);
  case CL_KERNEL_NUM_ARGS: u = vtcl_kernel_num_args(k); return VTCL_INFO(u);
  case CL_KERNEL_REFERENCE_COUNT: u = atomic_load(&k->refs); return VTCL_INFO(u);
  case CL_KERNEL_CONTEXT: return VTCL_INFO(k->prog->ctx);
  case CL_KERNEL_PROGRAM: return VTCL_INFO(k->prog);
  case CL_KERNEL_ATTRIBUTES:
    return vtcl_info_str("", param_value_size, param_value, param_value_size_ret);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL vtcl_GetKernelArgInfo(cl_kernel k, cl_uint arg_index,
                                         cl_kernel_arg_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
  if (!vtcl_is_kernel(k)) return CL_INVALID_KERNEL;
  if (!k->info) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  if (arg_index >= k->info->nargs) return CL_INVALID_ARG_INDEX;
  const vt_karg *a = &k->info->args[arg_index];
  static const cl_kernel_arg_address_qualifier spaces[] = {
      CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_GLOBAL,
      CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_LOCAL};
  cl_kernel_arg_address_qualifier space = spaces[a->space & 3];
  cl_kernel_arg_access_qualifier access = CL_KERNEL_ARG_ACCESS_NONE;
  cl_kernel_arg_type_qualifier quals = CL_KERNEL_ARG_TYPE_NONE;
  if (a->quals & VT_KQUAL_CONST) quals |= CL_KERNEL_ARG_TYPE_CONST;
  if (a->quals & VT_KQUAL_RESTRICT) quals |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (a->quals & VT_KQUAL_VOLATILE) quals |= CL_KERNEL_ARG_TYPE_VOLATILE;
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: return VTCL_INFO(space);
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: return VTCL_INFO(access);
  case CL_KERNEL_ARG_TYPE_NAME:
    return vtcl_info_str(a->type, param_value_size, param_value, param_value_size_ret);
  case CL_KERNEL_ARG_TYPE_QUALIFIER: return VTCL_INFO(quals);
  case CL_KERNEL_ARG_NAME:
    return vtcl_info_str(a->name, param_value_size, param_value, param_value_size_ret);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL vtcl_GetKernelWorkGroupInfo(cl_kernel k, cl_device_id device,
                                               cl_kernel_work_group_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret) {
  if (!vtcl_is_kernel(k)) return CL_INVALID_KERNEL;
  if (device && !vtcl_is_device(device)) return CL_INVALID_DEVICE;
  const vtcl_device_props *d = vtcl_props();
  size_t sz, three[3] = {0, 0, 0};
  cl_ulong ul;
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE: sz = d->max_group; return VTCL_INFO(sz);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    return vtcl_info(three, sizeof three, param_value_size, param_value, param_value_size_ret);
  case CL_KERNEL_LOCAL_MEM_SIZE:
    vtcl_lock(k->prog->ctx);
    ul = local_bytes(k);
    vtcl_unlock(k->prog->ctx);
    return VTCL_INFO(ul);
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: sz = d->warp_width; return VTCL_INFO(sz);
  case CL_KERNEL_PRIVATE_MEM_SIZE: ul = 0; return VTCL_INFO(ul); /* not known from the ELF */
  default: return CL_INVALID_VALUE;
  }
}
