/* The OpenCL C compiler hook: program source to a kernel ELF.
 *
 * There is no OpenCL C compiler in vt yet, so the device reports
 * CL_DEVICE_COMPILER_AVAILABLE = CL_FALSE (and the embedded profile, the
 * only profile the specification allows without a compiler), and
 * clBuildProgram on a source program returns CL_COMPILER_NOT_AVAILABLE
 * with this build log.
 *
 * When `vt cc` lands, its library entry (source + options in; an ELF with
 * the start-up code linked and a .vt.kernel_args section, plus messages
 * out) is called here, in-process, and vtcl_compiler_available returns
 * true; nothing else in the platform changes: clBuildProgram treats the
 * compiled ELF like one given to clCreateProgramWithBinary
 * (docs/opencl.md "The compiler hook"). */
#include <stdlib.h>

#include "ocl_internal.h"

bool vtcl_compiler_available(void) { return false; }

cl_int vtcl_compile(const char *source, const char *options, uint8_t **elf, size_t *size,
                    char **log) {
  (void)source;
  (void)options;
  *elf = NULL;
  *size = 0;
  *log = vtcl_strdup(
      "vt: no OpenCL C compiler is available yet. Build the kernel with `vt as` "
      "(docs/kernels.md) or the official Ventus toolchain and create the program with "
      "clCreateProgramWithBinary (docs/opencl.md).");
  return CL_COMPILER_NOT_AVAILABLE;
}
