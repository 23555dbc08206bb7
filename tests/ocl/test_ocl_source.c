/* Programs from OpenCL C source through the ICD loader, compiled by vt cc
 * (docs/opencl.md "Programs from source"): the device reports a compiler,
 * a linker and the full profile; clBuildProgram with options, the build
 * log, rebuilding, the binary of a built program; kernel argument
 * information from the compiler; build errors with clang's diagnostics;
 * bad options; clCompileProgram with embedded headers and clLinkProgram
 * (objects and libraries). Expected values are computed here on the host.
 * Without vt's compiler (no LLVM 14) the program exits 77 (skipped). */
#include <math.h>

#include "ocl_test_util.h"

#ifdef VT_HAVE_CC
static cl_program from_source(check_state *st, fx *f, const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(f->ctx, 1, &src, NULL, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  return p;
}

static void build_log(fx *f, cl_program p, char *log, size_t n) {
  log[0] = 0;
  clGetProgramBuildInfo(p, f->dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
}

/* out[i] = a[i] * (i + 1) + SCALE through kernel 'k' of p, 64 items */
static void run_scale(check_state *st, fx *f, cl_program p, int scale) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  CHECK_CL(st, err, CL_SUCCESS);
  if (!k) return;
  int a[64], out[64];
  for (int i = 0; i < 64; i++) a[i] = 3 * i - 50;
  cl_mem A = clCreateBuffer(f->ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  cl_mem O = clCreateBuffer(f->ctx, 0, sizeof out, NULL, &err);
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof A, &A), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 1, sizeof O, &O), CL_SUCCESS);
  size_t g = 64, l = 16;
  CHECK_CL(st, clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f->q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
           CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < 64; i++) bad += out[i] != a[i] * (i + 1) + scale;
  CHECK(st, bad == 0);
  clReleaseMemObject(A);
  clReleaseMemObject(O);
  clReleaseKernel(k);
}

static const char scale_src[] =
    "kernel void k(global const int *a, global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a[i] * (int)(i + 1) + SCALE;\n"
    "}\n";

TEST(the_device_has_a_compiler_and_a_linker) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_bool c = CL_FALSE, l = CL_FALSE;
  CHECK_CL(st, clGetDeviceInfo(f.dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof c, &c, NULL),
           CL_SUCCESS);
  CHECK_CL(st, clGetDeviceInfo(f.dev, CL_DEVICE_LINKER_AVAILABLE, sizeof l, &l, NULL), CL_SUCCESS);
  CHECK(st, c == CL_TRUE && l == CL_TRUE);
  char s[64] = "";
  CHECK_CL(st, clGetDeviceInfo(f.dev, CL_DEVICE_PROFILE, sizeof s, s, NULL), CL_SUCCESS);
  CHECK_STR(st, s, "FULL_PROFILE");
  CHECK_CL(st, clGetPlatformInfo(f.platform, CL_PLATFORM_PROFILE, sizeof s, s, NULL), CL_SUCCESS);
  CHECK_STR(st, s, "FULL_PROFILE");
  fx_close(&f);
}

TEST(build_with_options_rebuild_and_binary) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = from_source(st, &f, scale_src);
  CHECK_CL(st,
           clBuildProgram(p, 1, &f.dev, "-D SCALE=7 -cl-mad-enable -cl-denorms-are-zero", NULL,
                          NULL),
           CL_SUCCESS);
  char log[4096];
  build_log(&f, p, log, sizeof log);
  CHECK_STR(st, log, ""); /* no diagnostics */
  cl_program_binary_type bt = 0;
  CHECK_CL(st, clGetProgramBuildInfo(p, f.dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
           CL_SUCCESS);
  CHECK(st, bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  run_scale(st, &f, p, 7);
  /* built again with another value: compiled again */
  CHECK_CL(st, clBuildProgram(p, 1, &f.dev, "-DSCALE=-2", NULL, NULL), CL_SUCCESS);
  run_scale(st, &f, p, -2);
  /* its binary is a kernel ELF that a new program builds from */
  size_t size = 0;
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL), CL_SUCCESS);
  unsigned char *bin = malloc(size ? size : 1);
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
  CHECK(st, size > 52 && bin && !memcmp(bin, "\177ELF", 4));
  cl_program q = program_from(st, &f, bin, size);
  if (q) run_scale(st, &f, q, -2);
  free(bin);
  if (q) clReleaseProgram(q);
  /* a warning is the build log of a successful build */
  cl_program w = from_source(st, &f, "kernel void k(global int *a) {\n  a[0] = 1.5f;\n}\n");
  CHECK_CL(st, clBuildProgram(w, 1, &f.dev, NULL, NULL, NULL), CL_SUCCESS);
  build_log(&f, w, log, sizeof log);
  CHECK_HAS(st, log, "program.cl:2:10: warning: implicit conversion from 'float' to 'int'");
  CHECK_CL(st, clBuildProgram(w, 1, &f.dev, "-Werror", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  clReleaseProgram(w);
  clReleaseProgram(p);
  const char *none[1] = {NULL};
  cl_int err;
  CHECK(st, !clCreateProgramWithSource(f.ctx, 0, none, NULL, &err) && err == CL_INVALID_VALUE);
  CHECK(st, !clCreateProgramWithSource(f.ctx, 1, none, NULL, &err) && err == CL_INVALID_VALUE);
  fx_close(&f);
}

static void check_arg(check_state *st, cl_kernel k, cl_uint i,
                      cl_kernel_arg_address_qualifier space, cl_kernel_arg_type_qualifier quals,
                      const char *type, const char *name) {
  cl_kernel_arg_address_qualifier a = 0;
  cl_kernel_arg_access_qualifier acc = 0;
  cl_kernel_arg_type_qualifier q = 99;
  char t[64] = "", nm[64] = "";
  CHECK_CL(st, clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof a, &a, NULL),
           CL_SUCCESS);
  CHECK_CL(st, clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL),
           CL_SUCCESS);
  CHECK_CL(st, clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof t, t, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof q, &q, NULL),
           CL_SUCCESS);
  CHECK_CL(st, clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof nm, nm, NULL), CL_SUCCESS);
  CHECK(st, a == space && acc == CL_KERNEL_ARG_ACCESS_NONE && q == quals);
  CHECK_STR(st, t, type);
  CHECK_STR(st, nm, name);
}

TEST(kernel_argument_information_from_the_compiler) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = from_source(
      st, &f,
      "kernel void first(global const float *restrict src, local float *tmp, int n,\n"
      "                  constant uint *table, volatile global int *flag, float4 v) {\n"
      "  tmp[0] = src[0] + n + table[0] + v.y; flag[0] = (int)tmp[0];\n}\n"
      "kernel void second(void) {}\n");
  CHECK_CL(st, clBuildProgram(p, 0, NULL, "", NULL, NULL), CL_SUCCESS);
  cl_uint nk = 0;
  size_t nks = 0;
  char names[64] = "";
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nks, &nks, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
           CL_SUCCESS);
  CHECK(st, nks == 2);
  CHECK_STR(st, names, "first;second");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "first", &err);
  CHECK_CL(st, err, CL_SUCCESS);
  CHECK_CL(st, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nk, &nk, NULL), CL_SUCCESS);
  CHECK(st, nk == 6);
  check_arg(st, k, 0, CL_KERNEL_ARG_ADDRESS_GLOBAL,
            CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT, "float*", "src");
  check_arg(st, k, 1, CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE, "float*", "tmp");
  check_arg(st, k, 2, CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE, "int", "n");
  check_arg(st, k, 3, CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST, "uint*", "table");
  check_arg(st, k, 4, CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_VOLATILE, "int*", "flag");
  check_arg(st, k, 5, CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE, "float4", "v");
  /* clSetKernelArg checks the section's sizes */
  cl_int n = 3;
  cl_long wide = 3;
  cl_float4 v = {{1, 2, 3, 4}};
  CHECK_CL(st, clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 2, sizeof wide, &wide), CL_INVALID_ARG_SIZE);
  CHECK_CL(st, clSetKernelArg(k, 5, sizeof v, &v), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 1, 64, NULL), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 6, sizeof n, &n), CL_INVALID_ARG_INDEX);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&f);
}

TEST(a_build_error_gives_clangs_diagnostic) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = from_source(st, &f,
                             "kernel void k(global int *a) {\n"
                             "  a[0] = undefined_thing;\n}\n");
  CHECK_CL(st, clBuildProgram(p, 1, &f.dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  cl_build_status bs = 0;
  CHECK_CL(st, clGetProgramBuildInfo(p, f.dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL),
           CL_SUCCESS);
  CHECK(st, bs == CL_BUILD_ERROR);
  char log[4096];
  build_log(&f, p, log, sizeof log);
  CHECK_HAS(st, log, "program.cl:2:10: error: use of undeclared identifier 'undefined_thing'");
  CHECK_HAS(st, f.notes.text, "clBuildProgram: program.cl:2:10: error:");
  cl_int err;
  CHECK(st, !clCreateKernel(p, "k", &err) && err == CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program_binary_type bt = 99;
  CHECK_CL(st, clGetProgramBuildInfo(p, f.dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
           CL_SUCCESS);
  CHECK(st, bt == CL_PROGRAM_BINARY_TYPE_NONE);
  /* what vt cc refuses is a build failure too, with its message */
  cl_program d = from_source(st, &f, "kernel void k(global int *a) { a[0] = 1; }\n");
  CHECK_CL(st, clBuildProgram(d, 1, &f.dev, "-cl-std=CL2.0", NULL, NULL),
           CL_BUILD_PROGRAM_FAILURE);
  build_log(&f, d, log, sizeof log);
  CHECK_HAS(st, log, "-cl-std=CL2.0 is not supported");
  /* an option clBuildProgram does not know */
  CHECK_CL(st, clBuildProgram(d, 1, &f.dev, "-cl-nonsense", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  build_log(&f, d, log, sizeof log);
  CHECK_HAS(st, log, "unknown build option: -cl-nonsense");
  CHECK_CL(st, clBuildProgram(d, 1, &f.dev, "-D 'X=1", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(d);
  clReleaseProgram(p);
  fx_close(&f);
}

TEST(separate_compilation_and_linking) {
  fx f;
  if (fx_open(st, &f)) return;
  /* the kernel's unit includes an embedded header and calls a function
   * the other unit defines */
  cl_program hdr = from_source(st, &f, "#define OFFSET (SCALE - 1)\nint helper(int x);\n");
  cl_program a = from_source(st, &f,
                             "#include \"inc/common.h\"\n"
                             "kernel void k(global const int *a, global int *out) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  out[i] = helper(a[i] * (int)(i + 1)) + OFFSET;\n}\n");
  cl_program b = from_source(st, &f, "int helper(int x) { return x + BIAS; }\n");
  const char *names[1] = {"inc/common.h"};
  CHECK_CL(st, clCompileProgram(a, 1, &f.dev, "-DSCALE=10", 1, &hdr, names, NULL, NULL),
           CL_SUCCESS);
  CHECK_CL(st, clCompileProgram(b, 0, NULL, "-D BIAS=1 -O3", 0, NULL, NULL, NULL, NULL),
           CL_SUCCESS);
  cl_program_binary_type bt = 0;
  CHECK_CL(st, clGetProgramBuildInfo(a, f.dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
           CL_SUCCESS);
  CHECK(st, bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_int err;
  cl_program in[2] = {a, b};
  cl_program exe = clLinkProgram(f.ctx, 1, &f.dev, "", 2, in, NULL, NULL, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  if (exe) run_scale(st, &f, exe, 10); /* helper adds 1, OFFSET is 9 */
  /* the helper's unit as a library, linked with the kernel's object */
  cl_program lib = clLinkProgram(f.ctx, 0, NULL, "-create-library", 1, &b, NULL, NULL, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  CHECK_CL(st, clGetProgramBuildInfo(lib, f.dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
           CL_SUCCESS);
  CHECK(st, bt == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program in2[2] = {a, lib};
  cl_program exe2 =
      clLinkProgram(f.ctx, 0, NULL, "-cl-fast-relaxed-math", 2, in2, NULL, NULL, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  if (exe2) run_scale(st, &f, exe2, 10);
  /* errors: a compile error, a missing function at link time, an input
   * that is not compiled, bad options */
  cl_program bad = from_source(st, &f, "int helper(int x) { return x + ; }\n");
  CHECK_CL(st, clCompileProgram(bad, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
           CL_COMPILE_PROGRAM_FAILURE);
  char log[4096];
  build_log(&f, bad, log, sizeof log);
  CHECK_HAS(st, log, "program.cl:1:32: error: expected expression");
  cl_program alone = clLinkProgram(f.ctx, 0, NULL, NULL, 1, &a, NULL, NULL, &err);
  CHECK_CL(st, err, CL_LINK_PROGRAM_FAILURE);
  CHECK(st, alone != NULL);
  if (alone) {
    build_log(&f, alone, log, sizeof log);
    CHECK_HAS(st, log, "call to undefined function 'helper'");
    clReleaseProgram(alone);
  }
  cl_program raw = from_source(st, &f, "int x;\n");
  CHECK(st, !clLinkProgram(f.ctx, 0, NULL, NULL, 1, &raw, NULL, NULL, &err) &&
                err == CL_INVALID_OPERATION);
  CHECK(st, !clLinkProgram(f.ctx, 0, NULL, "-D X", 1, &a, NULL, NULL, &err) &&
                err == CL_INVALID_LINKER_OPTIONS);
  CHECK_CL(st, clCompileProgram(b, 0, NULL, "-cl-nonsense", 0, NULL, NULL, NULL, NULL),
           CL_INVALID_COMPILER_OPTIONS);
  CHECK_CL(st, clCompileProgram(a, 0, NULL, NULL, 1, &hdr, NULL, NULL, NULL), CL_INVALID_VALUE);
  cl_program progs[] = {hdr, a, b, exe, lib, exe2, bad, raw};
  for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++)
    if (progs[i]) clReleaseProgram(progs[i]);
  fx_close(&f);
}

/* cl_khr_fp64: a double kernel with the extension pragma, a double
 * argument, and the double a host computes */
TEST(double_precision_kernels) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = from_source(st, &f,
                             "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                             "kernel void k(global const double *a, global double *out, double s) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  double q = a[i] / s;\n"
                             "  out[i] = sqrt(q);\n"
                             "}\n");
  CHECK_CL(st, clBuildProgram(p, 1, &f.dev, NULL, NULL, NULL), CL_SUCCESS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  CHECK_CL(st, err, CL_SUCCESS);
  double a[32], out[32], s = 3.0;
  for (int i = 0; i < 32; i++) a[i] = i * 1.25 + 0.1;
  cl_mem A = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  cl_mem O = clCreateBuffer(f.ctx, 0, sizeof out, NULL, &err);
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof A, &A), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 1, sizeof O, &O), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 2, sizeof s, &s), CL_SUCCESS);
  size_t g = 32, l = 8;
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < 32; i++) bad += memcmp(&out[i], &(double){sqrt(a[i] / s)}, 8) != 0;
  CHECK(st, bad == 0);
  cl_device_fp_config fp = 0;
  CHECK_CL(st, clGetDeviceInfo(f.dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL), CL_SUCCESS);
  CHECK(st, (fp & (CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM)) ==
                (CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM));
  clReleaseMemObject(A);
  clReleaseMemObject(O);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&f);
}

RUN_TESTS(T(the_device_has_a_compiler_and_a_linker), T(build_with_options_rebuild_and_binary),
          T(kernel_argument_information_from_the_compiler),
          T(a_build_error_gives_clangs_diagnostic),
          T(separate_compilation_and_linking), T(double_precision_kernels))
#else
int main(void) {
  printf("SKIP: vt was built without the compiler (LLVM 14 not found)\n");
  return VT_TEST_SKIPPED;
}
#endif
