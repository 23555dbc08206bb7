/* vt objdump: placeholder until the sub-command lands. */
#include <stdio.h>
#include "tools.h"
int vt_cmd_objdump(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "vt objdump: not implemented yet\n");
  return 1;
}
