/* The back end driver: every kernel of the module, its argument
 * information (cc_kargs.c), then instruction selection (cc_isel*.c), SIMT lowering (cc_simt.c), register allocation
 * (cc_regalloc.c) and emission (cc_emit.c), then the global data. */
#include <stdlib.h>

#include "cc_emit.h"
#include "cc_graph.h"
#include "cc_isel.h"

int cc_simt(cc_ctx *c, cc_mf *f);
int cc_opt_local(cc_mf *f);
bool cc_is_kernel(LLVMValueRef f);

int cc_backend(cc_ctx *c, cc_buf *out) {
  int index = 0;
  if (c->opts.debug) cc_buf_printf(out, "    .file 1 \"%s\"\n", c->display_name);
  for (LLVMValueRef fn = LLVMGetFirstFunction(c->mod); fn; fn = LLVMGetNextFunction(fn)) {
    if (!cc_is_kernel(fn)) continue;
    if (cc_emit_kernel_args(c, fn, out) != 0) {
      index++;
      continue;
    }
    cc_mf *f = cc_select(c, fn);
    if (!f) continue;
    cc_ra_opts ro = {.max_sregs = 64, .max_vregs = 64};
    cc_ra_state st;
    cc_resources res;
    if (c->opts.opt_level > 0 && cc_opt_local(f) != 0) f->oom = true;
    if (getenv("VT_CC_DUMP_MIR")) cc_mf_dump(stderr, f);
    if (!f->oom && cc_simt(c, f) == 0 && cc_regalloc(c, f, &ro, &st) == 0)
      cc_emit_kernel(c, f, &st, index, out, &res);
    cc_mf_free(f);
    index++;
  }
  if (!index && !c->errors) {
    cc_buf_printf(&c->log, "%s: error: the program has no kernel\n", c->display_name);
    c->errors++;
  }
  if (!c->errors) cc_emit_data(c, out);
  return c->errors ? -1 : 0;
}
