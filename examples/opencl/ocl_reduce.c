/* ocl_reduce: the sum of N ints with the barrier-based tree reduction (a
 * __local scratch argument) through the standard OpenCL API: one partial sum
 * per workgroup, checked against the host, then added on the host.
 *
 * Usage: ocl_reduce [--platform NAME] KERNEL [N [L]]
 *   KERNEL: reduce.elf (`vt as` examples/kernels/reduce.s) or
 *           examples/opencl/kernels/reduce.cl; L a power of two dividing N */
#include "ocl_util.h"

int main(int argc, char **argv) {
  const char *platform = ocl_platform_arg(&argc, &argv);
  if (argc < 2) {
    fprintf(stderr, "usage: ocl_reduce [--platform NAME] KERNEL [N [L]]\n");
    return 2;
  }
  size_t n = argc > 2 ? strtoul(argv[2], NULL, 0) : 4096;
  size_t l = argc > 3 ? strtoul(argv[3], NULL, 0) : 128;
  if (!n || !l || (l & (l - 1)) || n % l) {
    fprintf(stderr, "ocl_reduce: L must be a power of two dividing N\n");
    return 2;
  }
  ocl_env env;
  ocl_open(platform, &env);
  cl_program prog = ocl_program(&env, argv[1]);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "reduce", &err);
  OCL_CHECK(err);
  size_t groups = n / l;
  cl_uint *in = malloc(4 * n), *part = malloc(4 * groups);
  if (!in || !part) return 1;
  srand(11);
  for (size_t i = 0; i < n; i++) in[i] = (cl_uint)rand() * 2654435761u;
  cl_mem din = clCreateBuffer(env.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4 * n, in, &err);
  OCL_CHECK(err);
  cl_mem dpart = clCreateBuffer(env.ctx, CL_MEM_WRITE_ONLY, 4 * groups, NULL, &err);
  OCL_CHECK(err);
  OCL_CHECK(clSetKernelArg(k, 0, sizeof din, &din));
  OCL_CHECK(clSetKernelArg(k, 1, sizeof dpart, &dpart));
  OCL_CHECK(clSetKernelArg(k, 2, 8 * l, NULL));
  OCL_CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &n, &l, 0, NULL, NULL));
  OCL_CHECK(clFinish(env.queue));
  OCL_CHECK(clEnqueueReadBuffer(env.queue, dpart, CL_TRUE, 0, 4 * groups, part, 0, NULL, NULL));
  size_t bad = 0;
  cl_uint total = 0, want = 0;
  for (size_t g = 0; g < groups; g++) {
    cl_uint s = 0;
    for (size_t i = 0; i < l; i++) s += in[g * l + i];
    if (part[g] != s && bad++ < 5)
      fprintf(stderr, "partial[%zu] = 0x%08x, expected 0x%08x\n", g, part[g], s);
    total += part[g];
    want += s;
  }
  printf("ocl_reduce: %zu ints in %zu workgroups of %zu: sum 0x%08x %s\n", n, groups, l, total,
         bad || total != want ? "WRONG" : "verified");
  clReleaseMemObject(din);
  clReleaseMemObject(dpart);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  ocl_close(&env);
  free(in);
  free(part);
  return bad || total != want ? 1 : 0;
}
