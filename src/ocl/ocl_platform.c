/* The platform and its one device: clGetPlatformIDs, clGetPlatformInfo,
 * clGetDeviceIDs, clRetainDevice, clReleaseDevice.
 *
 * Both are process-wide singletons, because the ICD loader asks for the
 * platform list once and applications compare handles. The platform is a
 * constant object. The device's properties (SMs, warp slots, local memory,
 * timing model) come from the device configuration (VT_CONFIG, VT_*;
 * docs/driver.md), read once on first use under pthread_once by opening a
 * device; after that they never change, so every thread reads them without
 * a lock. A context opens its own device from the same configuration. */
#include <stdio.h>
#include <string.h>

#include "ocl_api.h"

static const struct _cl_platform_id platform = {&vtcl_dispatch, VTCL_PLATFORM};
static const struct _cl_device_id device = {&vtcl_dispatch, VTCL_DEVICE};

static vtcl_device_props props;
static pthread_once_t props_once = PTHREAD_ONCE_INIT;

cl_platform_id vtcl_platform(void) { return (cl_platform_id)&platform; }
cl_device_id vtcl_device(void) { return (cl_device_id)&device; }
bool vtcl_is_device(cl_device_id d) { return d == &device; }

static uint64_t cap(vt_device_h dev, uint64_t id, uint64_t fallback) {
  uint64_t v = 0;
  return vt_dev_caps(&dev, id, &v) == 0 && v ? v : fallback;
}

static void read_props(void) {
  vt_rt *rt = NULL;
  char msg[400];
  if (vt_rt_create(NULL, &rt, msg, sizeof msg) != 0) {
    snprintf(props.error, sizeof props.error, "vt OpenCL: the device is unavailable: %s", msg);
    /* OpenCL has no channel for this before a context exists: say it once */
    fprintf(stderr, "%s\n", props.error);
    return;
  }
  vt_device_h dev = vt_rt_device(rt);
  props.sms = (unsigned)cap(dev, VT_CAPS_MAX_CORES, 1);
  props.warp_slots = (unsigned)cap(dev, VT_CAPS_MAX_WARPS, 8);
  props.warp_width = (unsigned)cap(dev, VT_CAPS_MAX_THREADS, 32);
  props.lds_bytes = cap(dev, VT_CAPS_LOCAL_MEM_SIZE, 65536);
  if (props.warp_width > 32) props.warp_width = 32;
  /* the runtime's default workgroups: (warp width) x min(warp slots, 32),
   * at most 1024 work-items (docs/runtime.md "Geometry") */
  unsigned warps = props.warp_slots < 32 ? props.warp_slots : 32;
  props.max_group = (size_t)props.warp_width * warps;
  if (props.max_group > 1024) props.max_group = 1024;
  vt_rt_destroy(rt);
  props.ok = true;
}

const vtcl_device_props *vtcl_props(void) {
  pthread_once(&props_once, read_props);
  return &props;
}

cl_int CL_API_CALL vtcl_GetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                       cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  if (platforms) platforms[0] = vtcl_platform();
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_GetPlatformInfo(cl_platform_id p, cl_platform_info param_name,
                                        size_t param_value_size, void *param_value,
                                        size_t *param_value_size_ret) {
  if (p && p != vtcl_platform()) return CL_INVALID_PLATFORM;
  const char *s;
  switch (param_name) {
  case CL_PLATFORM_PROFILE:
    s = vtcl_compiler_available() ? "FULL_PROFILE" : "EMBEDDED_PROFILE";
    break;
  case CL_PLATFORM_VERSION: s = "OpenCL 1.2 vt " VTCL_VERSION; break;
  case CL_PLATFORM_NAME: s = "vt"; break;
  case CL_PLATFORM_VENDOR: s = "the vt project"; break;
  case CL_PLATFORM_EXTENSIONS: s = "cl_khr_icd"; break;
  case CL_PLATFORM_ICD_SUFFIX_KHR: s = "vt"; break;
  default: return CL_INVALID_VALUE;
  }
  return vtcl_info_str(s, param_value_size, param_value, param_value_size_ret);
}

static bool valid_type(cl_device_type t) {
  const cl_device_type all = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                             CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  return t == CL_DEVICE_TYPE_ALL || (t && !(t & ~all));
}

cl_int CL_API_CALL vtcl_GetDeviceIDs(cl_platform_id p, cl_device_type device_type,
                                     cl_uint num_entries, cl_device_id *devices,
                                     cl_uint *num_devices) {
  if (p && p != vtcl_platform()) return CL_INVALID_PLATFORM;
  if (!valid_type(device_type)) return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
  if (num_devices) *num_devices = 0;
  if (!(device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT))) return CL_DEVICE_NOT_FOUND;
  if (!vtcl_props()->ok) return CL_DEVICE_NOT_FOUND; /* read_props said why */
  if (devices) devices[0] = vtcl_device();
  if (num_devices) *num_devices = 1;
  return CL_SUCCESS;
}

/* The device is a root device: retain and release do nothing. */
cl_int CL_API_CALL vtcl_RetainDevice(cl_device_id d) {
  return vtcl_is_device(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL vtcl_ReleaseDevice(cl_device_id d) {
  return vtcl_is_device(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}
