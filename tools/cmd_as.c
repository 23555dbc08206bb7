/* vt as: assemble and link GNU-as syntax source files into one ELF32
 * executable (docs/as.md). The output is written to a temporary file in the
 * same directory and renamed, so a failed run leaves no output behind. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools.h"
#include "write_out.h"
#include "vt/asm.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: vt as [options] FILE...\n"
          "Assemble and link FILEs ('-' = standard input) into an ELF32 RISC-V executable.\n"
          "  -o FILE        output file (default a.out)\n"
          "  -Ttext ADDR    address of .text (default 0x80000000)\n"
          "  -e SYMBOL      entry symbol (default _start, else the start of .text)\n"
          "  -g             DWARF line table: instructions -> their lines in the sources\n"
          "  -h, --help     this help\n");
}

int vt_cmd_as(int argc, char **argv) {
  vt_asm_options opts = {0, NULL};
  bool debug = false;
  const char *out = "a.out";
  const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
  size_t nin = 0;
  if (!inputs) return 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      free(inputs);
      return 0;
    } else if (!strcmp(a, "-g")) {
      debug = true;
    } else if (!strcmp(a, "-o") || !strcmp(a, "-e") || !strcmp(a, "-Ttext")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "vt as: error: option %s needs an argument\n", a);
        free(inputs);
        return 2;
      }
      const char *v = argv[++i];
      if (a[1] == 'o') {
        out = v;
      } else if (a[1] == 'e') {
        opts.entry = v;
      } else {
        char *end;
        unsigned long long t = strtoull(v, &end, 0);
        if (*end || t > 0xffffffffull || (t & 3)) {
          fprintf(stderr, "vt as: error: bad -Ttext address '%s'\n", v);
          free(inputs);
          return 2;
        }
        opts.text_addr = (uint32_t)t;
      }
    } else if (!strncmp(a, "-Ttext=", 7)) {
      char *end;
      unsigned long long t = strtoull(a + 7, &end, 0);
      if (*end || t > 0xffffffffull || (t & 3)) {
        fprintf(stderr, "vt as: error: bad -Ttext address '%s'\n", a + 7);
        free(inputs);
        return 2;
      }
      opts.text_addr = (uint32_t)t;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "vt as: error: unknown option '%s'\n", a);
      usage(stderr);
      free(inputs);
      return 2;
    } else {
      inputs[nin++] = a;
    }
  }
  if (!nin) {
    fprintf(stderr, "vt as: error: no input files\n");
    usage(stderr);
    free(inputs);
    return 2;
  }
  vt_asm *as = vt_asm_new(&opts);
  if (!as) {
    fprintf(stderr, "vt as: error: out of memory\n");
    free(inputs);
    return 1;
  }
  vt_asm_set_debug_lines(as, debug);
  for (size_t i = 0; i < nin; i++) vt_asm_add_file(as, inputs[i]);
  uint8_t *elf = NULL;
  size_t size = 0;
  int rc = 1;
  if (!vt_asm_error_count(as) && vt_asm_link(as, &elf, &size) == 0)
    rc = write_out_file("vt as", out, elf, size, true) == 0 ? 0 : 1;
  fputs(vt_asm_errors(as), stderr);
  free(elf);
  vt_asm_free(as);
  free(inputs);
  return rc;
}
