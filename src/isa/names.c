/* Register, CSR, rounding-mode, vtype and fence-set names. */
#include <stdio.h>
#include <string.h>

#include "vt/isa.h"

static const char *const xreg_names[32] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
static const char *const freg_names[32] = {
    "ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",  "fs0", "fs1", "fa0",
    "fa1", "fa2", "fa3",  "fa4",  "fa5", "fa6", "fa7",  "fs2",  "fs3", "fs4", "fs5",
    "fs6", "fs7", "fs8",  "fs9",  "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

const char *vt_xreg_name(unsigned r) { return r < 32 ? xreg_names[r] : "?"; }

/* "x0".."x255" (registers above 31 are reached through register extension,
 * isa.md 2.6, or the 8-bit fields of 64-bit instructions); limit 32 for the
 * f names */
static int parse_numbered(const char *s, size_t len, char prefix, int limit) {
  if (len < 2 || len > 4 || s[0] != prefix) return -1;
  int v = 0;
  for (size_t i = 1; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  if (len >= 3 && s[1] == '0') return -1;
  return v < limit ? v : -1;
}

static int match_name(const char *const *names, const char *s, size_t len) {
  for (int i = 0; i < 32; i++)
    if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0) return i;
  return -1;
}

int vt_parse_xreg(const char *s, size_t len, bool allow_fnames) {
  int r = parse_numbered(s, len, 'x', 256);
  if (r >= 0) return r;
  r = match_name(xreg_names, s, len);
  if (r >= 0) return r;
  if (len == 2 && memcmp(s, "fp", 2) == 0) return 8;
  if (allow_fnames) {
    r = parse_numbered(s, len, 'f', 32);
    if (r >= 0) return r;
    return match_name(freg_names, s, len);
  }
  return -1;
}

int vt_parse_vreg(const char *s, size_t len) { return parse_numbered(s, len, 'v', 256); }

typedef struct csr_entry {
  unsigned num;
  const char *name;
  int ventus;
} csr_entry;

static const csr_entry csr_table[] = {
#define CSR(num, name, ventus) {num, name, ventus},
#include "vt/isa_csrs.def"
#include "vt/isa_csrs_v2025.def"
#undef CSR
};

const char *vt_csr_name(unsigned num) {
  for (size_t i = 0; i < sizeof csr_table / sizeof csr_table[0]; i++)
    if (csr_table[i].num == num) return csr_table[i].name;
  return NULL;
}

bool vt_csr_is_ventus(unsigned num) {
  for (size_t i = 0; i < sizeof csr_table / sizeof csr_table[0]; i++)
    if (csr_table[i].num == num) return csr_table[i].ventus != 0;
  return false;
}

int vt_parse_csr(const char *s, size_t len) {
  for (size_t i = 0; i < sizeof csr_table / sizeof csr_table[0]; i++) {
    const char *n = csr_table[i].name;
    size_t nl = strlen(n);
    if (nl == len && memcmp(n, s, len) == 0) return (int)csr_table[i].num;
    /* CSR_TID ... for the Ventus CSRs (spec README decision 18) */
    if (csr_table[i].ventus && len == nl + 4 && memcmp(s, "CSR_", 4) == 0) {
      size_t k;
      for (k = 0; k < nl; k++) {
        char c = s[4 + k];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != n[k]) break;
      }
      if (k == nl) return (int)csr_table[i].num;
    }
  }
  return -1;
}

const char *vt_rm_name(unsigned rm) {
  static const char *const names[8] = {"rne", "rtz", "rdn", "rup", "rmm", NULL, NULL, "dyn"};
  return rm < 8 ? names[rm] : NULL;
}

int vt_format_vtype(uint32_t vtype, char *buf, size_t n) {
  unsigned lmul = vtype & 7, sew = (vtype >> 3) & 7;
  if ((vtype & ~0xffu) || sew > 3 || lmul == 4) return snprintf(buf, n, "%u", vtype);
  static const char *const lmuls[8] = {"m1", "m2", "m4", "m8", "", "mf8", "mf4", "mf2"};
  return snprintf(buf, n, "e%u, %s, %s, %s", 8u << sew, lmuls[lmul],
                  (vtype & 0x40) ? "ta" : "tu", (vtype & 0x80) ? "ma" : "mu");
}

int vt_format_fence(uint32_t set, char *buf, size_t n) {
  char s[5];
  int k = 0;
  if (set & 8) s[k++] = 'i';
  if (set & 4) s[k++] = 'o';
  if (set & 2) s[k++] = 'r';
  if (set & 1) s[k++] = 'w';
  s[k] = 0;
  return snprintf(buf, n, "%s", k ? s : "0");
}
