/* isagen: build-time generator. Reads the instruction table (compiled in
 * through the X-macro .def files), checks it, and writes isa_tables.c with
 * the constant descriptors, decode index, mnemonic indexes and per-instruction
 * print aliases, and a header of CSR numbers by name (VT_CSR_<NAME>, from
 * isa_csrs.def, the one definition of the CSRs). A table error fails the
 * build with messages naming the offending entries.
 * Usage: isagen OUTPUT.c CSR_HEADER.h */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../operand_table.h"
#include "vt/isa.h"

#define SEM(op, lat, ew, fl) VT_SEM_##op, VT_LAT_##lat, VT_EW_##ew, (fl)
#define MEM(kind, amode, size) VT_MEM_##kind, VT_AM_##amode, size
static const vt_raw_insn raw[] = {
#define INSN(id, mn, match, mask, cls, syn, sem, mem) {#id, mn, match, mask, cls, syn, {sem, mem}},
#include "vt/isa_insns.def"
#include "vt/isa_insns_v2025.def"
#undef INSN
};
#undef SEM
#undef MEM
#define NINSN (sizeof raw / sizeof raw[0])

typedef struct raw_alias {
  int insn;
  const char *mnemonic, *syntax, *cons;
  int flags;
} raw_alias;

#define AL_PRINT VT_AL_PRINT
#define AL_ASM VT_AL_ASM
static const raw_alias raw_aliases[] = {
#define ALIAS(id, mn, syn, cons, fl) {VT_INSN_##id, mn, syn, cons, fl},
#include "vt/isa_aliases.def"
#undef ALIAS
};
#define NALIAS (sizeof raw_aliases / sizeof raw_aliases[0])

static char tmpls[NINSN][128];
static uint8_t opids[NINSN][VT_MAX_OPERANDS], nopids[NINSN];
static char atmpls[NALIAS][128];
static uint8_t aopids[NALIAS][VT_MAX_OPERANDS], anopids[NALIAS];
static vt_alias_constraint acons[NALIAS][3];
static int ancons[NALIAS];

/* separator before the i-th number of a list: 16 a line */
static const char *sep(size_t i) { return i == 0 ? "\n  " : i % 16 ? ", " : ",\n  "; }

static int popcount64(uint64_t x) {
  int c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}

static void put_cstring(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p >= 0x80 || *p < 0x20 || *p == '"' || *p == '\\')
      fprintf(f, "\\%03o", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

static int find_operand(const char *s, size_t len) {
  for (int k = 0; k < VT_OP_COUNT; k++)
    if (strlen(vt_operand_table[k].name) == len && !memcmp(vt_operand_table[k].name, s, len))
      return k;
  return -1;
}

static int parse_constraints(size_t a) {
  const char *p = raw_aliases[a].cons;
  int n = 0;
  while (*p) {
    const char *eq = strchr(p, '=');
    const char *end = strchr(p, ',');
    if (!end) end = p + strlen(p);
    if (!eq || eq > end) return -1;
    int op = find_operand(p, (size_t)(eq - p));
    if (op < 0 || n >= 3) return -1;
    const char *v = eq + 1;
    int ref = find_operand(v, (size_t)(end - v));
    acons[a][n].op = (uint8_t)op;
    if (ref >= 0) {
      acons[a][n].is_ref = 1;
      acons[a][n].value = ref;
    } else {
      char *e;
      long val = strtol(v, &e, 0);
      if (e != end) return -1;
      acons[a][n].is_ref = 0;
      acons[a][n].value = (int32_t)val;
    }
    n++;
    p = *end ? end + 1 : end;
  }
  ancons[a] = n;
  return 0;
}

static const char *names_for_sort_insn(size_t i) { return raw[i].mnemonic; }
static int cmp_insn_name(const void *x, const void *y) {
  uint16_t a = *(const uint16_t *)x, b = *(const uint16_t *)y;
  int c = strcmp(names_for_sort_insn(a), names_for_sort_insn(b));
  return c ? c : (a > b) - (a < b);
}
static int cmp_alias_name(const void *x, const void *y) {
  uint16_t a = *(const uint16_t *)x, b = *(const uint16_t *)y;
  int c = strcmp(raw_aliases[a].mnemonic, raw_aliases[b].mnemonic);
  return c ? c : (a > b) - (a < b);
}
/* isa2025.md D1: a row whose opcode is 0x3f is a 64-bit instruction */
static unsigned row_length(size_t i) { return (raw[i].match & 0x7f) == 0x3f ? 8 : 4; }

/* decode order: most fixed bits first (a declared superset comes after the
 * rows it contains, vt_isa_check_table) */
static int cmp_specific(const void *x, const void *y) {
  uint16_t a = *(const uint16_t *)x, b = *(const uint16_t *)y;
  int pa = popcount64(raw[a].mask), pb = popcount64(raw[b].mask);
  if (pa != pb) return pb - pa;
  return (a > b) - (a < b);
}

/* Flags the operand list implies (VT_F_VEC, VT_F_BX, VT_F_BI), added to the
 * row's own. */
static uint32_t derived_flags(size_t i) {
  uint32_t fl = raw[i].sem.flags;
  for (uint8_t k = 0; k < nopids[i]; k++) {
    const vt_operand_desc *od = &vt_operand_table[opids[i][k]];
    if (od->kind == VT_OPK_VREG) fl |= VT_F_VEC;
  }
  bool has_vs1 = false, has_rs2 = false;
  for (uint8_t k = 0; k < nopids[i]; k++) {
    has_vs1 |= opids[i][k] == VT_OP_VS1;
    has_rs2 |= opids[i][k] == VT_OP_RS2;
  }
  for (uint8_t k = 0; k < nopids[i]; k++) {
    int op = opids[i][k];
    const vt_operand_desc *od = &vt_operand_table[op];
    if ((fl & VT_F_VEC) && !has_vs1 && op == VT_OP_RS1) fl |= VT_F_BX;
    if (op == VT_OP_X8S1) fl |= VT_F_BX; /* the scalar src1 of VOP64 .vx/.vf */
    if (!(fl & VT_F_VEC) && has_rs2 && op == VT_OP_RS2) fl |= VT_F_BX;
    if (od->kind == VT_OPK_IMM && !(od->flags & VT_OPF_KEY)) fl |= VT_F_BI; /* not modifiers */
  }
  return fl;
}

/* Semantic columns that contradict each other or the unit; messages name
 * the row. */
static int check_semantics(void) {
  int bad = 0;
  for (size_t i = 0; i < NINSN; i++) {
    const vt_raw_sem *m = &raw[i].sem;
    int u = raw[i].exec_class;
    bool memunit = u == VT_EX_LOAD || u == VT_EX_STORE || u == VT_EX_AMO || u == VT_EX_VLOAD ||
                   u == VT_EX_VSTORE;
    const char *why = NULL;
    bool copy = m->mem == VT_MEM_COPY; /* asynchronous copies: the DMA unit (isa2025.md 3.9) */
    if (copy != (u == VT_EX_DMA && m->sem != VT_SEM_COPY_WAIT))
      why = "a copy outside the DMA unit, or a DMA row that is not a copy";
    else if (copy && (m->amode != VT_AM_DMA || (m->msize != 4 && m->msize != 8 && m->msize != 16)))
      why = "a copy needs the DMA addressing and a size of 4, 8 or 16";
    else if (copy) why = NULL;
    else if (memunit != (m->mem != VT_MEM_NONE)) why = "memory unit without a MEM access, or the reverse";
    else if (m->mem != VT_MEM_NONE && m->msize != 1 && m->msize != 2 && m->msize != 4 && m->msize != 8)
      why = "memory access size is not 1, 2, 4 or 8";
    else if (m->mem != VT_MEM_NONE && m->amode == VT_AM_NONE) why = "memory access without an addressing mode";
    else if ((u == VT_EX_LOAD || u == VT_EX_VLOAD) && m->mem != VT_MEM_LOAD) why = "load unit, not a load";
    else if ((u == VT_EX_STORE || u == VT_EX_VSTORE) && m->mem != VT_MEM_STORE) why = "store unit, not a store";
    else if (m->lat != VT_LAT_UNIT && u != VT_EX_FPU && u != VT_EX_VFPU)
      why = "an FPU latency class on a unit that is not an FPU";
    else if ((m->flags & (VT_F_NEGP | VT_F_NEGC | VT_F_MADD)) && m->sem != VT_SEM_MAC &&
             m->sem != VT_SEM_FMA)
      why = "multiply-add flags on an operation that is not MAC or FMA";
    if (why) {
      fprintf(stderr, "isagen: '%s' (%s): %s\n", raw[i].mnemonic, raw[i].id, why);
      bad++;
    }
  }
  return bad;
}

static const struct {
  unsigned num;
  const char *name;
} csr_list[] = {
#define CSR(num, name, ventus) {num, name},
#include "vt/isa_csrs.def"
#include "vt/isa_csrs_v2025.def"
#undef CSR
};

static int write_csr_header(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return -1;
  }
  fprintf(f, "/* Generated by isagen from vt/isa_csrs.def. Do not edit. */\n");
  fprintf(f, "#ifndef VT_CSR_IDS_H\n#define VT_CSR_IDS_H\n");
  for (size_t i = 0; i < sizeof csr_list / sizeof csr_list[0]; i++) {
    fprintf(f, "#define VT_CSR_");
    for (const char *c = csr_list[i].name; *c; c++)
      fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, f);
    fprintf(f, " 0x%03xu\n", csr_list[i].num);
  }
  fprintf(f, "#endif\n");
  return fclose(f) == 0 ? 0 : -1;
}

/* the syntax templates of the rows; 0 or 1 (reported) */
static int compile_rows(void) {
  for (size_t i = 0; i < NINSN; i++) {
    char msg[256];
    if (vt_isa_compile_syntax(raw[i].syntax, vt_operand_table, VT_OP_COUNT, tmpls[i],
                              sizeof tmpls[i], opids[i], &nopids[i], msg, sizeof msg)) {
      fprintf(stderr, "isagen: %s: %s\n", raw[i].id, msg);
      return 1;
    }
  }
  return 0;
}

/* alias a gives every operand of its base and names only operands of it;
 * 0 or 1 (reported) */
static int check_alias_operands(size_t a) {
  int base = raw_aliases[a].insn;
  for (uint8_t j = 0; j < nopids[base]; j++) {
    int op = opids[base][j], found = 0;
    for (uint8_t k = 0; k < anopids[a]; k++) found |= aopids[a][k] == op;
    for (int k = 0; k < ancons[a]; k++) found |= acons[a][k].op == op;
    if (!found && !(vt_operand_table[op].flags & VT_OPF_OPTIONAL)) {
      fprintf(stderr, "isagen: alias %s of %s leaves operand '%s' undefined\n",
              raw_aliases[a].mnemonic, raw[base].mnemonic, vt_operand_table[op].name);
      return 1;
    }
  }
  for (uint8_t k = 0; k < anopids[a]; k++) {
    int op = aopids[a][k], found = 0;
    for (uint8_t j = 0; j < nopids[base]; j++) found |= opids[base][j] == op;
    if (!found) {
      fprintf(stderr, "isagen: alias %s names operand '%s' that %s does not have\n",
              raw_aliases[a].mnemonic, vt_operand_table[op].name, raw[base].mnemonic);
      return 1;
    }
  }
  return 0;
}

/* the aliases' templates and constraints; 0 or 1 (reported) */
static int compile_aliases(void) {
  for (size_t a = 0; a < NALIAS; a++) {
    char msg[256];
    if (vt_isa_compile_syntax(raw_aliases[a].syntax, vt_operand_table, VT_OP_COUNT, atmpls[a],
                              sizeof atmpls[a], aopids[a], &anopids[a], msg, sizeof msg)) {
      fprintf(stderr, "isagen: alias %s: %s\n", raw_aliases[a].mnemonic, msg);
      return 1;
    }
    if (parse_constraints(a)) {
      fprintf(stderr, "isagen: alias %s: bad constraints \"%s\"\n", raw_aliases[a].mnemonic,
              raw_aliases[a].cons);
      return 1;
    }
    if (check_alias_operands(a)) return 1;
  }
  return 0;
}

static void write_descriptors(FILE *f) {
  fprintf(f, "const vt_insn_desc vt_isa_insns_tbl[%zu] = {\n", NINSN);
  for (size_t i = 0; i < NINSN; i++) {
    const vt_raw_sem *m = &raw[i].sem;
    fprintf(f, "  {\"%s\", 0x%016llxull, 0x%016llxull, %u, %d, %d, %d, %d, %d, %d, %d, 0x%08xu, %u, {",
            raw[i].mnemonic, (unsigned long long)raw[i].match, (unsigned long long)raw[i].mask,
            row_length(i), raw[i].exec_class, m->lat, m->sem, m->ew, m->mem, m->amode, m->msize,
            derived_flags(i), nopids[i]);
    for (int j = 0; j < VT_MAX_OPERANDS; j++) fprintf(f, "%s%u", j ? ", " : "", opids[i][j]);
    fprintf(f, "}, ");
    put_cstring(f, tmpls[i]);
    fprintf(f, "}, /* %s */\n", raw[i].id);
  }
  fprintf(f, "};\n\n");
  fprintf(f, "const vt_alias_desc vt_isa_aliases_tbl[%zu] = {\n", NALIAS);
  for (size_t a = 0; a < NALIAS; a++) {
    fprintf(f, "  {\"%s\", %d, %d, %u, {", raw_aliases[a].mnemonic, raw_aliases[a].insn,
            raw_aliases[a].flags, anopids[a]);
    for (int j = 0; j < VT_MAX_OPERANDS; j++) fprintf(f, "%s%u", j ? ", " : "", aopids[a][j]);
    fprintf(f, "}, %d, {", ancons[a]);
    for (int k = 0; k < 3; k++)
      fprintf(f, "%s{%u, %u, %d}", k ? ", " : "", acons[a][k].op, acons[a][k].is_ref,
              acons[a][k].value);
    fprintf(f, "}, ");
    put_cstring(f, atmpls[a]);
    fprintf(f, "},\n");
  }
  fprintf(f, "};\nconst size_t vt_isa_alias_n = %zu;\n\n", NALIAS);
}

/* the decode index of the 32-bit rows (bucket = opcode | funct3 << 7) and
 * the list of 64-bit rows, most specific first */
static void write_decode_index(FILE *f) {
  static uint16_t bucket[1024][NINSN];
  static size_t bn[1024];
  for (size_t i = 0; i < NINSN; i++)
    for (unsigned b = 0; b < 1024 && row_length(i) == 4; b++) {
      uint32_t key = (b & 0x7f) | ((uint32_t)(b >> 7) << 12);
      uint32_t kmask = raw[i].mask & 0x707fu;
      if ((key & kmask) == (raw[i].match & kmask)) bucket[b][bn[b]++] = (uint16_t)i;
    }
  fprintf(f, "const uint16_t vt_isa_decode_start[1025] = {");
  size_t total = 0;
  for (unsigned b = 0; b < 1024; b++) {
    qsort(bucket[b], bn[b], sizeof(uint16_t), cmp_specific);
    fprintf(f, "%s%zu", sep(b), total);
    total += bn[b];
  }
  fprintf(f, ", %zu};\n", total);
  fprintf(f, "const uint16_t vt_isa_decode_list[%zu] = {", total ? total : 1);
  size_t k = 0;
  for (unsigned b = 0; b < 1024; b++)
    for (size_t j = 0; j < bn[b]; j++, k++) fprintf(f, "%s%u", sep(k), bucket[b][j]);
  if (!total) fprintf(f, "0");
  fprintf(f, "};\n\n");
  static uint16_t long_rows[NINSN];
  size_t nlong = 0;
  for (size_t i = 0; i < NINSN; i++)
    if (row_length(i) == 8) long_rows[nlong++] = (uint16_t)i;
  qsort(long_rows, nlong, sizeof(uint16_t), cmp_specific);
  fprintf(f, "const size_t vt_isa_decode64_n = %zu;\n", nlong);
  fprintf(f, "const uint16_t vt_isa_decode64_list[%zu] = {", nlong ? nlong : 1);
  for (size_t j = 0; j < nlong; j++) fprintf(f, "%s%u", sep(j), long_rows[j]);
  if (!nlong) fprintf(f, "0");
  fprintf(f, "};\n\n");
}

/* rows and aliases by name, and the aliases the disassembler prints per row */
static void write_name_indexes(FILE *f) {
  static uint16_t order[NINSN > NALIAS ? NINSN : NALIAS];
  for (size_t i = 0; i < NINSN; i++) order[i] = (uint16_t)i;
  qsort(order, NINSN, sizeof(uint16_t), cmp_insn_name);
  fprintf(f, "const uint16_t vt_isa_insn_by_name[%zu] = {", NINSN);
  for (size_t i = 0; i < NINSN; i++) fprintf(f, "%s%u", sep(i), order[i]);
  fprintf(f, "};\n");
  for (size_t a = 0; a < NALIAS; a++) order[a] = (uint16_t)a;
  qsort(order, NALIAS, sizeof(uint16_t), cmp_alias_name);
  fprintf(f, "const uint16_t vt_isa_alias_by_name[%zu] = {", NALIAS);
  for (size_t a = 0; a < NALIAS; a++) fprintf(f, "%s%u", sep(a), order[a]);
  fprintf(f, "};\n\n");
  fprintf(f, "const uint16_t vt_isa_print_alias_start[%zu] = {", NINSN + 1);
  size_t pa = 0;
  for (size_t i = 0; i <= NINSN; i++) {
    fprintf(f, "%s%zu", sep(i), pa);
    if (i < NINSN)
      for (size_t a = 0; a < NALIAS; a++)
        if (raw_aliases[a].insn == (int)i && (raw_aliases[a].flags & VT_AL_PRINT)) pa++;
  }
  fprintf(f, "};\nconst uint16_t vt_isa_print_alias_list[%zu] = {", pa ? pa : 1);
  size_t k = 0;
  for (size_t i = 0; i < NINSN; i++)
    for (size_t a = 0; a < NALIAS; a++)
      if (raw_aliases[a].insn == (int)i && (raw_aliases[a].flags & VT_AL_PRINT))
        fprintf(f, "%s%zu", sep(k), a), k++;
  if (!pa) fprintf(f, "0");
  fprintf(f, "};\n");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: isagen OUTPUT.c CSR_HEADER.h\n");
    return 2;
  }
  if (write_csr_header(argv[2]) != 0) return 1;
  static char err[1 << 16];
  int problems = vt_isa_check_table(raw, NINSN, vt_operand_table, VT_OP_COUNT, err, sizeof err);
  if (problems) {
    fprintf(stderr, "isagen: the instruction table has %d problem(s):\n%s", problems, err);
    return 1;
  }
  if (compile_rows() || check_semantics() || compile_aliases()) return 1;
  FILE *f = fopen(argv[1], "w");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  fprintf(f, "/* Generated by isagen from vt/isa_*.def. Do not edit. */\n");
  fprintf(f, "#include \"isa_tables.h\"\n\n");
  write_descriptors(f);
  write_decode_index(f);
  write_name_indexes(f);
  if (fclose(f)) {
    perror(argv[1]);
    return 1;
  }
  return 0;
}
