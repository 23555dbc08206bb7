/* The back end driver: compiles every kernel of the module. */
#include "cc_internal.h"

int cc_backend(cc_ctx *c, cc_buf *out) {
  (void)out;
  cc_buf_puts(&c->log, "vt cc: error: the back end is not written yet\n");
  c->errors++;
  return -1;
}
