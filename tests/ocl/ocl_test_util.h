/* Shared helpers of the OpenCL platform tests: the vt platform and device
 * through the ICD loader, a context and a profiling queue, programs from
 * kernels assembled in memory with libvt (crt0 + sources), and a capture of
 * the context's notification messages. */
#ifndef VT_OCL_TEST_UTIL_H
#define VT_OCL_TEST_UTIL_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vt/asm.h"

#define KDIR VT_SOURCE_DIR "/examples/kernels/"

typedef struct notes {
  char text[8192];
  size_t len;
} notes;

static void CL_CALLBACK note_fn(const char *msg, const void *info, size_t cb, void *user) {
  (void)info, (void)cb;
  notes *n = user;
  int k = snprintf(n->text + n->len, sizeof n->text - n->len, "%s\n", msg);
  if (k > 0 && n->len + (size_t)k < sizeof n->text) n->len += (size_t)k;
}

typedef struct fx {
  cl_platform_id platform;
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
  notes notes;
} fx;

/* The only platform must be vt's (OCL_ICD_VENDORS names vtocl.icd). */
static inline int fx_open(check_state *st, fx *f) {
  memset(f, 0, sizeof *f);
  cl_uint n = 0;
  cl_int err = clGetPlatformIDs(1, &f->platform, &n);
  CHECK(st, err == CL_SUCCESS && n == 1);
  if (err != CL_SUCCESS) return -1;
  err = clGetDeviceIDs(f->platform, CL_DEVICE_TYPE_GPU, 1, &f->dev, NULL);
  CHECK(st, err == CL_SUCCESS);
  if (err == CL_SUCCESS) f->ctx = clCreateContext(NULL, 1, &f->dev, note_fn, &f->notes, &err);
  CHECK(st, err == CL_SUCCESS);
  if (err == CL_SUCCESS)
    f->q = clCreateCommandQueue(f->ctx, f->dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(st, err == CL_SUCCESS);
  return err == CL_SUCCESS ? 0 : -1;
}

static inline void fx_close(fx *f) {
  if (f->q) clReleaseCommandQueue(f->q);
  if (f->ctx) clReleaseContext(f->ctx);
}

/* ELF of crt0.s + the files (NULL-terminated) + an optional source text. */
static inline uint8_t *assemble(size_t *size, const char *text, const char *const *files) {
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *elf = NULL;
  *size = 0;
  if (!as) return NULL;
  int rc = vt_asm_add_file(as, KDIR "crt0.s");
  for (size_t i = 0; rc == 0 && files && files[i]; i++) rc = vt_asm_add_file(as, files[i]);
  if (rc == 0 && text) rc = vt_asm_add_source(as, "extra.s", text, strlen(text));
  if (rc != 0 || vt_asm_link(as, &elf, size) != 0) {
    fprintf(stderr, "assembling: %s\n", vt_asm_errors(as));
    elf = NULL;
  }
  vt_asm_free(as);
  return elf;
}

/* A built program from an ELF image (NULL after a failed check). */
static inline cl_program program_from(check_state *st, fx *f, const uint8_t *elf, size_t size) {
  cl_int err;
  if (!elf) {
    CHECK(st, elf != NULL);
    return NULL;
  }
  cl_program p = clCreateProgramWithBinary(f->ctx, 1, &f->dev, &size, &elf, NULL, &err);
  CHECK(st, err == CL_SUCCESS);
  if (err != CL_SUCCESS) return NULL;
  err = clBuildProgram(p, 1, &f->dev, "", NULL, NULL);
  CHECK(st, err == CL_SUCCESS);
  if (err != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(p, f->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build log: %s\n", log);
  }
  return p;
}

/* Program of crt0 + the listed example kernels. */
static inline cl_program program_of(check_state *st, fx *f, const char *text,
                                    const char *const *files) {
  size_t size;
  uint8_t *elf = assemble(&size, text, files);
  cl_program p = program_from(st, f, elf, size);
  free(elf);
  return p;
}

#define CHECK_CL(st, call, want)                                                           \
  do {                                                                                     \
    cl_int got_ = (call);                                                                  \
    if (got_ != (want)) {                                                                  \
      (st)->failed_checks++;                                                               \
      fprintf(stderr, "%s:%d: %s = %d, expected %s (%d)\n", __FILE__, __LINE__, #call, got_, \
              #want, (int)(want));                                                         \
    }                                                                                      \
  } while (0)

#define CHECK_HAS(st, text, needle)                                                  \
  do {                                                                               \
    if (!strstr((text), (needle))) {                                                 \
      (st)->failed_checks++;                                                         \
      fprintf(stderr, "%s:%d: \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, (text), (needle)); \
    }                                                                                \
  } while (0)
#endif
