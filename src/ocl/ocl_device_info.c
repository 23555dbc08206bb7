/* clGetDeviceInfo: every OpenCL 1.2 device query (section 4.2, table
 * 4.3), from the device properties (ocl_platform.c) and vt's fixed
 * facts: 32-bit addresses, buffers in [0x90000000, 2^32), local memory
 * after one 1 KiB stack per warp, exact IEEE binary32 arithmetic
 * (docs/fp.md), no images. */
#include <string.h>

#include "ocl_api.h"
#include "vt/addrmap.h"

#define GLOBAL_MEM_BYTES ((cl_ulong)VT_ADDR_BUFFER_SIZE)

typedef union value {
  cl_uint u;
  cl_ulong ul;
  size_t sz;
  cl_bool b;
  cl_bitfield bits;
  cl_device_type type;
  cl_device_mem_cache_type cache;
  cl_device_local_mem_type local;
  cl_platform_id platform;
  cl_device_id device;
} value;

static cl_ulong local_mem(const vtcl_device_props *d) {
  uint64_t stacks = (uint64_t)d->warp_slots * VT_STACK_PER_WARP;
  return d->lds_bytes > stacks ? d->lds_bytes - stacks : 0;
}

static const char *string_info(cl_device_info name) {
  bool compiler = vtcl_compiler_available();
  switch (name) {
  case CL_DEVICE_NAME: return "Ventus GPGPU (vt simulator)";
  case CL_DEVICE_VENDOR: return "THU-DSP-LAB";
  case CL_DRIVER_VERSION: return VTCL_VERSION;
  case CL_DEVICE_PROFILE: return compiler ? "FULL_PROFILE" : "EMBEDDED_PROFILE";
  case CL_DEVICE_VERSION: return "OpenCL 1.2 vt " VTCL_VERSION;
  case CL_DEVICE_OPENCL_C_VERSION: return "OpenCL C 1.2 vt";
  case CL_DEVICE_EXTENSIONS: /* vt cc compiles double (docs/cc.md) */
    return compiler ? "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
                      "cl_khr_global_int32_extended_atomics cl_khr_fp64"
                    : "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
                      "cl_khr_global_int32_extended_atomics";
  case CL_DEVICE_BUILT_IN_KERNELS: return "";
  default: return NULL;
  }
}

/* Scalar answers: the value and its size, or 0 for an unknown name. */
static size_t scalar_info(cl_device_info name, const vtcl_device_props *d, value *v) {
  switch (name) {
  case CL_DEVICE_TYPE: v->type = CL_DEVICE_TYPE_GPU; return sizeof v->type;
  case CL_DEVICE_VENDOR_ID: v->u = 0; return sizeof v->u;
  case CL_DEVICE_MAX_COMPUTE_UNITS: v->u = d->sms; return sizeof v->u;
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: v->u = 3; return sizeof v->u;
  case CL_DEVICE_MAX_WORK_GROUP_SIZE: v->sz = d->max_group; return sizeof v->sz;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    v->u = 1; /* one element per lane: SIMT, not SIMD */
    return sizeof v->u;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE: case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    v->u = vtcl_compiler_available() ? 1 : 0; /* cl_khr_fp64 */
    return sizeof v->u;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
  case CL_DEVICE_MAX_READ_IMAGE_ARGS: case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
  case CL_DEVICE_MAX_SAMPLERS: case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    v->u = 0;
    return sizeof v->u;
  case CL_DEVICE_MAX_CLOCK_FREQUENCY: v->u = VTCL_CLOCK_MHZ; return sizeof v->u;
  case CL_DEVICE_ADDRESS_BITS: v->u = 32; return sizeof v->u;
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE: v->ul = GLOBAL_MEM_BYTES / 4; return sizeof v->ul;
  case CL_DEVICE_GLOBAL_MEM_SIZE: v->ul = GLOBAL_MEM_BYTES; return sizeof v->ul;
  case CL_DEVICE_IMAGE_SUPPORT: case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    v->b = CL_FALSE;
    return sizeof v->b;
  case CL_DEVICE_IMAGE2D_MAX_WIDTH: case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_WIDTH: case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH: case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    v->sz = 0;
    return sizeof v->sz;
  case CL_DEVICE_MAX_PARAMETER_SIZE: v->sz = 1024; return sizeof v->sz;
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN: v->u = 1024; return sizeof v->u; /* bits: long16 */
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: v->u = 128; return sizeof v->u;
  case CL_DEVICE_SINGLE_FP_CONFIG:
    v->bits = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
              CL_FP_ROUND_TO_INF | CL_FP_FMA | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
    return sizeof v->bits;
  case CL_DEVICE_DOUBLE_FP_CONFIG: /* OpenCL 1.2 4.2: the minimum for cl_khr_fp64 */
    v->bits = vtcl_compiler_available() ? CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                              CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA
                                        : 0;
    return sizeof v->bits;
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    v->bits = 0;
    return sizeof v->bits;
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: v->cache = CL_NONE; return sizeof v->cache;
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: v->u = 0; return sizeof v->u;
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: v->ul = 0; return sizeof v->ul;
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: v->ul = 65536; return sizeof v->ul;
  case CL_DEVICE_MAX_CONSTANT_ARGS: v->u = 8; return sizeof v->u;
  case CL_DEVICE_LOCAL_MEM_TYPE: v->local = CL_LOCAL; return sizeof v->local;
  case CL_DEVICE_LOCAL_MEM_SIZE: v->ul = local_mem(d); return sizeof v->ul;
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION: v->sz = 1; return sizeof v->sz;
  case CL_DEVICE_ENDIAN_LITTLE: case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    v->b = CL_TRUE;
    return sizeof v->b;
  case CL_DEVICE_COMPILER_AVAILABLE: case CL_DEVICE_LINKER_AVAILABLE:
    v->b = vtcl_compiler_available() ? CL_TRUE : CL_FALSE;
    return sizeof v->b;
  case CL_DEVICE_EXECUTION_CAPABILITIES: v->bits = CL_EXEC_KERNEL; return sizeof v->bits;
  case CL_DEVICE_QUEUE_PROPERTIES: v->bits = CL_QUEUE_PROFILING_ENABLE; return sizeof v->bits;
  case CL_DEVICE_PLATFORM: v->platform = vtcl_platform(); return sizeof v->platform;
  case CL_DEVICE_PRINTF_BUFFER_SIZE: v->sz = VT_RT_DEFAULT_PRINT_SIZE; return sizeof v->sz;
  case CL_DEVICE_PARENT_DEVICE: v->device = NULL; return sizeof v->device;
  case CL_DEVICE_REFERENCE_COUNT: v->u = 1; return sizeof v->u;
  default: return 0;
  }
}

cl_int CL_API_CALL vtcl_GetDeviceInfo(cl_device_id dev, cl_device_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret) {
  if (!vtcl_is_device(dev)) return CL_INVALID_DEVICE;
  const vtcl_device_props *d = vtcl_props();
  const char *s = string_info(param_name);
  if (s) return vtcl_info_str(s, param_value_size, param_value, param_value_size_ret);
  if (param_name == CL_DEVICE_MAX_WORK_ITEM_SIZES) {
    size_t sizes[3] = {d->max_group, d->max_group, d->max_group};
    return vtcl_info(sizes, sizeof sizes, param_value_size, param_value, param_value_size_ret);
  }
  if (param_name == CL_DEVICE_PARTITION_PROPERTIES) {
    cl_device_partition_property none[1] = {0};
    return vtcl_info(none, sizeof none, param_value_size, param_value, param_value_size_ret);
  }
  if (param_name == CL_DEVICE_PARTITION_TYPE) /* not a sub-device: an empty list */
    return vtcl_info(NULL, 0, param_value_size, param_value, param_value_size_ret);
  value v;
  size_t n = scalar_info(param_name, d, &v);
  if (!n) return CL_INVALID_VALUE;
  return vtcl_info(&v, n, param_value_size, param_value, param_value_size_ret);
}
