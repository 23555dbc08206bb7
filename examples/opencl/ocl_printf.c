/* ocl_printf: the hello kernel (examples/kernels/hello.s: out[i] = gid^2 and
 * device printf through vtprintf.s) through the standard OpenCL API. What
 * the kernel prints appears on standard output by the time clFinish
 * returns; the program checks the results and ends with its own line
 * (tests/scripts/ocl_printf_test.sh checks the printed lines).
 *
 * Usage: ocl_printf [--platform NAME] KERNEL [N [LOCAL]] */
#include "ocl_util.h"

int main(int argc, char **argv) {
  const char *platform = ocl_platform_arg(&argc, &argv);
  if (argc < 2) {
    fprintf(stderr, "usage: ocl_printf [--platform NAME] KERNEL [N [LOCAL]]\n");
    return 2;
  }
  size_t n = argc > 2 ? strtoul(argv[2], NULL, 0) : 16;
  size_t local = argc > 3 ? strtoul(argv[3], NULL, 0) : 8;
  ocl_env env;
  ocl_open(platform, &env);
  cl_program prog = ocl_program(&env, argv[1]);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "hello", &err);
  OCL_CHECK(err);
  cl_mem dout = clCreateBuffer(env.ctx, CL_MEM_WRITE_ONLY, 4 * n, NULL, &err);
  OCL_CHECK(err);
  OCL_CHECK(clSetKernelArg(k, 0, sizeof dout, &dout));
  fflush(stdout); /* the device's lines follow what the host printed */
  OCL_CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &n, &local, 0, NULL, NULL));
  OCL_CHECK(clFinish(env.queue));
  cl_int *out = malloc(4 * n);
  if (!out) return 1;
  OCL_CHECK(clEnqueueReadBuffer(env.queue, dout, CL_TRUE, 0, 4 * n, out, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++)
    if (out[i] != (cl_int)(i * i) && bad++ < 5)
      fprintf(stderr, "out[%zu] = %d, expected %zu\n", i, out[i], i * i);
  printf("ocl_printf: %zu work-items in workgroups of %zu: results %s\n", n, local,
         bad ? "WRONG" : "verified");
  clReleaseMemObject(dout);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  ocl_close(&env);
  free(out);
  return bad ? 1 : 0;
}
