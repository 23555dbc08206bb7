/* MMA forms, layouts and decoding against the specification folder
 * (VT_SHARED_DIR/spec): the reference encoder isa2025_enc.py (its
 * mma_layout, mma_regs, --mma-table, enc_mma, enc_mma64) and the example
 * lines of isa2025.md itself.
 *  - every (register, lane, slot) of every layout mma_layout returns, for
 *    every legal combination and AL/BL, is where vt_mma_frag_elem puts it,
 *    and the library maps no other slot;
 *  - --mma-table register counts equal vt_mma_form_geom's;
 *  - every `mma`/`mma64` line of isa2025.md with `# =>` decodes to the
 *    fields its text names;
 *  - random legal instructions encoded by enc_mma/enc_mma64 decode to the
 *    fields they were built from, and pass the register-group checks.
 * Skipped (exit 77, CTest "Skipped") without python3 or the spec folder. */
#include <stdint.h>

#include "check.h"
#include "mma_forms.h"
#include "mma_text.h"
#include "tensor/mma_layout.h"

#define SPEC_DIR VT_SHARED_DIR "/spec"
#define RANDOM_WORDS 1500

/* The oracle script, run with the spec folder as argument. */
static const char ORACLE_PY[] =
    "import random, sys\n"
    "sys.dont_write_bytecode = True\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "import isa2025_enc as E\n"
    "out = sys.stdout\n"
    "for at, shapes in E.MMA_SHAPES.items():\n"
    "    for code, shp in shapes.items():\n"
    "        for ct in E.mma_ctypes(at):\n"
    "            vs = [('A', 0), ('B', 0), ('C', 0)]\n"
    "            if E.ELEM_BITS[at] in (16, 32) and shp != 'm8n4k8':\n"
    "                vs += [('A', 1), ('B', 1)]\n"
    "            for op, tr in vs:\n"
    "                lay = E.mma_layout(at, shp, ct, op, bool(tr))\n"
    "                out.write('L %s %s %s %s %d %d\\n' % (at, shp, ct, op, tr, len(lay)))\n"
    "                for (r, lane, j), (row, col) in sorted(lay.items()):\n"
    "                    out.write('%d %d %d %d %d\\n' % (r, lane, j, row, col))\n"
    "rnd = random.Random(int(sys.argv[2]))\n"
    "def grp(n, top):\n"
    "    return rnd.randrange(0, top - n + 1, 2 if n >= 2 else 1)\n"
    "for i in range(int(sys.argv[3])):\n"
    "    at = rnd.choice(list(E.MMA_SHAPES))\n"
    "    shp = rnd.choice(list(E.MMA_SHAPES[at].values()))\n"
    "    ct = rnd.choice(list(E.mma_ctypes(at)))\n"
    "    na, nb, nc = E.mma_regs(at, shp, ct)\n"
    "    if at not in E.MMA64_ONLY and rnd.random() < 0.5:\n"
    "        relu, sat = rnd.randrange(2), (rnd.randrange(2) if at in E.INT_TYPES else 0)\n"
    "        vd, vs1, vs2 = grp(nc, 32), grp(na, 32), grp(nb, 32)\n"
    "        w = E.enc_mma(shp, at, ct, relu, sat, vd, vs1, vs2)\n"
    "        t = 'mma.%s.%s.%s%s%s v%d, v%d, v%d' % (shp, at, ct, '.relu' if relu else '', '.sat' if sat else '', vd, vs1, vs2)\n"
    "    else:\n"
    "        tr = E.ELEM_BITS[at] in (16, 32) and shp != 'm8n4k8'\n"
    "        al = rnd.choice(['row', 'col']) if tr else 'row'\n"
    "        bl = rnd.choice(['col', 'row']) if tr else 'col'\n"
    "        rn = rnd.choice(['sat', 'wrap'] if at in E.INT_TYPES else ['rn', 'rz', 'rm', 'rp'])\n"
    "        vd, vs1, vs2, vs3 = grp(nc, 256), grp(na, 256), grp(nb, 256), grp(nc, 256)\n"
    "        w = E.enc_mma64(shp, al, bl, at, ct, rn, vd, vs1, vs2, vs3)\n"
    "        t = 'mma64.%s.%s.%s.%s.%s.%s v%d, v%d, v%d, v%d' % (shp, al, bl, at, ct, rn, vd, vs1, vs2, vs3)\n"
    "    out.write('W %x %s\\n' % (w, t))\n";

static int spec_available(void) {
  struct stat sb;
  if (stat(SPEC_DIR "/isa2025_enc.py", &sb) != 0 || stat(SPEC_DIR "/isa2025.md", &sb) != 0) {
    printf("SKIP: %s/isa2025_enc.py or isa2025.md not found\n", SPEC_DIR);
    return 0;
  }
  if (system("python3 -c 'import sys' >/dev/null 2>&1") != 0) {
    printf("SKIP: python3 not found\n");
    return 0;
  }
  return 1;
}

/* Runs the oracle into oracle.txt (in the test's temporary directory). */
static FILE *run_oracle(check_state *st) {
  FILE *py = fopen("oracle.py", "w");
  CHECK(st, py != NULL);
  if (!py) return NULL;
  fputs(ORACLE_PY, py);
  fclose(py);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "python3 oracle.py '%s' 2025 %d > oracle.txt", SPEC_DIR, RANDOM_WORDS);
  CHECK(st, system(cmd) == 0);
  return fopen("oracle.txt", "r");
}

static const tform *tform_by_name(const char *at, const char *shape) {
  for (size_t i = 0; i < N_TFORMS; i++)
    if (!strcmp(TFORMS[i].tname, at) && !strcmp(TFORMS[i].sname, shape)) return &TFORMS[i];
  return NULL;
}

/* One "L ..." block: every listed slot maps as the encoder says; the
 * library maps exactly that many slots. */
static void check_layout_block(check_state *st, FILE *f, const char *at, const char *shape,
                               const char *ct, const char *opname, int tr, int count) {
  const tform *F = tform_by_name(at, shape);
  CHECK(st, F != NULL);
  if (!F) return;
  const int op = opname[0] == 'A' ? 0 : opname[0] == 'B' ? 1 : 2;
  vt_mma_form form = {F->type, F->shape, strcmp(ct, "f16") != 0, op == 0 && tr, op == 1 && tr};
  vt_mma_geom g;
  CHECK(st, vt_mma_form_geom(&form, 1, &g, NULL, 0) == VT_MMA_OK);
  int bad = 0;
  for (int i = 0; i < count; i++) {
    int r, lane, j, row, col, lr = -1, lc = -1;
    if (fscanf(f, "%d %d %d %d %d", &r, &lane, &j, &row, &col) != 5) {
      bad++;
      break;
    }
    if (!vt_mma_frag_elem(&form, &g, (vt_mma_operand)op, r, lane, j, &lr, &lc) || lr != row || lc != col) {
      if (bad++ < 3)
        fprintf(stderr, "%s %s %s %s%s: r%d lane %d slot %d: encoder (%d,%d), library (%d,%d)\n",
                at, shape, ct, opname, tr ? " transposed" : "", r, lane, j, row, col, lr, lc);
    }
  }
  int mapped = 0, row, col;
  for (int r = 0; r < vt_mma_regs(&g, (vt_mma_operand)op); r++)
    for (int lane = 0; lane < 32; lane++)
      for (int j = 0; j < vt_mma_slots(&g, (vt_mma_operand)op); j++)
        mapped += vt_mma_frag_elem(&form, &g, (vt_mma_operand)op, r, lane, j, &row, &col);
  CHECK(st, mapped == count);
  CHECK(st, bad == 0);
}

static void check_word(check_state *st, uint64_t word, const char *text) {
  mma_text t;
  CHECK(st, mma_text_parse(text, &t));
  vt_mma_op op;
  char msg[128] = "";
  vt_mma_status s = t.is64 ? vt_mma_decode64(word, &op, msg, sizeof msg)
                           : vt_mma_decode32((uint32_t)word, &op, msg, sizeof msg);
  int ok = s == VT_MMA_OK && op.is64 == t.is64 && (int)op.form.type == t.type &&
           op.form.shape == t.shape && op.form.ct == t.ct && op.form.al == t.al &&
           op.form.bl == t.bl && op.relu == t.relu && op.sat == t.sat && op.vd == t.vd &&
           op.vs1 == t.vs1 && op.vs2 == t.vs2 && op.vs3 == t.vs3 &&
           op.rm == (t.is64 ? (t.rnd < 0 ? 0 : t.rnd) : VT_MMA_RM_FRM) &&
           vt_mma_check_groups(&op, msg, sizeof msg) == VT_MMA_OK;
  if (!ok) fprintf(stderr, "0x%llx does not decode as \"%s\" (%s)\n", (unsigned long long)word, text, msg);
  CHECK(st, ok);
}

TEST(encoder_layouts_and_words) {
  FILE *f = run_oracle(st);
  CHECK(st, f != NULL);
  if (!f) return;
  char line[256];
  int blocks = 0, words = 0;
  while (fgets(line, sizeof line, f)) {
    char at[16], shape[16], ct[8], op[4], hex[32];
    int tr, count;
    if (sscanf(line, "L %15s %15s %7s %3s %d %d", at, shape, ct, op, &tr, &count) == 6) {
      check_layout_block(st, f, at, shape, ct, op, tr, count);
      blocks++;
    } else if (sscanf(line, "W %31s", hex) == 1) {
      check_word(st, strtoull(hex, NULL, 16), line + 3 + strlen(hex));
      words++;
    }
  }
  fclose(f);
  /* 32 (type, shape, C/D) combinations x A, B, C/D, plus AL = 1 and BL = 1
   * for the 12 transposable ones */
  CHECK(st, blocks == 32 * 3 + 12 * 2);
  CHECK(st, words == RANDOM_WORDS);
  printf("  %d layouts, %d random words\n", blocks, words);
}

TEST(encoder_register_table) {
  FILE *p = popen("python3 " SPEC_DIR "/isa2025_enc.py --mma-table", "r");
  CHECK(st, p != NULL);
  if (!p) return;
  char line[256];
  int rows = 0;
  while (fgets(line, sizeof line, p)) {
    char at[16], shape[16], ct[8];
    int s1, s0, na, nb, nc;
    if (sscanf(line, "%15s SHAPE %1d%1d %15s C/D %7s A %d B %d C/D %d", at, &s1, &s0, shape, ct, &na,
               &nb, &nc) != 8)
      continue;
    const tform *F = tform_by_name(at, shape);
    CHECK(st, F != NULL && F->shape == 2 * s1 + s0);
    if (!F) continue;
    vt_mma_form form = {F->type, F->shape, strcmp(ct, "f16") != 0, 0, 0};
    vt_mma_geom g;
    CHECK(st, vt_mma_form_geom(&form, 1, &g, NULL, 0) == VT_MMA_OK);
    CHECK(st, g.na == na && g.nb == nb && g.nc == nc);
    CHECK(st, (strstr(line, "MMA64 only") != NULL) == g.mma64_only);
    rows++;
  }
  CHECK(st, pclose(p) == 0);
  CHECK(st, rows == 32);
}

TEST(document_example_lines) {
  FILE *f = fopen(SPEC_DIR "/isa2025.md", "r");
  CHECK(st, f != NULL);
  if (!f) return;
  char line[512];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "mma", 3) != 0) continue;
    char *arrow = strstr(line, "# => ");
    if (!arrow) continue;
    uint64_t word = strtoull(arrow + 5, NULL, 16);
    *arrow = '\0';
    check_word(st, word, line);
    n++;
  }
  fclose(f);
  CHECK(st, n >= 70); /* 34 mma + 36 mma64 lines when this test was written */
  printf("  %d example lines\n", n);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {T(encoder_layouts_and_words), T(encoder_register_table),
                                    T(document_example_lines)};
  if (argc == 1 && !spec_available()) return VT_TEST_SKIPPED;
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
