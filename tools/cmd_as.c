/* vt as: placeholder until the sub-command lands. */
#include <stdio.h>
#include "tools.h"
int vt_cmd_as(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "vt as: not implemented yet\n");
  return 1;
}
