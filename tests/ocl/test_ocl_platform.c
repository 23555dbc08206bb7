/* The vt OpenCL platform through the ICD loader: platform and device
 * queries (expected values from the default device configuration of
 * docs/driver.md: 2 SMs, 8 warp slots of up to 32 threads, 128 KiB of
 * local memory; buffers in [0x90000000, 2^32)), contexts, command queues,
 * the clGet*Info conventions, invalid and wrong-type handles, and the
 * entries of unsupported features. */
#include "ocl_test_util.h"

/* the full profile needs a compiler (vt's, when vt was built with LLVM 14) */
#ifdef VT_HAVE_CC
#define PROFILE "FULL_PROFILE"
#define HAVE_COMPILER CL_TRUE
#define FP64 " cl_khr_fp64" /* vt cc compiles double */
#else
#define PROFILE "EMBEDDED_PROFILE"
#define HAVE_COMPILER CL_FALSE
#define FP64 ""
#endif

static const cl_device_info all_device_params[] = {
    CL_DEVICE_TYPE, CL_DEVICE_VENDOR_ID, CL_DEVICE_MAX_COMPUTE_UNITS,
    CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, CL_DEVICE_MAX_WORK_GROUP_SIZE,
    CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_MAX_CLOCK_FREQUENCY,
    CL_DEVICE_ADDRESS_BITS, CL_DEVICE_MAX_READ_IMAGE_ARGS, CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
    CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_IMAGE2D_MAX_WIDTH, CL_DEVICE_IMAGE2D_MAX_HEIGHT,
    CL_DEVICE_IMAGE3D_MAX_WIDTH, CL_DEVICE_IMAGE3D_MAX_HEIGHT, CL_DEVICE_IMAGE3D_MAX_DEPTH,
    CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_MAX_PARAMETER_SIZE, CL_DEVICE_MAX_SAMPLERS,
    CL_DEVICE_MEM_BASE_ADDR_ALIGN, CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE,
    CL_DEVICE_SINGLE_FP_CONFIG, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,
    CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
    CL_DEVICE_GLOBAL_MEM_SIZE, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, CL_DEVICE_MAX_CONSTANT_ARGS,
    CL_DEVICE_LOCAL_MEM_TYPE, CL_DEVICE_LOCAL_MEM_SIZE, CL_DEVICE_ERROR_CORRECTION_SUPPORT,
    CL_DEVICE_PROFILING_TIMER_RESOLUTION, CL_DEVICE_ENDIAN_LITTLE, CL_DEVICE_AVAILABLE,
    CL_DEVICE_COMPILER_AVAILABLE, CL_DEVICE_EXECUTION_CAPABILITIES, CL_DEVICE_QUEUE_PROPERTIES,
    CL_DEVICE_NAME, CL_DEVICE_VENDOR, CL_DRIVER_VERSION, CL_DEVICE_PROFILE, CL_DEVICE_VERSION,
    CL_DEVICE_EXTENSIONS, CL_DEVICE_PLATFORM, CL_DEVICE_DOUBLE_FP_CONFIG,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, CL_DEVICE_HOST_UNIFIED_MEMORY,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, CL_DEVICE_OPENCL_C_VERSION, CL_DEVICE_LINKER_AVAILABLE,
    CL_DEVICE_BUILT_IN_KERNELS, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
    CL_DEVICE_PARENT_DEVICE, CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
    CL_DEVICE_PARTITION_PROPERTIES, CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
    CL_DEVICE_PARTITION_TYPE, CL_DEVICE_REFERENCE_COUNT, CL_DEVICE_PREFERRED_INTEROP_USER_SYNC,
    CL_DEVICE_PRINTF_BUFFER_SIZE};

static void platform_string(check_state *st, cl_platform_id p, cl_platform_info what,
                            const char *want) {
  char buf[256] = "";
  size_t n = 0;
  CHECK_CL(st, clGetPlatformInfo(p, what, sizeof buf, buf, &n), CL_SUCCESS);
  CHECK_STR(st, buf, want);
  CHECK(st, n == strlen(want) + 1);
}

TEST(platform_queries) {
  cl_platform_id p[2] = {NULL, NULL};
  cl_uint n = 0;
  CHECK_CL(st, clGetPlatformIDs(2, p, &n), CL_SUCCESS);
  CHECK(st, n == 1 && p[0] && !p[1]);
  platform_string(st, p[0], CL_PLATFORM_NAME, "vt");
  platform_string(st, p[0], CL_PLATFORM_VENDOR, "the vt project");
  platform_string(st, p[0], CL_PLATFORM_VERSION, "OpenCL 1.2 vt 0.1.0");
  platform_string(st, p[0], CL_PLATFORM_PROFILE, PROFILE);
  platform_string(st, p[0], CL_PLATFORM_EXTENSIONS, "cl_khr_icd");
  platform_string(st, p[0], CL_PLATFORM_ICD_SUFFIX_KHR, "vt");
  char small[2];
  CHECK_CL(st, clGetPlatformInfo(p[0], CL_PLATFORM_NAME, sizeof small, small, NULL),
           CL_INVALID_VALUE);
  CHECK_CL(st, clGetPlatformInfo(p[0], 0x7777, 0, NULL, &(size_t){0}), CL_INVALID_VALUE);
  CHECK_CL(st, clGetPlatformIDs(0, p, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
  cl_device_id d;
  CHECK_CL(st, clGetDeviceIDs(p[0], CL_DEVICE_TYPE_ALL, 1, &d, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetPlatformInfo((cl_platform_id)d, CL_PLATFORM_NAME, 0, NULL, &(size_t){0}),
           CL_INVALID_PLATFORM); /* a device passed as the platform */
}

TEST(device_ids) {
  cl_platform_id p;
  cl_device_id d[2] = {NULL, NULL};
  cl_uint n = 0;
  CHECK_CL(st, clGetPlatformIDs(1, &p, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 2, d, &n), CL_SUCCESS);
  CHECK(st, n == 1 && d[0] && !d[1]);
  cl_device_id g = NULL;
  CHECK_CL(st, clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &g, NULL), CL_SUCCESS);
  CHECK(st, g == d[0]);
  CHECK_CL(st, clGetDeviceIDs(p, CL_DEVICE_TYPE_DEFAULT, 1, &g, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &g, &n), CL_DEVICE_NOT_FOUND);
  CHECK_CL(st, clGetDeviceIDs(p, CL_DEVICE_TYPE_ACCELERATOR, 1, &g, &n), CL_DEVICE_NOT_FOUND);
  CHECK_CL(st, clGetDeviceIDs(p, 0, 1, &g, &n), CL_INVALID_DEVICE_TYPE);
  CHECK_CL(st, clGetDeviceIDs(p, (cl_device_type)1 << 40, 1, &g, &n), CL_INVALID_DEVICE_TYPE);
  CHECK_CL(st, clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, d, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clRetainDevice(d[0]), CL_SUCCESS);
  CHECK_CL(st, clReleaseDevice(d[0]), CL_SUCCESS);
}

#define DEV_UINT(param, want)                                                       \
  do {                                                                              \
    cl_uint v_ = 0;                                                                 \
    CHECK_CL(st, clGetDeviceInfo(d, param, sizeof v_, &v_, NULL), CL_SUCCESS);      \
    CHECK_EQ_U32(st, v_, want);                                                     \
  } while (0)
#define DEV_ULONG(param, want)                                                      \
  do {                                                                              \
    cl_ulong v_ = 0;                                                                \
    CHECK_CL(st, clGetDeviceInfo(d, param, sizeof v_, &v_, NULL), CL_SUCCESS);      \
    CHECK(st, v_ == (cl_ulong)(want));                                              \
  } while (0)
#define DEV_SIZE(param, want)                                                       \
  do {                                                                              \
    size_t v_ = 0;                                                                  \
    CHECK_CL(st, clGetDeviceInfo(d, param, sizeof v_, &v_, NULL), CL_SUCCESS);      \
    CHECK(st, v_ == (size_t)(want));                                                \
  } while (0)

static void device_string(check_state *st, cl_device_id d, cl_device_info what,
                          const char *want) {
  char buf[512] = "";
  CHECK_CL(st, clGetDeviceInfo(d, what, sizeof buf, buf, NULL), CL_SUCCESS);
  CHECK_STR(st, buf, want);
}

TEST(device_queries) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_device_id d = f.dev;
  device_string(st, d, CL_DEVICE_NAME, "Ventus GPGPU (vt simulator)");
  device_string(st, d, CL_DEVICE_VENDOR, "THU-DSP-LAB");
  device_string(st, d, CL_DEVICE_VERSION, "OpenCL 1.2 vt 0.1.0");
  device_string(st, d, CL_DEVICE_OPENCL_C_VERSION, "OpenCL C 1.2 vt");
  device_string(st, d, CL_DEVICE_PROFILE, PROFILE);
  device_string(st, d, CL_DEVICE_EXTENSIONS,
                "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
                "cl_khr_global_int32_extended_atomics" FP64);
  DEV_UINT(CL_DEVICE_MAX_COMPUTE_UNITS, 2);
  DEV_SIZE(CL_DEVICE_MAX_WORK_GROUP_SIZE, 8 * 32);
  DEV_ULONG(CL_DEVICE_LOCAL_MEM_SIZE, 128 * 1024 - 8 * 1024); /* minus 8 warp stacks */
  DEV_ULONG(CL_DEVICE_GLOBAL_MEM_SIZE, 0x100000000ull - 0x90000000ull);
  DEV_ULONG(CL_DEVICE_MAX_MEM_ALLOC_SIZE, (0x100000000ull - 0x90000000ull) / 4);
  DEV_UINT(CL_DEVICE_ADDRESS_BITS, 32);
  DEV_UINT(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, 3);
  DEV_UINT(CL_DEVICE_MAX_CLOCK_FREQUENCY, 1200);
  DEV_UINT(CL_DEVICE_MEM_BASE_ADDR_ALIGN, 1024);
  DEV_UINT(CL_DEVICE_COMPILER_AVAILABLE, HAVE_COMPILER);
  DEV_UINT(CL_DEVICE_LINKER_AVAILABLE, HAVE_COMPILER);
  DEV_UINT(CL_DEVICE_IMAGE_SUPPORT, CL_FALSE);
  DEV_UINT(CL_DEVICE_ENDIAN_LITTLE, CL_TRUE);
  DEV_ULONG(CL_DEVICE_TYPE, CL_DEVICE_TYPE_GPU);
  DEV_ULONG(CL_DEVICE_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE);
  DEV_SIZE(CL_DEVICE_PRINTF_BUFFER_SIZE, 1 << 20);
  size_t sizes[3] = {0, 0, 0}, n = 0;
  CHECK_CL(st, clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, &n),
           CL_SUCCESS);
  CHECK(st, n == sizeof sizes && sizes[0] == 256 && sizes[1] == 256 && sizes[2] == 256);
  cl_platform_id p = NULL;
  CHECK_CL(st, clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof p, &p, NULL), CL_SUCCESS);
  CHECK(st, p == f.platform);
  for (size_t i = 0; i < sizeof all_device_params / sizeof all_device_params[0]; i++) {
    size_t size = 9999;
    cl_int err = clGetDeviceInfo(d, all_device_params[i], 0, NULL, &size);
    if (err != CL_SUCCESS || size > 4096)
      fprintf(stderr, "device parameter 0x%x: %d, size %zu\n", all_device_params[i], err, size);
    CHECK(st, err == CL_SUCCESS && size <= 4096);
    uint8_t buf[4096];
    if (size) CHECK_CL(st, clGetDeviceInfo(d, all_device_params[i], size, buf, NULL), CL_SUCCESS);
    if (size) CHECK_CL(st, clGetDeviceInfo(d, all_device_params[i], size - 1, buf, NULL),
                       CL_INVALID_VALUE);
  }
  CHECK_CL(st, clGetDeviceInfo(d, 0x10ff, 0, NULL, &n), CL_INVALID_VALUE); /* 2.0 and later */
  CHECK_CL(st, clGetDeviceInfo((cl_device_id)f.ctx, CL_DEVICE_NAME, 0, NULL, &n),
           CL_INVALID_DEVICE); /* a context passed as a device */
  fx_close(&f);
}

TEST(contexts) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)f.platform, 0};
  cl_context c = clCreateContext(props, 1, &f.dev, NULL, NULL, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  cl_context_properties got[3] = {0, 0, 0};
  size_t n = 0;
  CHECK_CL(st, clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &n), CL_SUCCESS);
  CHECK(st, n == sizeof props && !memcmp(got, props, sizeof props));
  cl_uint u = 0;
  CHECK_CL(st, clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof u, &u, NULL), CL_SUCCESS);
  CHECK(st, u == 1);
  cl_device_id dev = NULL;
  CHECK_CL(st, clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL), CL_SUCCESS);
  CHECK(st, dev == f.dev);
  CHECK_CL(st, clRetainContext(c), CL_SUCCESS);
  CHECK_CL(st, clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
  CHECK(st, u == 2);
  CHECK_CL(st, clReleaseContext(c), CL_SUCCESS);
  CHECK_CL(st, clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
  CHECK(st, u == 1);
  CHECK_CL(st, clGetContextInfo(c, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clReleaseContext(c), CL_SUCCESS);
  c = clCreateContext(NULL, 0, &f.dev, NULL, NULL, &err);
  CHECK(st, !c && err == CL_INVALID_VALUE);
  c = clCreateContext(NULL, 1, NULL, NULL, NULL, &err);
  CHECK(st, !c && err == CL_INVALID_VALUE);
  c = clCreateContext(NULL, 1, &f.dev, NULL, &f, &err); /* user data without a callback */
  CHECK(st, !c && err == CL_INVALID_VALUE);
  cl_device_id bad = (cl_device_id)f.q;
  c = clCreateContext(NULL, 1, &bad, NULL, NULL, &err);
  CHECK(st, !c && err == CL_INVALID_DEVICE);
  cl_context_properties unknown[] = {0x7777, 1, 0};
  c = clCreateContext(unknown, 1, &f.dev, NULL, NULL, &err);
  CHECK(st, !c && err == CL_INVALID_PROPERTY);
  cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)f.platform,
                                   CL_CONTEXT_PLATFORM, (cl_context_properties)f.platform, 0};
  c = clCreateContext(twice, 1, &f.dev, NULL, NULL, &err);
  CHECK(st, !c && err == CL_INVALID_PROPERTY);
  c = clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  CHECK_CL(st, clReleaseContext(c), CL_SUCCESS);
  c = clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, NULL, &err);
  CHECK(st, !c && err == CL_DEVICE_NOT_FOUND);
  fx_close(&f);
}

TEST(queues) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(f.ctx, f.dev, 0, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  cl_command_queue_properties props = 99;
  CHECK_CL(st, clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL),
           CL_SUCCESS);
  CHECK(st, props == 0);
  cl_context c = NULL;
  cl_device_id d = NULL;
  CHECK_CL(st, clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL), CL_SUCCESS);
  CHECK(st, c == f.ctx && d == f.dev);
  CHECK_CL(st, clFlush(q), CL_SUCCESS);
  CHECK_CL(st, clFinish(q), CL_SUCCESS);
  CHECK_CL(st, clReleaseCommandQueue(q), CL_SUCCESS);
  q = clCreateCommandQueue(f.ctx, f.dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  CHECK(st, !q && err == CL_INVALID_QUEUE_PROPERTIES);
  q = clCreateCommandQueue(f.ctx, f.dev, (cl_command_queue_properties)1 << 20, &err);
  CHECK(st, !q && err == CL_INVALID_VALUE);
  q = clCreateCommandQueue(f.ctx, (cl_device_id)f.ctx, 0, &err);
  CHECK(st, !q && err == CL_INVALID_DEVICE);
  q = clCreateCommandQueue((cl_context)f.q, f.dev, 0, &err);
  CHECK(st, !q && err == CL_INVALID_CONTEXT);
  fx_close(&f);
}

/* NULL handles (the loader's checks) and handles of the wrong type (the
 * platform's type tags) give the code of the expected type, never a crash. */
TEST(invalid_handles) {
  fx f;
  if (fx_open(st, &f)) return;
  size_t n;
  cl_uint u;
  CHECK_CL(st, clRetainContext(NULL), CL_INVALID_CONTEXT);
  CHECK_CL(st, clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(st, clGetMemObjectInfo(NULL, CL_MEM_SIZE, 0, NULL, &n), CL_INVALID_MEM_OBJECT);
  CHECK_CL(st, clReleaseKernel(NULL), CL_INVALID_KERNEL);
  CHECK_CL(st, clReleaseProgram(NULL), CL_INVALID_PROGRAM);
  CHECK_CL(st, clReleaseEvent(NULL), CL_INVALID_EVENT);
  void *wrong = f.ctx; /* a context where other objects are expected */
  CHECK_CL(st, clRetainCommandQueue((cl_command_queue)wrong), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(st, clGetMemObjectInfo((cl_mem)wrong, CL_MEM_SIZE, 0, NULL, &n),
           CL_INVALID_MEM_OBJECT);
  CHECK_CL(st, clReleaseMemObject((cl_mem)wrong), CL_INVALID_MEM_OBJECT);
  CHECK_CL(st, clRetainProgram((cl_program)wrong), CL_INVALID_PROGRAM);
  CHECK_CL(st, clBuildProgram((cl_program)wrong, 0, NULL, NULL, NULL, NULL),
           CL_INVALID_PROGRAM);
  CHECK_CL(st, clGetKernelInfo((cl_kernel)wrong, CL_KERNEL_NUM_ARGS, sizeof u, &u, NULL),
           CL_INVALID_KERNEL);
  CHECK_CL(st, clSetKernelArg((cl_kernel)wrong, 0, 4, &u), CL_INVALID_KERNEL);
  CHECK_CL(st, clWaitForEvents(1, (cl_event *)&wrong), CL_INVALID_EVENT);
  CHECK_CL(st, clGetContextInfo((cl_context)f.q, CL_CONTEXT_NUM_DEVICES, sizeof u, &u, NULL),
           CL_INVALID_CONTEXT);
  CHECK_CL(st, clFinish((cl_command_queue)wrong), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(st, clEnqueueBarrier((cl_command_queue)wrong), CL_INVALID_COMMAND_QUEUE);
  char buf[4];
  CHECK_CL(st, clEnqueueReadBuffer(f.q, (cl_mem)wrong, CL_TRUE, 0, 4, buf, 0, NULL, NULL),
           CL_INVALID_MEM_OBJECT);
  cl_event ev = (cl_event)wrong;
  CHECK_CL(st, clEnqueueMarkerWithWaitList(f.q, 1, &ev, NULL), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_CL(st, clEnqueueMarkerWithWaitList(f.q, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_CL(st, clEnqueueMarker(f.q, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueWaitForEvents(f.q, 0, NULL), CL_INVALID_VALUE);
  fx_close(&f);
}

/* Images, samplers, native kernels, sub-devices, compiling and linking. */
TEST(unsupported_features) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err = 0;
  cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 4;
  CHECK(st, !clCreateImage(f.ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err));
  CHECK_CL(st, err, CL_INVALID_OPERATION);
  CHECK(st, !clCreateImage2D(f.ctx, CL_MEM_READ_WRITE, &fmt, 4, 4, 0, NULL, &err));
  CHECK_CL(st, err, CL_INVALID_OPERATION);
  cl_uint n = 99;
  CHECK_CL(st, clGetSupportedImageFormats(f.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                          NULL, &n),
           CL_SUCCESS);
  CHECK(st, n == 0);
  CHECK(st, !clCreateSampler(f.ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err));
  CHECK_CL(st, err, CL_INVALID_OPERATION);
  CHECK_CL(st, clEnqueueNativeKernel(f.q, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
           CL_INVALID_OPERATION);
  cl_device_partition_property pp[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id sub;
  CHECK_CL(st, clCreateSubDevices(f.dev, pp, 1, &sub, &n), CL_INVALID_VALUE);
  CHECK_CL(st, clUnloadPlatformCompiler(f.platform), CL_SUCCESS);
  CHECK(st, !clCreateProgramWithBuiltInKernels(f.ctx, 1, &f.dev, "k", &err));
  CHECK_CL(st, err, CL_INVALID_VALUE);
  fx_close(&f);
}

RUN_TESTS(T(platform_queries), T(device_ids), T(device_queries), T(contexts), T(queues),
          T(invalid_handles), T(unsupported_features))
