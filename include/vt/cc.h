/* vt/cc.h - the OpenCL C compiler behind `vt cc` (library libvtcc).
 *
 * Compiles OpenCL C source into a Ventus kernel ELF: the same start-up code
 * (crt0), kernel entry, argument-buffer layout and .ventus.resource.<kernel>
 * sections as the official Ventus toolchain, so vt_runtime.h, `vt launch`
 * and the official runtime load the result (docs/cc.md). The front end is
 * clang 14 (run as a program); the back end is vt's own.
 *
 * libvtcc exists only when vt was built with LLVM 14 (docs/cc.md, "Building");
 * link it with -lvtcc before -lvt. No global state: calls may run in
 * parallel threads.
 */
#ifndef VT_CC_H
#define VT_CC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What vt_cc_run produces. */
typedef enum vt_cc_output {
  VT_CC_ELF = 0,  /* the linked kernel program (ELF32) */
  VT_CC_ASM = 1,  /* the kernel's assembly text for `vt as` (-S) */
  VT_CC_LLVM = 2  /* the optimised LLVM IR as text (--emit-llvm) */
} vt_cc_output;

typedef struct vt_cc_job {
  /* The program: either a file to read (path, shown as given in messages)
   * or the text itself (source/source_len; source_len 0 = strlen) shown as
   * source_name (NULL: "program.cl"). */
  const char *path;
  const char *source;
  size_t source_len;
  const char *source_name;
  /* Options as separate words (argv style, no program name):
   * -O0..-O3 (default -O2), -DNAME[=VALUE] / -D NAME, -IDIR / -I DIR,
   * -g, -w, -Werror, -cl-std=CL1.0|CL1.1|CL1.2, and the OpenCL build
   * options clBuildProgram accepts (-cl-fast-relaxed-math, -cl-mad-enable,
   * ...; docs/cc.md lists them). */
  const char *const *argv;
  int argc;
  vt_cc_output output;
} vt_cc_job;

/* Runs one compilation. On success returns 0 and a malloc'd result in
 * out and out_size (ELF image or NUL-terminated text). On failure returns -1,
 * *out is NULL. Either way *log (if log is not NULL) receives a malloc'd,
 * NUL-terminated text of the diagnostics (file:line:col: error: ...), ""
 * when there were none; the caller frees it. */
int vt_cc_run(const vt_cc_job *job, uint8_t **out, size_t *out_size, char **log);

/* The call for an OpenCL runtime's clBuildProgram: compile 'source' (a
 * NUL-terminated program text) with the clBuildProgram option string
 * 'options' (may be NULL) into a kernel ELF. Returns 0 or -1 as vt_cc_run;
 * *log receives the build log (free it). */
int vt_cc_compile(const char *source, const char *options, uint8_t **elf, size_t *elf_size,
                  char **log);

#ifdef __cplusplus
}
#endif
#endif
