/* An official compiled kernel through the OpenCL platform: the matadd
 * listing of VT_SHARED_DIR/cases/matadd/matadd.dump (official crt0, kernel
 * and libworkitem from the Ventus LLVM toolchain, without a
 * .vt.kernel_args section) turned back into an ELF, built with
 * clCreateProgramWithBinary: its only kernel is matadd (the _Z* and
 * __builtin_* library functions are not kernels), its argument count is
 * derived from the argument loads (lw 8/4/0(a0): 3), and it runs 2-D
 * launches with random inputs against C. A T_CASES test. */
#include "ocl_test_util.h"

#define DUMP VT_SHARED_DIR "/cases/matadd/matadd.dump"

/* The dump's contiguous .text as .word lines with its global labels. */
static uint8_t *dump_to_elf(const char *path, size_t *size) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  size_t cap = 1 << 20, n = 0;
  char *src = malloc(cap), line[512];
  uint32_t next = 0x80000000u;
  n += (size_t)snprintf(src, cap, "    .text\n");
  while (fgets(line, sizeof line, f) && n + 600 < cap) {
    unsigned addr, b[4];
    char name[256];
    if (sscanf(line, "%x <%255[^>]>:", &addr, name) == 2) {
      if (name[0] != '.')
        n += (size_t)snprintf(src + n, cap - n, "    .globl %s\n%s:\n", name, name);
    } else if (sscanf(line, "%x: %x %x %x %x", &addr, &b[0], &b[1], &b[2], &b[3]) == 5) {
      if (addr != next) break;
      n += (size_t)snprintf(src + n, cap - n, "    .word 0x%02x%02x%02x%02x\n", b[3], b[2], b[1],
                            b[0]);
      next += 4;
    }
  }
  fclose(f);
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *elf = NULL;
  if (vt_asm_add_source(as, "matadd.s", src, n) != 0 || vt_asm_link(as, &elf, size) != 0) {
    fprintf(stderr, "%s\n", vt_asm_errors(as));
    elf = NULL;
  }
  vt_asm_free(as);
  free(src);
  return elf;
}

TEST(official_matadd) {
  fx f;
  if (fx_open(st, &f)) return;
  size_t size = 0;
  uint8_t *elf = dump_to_elf(DUMP, &size);
  cl_program p = program_from(st, &f, elf, size);
  free(elf);
  if (!p) return;
  char names[256] = "";
  CHECK_CL(st, clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
           CL_SUCCESS);
  CHECK_STR(st, names, "matadd");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "matadd", &err);
  CHECK_CL(st, err, CL_SUCCESS);
  cl_uint nargs = 0;
  CHECK_CL(st, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL), CL_SUCCESS);
  CHECK(st, nargs == 3);
  char t[8];
  CHECK_CL(st, clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof t, t, NULL),
           CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  static const size_t shapes[][4] = {{4, 4, 4, 4}, {16, 8, 4, 4}, {32, 32, 8, 4}, {12, 6, 0, 0}};
  unsigned seed = 5;
  for (size_t s = 0; s < 4 && k; s++) {
    size_t n = shapes[s][0] * shapes[s][1];
    float *a = malloc(4 * n), *b = malloc(4 * n), *c = malloc(4 * n);
    for (size_t i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      a[i] = (float)(int)(seed >> 8 & 0xffff) / 64.0f - 300.0f;
      b[i] = (float)(int)(seed >> 4 & 0xfff) / 16.0f;
    }
    cl_mem da = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, 4 * n, a, &err);
    cl_mem db = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, 4 * n, b, &err);
    cl_mem dc = clCreateBuffer(f.ctx, 0, 4 * n, NULL, &err);
    clSetKernelArg(k, 0, sizeof da, &da);
    clSetKernelArg(k, 1, sizeof db, &db);
    clSetKernelArg(k, 2, sizeof dc, &dc);
    const size_t *local = shapes[s][2] ? &shapes[s][2] : NULL;
    CHECK_CL(st, clEnqueueNDRangeKernel(f.q, k, 2, NULL, shapes[s], local, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_CL(st, clEnqueueReadBuffer(f.q, dc, CL_TRUE, 0, 4 * n, c, 0, NULL, NULL), CL_SUCCESS);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
      float want = a[i] + b[i];
      bad += memcmp(&want, &c[i], 4) != 0;
    }
    CHECK(st, bad == 0);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    free(a);
    free(b);
    free(c);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  fx_close(&f);
}

RUN_TESTS(T_CASES(official_matadd))
