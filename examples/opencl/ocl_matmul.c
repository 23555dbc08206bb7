/* ocl_matmul: C = A * B with the tiled kernel (two __local tiles, barriers)
 * through the standard OpenCL API, checked bit for bit against the same
 * float operations on the host. With --dump it prints C as hex words, one
 * row per line, so that two platforms' results can be compared.
 *
 * Usage: ocl_matmul [--platform NAME] KERNEL [M N K TS] [--dump]
 *   KERNEL: matmul.elf (`vt as` examples/kernels/matmul.s) or
 *           examples/opencl/kernels/matmul.cl; M, N, K multiples of TS */
#include "ocl_util.h"

static void fill(float *x, size_t n, float scale) {
  for (size_t i = 0; i < n; i++) x[i] = (float)(rand() % 2001 - 1000) / scale;
}

int main(int argc, char **argv) {
  const char *platform = ocl_platform_arg(&argc, &argv);
  int dump = argc > 1 && !strcmp(argv[argc - 1], "--dump");
  argc -= dump;
  if (argc < 2) {
    fprintf(stderr, "usage: ocl_matmul [--platform NAME] KERNEL [M N K TS] [--dump]\n");
    return 2;
  }
  cl_int m = argc > 2 ? atoi(argv[2]) : 32, n = argc > 3 ? atoi(argv[3]) : 32;
  cl_int kk = argc > 4 ? atoi(argv[4]) : 32, ts = argc > 5 ? atoi(argv[5]) : 8;
  if (m <= 0 || n <= 0 || kk <= 0 || ts <= 0 || m % ts || n % ts || kk % ts) {
    fprintf(stderr, "ocl_matmul: M, N, K must be multiples of TS\n");
    return 2;
  }
  ocl_env env;
  ocl_open(platform, &env);
  cl_program prog = ocl_program(&env, argv[1]);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "matmul", &err);
  OCL_CHECK(err);
  size_t na = (size_t)m * kk, nb = (size_t)kk * n, nc = (size_t)m * n;
  float *a = malloc(na * 4), *b = malloc(nb * 4), *c = malloc(nc * 4);
  if (!a || !b || !c) return 1;
  srand(7);
  fill(a, na, 256.0f);
  fill(b, nb, 128.0f);
  cl_mem da = clCreateBuffer(env.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, na * 4, a, &err);
  OCL_CHECK(err);
  cl_mem db = clCreateBuffer(env.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nb * 4, b, &err);
  OCL_CHECK(err);
  cl_mem dc = clCreateBuffer(env.ctx, CL_MEM_WRITE_ONLY, nc * 4, NULL, &err);
  OCL_CHECK(err);
  size_t tile = sizeof(float) * (size_t)ts * (size_t)ts;
  OCL_CHECK(clSetKernelArg(k, 0, sizeof da, &da));
  OCL_CHECK(clSetKernelArg(k, 1, sizeof db, &db));
  OCL_CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
  OCL_CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  OCL_CHECK(clSetKernelArg(k, 4, sizeof kk, &kk));
  OCL_CHECK(clSetKernelArg(k, 5, tile, NULL));
  OCL_CHECK(clSetKernelArg(k, 6, tile, NULL));
  size_t global[2] = {(size_t)n, (size_t)m}, local[2] = {(size_t)ts, (size_t)ts};
  OCL_CHECK(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, global, local, 0, NULL, NULL));
  OCL_CHECK(clEnqueueReadBuffer(env.queue, dc, CL_TRUE, 0, nc * 4, c, 0, NULL, NULL));
  size_t bad = 0;
  for (cl_int r = 0; r < m; r++)
    for (cl_int col = 0; col < n; col++) {
      float acc = 0.0f;
      for (cl_int i = 0; i < kk; i++) {
        float prod = a[(size_t)r * kk + i] * b[(size_t)i * n + col];
        acc = acc + prod;
      }
      if (memcmp(&acc, &c[(size_t)r * n + col], 4) != 0 && bad++ < 5)
        fprintf(stderr, "C[%d][%d] = %g, expected %g\n", r, col, (double)c[(size_t)r * n + col],
                (double)acc);
    }
  if (dump)
    for (cl_int r = 0; r < m; r++)
      for (cl_int col = 0; col < n; col++) {
        uint32_t w;
        memcpy(&w, &c[(size_t)r * n + col], 4);
        printf("%08x%c", (unsigned)w, col + 1 == n ? '\n' : ' ');
      }
  printf("ocl_matmul: %dx%d = %dx%d * %dx%d, tiles %dx%d: %s\n", m, n, m, kk, kk, n, ts, ts,
         bad ? "WRONG" : "verified (bit-exact)");
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
