/* What the debugger shows: where a warp is (symbol, source line, the
 * instruction), the warps, the SIMT stack, the barriers, the registers and
 * disassembly. */
#include <stdlib.h>
#include <string.h>

#include "dbg_internal.h"

static const char *symbolizer(void *ctx, uint32_t addr, uint32_t *offset) {
  return dbg_symbol_near(ctx, addr, offset);
}

unsigned dbg_fetch(vt_dbg *d, const vt_warp *w, uint32_t pc, uint64_t *bits, char *text,
                   size_t n) {
  uint8_t b[8];
  vt_disasm_opts opts = {false, false, symbolizer, d};
  if ((pc & 3) || vt_debug_mem_read(d->dev, w, VT_SPACE_GLOBAL, 0, pc, b, 4, NULL) != VT_OK) {
    snprintf(text, n, "<cannot read memory>");
    *bits = 0;
    return 0;
  }
  uint64_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  unsigned len = vt_insn_length((uint32_t)v);
  if (len == 8 && vt_debug_mem_read(d->dev, w, VT_SPACE_GLOBAL, 0, pc + 4, b + 4, 4, NULL) == VT_OK)
    v |= (uint64_t)((uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
                    (uint32_t)b[7] << 24) << 32;
  else
    len = 4;
  if (len == 8) vt_disasm64(v, pc, &opts, text, n);
  else vt_disasm((uint32_t)v, pc, &opts, text, n);
  for (char *c = text; *c; c++)
    if (*c == '\t') *c = ' ';
  *bits = v;
  return len;
}

static uint32_t current_pc(const vt_dbg *d) {
  vt_warp_info wi;
  if (!d->cur) return 0;
  vt_warp_get_info(d->cur, &wi);
  return wi.pc;
}

void dbg_show_insn(vt_dbg *d, const vt_warp *w, uint32_t pc, bool current, FILE *out) {
  char text[160], sym[96], at[110] = "";
  uint64_t bits;
  unsigned len = dbg_fetch(d, w, pc, &bits, text, sizeof text);
  dbg_symbolize(d, pc, sym, sizeof sym);
  if (*sym) snprintf(at, sizeof at, " <%s>", sym);
  if (len == 8)
    fprintf(out, "%s0x%08x%s:  %016llx  %s\n", current ? "=> " : "   ", pc, at,
            (unsigned long long)bits, text);
  else
    fprintf(out, "%s0x%08x%s:  %08x  %s\n", current ? "=> " : "   ", pc, at, (unsigned)bits, text);
}

/* line 'line' of a source file, when it can be read */
static bool source_line(const char *path, uint32_t line, char *buf, size_t n) {
  FILE *f = fopen(path, "r");
  if (!f) return false;
  uint32_t at = 1;
  bool ok = false;
  while (fgets(buf, (int)n, f)) {
    size_t len = strlen(buf);
    bool whole = len && buf[len - 1] == '\n';
    if (at == line) {
      if (whole) buf[len - 1] = 0;
      ok = true;
      break;
    }
    if (whole) at++;
  }
  fclose(f);
  return ok;
}

void dbg_show_location(vt_dbg *d, vt_warp *w, FILE *out) {
  if (!w) {
    fprintf(out, "No warp is selected.\n");
    return;
  }
  vt_warp_info wi;
  vt_warp_get_info(w, &wi);
  char sym[96];
  dbg_symbolize(d, wi.pc, sym, sizeof sym);
  const char *file;
  uint32_t line;
  bool has_line = dbg_lines_at(&d->lines, wi.pc, &file, &line);
  fprintf(out, "warp %u (SM %u, WG %u, warp %u), mask %08x, at 0x%08x", dbg_gwarp(d, wi.wg, wi.warp),
          wi.sm, wi.wg, wi.warp, wi.mask, wi.pc);
  if (*sym) fprintf(out, " <%s>", sym);
  if (has_line) fprintf(out, ", %s:%u", file, line);
  fputc('\n', out);
  char src[256];
  if (has_line && source_line(file, line, src, sizeof src)) fprintf(out, "%u\t%s\n", line, src);
  if (wi.state == VT_WARP_ENDED) fprintf(out, "(the warp has ended)\n");
  else dbg_show_insn(d, w, wi.pc, true, out);
}

static const char *state_name(vt_warp_state s) {
  return s == VT_WARP_AT_BARRIER ? "at barrier" : s == VT_WARP_ENDED ? "ended" : "running";
}

/* the resident warps into a new array (caller frees); *n their number */
static vt_warp **resident(vt_dbg *d, size_t *n) {
  *n = 0;
  if (d->state != DBG_IN_LAUNCH) return NULL;
  size_t total = vt_device_warps(d->dev, NULL, 0);
  if (total > DBG_MAX_WARPS) total = DBG_MAX_WARPS;
  vt_warp **all = total ? malloc(total * sizeof *all) : NULL;
  if (all) {
    vt_device_warps(d->dev, all, total);
    *n = total;
  }
  return all;
}

void dbg_info_warps(vt_dbg *d, FILE *out) {
  size_t n;
  vt_warp **all = resident(d, &n);
  if (!n) {
    fprintf(out, "No warps: the program is not running.\n");
    free(all);
    return;
  }
  fprintf(out, "  Warp  SM  WG    W   State       SIMT  Mask      PC\n");
  for (size_t i = 0; i < n; i++) {
    vt_warp_info wi;
    vt_warp_get_info(all[i], &wi);
    bool cur = d->has_cur && wi.wg == d->cur_wg && wi.warp == d->cur_warp;
    char text[160], sym[96] = "";
    uint64_t bits;
    if (wi.state == VT_WARP_ENDED) snprintf(text, sizeof text, "-");
    else dbg_fetch(d, all[i], wi.pc, &bits, text, sizeof text);
    dbg_symbolize(d, wi.pc, sym, sizeof sym);
    fprintf(out, "%c %-5u %-3u %-5u %-3u %-11s %-5u %08x  0x%08x%s%s%s  %s\n", cur ? '*' : ' ',
            dbg_gwarp(d, wi.wg, wi.warp), wi.sm, wi.wg, wi.warp, state_name(wi.state),
            wi.simt_depth, wi.mask, wi.pc, *sym ? " <" : "", sym, *sym ? ">" : "", text);
  }
  vt_run_progress p;
  if (vt_device_progress(d->dev, &p)) {
    unsigned long long wgs = n / (d->warps_per_wg ? d->warps_per_wg : 1);
    unsigned long long rest = p.workgroups_total - p.workgroups_done - wgs;
    fprintf(out, "Workgroups: %llu resident, %llu done, %llu waiting (%llu in launch %u)\n", wgs,
            (unsigned long long)p.workgroups_done, rest, (unsigned long long)p.workgroups_total,
            d->launches);
  }
  free(all);
}

void dbg_info_simt(vt_dbg *d, FILE *out) {
  if (!d->cur) {
    fprintf(out, "No warp is selected.\n");
    return;
  }
  vt_warp_info wi;
  vt_warp_get_info(d->cur, &wi);
  fprintf(out, "warp %u (SM %u, WG %u, warp %u): mask %08x, SIMT stack depth %u\n",
          dbg_gwarp(d, wi.wg, wi.warp), wi.sm, wi.wg, wi.warp, wi.mask, wi.simt_depth);
  vt_simt_info e;
  for (unsigned i = 0; vt_warp_simt_entry(d->cur, i, &e); i++)
    fprintf(out, "  #%-3u %s reconvergence pc 0x%08x, else pc 0x%08x, else mask %08x\n", i,
            i == 0 ? "(top)" : "     ", e.r_pc, e.else_pc, e.else_mask);
}

/* the warps of one workgroup in one state, as " 0 1 2" */
static void list_state(vt_dbg *d, vt_warp **all, size_t n, unsigned wg, vt_warp_state s,
                       unsigned *count, char *buf, size_t size) {
  size_t k = 0;
  *count = 0;
  buf[0] = 0;
  for (size_t i = 0; i < n; i++) {
    vt_warp_info wi;
    vt_warp_get_info(all[i], &wi);
    if (wi.wg != wg || wi.state != s) continue;
    (*count)++;
    if (k < size)
      k += (size_t)snprintf(buf + k, size - k, " %u", dbg_gwarp(d, wi.wg, wi.warp));
  }
}

void dbg_info_barriers(vt_dbg *d, FILE *out) {
  size_t n;
  vt_warp **all = resident(d, &n);
  if (!n) fprintf(out, "No warps: the program is not running.\n");
  for (size_t i = 0; i < n; i++) {
    vt_warp_info wi;
    vt_warp_get_info(all[i], &wi);
    if (i > 0) { /* one line per workgroup: its warps are listed together */
      vt_warp_info prev;
      vt_warp_get_info(all[i - 1], &prev);
      if (prev.wg == wi.wg) continue;
    }
    char waiting[256], running[256], ended[256];
    unsigned nw, nr, ne;
    list_state(d, all, n, wi.wg, VT_WARP_AT_BARRIER, &nw, waiting, sizeof waiting);
    list_state(d, all, n, wi.wg, VT_WARP_RUNNING, &nr, running, sizeof running);
    list_state(d, all, n, wi.wg, VT_WARP_ENDED, &ne, ended, sizeof ended);
    fprintf(out, "workgroup %u (SM %u): %u of %u warps wait at a barrier", wi.wg, wi.sm, nw,
            wi.warps_per_wg);
    if (nw) fprintf(out, " (warps%s)", waiting);
    fprintf(out, "; running:%s; ended:%s\n", nr ? running : " none", ne ? ended : " none");
  }
  free(all);
}

void dbg_info_registers(vt_dbg *d, FILE *out) {
  if (!d->cur) {
    fprintf(out, "No warp is selected.\n");
    return;
  }
  for (unsigned r = 0; r < 32; r++)
    fprintf(out, "x%-2u %-4s 0x%08x%s", r, vt_xreg_name(r), vt_warp_get_x(d->cur, r),
            r % 4 == 3 ? "\n" : "   ");
  for (unsigned r = 32; r < VT_NUM_XREGS; r++) {
    uint32_t v = vt_warp_get_x(d->cur, r);
    if (v) fprintf(out, "x%-3u 0x%08x\n", r, v);
  }
  vt_warp_info wi;
  vt_warp_get_info(d->cur, &wi);
  fprintf(out, "pc       0x%08x   mask     %08x\n", wi.pc, wi.mask);
}

void dbg_disassemble(vt_dbg *d, uint32_t addr, unsigned n, FILE *out) {
  uint32_t pc = current_pc(d);
  for (unsigned i = 0; i < n; i++) {
    uint64_t bits;
    char text[160];
    unsigned len = dbg_fetch(d, d->cur, addr, &bits, text, sizeof text);
    dbg_show_insn(d, d->cur, addr, d->cur && addr == pc, out);
    addr += len ? len : 4;
  }
}
