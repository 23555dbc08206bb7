/* print, set and x: registers (x, v per lane, CSRs, pc, mask) of the
 * current warp and memory in the three address spaces, as hex, signed,
 * unsigned or float. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dbg_internal.h"

static void format_value(char fmt, uint32_t v, char *buf, size_t n) {
  switch (fmt) {
  case 'd': snprintf(buf, n, "%d", (int32_t)v); break;
  case 'u': snprintf(buf, n, "%u", v); break;
  case 'f': {
    float f;
    memcpy(&f, &v, 4);
    if (isnan(f)) snprintf(buf, n, "%snan", signbit(f) ? "-" : "");
    else snprintf(buf, n, "%.9g", (double)f);
    break;
  }
  default: snprintf(buf, n, "0x%08x", v); break;
  }
}

/* what a register name in a command refers to */
typedef struct reg_ref {
  char kind;   /* 'x', 'v', 'c' (CSR), 'p' (pc), 'm' (mask), 0: not a register */
  unsigned num;
  int lane;    /* v: -1 = every lane */
} reg_ref;

/* "x5", "a0", "v3", "v3[7]", "csr NAME|NUM", "pc", "mask" (a leading $
 * allowed); *rest points after it */
static int parse_reg(const char *s, reg_ref *r, const char **rest, char *err, size_t errn) {
  memset(r, 0, sizeof *r);
  r->lane = -1;
  while (isspace((unsigned char)*s)) s++;
  if (*s == '$') s++;
  size_t n = 0;
  while (isalnum((unsigned char)s[n]) || s[n] == '_') n++;
  if (n == 3 && !strncmp(s, "csr", 3)) {
    const char *a = s + 3;
    while (isspace((unsigned char)*a)) a++;
    size_t m = 0;
    while (isalnum((unsigned char)a[m]) || a[m] == '_') m++;
    int c = vt_parse_csr(a, m);
    char *end;
    unsigned long num = strtoul(a, &end, 0);
    if (c < 0 && end == a + m && m && num < 4096) c = (int)num;
    if (c < 0) {
      snprintf(err, errn, "unknown CSR '%.*s'", (int)m, a);
      return -1;
    }
    r->kind = 'c';
    r->num = (unsigned)c;
    *rest = a + m;
    return 0;
  }
  int v = s[0] == 'v' ? vt_parse_vreg(s, n) : -1;
  int x = v < 0 ? vt_parse_xreg(s, n, false) : -1;
  if (v >= 0) r->kind = 'v', r->num = (unsigned)v;
  else if (x >= 0) r->kind = 'x', r->num = (unsigned)x;
  else if (n == 2 && !strncmp(s, "pc", 2)) r->kind = 'p';
  else if (n == 4 && !strncmp(s, "mask", 4)) r->kind = 'm';
  s += n;
  if (r->kind == 'v' && *s == '[') {
    char *end;
    unsigned long l = strtoul(s + 1, &end, 0);
    if (end == s + 1 || *end != ']' || l >= VT_MAX_LANES) {
      snprintf(err, errn, "bad lane in '%s' (expected vN[LANE], LANE below the warp's lanes)", s);
      return -1;
    }
    r->lane = (int)l;
    s = end + 1;
  }
  *rest = s;
  return 0;
}

static bool need_warp(vt_dbg *d, FILE *out) {
  if (d->cur) return true;
  fprintf(out, "error: no warp is selected (the program is not running)\n");
  return false;
}

static void print_vector(vt_dbg *d, char fmt, const reg_ref *r, FILE *out) {
  vt_warp_info wi;
  vt_warp_get_info(d->cur, &wi);
  unsigned lo = r->lane >= 0 ? (unsigned)r->lane : 0, hi = r->lane >= 0 ? lo + 1 : wi.lanes;
  for (unsigned l = lo; l < hi; l++) {
    char val[48];
    format_value(fmt, vt_warp_get_v(d->cur, r->num, l), val, sizeof val);
    fprintf(out, "v%u[%u] = %s%s\n", r->num, l, val,
            l >= wi.lanes ? "   (no such lane)" : (wi.mask >> l) & 1 ? "" : "   (inactive)");
  }
}

int dbg_cmd_print(vt_dbg *d, char fmt, const char *args, FILE *out) {
  char err[256];
  reg_ref r;
  const char *rest;
  if (parse_reg(args, &r, &rest, err, sizeof err) != 0) {
    fprintf(out, "error: %s\n", err);
    return -1;
  }
  while (isspace((unsigned char)*rest)) rest++;
  char val[48];
  if (r.kind && !*rest) {
    if (!need_warp(d, out)) return -1;
    vt_warp_info wi;
    vt_warp_get_info(d->cur, &wi);
    uint32_t v = 0;
    if (r.kind == 'v') {
      print_vector(d, fmt, &r, out);
      return 0;
    }
    if (r.kind == 'c' && vt_warp_get_csr(d->cur, r.num, &v) != 0) {
      fprintf(out, "error: CSR 0x%03x cannot be read\n", r.num);
      return -1;
    }
    if (r.kind == 'x') v = vt_warp_get_x(d->cur, r.num);
    if (r.kind == 'p') v = wi.pc;
    if (r.kind == 'm') v = wi.mask;
    format_value(fmt, v, val, sizeof val);
    if (r.kind == 'c') {
      const char *name = vt_csr_name(r.num);
      fprintf(out, "%s (0x%03x) = %s\n", name ? name : "csr", r.num, val);
    } else if (r.kind == 'x') {
      fprintf(out, "x%u%s%s%s = %s\n", r.num, r.num < 32 ? " (" : "",
              r.num < 32 ? vt_xreg_name(r.num) : "", r.num < 32 ? ")" : "", val);
    } else {
      fprintf(out, "%s = %s\n", r.kind == 'p' ? "pc" : "mask", val);
    }
    return 0;
  }
  uint32_t v; /* any other value: a number, symbol, or sum */
  if (dbg_parse_value(d, args, &v, err, sizeof err) != 0) {
    fprintf(out, "error: %s\n", err);
    return -1;
  }
  format_value(fmt, v, val, sizeof val);
  fprintf(out, "%s\n", val);
  return 0;
}

/* a value to store: an integer expression, or a float literal */
static int parse_store_value(vt_dbg *d, const char *s, uint32_t *v, char *err, size_t errn) {
  while (isspace((unsigned char)*s)) s++;
  bool is_float = strpbrk(s, ".") != NULL && !strpbrk(s, "xX");
  if (is_float) {
    char *end;
    float f = strtof(s, &end);
    while (isspace((unsigned char)*end)) end++;
    if (end != s && !*end) {
      memcpy(v, &f, 4);
      return 0;
    }
  }
  return dbg_parse_value(d, s, v, err, errn);
}

/* set *[lds:|priv:LANE:]ADDR = VALUE: one 32-bit word */
static int set_memory(vt_dbg *d, const char *args, FILE *out) {
  char buf[256], err[256];
  snprintf(buf, sizeof buf, "%s", args + 1);
  char *eq = strchr(buf, '=');
  vt_mem_space space;
  unsigned lane;
  uint32_t addr, v;
  if (!eq) {
    fprintf(out, "error: expected set *ADDRESS = VALUE\n");
    return -1;
  }
  *eq = 0;
  if (dbg_parse_address(d, buf, &space, &lane, &addr, err, sizeof err) != 0 ||
      parse_store_value(d, eq + 1, &v, err, sizeof err) != 0) {
    fprintf(out, "error: %s\n", err);
    return -1;
  }
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  vt_error e;
  if (vt_debug_mem_write(d->dev, d->cur, space, lane, addr, b, 4, &e) != VT_OK) {
    fprintf(out, "error: %s\n", e.message);
    return -1;
  }
  return 0;
}

int dbg_cmd_set(vt_dbg *d, const char *args, FILE *out) {
  char err[256];
  reg_ref r;
  const char *rest;
  while (isspace((unsigned char)*args)) args++;
  if (*args == '*') return set_memory(d, args, out);
  if (parse_reg(args, &r, &rest, err, sizeof err) != 0 || !r.kind) {
    fprintf(out, "error: %s\n", r.kind ? err : "expected set REGISTER = VALUE (x5, v3[7], v3, "
                                             "csr NAME, pc)");
    return -1;
  }
  while (isspace((unsigned char)*rest)) rest++;
  uint32_t v;
  if (*rest != '=' || parse_store_value(d, rest + 1, &v, err, sizeof err) != 0) {
    fprintf(out, "error: %s\n", *rest != '=' ? "expected '=' and a value" : err);
    return -1;
  }
  if (!need_warp(d, out)) return -1;
  vt_warp_info wi;
  vt_warp_get_info(d->cur, &wi);
  switch (r.kind) {
  case 'x':
    if (r.num == 0) fprintf(out, "(x0 is always 0)\n");
    vt_warp_set_x(d->cur, r.num, v);
    break;
  case 'v':
    if (r.lane >= (int)wi.lanes) {
      fprintf(out, "error: the warp has %u lanes\n", wi.lanes);
      return -1;
    }
    for (unsigned l = 0; l < wi.lanes; l++)
      if (r.lane == (int)l || (r.lane < 0 && ((wi.mask >> l) & 1))) vt_warp_set_v(d->cur, r.num, l, v);
    break;
  case 'c':
    if (vt_warp_set_csr(d->cur, r.num, v) != 0) {
      fprintf(out, "error: CSR 0x%03x cannot be written\n", r.num);
      return -1;
    }
    break;
  case 'p': vt_warp_set_pc(d->cur, v); break;
  default:
    fprintf(out, "error: the SIMT mask cannot be set\n");
    return -1;
  }
  return 0;
}

/* x/NFU: count, format (x d u f i), unit (b h w) */
static int parse_spec(const char *spec, unsigned *count, char *fmt, unsigned *size) {
  *count = 1;
  *fmt = 'x';
  *size = 4;
  if (!*spec) return 0;
  char *end;
  unsigned long c = strtoul(spec, &end, 10);
  if (end != spec) {
    if (c == 0 || c > 65536) return -1;
    *count = (unsigned)c;
  }
  for (; *end; end++) {
    if (strchr("xduf", *end) || *end == 'i') *fmt = *end;
    else if (*end == 'b') *size = 1;
    else if (*end == 'h') *size = 2;
    else if (*end == 'w') *size = 4;
    else return -1;
  }
  return *fmt == 'f' && *size != 4 ? -1 : 0;
}

int dbg_cmd_examine(vt_dbg *d, const char *spec, const char *args, FILE *out) {
  unsigned count, size;
  char fmt, err[256];
  if (parse_spec(spec, &count, &fmt, &size) != 0) {
    fprintf(out, "error: bad format '/%s' (x/NFU: N a count, F one of x d u f i, U one of b h w; "
                 "f needs w)\n", spec);
    return -1;
  }
  vt_mem_space space;
  unsigned lane;
  uint32_t addr;
  if (dbg_parse_address(d, args, &space, &lane, &addr, err, sizeof err) != 0) {
    fprintf(out, "error: %s\n", err);
    return -1;
  }
  if (fmt == 'i') {
    if (space != VT_SPACE_GLOBAL) {
      fprintf(out, "error: instructions are fetched from global memory\n");
      return -1;
    }
    dbg_disassemble(d, addr, count, out);
    return 0;
  }
  unsigned per_line = size == 4 ? 4 : 8;
  for (unsigned i = 0; i < count; i += per_line) {
    uint32_t at = addr + i * size;
    char sym[96] = "";
    if (space == VT_SPACE_LOCAL) fprintf(out, "lds:0x%08x:", at);
    else if (space == VT_SPACE_PRIVATE) fprintf(out, "priv:%u:0x%08x:", lane, at);
    else {
      dbg_symbolize(d, at, sym, sizeof sym);
      fprintf(out, "0x%08x%s%s%s:", at, *sym ? " <" : "", sym, *sym ? ">" : "");
    }
    for (unsigned k = 0; k < per_line && i + k < count; k++) {
      uint8_t b[4] = {0};
      vt_error e;
      if (vt_debug_mem_read(d->dev, d->cur, space, lane, at + k * size, b, size, &e) != VT_OK) {
        fprintf(out, "\nerror: %s\n", e.message);
        return -1;
      }
      uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
      char val[48];
      if (fmt == 'x') snprintf(val, sizeof val, "0x%0*x", 2 * (int)size, v);
      else if (fmt == 'd' && size < 4) snprintf(val, sizeof val, "%d", size == 1 ? (int8_t)v : (int16_t)v);
      else format_value(fmt, v, val, sizeof val);
      fprintf(out, " %s", val);
    }
    fputc('\n', out);
  }
  return 0;
}
