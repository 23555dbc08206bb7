/* The registers GDB sees and their target description: the RISC-V cpu
 * feature (x0..x31 and pc of the selected warp), the CSRs the warp has
 * (regnum 65 + CSR number, as GDB's RISC-V port numbers them), and two
 * Ventus features: x32..x255 (register extension, isa.md 2.6) and, for the
 * lane `monitor lane N` selects, v0..v255 with the lane number and the
 * SIMT mask. */
#include <stdlib.h>
#include <string.h>

#include "gdb_internal.h"

static void reg(gdb_buf *b, const char *name, unsigned num, const char *type, const char *group) {
  gdb_buf_printf(b, "<reg name=\"%s\" bitsize=\"32\" regnum=\"%u\" type=\"%s\"%s%s%s/>\n", name,
                 num, type, group ? " group=\"" : "", group ? group : "", group ? "\"" : "");
}

char *gdb_target_xml(size_t *len) {
  gdb_buf b = {0};
  gdb_buf_puts(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
                   "<target version=\"1.0\">\n<architecture>riscv:rv32</architecture>\n"
                   "<feature name=\"org.gnu.gdb.riscv.cpu\">\n");
  char name[16];
  for (unsigned r = 0; r < 32; r++) {
    snprintf(name, sizeof name, "x%u", r);
    reg(&b, name, r, r == 1 ? "code_ptr" : r == 2 ? "data_ptr" : "int", NULL);
  }
  reg(&b, "pc", GDB_REG_PC, "code_ptr", NULL);
  gdb_buf_puts(&b, "</feature>\n<feature name=\"org.gnu.gdb.riscv.csr\">\n");
  for (unsigned c = 0; c < 4096; c++) {
    const char *n = vt_csr_name(c);
    if (n) reg(&b, n, GDB_REG_CSR + c, "int", "csr");
  }
  gdb_buf_puts(&b, "</feature>\n<feature name=\"org.thu.ventus.xext\">\n");
  for (unsigned r = 32; r < VT_NUM_XREGS; r++) {
    snprintf(name, sizeof name, "x%u", r);
    reg(&b, name, GDB_REG_XEXT + r - 32, "int", "general");
  }
  gdb_buf_puts(&b, "</feature>\n<feature name=\"org.thu.ventus.lane\">\n");
  for (unsigned r = 0; r < VT_NUM_VREGS; r++) {
    snprintf(name, sizeof name, "v%u", r);
    reg(&b, name, GDB_REG_VLANE + r, "int", "vector");
  }
  reg(&b, "lane", GDB_REG_LANE, "int", "vector");
  reg(&b, "mask", GDB_REG_MASK, "int", "vector");
  gdb_buf_puts(&b, "</feature>\n</target>\n");
  if (b.oom) {
    gdb_buf_free(&b);
    return NULL;
  }
  *len = b.len;
  return b.p;
}

bool gdb_reg_get(vt_dbg *d, unsigned num, uint32_t *v) {
  if (!d->cur) return false;
  vt_warp_info wi;
  vt_warp_get_info(d->cur, &wi);
  if (num < 32) *v = vt_warp_get_x(d->cur, num);
  else if (num == GDB_REG_PC) *v = wi.pc;
  else if (num >= GDB_REG_CSR && num < GDB_REG_CSR + 4096)
    return vt_csr_name(num - GDB_REG_CSR) && vt_warp_get_csr(d->cur, num - GDB_REG_CSR, v) == 0;
  else if (num >= GDB_REG_XEXT && num < GDB_REG_XEXT + VT_NUM_XREGS - 32)
    *v = vt_warp_get_x(d->cur, num - GDB_REG_XEXT + 32);
  else if (num >= GDB_REG_VLANE && num < GDB_REG_VLANE + VT_NUM_VREGS)
    *v = vt_warp_get_v(d->cur, num - GDB_REG_VLANE, d->lane);
  else if (num == GDB_REG_LANE) *v = d->lane;
  else if (num == GDB_REG_MASK) *v = wi.mask;
  else return false;
  return true;
}

bool gdb_reg_set(vt_dbg *d, unsigned num, uint32_t v) {
  if (!d->cur) return false;
  if (num < 32) vt_warp_set_x(d->cur, num, v);
  else if (num == GDB_REG_PC) vt_warp_set_pc(d->cur, v);
  else if (num >= GDB_REG_CSR && num < GDB_REG_CSR + 4096)
    return vt_csr_name(num - GDB_REG_CSR) && vt_warp_set_csr(d->cur, num - GDB_REG_CSR, v) == 0;
  else if (num >= GDB_REG_XEXT && num < GDB_REG_XEXT + VT_NUM_XREGS - 32)
    vt_warp_set_x(d->cur, num - GDB_REG_XEXT + 32, v);
  else if (num >= GDB_REG_VLANE && num < GDB_REG_VLANE + VT_NUM_VREGS)
    vt_warp_set_v(d->cur, num - GDB_REG_VLANE, d->lane, v);
  else return false;
  return true;
}
