/* The OpenCL C compiler hook: program source to a kernel ELF.
 *
 * With vt built with its compiler (libvtcc, LLVM 14; docs/cc.md), the
 * source and the build options go to vt_cc_compile in the process: the ELF
 * it returns has the start-up code linked and a .vt.kernel_args section,
 * and clBuildProgram treats it like a binary given to
 * clCreateProgramWithBinary. The build log is the compiler's diagnostics
 * (clang's, file program.cl). The device then reports a compiler and a
 * linker and the full profile (docs/opencl.md "Programs from source").
 *
 * Without it the device reports CL_DEVICE_COMPILER_AVAILABLE = CL_FALSE
 * (and the embedded profile, the only profile the specification allows
 * without a compiler), and clBuildProgram on a source program returns
 * CL_COMPILER_NOT_AVAILABLE with a build log saying so. */
#include <stdio.h>
#include <stdlib.h>

#include "ocl_internal.h"
#ifdef VTCL_HAVE_CC
#include "vt/cc.h"
#endif

#ifdef VTCL_HAVE_CC
bool vtcl_compiler_available(void) { return true; }

cl_int vtcl_compile(const char *source, const char *options, uint8_t **elf, size_t *size,
                    char **log) {
  *elf = NULL;
  *size = 0;
  *log = NULL;
  vtcl_words w;
  int split = vtcl_words_split(options, &w);
  const char *bad = split == 0 ? vtcl_options_check(&w, VTCL_BUILD) : NULL;
  if (split != 0 || bad) {
    char msg[600];
    snprintf(msg, sizeof msg, "vt: %s%s%s", split ? "cannot split the build options" : "",
             bad ? "unknown build option: " : "", bad ? bad : "");
    vtcl_words_free(&w);
    *log = vtcl_strdup(msg);
    return CL_INVALID_BUILD_OPTIONS;
  }
  char *opts = vtcl_words_for_compiler(&w);
  vtcl_words_free(&w);
  if (!opts) return CL_OUT_OF_HOST_MEMORY;
  int rc = vt_cc_compile(source, opts, elf, size, log);
  free(opts);
  if (rc == 0) return CL_SUCCESS;
  free(*elf);
  *elf = NULL;
  *size = 0;
  if (!*log || !**log) {
    free(*log);
    *log = vtcl_strdup("vt: the compilation failed");
  }
  return CL_BUILD_PROGRAM_FAILURE;
}
#else
bool vtcl_compiler_available(void) { return false; }

cl_int vtcl_compile(const char *source, const char *options, uint8_t **elf, size_t *size,
                    char **log) {
  (void)source;
  (void)options;
  *elf = NULL;
  *size = 0;
  *log = vtcl_strdup(
      "vt: no OpenCL C compiler is available: vt was built without LLVM 14 (docs/cc.md, "
      "\"Building\"). Build the kernel with `vt as` (docs/kernels.md) or the official Ventus "
      "toolchain and create the program with clCreateProgramWithBinary (docs/opencl.md).");
  return CL_COMPILER_NOT_AVAILABLE;
}
#endif
