/* vt report: placeholder until the report is written. */
#include <stdio.h>

#include "tools.h"

int vt_cmd_report(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "vt report: not yet\n");
  return 2;
}
