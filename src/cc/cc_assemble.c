/* Assembling the compiled kernels with vt's assembler (vt/asm.h): the
 * start-up code crt0.s first, the kernel text, and the device printf
 * (vtprintf.s) when the kernels call vt_vprintf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"
#include "vt/asm.h"

int cc_assemble(cc_ctx *c, const char *kernel_asm, uint8_t **elf, size_t *size) {
  vt_asm *as = vt_asm_new(NULL);
  if (!as) {
    cc_buf_puts(&c->log, "vt cc: error: out of memory\n");
    c->errors++;
    return -1;
  }
  int rc = vt_asm_add_source(as, "crt0.s", (const char *)vt_cc_crt0_s, vt_cc_crt0_s_size);
  if (rc == 0) rc = vt_asm_add_source(as, "kernel.s", kernel_asm, strlen(kernel_asm));
  if (rc == 0 && strstr(kernel_asm, "vt_vprintf"))
    rc = vt_asm_add_source(as, "vtprintf.s", (const char *)vt_cc_vtprintf_s, vt_cc_vtprintf_s_size);
  if (rc == 0) rc = vt_asm_link(as, elf, size);
  if (rc != 0) {
    cc_buf_printf(&c->log, "vt cc: internal error: the generated assembly does not assemble:\n%s",
                  vt_asm_errors(as));
    c->errors++;
  }
  vt_asm_free(as);
  return rc;
}
