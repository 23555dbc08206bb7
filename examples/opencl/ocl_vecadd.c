/* ocl_vecadd: C = A + B through the standard OpenCL API, checked bit for bit
 * against the host; prints the kernel's profiled time.
 *
 * Usage: ocl_vecadd [--platform NAME] KERNEL [N [LOCAL]]
 *   KERNEL: vecadd.elf (`vt as` examples/kernels/vecadd.s) or vecadd.cl */
#include "ocl_util.h"

int main(int argc, char **argv) {
  const char *platform = ocl_platform_arg(&argc, &argv);
  if (argc < 2) {
    fprintf(stderr, "usage: ocl_vecadd [--platform NAME] KERNEL [N [LOCAL]]\n");
    return 2;
  }
  size_t n = argc > 2 ? strtoul(argv[2], NULL, 0) : 4096;
  size_t local = argc > 3 ? strtoul(argv[3], NULL, 0) : 0;
  ocl_env env;
  ocl_open(platform, &env);
  cl_program prog = ocl_program(&env, argv[1]);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "vecadd", &err);
  OCL_CHECK(err);
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  if (!a || !b || !c) return 1;
  srand(3);
  for (size_t i = 0; i < n; i++) {
    a[i] = (float)(rand() % 20001 - 10000) / 64.0f;
    b[i] = (float)(rand() % 20001 - 10000) / 16.0f;
  }
  cl_mem da = clCreateBuffer(env.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, a, &err);
  OCL_CHECK(err);
  cl_mem db = clCreateBuffer(env.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, b, &err);
  OCL_CHECK(err);
  cl_mem dc = clCreateBuffer(env.ctx, CL_MEM_WRITE_ONLY, n * 4, NULL, &err);
  OCL_CHECK(err);
  OCL_CHECK(clSetKernelArg(k, 0, sizeof da, &da));
  OCL_CHECK(clSetKernelArg(k, 1, sizeof db, &db));
  OCL_CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
  cl_event ev;
  OCL_CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &n, local ? &local : NULL, 0, NULL,
                                   &ev));
  OCL_CHECK(clEnqueueReadBuffer(env.queue, dc, CL_TRUE, 0, n * 4, c, 0, NULL, NULL));
  cl_ulong t0, t1;
  OCL_CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
  OCL_CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    float want = a[i] + b[i];
    if (memcmp(&want, &c[i], sizeof want) != 0 && bad++ < 5)
      fprintf(stderr, "C[%zu] = %g, expected %g\n", i, (double)c[i], (double)want);
  }
  printf("ocl_vecadd: %zu floats, kernel %llu ns: %s\n", n, (unsigned long long)(t1 - t0),
         bad ? "WRONG" : "verified (bit-exact)");
  clReleaseEvent(ev);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  ocl_close(&env);
  free(a);
  free(b);
  free(c);
  return bad ? 1 : 0;
}
