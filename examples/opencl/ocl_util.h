/* Helpers shared by the OpenCL example programs (plain OpenCL 1.2 API, any
 * platform): pick a platform by name, open a context and a profiling queue
 * on its first device, make a program from a kernel file (a `.cl` file is
 * OpenCL C source, anything else a binary such as a `vt as` ELF), and
 * report errors by name. */
#ifndef VT_OCL_UTIL_H
#define VT_OCL_UTIL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ocl_error_name(cl_int e) {
  switch (e) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_BINARY) E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT)
    E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_COMPILER_NOT_AVAILABLE)
#undef E
  default: return "an OpenCL error";
  }
}

#define OCL_CHECK(call)                                                                  \
  do {                                                                                   \
    cl_int e_ = (call);                                                                  \
    if (e_ != CL_SUCCESS) {                                                              \
      fprintf(stderr, "%s:%d: %s: %s (%d)\n", __FILE__, __LINE__, #call,                 \
              ocl_error_name(e_), e_);                                                   \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

typedef struct ocl_env {
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue queue;
} ocl_env;

/* The first platform whose name contains 'name' (NULL: the first one). */
static void ocl_open(const char *name, ocl_env *env) {
  cl_platform_id ps[16];
  cl_uint n = 0;
  OCL_CHECK(clGetPlatformIDs(16, ps, &n));
  env->platform = NULL;
  for (cl_uint i = 0; i < n && !env->platform; i++) {
    char pname[256] = "";
    OCL_CHECK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL));
    if (!name || strstr(pname, name)) env->platform = ps[i];
  }
  if (!env->platform) {
    fprintf(stderr, "no OpenCL platform named '%s'\n", name);
    exit(1);
  }
  cl_int err;
  OCL_CHECK(clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_ALL, 1, &env->device, NULL));
  env->ctx = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  OCL_CHECK(err);
  env->queue = clCreateCommandQueue(env->ctx, env->device, CL_QUEUE_PROFILING_ENABLE, &err);
  OCL_CHECK(err);
}

static void ocl_close(ocl_env *env) {
  clReleaseCommandQueue(env->queue);
  clReleaseContext(env->ctx);
}

/* Builds the program in 'path'; on failure prints the build log. */
static cl_program ocl_program(ocl_env *env, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  unsigned char *data = malloc((size_t)n + 1);
  if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "%s: cannot read\n", path);
    exit(1);
  }
  fclose(f);
  data[n] = 0;
  cl_int err;
  size_t len = (size_t)n;
  size_t plen = strlen(path);
  cl_program p;
  if (plen > 3 && !strcmp(path + plen - 3, ".cl"))
    p = clCreateProgramWithSource(env->ctx, 1, (const char **)&data, &len, &err);
  else
    p = clCreateProgramWithBinary(env->ctx, 1, &env->device, &len,
                                  (const unsigned char **)&data, NULL, &err);
  OCL_CHECK(err);
  free(data);
  err = clBuildProgram(p, 1, &env->device, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "%s: clBuildProgram: %s\n%s\n", path, ocl_error_name(err), log);
    exit(1);
  }
  return p;
}

/* "--platform NAME" in front of the other arguments */
static const char *ocl_platform_arg(int *argc, char ***argv) {
  if (*argc > 2 && !strcmp((*argv)[1], "--platform")) {
    const char *name = (*argv)[2];
    *argc -= 2;
    *argv += 2;
    return name;
  }
  return NULL;
}
#endif
