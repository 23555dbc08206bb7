/* vt cc: compile OpenCL C into a Ventus kernel ELF (docs/cc.md). This is
 * the program vt-cc, which `vt cc` runs (tools/cc_exec.c): only it links
 * libvtcc and LLVM 14, so that the other commands start without loading
 * LLVM. Built when LLVM 14 is found. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vt/cc.h"
#include "write_out.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: vt cc [options] FILE.cl\n"
          "Compile OpenCL C into a Ventus kernel ELF (crt0, kernels, device printf).\n"
          "  -o FILE         output (default a.out; with -S FILE.s, with --emit-llvm FILE.ll)\n"
          "  -S              write the kernels' assembly (for vt as) instead of the ELF\n"
          "  --emit-llvm     write the optimised LLVM IR instead of the ELF\n"
          "  -O0 .. -O3      optimisation level (default -O2)\n"
          "  -D NAME[=VAL]   define a macro      -I DIR   add an include directory\n"
          "  -g              line table (.debug_line) for traces and debuggers\n"
          "  -w, -Werror     no warnings / warnings are errors\n"
          "  -cl-std=CL1.2 and the clBuildProgram options (-cl-fast-relaxed-math, ...)\n"
          "  -h, --help      this help\n");
}

/* FILE.cl -> FILE.ext in the current directory */
static char *derived_name(const char *input, const char *ext) {
  const char *b = strrchr(input, '/');
  b = b ? b + 1 : input;
  size_t n = strlen(b);
  if (n > 3 && !strcmp(b + n - 3, ".cl")) n -= 3;
  char *r = malloc(n + strlen(ext) + 1);
  if (r) {
    memcpy(r, b, n);
    strcpy(r + n, ext);
  }
  return r;
}

int main(int argc, char **argv) {
  const char *out = NULL, *input = NULL;
  vt_cc_output kind = VT_CC_ELF;
  const char **opts = calloc((size_t)argc + 1, sizeof *opts);
  int nopts = 0;
  if (!opts) return 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      free(opts);
      return 0;
    } else if (!strcmp(a, "-o")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "vt cc: error: option -o needs an argument\n");
        free(opts);
        return 2;
      }
      out = argv[++i];
    } else if (!strcmp(a, "-S")) {
      kind = VT_CC_ASM;
    } else if (!strcmp(a, "--emit-llvm") || !strcmp(a, "-emit-llvm")) {
      kind = VT_CC_LLVM;
    } else if ((!strcmp(a, "-D") || !strcmp(a, "-I")) && i + 1 < argc) {
      opts[nopts++] = a;
      opts[nopts++] = argv[++i];
    } else if (a[0] == '-' && a[1]) {
      opts[nopts++] = a;
    } else if (input) {
      fprintf(stderr, "vt cc: error: more than one input file ('%s' and '%s')\n", input, a);
      free(opts);
      return 2;
    } else {
      input = a;
    }
  }
  if (!input) {
    fprintf(stderr, "vt cc: error: no input file\n");
    usage(stderr);
    free(opts);
    return 2;
  }
  struct stat sb;
  if (stat(input, &sb) != 0) {
    fprintf(stderr, "vt cc: error: cannot read %s: %s\n", input, strerror(errno));
    free(opts);
    return 1;
  }
  char *derived = NULL;
  if (!out) out = kind == VT_CC_ELF ? "a.out"
                  : (derived = derived_name(input, kind == VT_CC_ASM ? ".s" : ".ll"));
  vt_cc_job job = {.path = input, .argv = opts, .argc = nopts, .output = kind};
  uint8_t *result = NULL;
  size_t size = 0;
  char *log = NULL;
  int rc = vt_cc_run(&job, &result, &size, &log);
  if (log && *log) fputs(log, stderr);
  if (rc == 0 && out) rc = write_out_file("vt cc", out, result, size, kind == VT_CC_ELF);
  free(log);
  free(result);
  free(derived);
  free(opts);
  return rc == 0 ? 0 : 1;
}
