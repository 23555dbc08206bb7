/* Diagnostics of the compiler: "file:line:col: error: message" lines in the
 * compilation's log, with the position taken from the debug location clang
 * attached to the instruction. */
#include <stdio.h>
#include <string.h>

#include "cc_internal.h"

unsigned cc_line_of(LLVMValueRef inst) {
  if (!inst || !LLVMIsAInstruction(inst)) return 0;
  return LLVMGetDebugLocLine(inst);
}

static void report(cc_ctx *c, LLVMValueRef at, const char *kind, const char *fmt, va_list ap) {
  unsigned line = 0, col = 0, flen = 0;
  const char *file = NULL;
  if (at && LLVMIsAInstruction(at)) {
    line = LLVMGetDebugLocLine(at);
    col = LLVMGetDebugLocColumn(at);
    file = LLVMGetDebugLocFilename(at, &flen);
  } else if (at && LLVMIsAFunction(at)) {
    line = LLVMGetDebugLocLine(at);
    file = LLVMGetDebugLocFilename(at, &flen);
  }
  if (file && flen && line) {
    cc_buf_printf(&c->log, "%.*s:%u:", (int)flen, file, line);
    if (col) cc_buf_printf(&c->log, "%u:", col);
    cc_buf_printf(&c->log, " %s: ", kind);
  } else {
    cc_buf_printf(&c->log, "%s: %s: ", c->display_name ? c->display_name : "vt cc", kind);
  }
  cc_buf_vprintf(&c->log, fmt, ap);
  cc_buf_puts(&c->log, "\n");
}

void cc_error(cc_ctx *c, LLVMValueRef at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(c, at, "error", fmt, ap);
  va_end(ap);
  c->errors++;
}

void cc_warning(cc_ctx *c, LLVMValueRef at, const char *fmt, ...) {
  if (c->opts.no_warnings) return;
  va_list ap;
  va_start(ap, fmt);
  report(c, at, c->opts.werror ? "error" : "warning", fmt, ap);
  va_end(ap);
  if (c->opts.werror) c->errors++;
}
