/* Kernel profiling times with the timing model (VT_TIMING=1, set before
 * the platform is first used): END - START of a launch is its simulated
 * cycles at the device clock (1200 MHz: ns = cycles * 1000 / 1200). The
 * cycles are those of the same launch run directly on the runtime
 * (vt_rt_timing_cycles) with the same buffers in the same order. */
#include <stdlib.h>

#include "ocl_test_util.h"
#include "vt_runtime.h"

enum { N = 256 };

static uint64_t runtime_cycles(check_state *st, const uint8_t *elf, size_t size,
                               const float *a, const float *b) {
  vt_rt *rt;
  char msg[256];
  if (vt_rt_create(NULL, &rt, msg, sizeof msg) != 0) {
    CHECK(st, 0);
    return 0;
  }
  uint32_t da = 0, db = 0, dc = 0;
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  uint64_t cycles = 0;
  int timed = 0;
  vt_rt_ndrange nd = {.dims = 1, .global = {N}, .local = {64}};
  int rc = vt_rt_alloc(rt, 4 * N, &da) | vt_rt_alloc(rt, 4 * N, &db) |
           vt_rt_alloc(rt, 4 * N, &dc) | vt_rt_write(rt, da, a, 4 * N) |
           vt_rt_write(rt, db, b, 4 * N) | vt_rt_program_load_mem(rt, elf, size, "p", &p);
  if (rc == 0) rc = vt_rt_kernel_create(p, "vecadd", &k);
  if (rc == 0)
    rc = vt_rt_kernel_set_num_args(k, 3) | vt_rt_set_arg_buffer(k, 0, da, 0) |
         vt_rt_set_arg_buffer(k, 1, db, 0) | vt_rt_set_arg_buffer(k, 2, dc, 0) |
         vt_rt_launch(k, &nd, NULL) | vt_rt_timing_cycles(rt, &cycles, &timed);
  CHECK(st, rc == 0 && timed == 1 && cycles > 0);
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  vt_rt_destroy(rt);
  return cycles;
}

TEST(kernel_times_are_simulated_cycles) {
  setenv("VT_TIMING", "1", 1);
  fx f;
  if (fx_open(st, &f)) return;
  static const char *const files[] = {KDIR "vecadd.s", NULL};
  size_t size;
  uint8_t *elf = assemble(&size, NULL, files);
  float a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = (float)(3 * i);
  cl_program p = program_from(st, &f, elf, size);
  cl_int err;
  cl_kernel k = p ? clCreateKernel(p, "vecadd", &err) : NULL;
  cl_mem da = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  cl_mem db = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
  cl_mem dc = clCreateBuffer(f.ctx, 0, sizeof a, NULL, &err);
  clSetKernelArg(k, 0, sizeof da, &da);
  clSetKernelArg(k, 1, sizeof db, &db);
  clSetKernelArg(k, 2, sizeof dc, &dc);
  size_t g = N, l = 64;
  cl_event ev;
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g, &l, 0, NULL, &ev), CL_SUCCESS);
  CHECK_CL(st, clWaitForEvents(1, &ev), CL_SUCCESS);
  cl_ulong t0 = 0, t1 = 0;
  CHECK_CL(st, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL),
           CL_SUCCESS);
  CHECK_CL(st, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL),
           CL_SUCCESS);
  uint64_t cycles = runtime_cycles(st, elf, size, a, b);
  CHECK(st, cycles > 0 && t1 - t0 == cycles * 1000 / 1200);
  if (t1 - t0 != cycles * 1000 / 1200)
    fprintf(stderr, "END - START = %llu ns, %llu cycles\n", (unsigned long long)(t1 - t0),
            (unsigned long long)cycles);
  clReleaseEvent(ev);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  clReleaseProgram(p);
  free(elf);
  fx_close(&f);
}

RUN_TESTS(T(kernel_times_are_simulated_cycles))
