/* Encoding oracle: GNU binutils (riscv64-unknown-elf-as). A generated file
 * holds every standard instruction form of the table with random operands
 * (branch targets are labels). The test's own expected words (built with
 * vt_operand_set), GNU as's .text and `vt as`'s .text must be identical, and
 * GNU objdump must show the same instructions for both files. Skips when
 * binutils-riscv64-unknown-elf is not installed. */
#include <ctype.h>

#include "check.h"
#include "gen_operands.h"

#define PER_INSN 8
#define MAX_LINES (VT_INSN_COUNT * PER_INSN)
#define GNU "riscv64-unknown-elf-"

static bool have_tool(const char *name) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
  return system(cmd) == 0;
}

static bool is_vector(const vt_insn_desc *d) {
  uint32_t op = (uint32_t)d->match & 0x7f;
  return op == 0x57 || ((op == 0x07 || op == 0x27) && ((d->match >> 12) & 7) != 2);
}

/* Instructions GNU as 2.40 does not accept in these configurations: F
 * loads and F moves are not Zfinx (fmv.x.w/fmv.w.x: test_isa_fmv.c) */
static bool gnu_lacks(vt_insn_id id) {
  return id == VT_INSN_FLW || id == VT_INSN_FSW || id == VT_INSN_FMV_X_W || id == VT_INSN_FMV_W_X;
}

/* Render one instruction from its operand values, independently of
 * vt_disasm: x names (f names for vector FP scalar operands), labels for
 * pc-relative targets, numeric CSRs. */
static void render(const vt_insn_desc *d, uint32_t word, int line, char *out, size_t n) {
  bool fp_scalar = d->mnemonic[0] == 'v' &&
                   (!strncmp(d->mnemonic, "vf", 2) || !strncmp(d->mnemonic, "vmf", 3)) &&
                   strcmp(d->mnemonic, "vfirst.m") != 0;
  static const char *const fnames[32] = {
      "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",
      "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5",
      "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  size_t o = (size_t)snprintf(out, n, "%s ", d->mnemonic);
  const char *pending = d->tmpl;
  for (const char *p = d->tmpl; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c < VT_TMPL_OP) continue;
    vt_operand_id op = (vt_operand_id)(c - VT_TMPL_OP);
    const vt_operand_desc *od = vt_isa_operand(op);
    int32_t v = vt_operand_get(op, word);
    char val[64];
    if ((od->flags & VT_OPF_OPTIONAL) && v == od->default_value) {
      const char *comma = p;
      while (comma > pending && *comma != ',') comma--;
      o += (size_t)snprintf(out + o, n - o, "%.*s", (int)(comma - pending), pending);
      pending = p + 1;
      continue;
    }
    switch ((vt_operand_kind)od->kind) {
    case VT_OPK_XREG:
    case VT_OPK_XRAW:
      snprintf(val, sizeof val, "%s", fp_scalar ? fnames[v] : vt_xreg_name((unsigned)v));
      break;
    case VT_OPK_VREG: snprintf(val, sizeof val, "v%d", v); break;
    case VT_OPK_PCREL: snprintf(val, sizeof val, "L%d", line + v / 4); break;
    case VT_OPK_RM: snprintf(val, sizeof val, "%s", vt_rm_name((unsigned)v)); break;
    case VT_OPK_VM: snprintf(val, sizeof val, "v0.t"); break;
    case VT_OPK_VTYPE: vt_format_vtype((uint32_t)v, val, sizeof val); break;
    case VT_OPK_FENCE: vt_format_fence((uint32_t)v, val, sizeof val); break;
    default: snprintf(val, sizeof val, "%d", v); break;
    }
    o += (size_t)snprintf(out + o, n - o, "%.*s%s", (int)(p - pending), pending, val);
    pending = p + 1;
  }
  snprintf(out + o, n - o, "%s", pending);
}

static uint8_t *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *buf = malloc(1 << 20);
  *size = buf ? fread(buf, 1, 1 << 20, f) : 0;
  fclose(f);
  return buf;
}

/* "  1c:\t0000a0fb          \tvlw12.v ..." -> word and mnemonic per line */
static size_t objdump_insns(const char *path, uint32_t *words, char (*mn)[24], size_t max) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[512];
  size_t n = 0;
  while (fgets(line, sizeof line, f) && n < max) {
    unsigned addr, w;
    char m[24];
    if (sscanf(line, " %x:\t%x \t%23s", &addr, &w, m) == 3 ||
        sscanf(line, " %x: %x %23s", &addr, &w, m) == 3) {
      words[n] = w;
      snprintf(mn[n], sizeof mn[n], "%s", m);
      n++;
    }
  }
  fclose(f);
  return n;
}

static void cross_check(check_state *st, bool vector, uint64_t seed) {
  static uint32_t expect[MAX_LINES];
  static char text[MAX_LINES][96];
  const char *tag = vector ? "v" : "s";
  const char *march = vector ? "rv32imaf_zicsr_zifencei_zve32f" : "rv32ima_zicsr_zifencei_zfinx";
  char src[256], gobj[256], gbin[256], velf[256], vbin[256], gdis[256], vdis[256];
  char cmd[4096];
  snprintf(src, sizeof src, "%s/gnu_%s.s", VT_TEST_TMP, tag);
  snprintf(gobj, sizeof gobj, "%s/gnu_%s.o", VT_TEST_TMP, tag);
  snprintf(gbin, sizeof gbin, "%s/gnu_%s.bin", VT_TEST_TMP, tag);
  snprintf(velf, sizeof velf, "%s/vt_%s.elf", VT_TEST_TMP, tag);
  snprintf(vbin, sizeof vbin, "%s/vt_%s.bin", VT_TEST_TMP, tag);
  snprintf(gdis, sizeof gdis, "%s/gnu_%s.dis", VT_TEST_TMP, tag);
  snprintf(vdis, sizeof vdis, "%s/vt_%s.dis", VT_TEST_TMP, tag);

  rng r = {seed};
  size_t n = 0;
  for (unsigned id = 0; id < VT_INSN_COUNT; id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    if (gen_rv32_tools_lack(d) || gnu_lacks((vt_insn_id)id) || is_vector(d) != vector)
      continue;
    for (int k = 0; k < PER_INSN; k++) expect[n++] = gen_random_word((vt_insn_id)id, &r, true);
  }
  /* pc-relative operands become labels of other lines within range */
  for (size_t i = 0; i < n; i++) {
    vt_insn_id id = vt_decode(expect[i]);
    const vt_insn_desc *d = vt_isa_insn(id);
    for (unsigned k = 0; k < d->nops; k++)
      if (vt_isa_operand((vt_operand_id)d->ops[k])->kind == VT_OPK_PCREL) {
        int64_t lo, hi;
        vt_operand_range((vt_operand_id)d->ops[k], &lo, &hi);
        int64_t span = hi / 4 < 900 ? hi / 4 : 900;
        int64_t j = (int64_t)i - span + (int64_t)rng_below(&r, (uint32_t)(2 * span + 1));
        if (j < 0) j = 0;
        if (j >= (int64_t)n) j = (int64_t)n - 1;
        expect[i] = vt_operand_set((vt_operand_id)d->ops[k], expect[i], (int32_t)((j - (int64_t)i) * 4));
      }
    render(d, expect[i], (int)i, text[i], sizeof text[i]);
  }
  FILE *f = fopen(src, "w");
  if (!f) {
    st->failed_checks++;
    return;
  }
  fprintf(f, "# generated by test_isa_gnu_as\n    .option norelax\n    .text\n    .globl _start\n_start:\n");
  for (size_t i = 0; i < n; i++) fprintf(f, "L%zu: %s\n", i, text[i]);
  fclose(f);

  snprintf(cmd, sizeof cmd,
           GNU "as -march=%s -o %s %s && " GNU "objcopy -O binary -j .text %s %s && " GNU
               "objdump -d %s > %s",
           march, gobj, src, gobj, gbin, gobj, gdis);
  if (system(cmd) != 0) {
    st->failed_checks++;
    fprintf(stderr, "GNU as rejected %s\n", src);
    return;
  }
  {
    size_t gsize = 0;
    uint8_t *g = read_all(gbin, &gsize);
    int bad = 0;
    for (size_t i = 0; g && i < n && i * 4 + 4 <= gsize; i++) {
      uint32_t gw = (uint32_t)g[4 * i] | (uint32_t)g[4 * i + 1] << 8 |
                    (uint32_t)g[4 * i + 2] << 16 | (uint32_t)g[4 * i + 3] << 24;
      if (gw != expect[i] && bad++ < 30)
        fprintf(stderr, "line %zu \"%s\": table encodes 0x%08x, GNU as 0x%08x\n", i + 6,
                text[i], expect[i], gw);
    }
    free(g);
    CHECK(st, bad == 0);
  }
  snprintf(cmd, sizeof cmd,
           "%s as -o %s %s && " GNU "objcopy -O binary -j .text %s %s && " GNU
           "objdump -d %s > %s && " GNU "readelf -a %s > %s.readelf",
           VT_BINARY, velf, src, velf, vbin, velf, vdis, velf, velf);
  if (system(cmd) != 0) {
    st->failed_checks++;
    fprintf(stderr, "vt as or GNU tools on its output failed: %s\n", cmd);
    return;
  }
  size_t gsize = 0, vsize = 0;
  uint8_t *g = read_all(gbin, &gsize), *v = read_all(vbin, &vsize);
  CHECK(st, g && gsize == n * 4);
  CHECK(st, v && vsize == n * 4);
  int bad = 0;
  for (size_t i = 0; g && v && i < n && i * 4 + 4 <= gsize && i * 4 + 4 <= vsize; i++) {
    uint32_t gw = (uint32_t)g[4 * i] | (uint32_t)g[4 * i + 1] << 8 |
                  (uint32_t)g[4 * i + 2] << 16 | (uint32_t)g[4 * i + 3] << 24;
    uint32_t vw = (uint32_t)v[4 * i] | (uint32_t)v[4 * i + 1] << 8 |
                  (uint32_t)v[4 * i + 2] << 16 | (uint32_t)v[4 * i + 3] << 24;
    if (gw != expect[i] || vw != expect[i]) {
      if (bad++ < 30)
        fprintf(stderr, "line %zu \"%s\": expected 0x%08x, GNU as 0x%08x, vt as 0x%08x\n",
                i + 6, text[i], expect[i], gw, vw);
    }
  }
  if (bad) {
    st->failed_checks++;
    fprintf(stderr, "%d of %zu %s lines differ\n", bad, n, tag);
  }
  free(g);
  free(v);

  /* GNU objdump shows the same instructions for both files */
  static uint32_t gw[MAX_LINES], vw[MAX_LINES];
  static char gm[MAX_LINES][24], vm[MAX_LINES][24];
  size_t gn = objdump_insns(gdis, gw, gm, MAX_LINES), vn = objdump_insns(vdis, vw, vm, MAX_LINES);
  CHECK(st, gn == n && vn == n);
  int diff = 0;
  for (size_t i = 0; i < gn && i < vn; i++)
    if (gw[i] != vw[i] || strcmp(gm[i], vm[i]) != 0) {
      if (diff++ < 10)
        fprintf(stderr, "objdump line %zu: GNU .o 0x%08x %s, vt ELF 0x%08x %s\n", i, gw[i],
                gm[i], vw[i], vm[i]);
    }
  CHECK(st, diff == 0);
  printf("%s: %zu instructions identical from GNU as and vt as\n", tag, bad ? 0 : n);
}

TEST(scalar_encodings_match_gnu_as) {
  if (!have_tool(GNU "as")) {
    printf("SKIP: binutils-riscv64-unknown-elf not installed\n");
    return;
  }
  cross_check(st, false, 0x5eed0001);
}

TEST(vector_encodings_match_gnu_as) {
  if (!have_tool(GNU "as")) {
    printf("SKIP: binutils-riscv64-unknown-elf not installed\n");
    return;
  }
  cross_check(st, true, 0x5eed0002);
}

RUN_TESTS(T(scalar_encodings_match_gnu_as), T(vector_encodings_match_gnu_as))
