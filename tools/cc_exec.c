/* vt cc: runs the compiler program vt-cc that sits next to the vt binary
 * (tools/cc/vt_cc_main.c). vt itself does not link LLVM: loading and
 * relocating libLLVM took most of the start-up time of every command. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools.h"

int vt_cmd_cc(int argc, char **argv) {
  char self[PATH_MAX], path[PATH_MAX + 8];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    fprintf(stderr, "vt cc: cannot find the vt program's folder: %s\n", strerror(errno));
    return 2;
  }
  self[n] = 0;
  char *slash = strrchr(self, '/');
  if (slash) *slash = 0;
  snprintf(path, sizeof path, "%s/vt-cc", self);
  char **args = calloc((size_t)argc + 1, sizeof *args);
  if (!args) return 2;
  args[0] = path;
  for (int i = 1; i < argc; i++) args[i] = argv[i];
  execv(path, args);
  int e = errno;
  free(args);
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    printf("usage: vt cc [options] FILE.cl (the compiler is not built in this vt)\n");
    return 0;
  }
  if (e == ENOENT)
    fprintf(stderr, "vt cc: this vt was built without the compiler (%s is missing: LLVM 14 was "
                    "not found; sh scripts/install-deps.sh compiler, then rebuild)\n", path);
  else
    fprintf(stderr, "vt cc: cannot run %s: %s\n", path, strerror(e));
  return 2;
}
