/* Programs and kernels of the vt OpenCL platform: source programs without
 * a compiler, binaries (checks at creation and build, build logs),
 * program queries, kernel argument information from .vt.kernel_args,
 * clSetKernelArg and launch checks, 1-3-D NDRanges with offsets and
 * default local sizes, argument snapshots, traps, printf, and programs
 * without argument information (derived argument counts). Kernels:
 * the examples in examples/kernels (with directives) and tests/kernels/runtime.s
 * (without); expected results are computed on the host. */
#include <fcntl.h>
#include <unistd.h>

#include "ocl_test_util.h"
#include "vt/elf.h"

static const char *const examples[] = {KDIR "vecadd.s", KDIR "matmul.s", KDIR "reduce.s", NULL};
static const char *const runtime_kernels[] = {VT_SOURCE_DIR "/tests/kernels/runtime.s",
                                              KDIR "vtprintf.s", NULL};

static cl_kernel kernel(check_state *st, cl_program p, const char *name) {
  cl_int err = CL_INVALID_PROGRAM;
  cl_kernel k = p ? clCreateKernel(p, name, &err) : NULL;
  CHECK_CL(st, err, CL_SUCCESS);
  return k;
}

#ifndef VT_HAVE_CC /* with vt's compiler: test_ocl_source.c */
TEST(source_programs_need_a_compiler) {
  fx f;
  if (fx_open(st, &f)) return;
  const char *src[2] = {"kernel void k(global int *p) ", "{ p[0] = 1; }"};
  cl_int err;
  cl_program p = clCreateProgramWithSource(f.ctx, 2, src, NULL, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  char text[256] = "";
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof text, text, NULL), CL_SUCCESS);
  CHECK_STR(st, text, "kernel void k(global int *p) { p[0] = 1; }");
  CHECK_CL(st, clBuildProgram(p, 1, &f.dev, "-cl-std=CL1.2", NULL, NULL),
           CL_COMPILER_NOT_AVAILABLE);
  cl_build_status bs = 0;
  CHECK_CL(st, clGetProgramBuildInfo(p, f.dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL),
           CL_SUCCESS);
  CHECK(st, bs == CL_BUILD_ERROR);
  char log[1024] = "";
  CHECK_CL(st, clGetProgramBuildInfo(p, f.dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
           CL_SUCCESS);
  CHECK_HAS(st, log, "no OpenCL C compiler is available: vt was built without LLVM 14");
  CHECK_HAS(st, log, "clCreateProgramWithBinary");
  CHECK_HAS(st, f.notes.text, "clBuildProgram: vt: no OpenCL C compiler");
  CHECK_CL(st, clGetProgramBuildInfo(p, f.dev, CL_PROGRAM_BUILD_OPTIONS, sizeof text, text, NULL),
           CL_SUCCESS);
  CHECK_STR(st, text, "-cl-std=CL1.2");
  cl_program_binary_type bt = 99;
  CHECK_CL(st, clGetProgramBuildInfo(p, f.dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
           CL_SUCCESS);
  CHECK(st, bt == CL_PROGRAM_BINARY_TYPE_NONE);
  CHECK(st, !clCreateKernel(p, "k", &err) && err == CL_INVALID_PROGRAM_EXECUTABLE);
  size_t n;
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL),
           CL_INVALID_PROGRAM_EXECUTABLE);
  CHECK_CL(st, clCompileProgram(p, 0, NULL, "", 0, NULL, NULL, NULL, NULL),
           CL_COMPILER_NOT_AVAILABLE);
  CHECK(st, !clLinkProgram(f.ctx, 0, NULL, "", 1, &p, NULL, NULL, &err) &&
                err == CL_LINKER_NOT_AVAILABLE);
  clReleaseProgram(p);
  CHECK(st, !clCreateProgramWithSource(f.ctx, 0, src, NULL, &err) && err == CL_INVALID_VALUE);
  const char *null_src[1] = {NULL};
  CHECK(st, !clCreateProgramWithSource(f.ctx, 1, null_src, NULL, &err) && err == CL_INVALID_VALUE);
  fx_close(&f);
}
#endif

/* Overwrite the magic of the ELF's .vt.kernel_args section. */
static void spoil_kargs(uint8_t *elf, size_t size) {
  vt_elf *e = NULL;
  char msg[128];
  if (vt_elf_open_mem(elf, size, &e, msg, sizeof msg) != 0) return;
  const vt_elf_section *s = vt_elf_section_by_name(e, ".vt.kernel_args");
  if (s) elf[s->offset] = 'X';
  vt_elf_free(e);
}

static void build_fails(check_state *st, fx *f, const uint8_t *elf, size_t size,
                        const char *needle) {
  cl_int err;
  cl_program p = clCreateProgramWithBinary(f->ctx, 1, &f->dev, &size, &elf, NULL, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  CHECK_CL(st, clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char log[1024] = "";
  clGetProgramBuildInfo(p, f->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  CHECK_HAS(st, log, needle);
  clReleaseProgram(p);
}

TEST(binary_checks) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err, status = 99;
  const unsigned char junk[64] = "not an ELF";
  const unsigned char *bin = junk;
  size_t len = sizeof junk;
  CHECK(st, !clCreateProgramWithBinary(f.ctx, 1, &f.dev, &len, &bin, &status, &err));
  CHECK(st, err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
  len = 0;
  CHECK(st, !clCreateProgramWithBinary(f.ctx, 1, &f.dev, &len, &bin, &status, &err));
  CHECK(st, err == CL_INVALID_VALUE && status == CL_INVALID_VALUE);
  len = sizeof junk;
  CHECK(st, !clCreateProgramWithBinary(f.ctx, 0, &f.dev, &len, &bin, NULL, &err) &&
                err == CL_INVALID_VALUE);
  cl_device_id notdev = (cl_device_id)f.ctx;
  CHECK(st, !clCreateProgramWithBinary(f.ctx, 1, &notdev, &len, &bin, NULL, &err) &&
                err == CL_INVALID_DEVICE);
  /* a loadable-looking ELF whose entry is not 0x80000000 */
  vt_asm_options o = {0x80001000u, NULL};
  vt_asm *as = vt_asm_new(&o);
  uint8_t *elf = NULL;
  size_t size = 0;
  vt_asm_add_file(as, KDIR "crt0.s");
  vt_asm_add_file(as, KDIR "vecadd.s");
  CHECK(st, vt_asm_link(as, &elf, &size) == 0);
  vt_asm_free(as);
  if (elf) build_fails(st, &f, elf, size, "the entry point is not 0x80000000");
  free(elf);
  /* a malformed argument section, and one naming the start-up code */
  elf = assemble(&size, NULL, examples);
  if (elf) {
    spoil_kargs(elf, size);
    build_fails(st, &f, elf, size, "the .vt.kernel_args section is malformed: bad magic");
  }
  free(elf);
  elf = assemble(&size, "    .vt_kernel _start\n", examples);
  if (elf) build_fails(st, &f, elf, size, "kernel '_start' of the .vt.kernel_args section");
  free(elf);
  fx_close(&f);
}

TEST(program_queries) {
  fx f;
  if (fx_open(st, &f)) return;
  size_t size;
  uint8_t *elf = assemble(&size, NULL, examples);
  cl_program p = program_from(st, &f, elf, size);
  if (!p) return;
  size_t n = 0, bsize = 0;
  char names[256] = "";
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
           CL_SUCCESS);
  CHECK(st, n == 3);
  CHECK_STR(st, names, "vecadd;matmul;reduce");
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bsize, &bsize, NULL),
           CL_SUCCESS);
  CHECK(st, bsize == size);
  unsigned char *copy = malloc(size), *ptrs[1] = {copy};
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptrs, ptrs, NULL), CL_SUCCESS);
  CHECK(st, copy && !memcmp(copy, elf, size));
  free(copy);
  cl_program_binary_type bt = 0;
  CHECK_CL(st, clGetProgramBuildInfo(p, f.dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
           CL_SUCCESS);
  CHECK(st, bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  char log[256] = "";
  CHECK_CL(st, clGetProgramBuildInfo(p, f.dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
           CL_SUCCESS);
  CHECK_STR(st, log, "vt: 3 kernel(s)");
  cl_uint u = 0;
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof u, &u, NULL), CL_SUCCESS);
  CHECK(st, u == 1);
  CHECK_CL(st, clGetProgramInfo(p, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clGetProgramBuildInfo(p, (cl_device_id)f.ctx, CL_PROGRAM_BUILD_LOG, 0, NULL, &n),
           CL_INVALID_DEVICE);
  cl_kernel ks[3];
  cl_uint nk = 0;
  CHECK_CL(st, clCreateKernelsInProgram(p, 2, ks, &nk), CL_INVALID_VALUE);
  CHECK_CL(st, clCreateKernelsInProgram(p, 3, ks, &nk), CL_SUCCESS);
  CHECK(st, nk == 3);
  char fname[32] = "";
  CHECK_CL(st, clGetKernelInfo(ks[1], CL_KERNEL_FUNCTION_NAME, sizeof fname, fname, NULL),
           CL_SUCCESS);
  CHECK_STR(st, fname, "matmul");
  CHECK_CL(st, clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  for (int i = 0; i < 3; i++) clReleaseKernel(ks[i]);
  CHECK_CL(st, clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS); /* none attached */
  cl_int err;
  CHECK(st, !clCreateKernel(p, "nope", &err) && err == CL_INVALID_KERNEL_NAME);
  CHECK(st, !clCreateKernel(p, NULL, &err) && err == CL_INVALID_VALUE);
  clReleaseProgram(p);
  free(elf);
  fx_close(&f);
}

static void arg_info(check_state *st, cl_kernel k, cl_uint i, cl_uint space, const char *type,
                     cl_bitfield quals, const char *name) {
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

TEST(kernel_argument_information) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = program_of(st, &f, NULL, examples);
  cl_kernel k = kernel(st, p, "matmul");
  if (!k) return;
  cl_uint n = 0;
  CHECK_CL(st, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL), CL_SUCCESS);
  CHECK(st, n == 7);
  arg_info(st, k, 0, CL_KERNEL_ARG_ADDRESS_GLOBAL, "float*", CL_KERNEL_ARG_TYPE_CONST, "A");
  arg_info(st, k, 2, CL_KERNEL_ARG_ADDRESS_GLOBAL, "float*", CL_KERNEL_ARG_TYPE_NONE, "C");
  arg_info(st, k, 3, CL_KERNEL_ARG_ADDRESS_PRIVATE, "int", CL_KERNEL_ARG_TYPE_NONE, "N");
  arg_info(st, k, 6, CL_KERNEL_ARG_ADDRESS_LOCAL, "float*", CL_KERNEL_ARG_TYPE_NONE, "Bs");
  char t[8];
  CHECK_CL(st, clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_NAME, sizeof t, t, NULL),
           CL_INVALID_ARG_INDEX);
  CHECK_CL(st, clGetKernelArgInfo(k, 0, 0x7777, sizeof t, t, NULL), CL_INVALID_VALUE);
  cl_program kp = NULL;
  cl_context kc = NULL;
  CHECK_CL(st, clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof kc, &kc, NULL), CL_SUCCESS);
  CHECK(st, kp == p && kc == f.ctx);
  size_t wg = 0, mult = 0, cwg[3] = {1, 1, 1};
  cl_ulong lmem = 1;
  CHECK_CL(st, clGetKernelWorkGroupInfo(k, f.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
           CL_SUCCESS);
  CHECK_CL(st, clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                        sizeof mult, &mult, NULL),
           CL_SUCCESS);
  CHECK_CL(st, clGetKernelWorkGroupInfo(k, f.dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg,
                                        cwg, NULL),
           CL_SUCCESS);
  CHECK(st, wg == 256 && mult == 32 && !cwg[0] && !cwg[1] && !cwg[2]);
  CHECK_CL(st, clSetKernelArg(k, 5, 256, NULL), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 6, 300, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetKernelWorkGroupInfo(k, f.dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem,
                                        NULL),
           CL_SUCCESS);
  CHECK(st, lmem == 556);
  CHECK_CL(st, clGetKernelWorkGroupInfo(k, (cl_device_id)f.ctx, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof wg, &wg, NULL),
           CL_INVALID_DEVICE);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&f);
}

TEST(set_kernel_arg_checks) {
  fx f, g;
  if (fx_open(st, &f)) return;
  cl_program p = program_of(st, &f, NULL, examples);
  cl_kernel k = kernel(st, p, "matmul");
  if (!k || fx_open(st, &g)) return;
  cl_int err, i = 4;
  cl_mem mine = clCreateBuffer(f.ctx, 0, 64, NULL, &err);
  cl_mem other = clCreateBuffer(g.ctx, 0, 64, NULL, &err);
  cl_mem none = NULL, fake = (cl_mem)&i;
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof mine, &mine), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof none, &none), CL_SUCCESS); /* a NULL buffer */
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof none, NULL), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 0, 4, &mine), CL_INVALID_ARG_SIZE);
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof other, &other), CL_INVALID_MEM_OBJECT);
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof fake, &fake), CL_INVALID_MEM_OBJECT);
  CHECK_CL(st, clSetKernelArg(k, 3, sizeof i, &i), CL_SUCCESS);
  cl_long wide = 4;
  CHECK_CL(st, clSetKernelArg(k, 3, sizeof wide, &wide), CL_INVALID_ARG_SIZE);
  CHECK_CL(st, clSetKernelArg(k, 3, sizeof i, NULL), CL_INVALID_ARG_VALUE);
  CHECK_CL(st, clSetKernelArg(k, 5, 64, &i), CL_INVALID_ARG_VALUE);
  CHECK_CL(st, clSetKernelArg(k, 5, 0, NULL), CL_INVALID_ARG_SIZE);
  CHECK_CL(st, clSetKernelArg(k, 7, sizeof i, &i), CL_INVALID_ARG_INDEX);
  clReleaseMemObject(mine);
  clReleaseMemObject(other);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&g);
  fx_close(&f);
}

TEST(launch_checks) {
  fx f, g;
  if (fx_open(st, &f)) return;
  cl_program p = program_of(st, &f, NULL, examples);
  cl_kernel k = kernel(st, p, "vecadd");
  if (!k || fx_open(st, &g)) return;
  cl_int err;
  float a[64], b[64], c[64];
  for (int i = 0; i < 64; i++) a[i] = (float)i * 0.5f, b[i] = 100.0f - (float)i;
  cl_mem da = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  cl_mem db = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
  cl_mem dc = clCreateBuffer(f.ctx, 0, sizeof c, NULL, &err);
  size_t g64 = 64, l8 = 8, zero = 0, l7 = 7, big[3] = {512, 1, 1}, wg512[2] = {16, 32};
  size_t g2[2] = {64, 64}, off = 0xffffffc1u;
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof da, &da), CL_SUCCESS);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g64, &l8, 0, NULL, NULL),
           CL_INVALID_KERNEL_ARGS);
  CHECK_HAS(st, f.notes.text, "kernel 'vecadd': argument 1 is not set");
  CHECK_CL(st, clSetKernelArg(k, 1, sizeof db, &db), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 2, sizeof dc, &dc), CL_SUCCESS);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 0, NULL, &g64, &l8, 0, NULL, NULL),
           CL_INVALID_WORK_DIMENSION);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 4, NULL, &g64, &l8, 0, NULL, NULL),
           CL_INVALID_WORK_DIMENSION);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, NULL, &l8, 0, NULL, NULL),
           CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &zero, NULL, 0, NULL, NULL),
           CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g64, &l7, 0, NULL, NULL),
           CL_INVALID_WORK_GROUP_SIZE);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, big, big, 0, NULL, NULL),
           CL_INVALID_WORK_ITEM_SIZE);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 2, NULL, g2, wg512, 0, NULL, NULL),
           CL_INVALID_WORK_GROUP_SIZE); /* 512 work-items > 256 */
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, &off, &g64, &l8, 0, NULL, NULL),
           CL_INVALID_GLOBAL_OFFSET);
  CHECK_CL(st, clEnqueueNDRangeKernel(g.q, k, 1, NULL, &g64, &l8, 0, NULL, NULL),
           CL_INVALID_CONTEXT);
  cl_event ev = NULL;
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g64, NULL, 0, NULL, &ev), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL), CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < 64; i++) bad += c[i] != a[i] + b[i];
  CHECK(st, bad == 0);
  cl_command_type t = 0;
  CHECK_CL(st, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
  CHECK(st, t == CL_COMMAND_NDRANGE_KERNEL);
  clReleaseEvent(ev);
  memset(c, 0, sizeof c);
  CHECK_CL(st, clEnqueueWriteBuffer(f.q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueTask(f.q, k, 0, NULL, NULL), CL_SUCCESS); /* one work-item */
  CHECK_CL(st, clEnqueueReadBuffer(f.q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL), CL_SUCCESS);
  CHECK(st, c[0] == a[0] + b[0] && c[1] == 0.0f && c[63] == 0.0f);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&g);
  fx_close(&f);
}

/* ids (tests/kernels/runtime.s): 12 words per work-item (global, local
 * and group ids, work_dim, ...) for a 3-D NDRange with offsets. */
static void check_ids(check_state *st, const uint32_t *rec, const size_t *g, const size_t *o,
                      const size_t *l) {
  int bad = 0;
  for (size_t z = 0; z < g[2]; z++)
    for (size_t y = 0; y < g[1]; y++)
      for (size_t x = 0; x < g[0]; x++) {
        const uint32_t *r = rec + 12 * ((z * g[1] + y) * g[0] + x);
        size_t idx[3] = {x, y, z};
        for (int d = 0; d < 3; d++) {
          bad += r[d] != o[d] + idx[d];
          if (l) bad += r[3 + d] != idx[d] % l[d] || r[6 + d] != idx[d] / l[d];
        }
        bad += r[9] != 3;
      }
  CHECK(st, bad == 0);
}

TEST(ndrange_3d_with_offsets) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = program_of(st, &f, NULL, runtime_kernels);
  cl_kernel k = kernel(st, p, "ids");
  if (!k) return;
  size_t g[3] = {4, 6, 2}, o[3] = {3, 5, 7}, l[3] = {2, 3, 1}, n = 4 * 6 * 2;
  uint32_t *rec = calloc(12 * n, 4);
  cl_int err;
  cl_mem m = clCreateBuffer(f.ctx, 0, 48 * n, NULL, &err);
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 3, o, g, l, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 48 * n, rec, 0, NULL, NULL), CL_SUCCESS);
  check_ids(st, rec, g, o, l);
  memset(rec, 0, 48 * n);
  CHECK_CL(st, clEnqueueWriteBuffer(f.q, m, CL_TRUE, 0, 48 * n, rec, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 3, o, g, NULL, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 48 * n, rec, 0, NULL, NULL), CL_SUCCESS);
  check_ids(st, rec, g, o, NULL); /* local size chosen by the platform */
  free(rec);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&f);
}

/* Without .vt.kernel_args: library functions are not kernels, the count
 * comes from the argument bytes read, argument info is unavailable, and
 * arguments are classified by their values (scale, lrev). */
TEST(programs_without_argument_information) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = program_of(st, &f, NULL, runtime_kernels);
  if (!p) return;
  char names[512] = "";
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
           CL_SUCCESS);
  CHECK_HAS(st, names, "nop;argcopy;ids;localptrs;lrev;addone;scale");
  CHECK(st, !strstr(names, "vt_printf") && !strstr(names, "vt_vprintf"));
  cl_kernel scale = kernel(st, p, "scale"), lrev = kernel(st, p, "lrev");
  cl_uint n = 0;
  CHECK_CL(st, clGetKernelInfo(scale, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL), CL_SUCCESS);
  CHECK(st, n == 2); /* lw 0(a0), lw 4(a0) */
  CHECK_CL(st, clGetKernelInfo(lrev, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL), CL_SUCCESS);
  CHECK(st, n == 3);
  char t[8];
  CHECK_CL(st, clGetKernelArgInfo(scale, 0, CL_KERNEL_ARG_NAME, sizeof t, t, NULL),
           CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  cl_int err, factor = -3;
  int32_t v[64], out[64];
  for (int i = 0; i < 64; i++) v[i] = i * 11 - 300;
  cl_mem m = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, sizeof v, v, &err);
  cl_mem r = clCreateBuffer(f.ctx, 0, sizeof v, NULL, &err);
  size_t g = 64, l = 32;
  CHECK_CL(st, clSetKernelArg(scale, 0, sizeof m, &m), CL_SUCCESS);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, scale, 1, NULL, &g, &l, 0, NULL, NULL),
           CL_INVALID_KERNEL_ARGS);
  CHECK_HAS(st, f.notes.text,
            "kernel 'scale' reads 8 bytes of arguments; the arguments set fill 4");
  CHECK_CL(st, clSetKernelArg(scale, 1, sizeof factor, &factor), CL_SUCCESS);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, scale, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(lrev, 0, sizeof m, &m), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(lrev, 1, sizeof r, &r), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(lrev, 2, 4 * l, NULL), CL_SUCCESS); /* __local */
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, lrev, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, r, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
           CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < 64; i++) bad += out[i] != v[(i / 32) * 32 + 31 - i % 32] * factor;
  CHECK(st, bad == 0);
  clReleaseMemObject(m);
  clReleaseMemObject(r);
  clReleaseKernel(scale);
  clReleaseKernel(lrev);
  clReleaseProgram(p);
  fx_close(&f);
}

/* Without information an 8-byte argument fills two of the derived 4-byte
 * slots: lk(long v, global int *out) reads 12 bytes, so CL_KERNEL_NUM_ARGS
 * says 3, and two arguments that fill 12 bytes are accepted. */
static const char long_kernel[] =
    "    .text\n    .globl lk\nlk: lw t0, 0(a0)\n    lw t1, 4(a0)\n    lw t2, 8(a0)\n"
    "    sw t0, 0(t2)\n    sw t1, 4(t2)\n    ret\n";

TEST(derived_count_with_a_long_argument) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = program_of(st, &f, long_kernel, NULL);
  cl_kernel k = kernel(st, p, "lk");
  if (!k) return;
  cl_uint n = 0;
  CHECK_CL(st, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL), CL_SUCCESS);
  CHECK(st, n == 3);
  cl_int err;
  cl_long v = -81985529216486896LL; /* 0xfedcba9876543210 */
  uint32_t out[2] = {0, 0};
  cl_mem m = clCreateBuffer(f.ctx, 0, sizeof out, NULL, &err);
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof v, &v), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 1, sizeof m, &m), CL_SUCCESS);
  size_t g = 1;
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
           CL_SUCCESS);
  CHECK_EQ_U32(st, out[0], 0x76543210u);
  CHECK_EQ_U32(st, out[1], 0xfedcba98u);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&f);
}

/* Arguments are captured at enqueue time (5.8: later clSetKernelArg calls
 * do not change an enqueued command). */
TEST(arguments_are_captured_at_enqueue) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = program_of(st, &f, NULL, runtime_kernels);
  cl_kernel k = kernel(st, p, "scale");
  if (!k) return;
  cl_int err, three = 3, five = 5;
  int32_t x[32], y[32], ox[32], oy[32];
  for (int i = 0; i < 32; i++) x[i] = i + 1, y[i] = 100 + i;
  cl_mem dx = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
  cl_mem dy = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, sizeof y, y, &err);
  cl_event user = clCreateUserEvent(f.ctx, &err);
  size_t g = 32;
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof dx, &dx), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 1, sizeof three, &three), CL_SUCCESS);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g, NULL, 1, &user, NULL), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof dy, &dy), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 1, sizeof five, &five), CL_SUCCESS);
  clReleaseMemObject(dx); /* the pending launch keeps it */
  CHECK_CL(st, clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, dy, CL_TRUE, 0, sizeof oy, oy, 0, NULL, NULL),
           CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < 32; i++) bad += oy[i] != y[i] * 5;
  CHECK(st, bad == 0);
  (void)ox;
  clReleaseEvent(user);
  clReleaseMemObject(dy);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&f);
}

TEST(kernel_trap) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = program_of(st, &f, NULL, runtime_kernels);
  cl_kernel k = kernel(st, p, "trap");
  if (!k) return;
  size_t g = 4;
  cl_event ev;
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g, NULL, 0, NULL, &ev), CL_SUCCESS);
  cl_int s = 0;
  CHECK_CL(st, clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL),
           CL_SUCCESS);
  CHECK(st, s == CL_OUT_OF_RESOURCES);
  CHECK_CL(st, clWaitForEvents(1, &ev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_HAS(st, f.notes.text, "kernel 'trap' failed");
  CHECK_HAS(st, f.notes.text, "load of unmapped address 0x00000000");
  CHECK_CL(st, clFinish(f.q), CL_SUCCESS);
  clReleaseEvent(ev);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&f);
}

/* Device printf reaches the process's standard output by clFinish. */
TEST(printf_output) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_program p = program_of(st, &f, NULL, runtime_kernels);
  cl_kernel k = kernel(st, p, "plong");
  if (!k) return;
  cl_int err, x = -5;
  cl_long v = 1234567890123LL;
  cl_mem out = clCreateBuffer(f.ctx, 0, 32, NULL, &err);
  CHECK_CL(st, clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 1, sizeof x, &x), CL_SUCCESS);
  CHECK_CL(st, clSetKernelArg(k, 2, sizeof v, &v), CL_SUCCESS);
  size_t g = 1;
  fflush(stdout);
  int saved = dup(1), fd = open("printed.txt", O_CREAT | O_TRUNC | O_WRONLY, 0644);
  dup2(fd, 1);
  CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clFinish(f.q), CL_SUCCESS);
  fflush(stdout);
  dup2(saved, 1);
  close(fd);
  close(saved);
  char want[128], got[256] = "";
  snprintf(want, sizeof want, "x=%d v=%lld v+1=%lld hex=%#llx\n", x, (long long)v,
           (long long)v + 1, (unsigned long long)v);
  FILE *in = fopen("printed.txt", "r");
  size_t n = in ? fread(got, 1, sizeof got - 1, in) : 0;
  if (in) fclose(in);
  got[n] = 0;
  CHECK_STR(st, got, want);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&f);
}

RUN_TESTS(
#ifndef VT_HAVE_CC
          T(source_programs_need_a_compiler),
#endif
          T(binary_checks), T(program_queries),
          T(kernel_argument_information), T(set_kernel_arg_checks), T(launch_checks),
          T(ndrange_3d_with_offsets), T(programs_without_argument_information),
          T(derived_count_with_a_long_argument), T(arguments_are_captured_at_enqueue),
          T(kernel_trap), T(printf_output))
