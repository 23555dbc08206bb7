/* '.'-relative targets and values in `vt as` ('.' = the address of the
 * statement being assembled). Every branch and jump form, the pseudo
 * branches and jumps, and '.' in data, la/call/tail and %pcrel_hi, against
 * GNU as -march=rv32im -mno-relax (linked at 0x80000000 with GNU ld, as
 * `vt as` links); the Ventus vector branches against words built here from
 * the B-type layout of isa.md 2.0.1; '.' in a second linked file; range
 * errors name the real offset. GNU parts skip when binutils are absent. */
#include "asm_test_util.h"
#include "check.h"
#include "oracle_util.h"

#define GNU "riscv64-unknown-elf-"
#define MAX_WORDS 4096

static const char *const branch_targets[] = {".", ".+8", ".-8", ". + 12", ".-(2*6)", ".+0x10",
                                             ".+4094", ".-4096", ".+2048", ".-2050"};
static const char *const jump_targets[] = {".", ".+276", ".-276", ".+8", ".-4", ".+1048574",
                                           ".-1048576", ".+0x800", ".-(1<<12)"};
#define NB (sizeof branch_targets / sizeof branch_targets[0])
#define NJ (sizeof jump_targets / sizeof jump_targets[0])

/* The standard-instruction source both assemblers get. */
static bool write_standard(const char *path) {
  static const char *const br2[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu",
                                    "bgt", "ble", "bgtu", "bleu"};
  static const char *const br1[] = {"beqz", "bnez", "blez", "bgez", "bltz", "bgtz"};
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fprintf(f, "    .text\n    .globl _start\n_start:\n");
  for (size_t t = 0; t < NB; t++) {
    for (size_t i = 0; i < sizeof br2 / sizeof br2[0]; i++)
      fprintf(f, "    %s a0, a1, %s\n", br2[i], branch_targets[t]);
    for (size_t i = 0; i < sizeof br1 / sizeof br1[0]; i++)
      fprintf(f, "    %s t3, %s\n", br1[i], branch_targets[t]);
  }
  for (size_t t = 0; t < NJ; t++)
    fprintf(f, "    jal %s\n    jal s11, %s\n    jal zero, %s\n    j %s\n", jump_targets[t],
            jump_targets[t], jump_targets[t], jump_targets[t]);
  /* '.' as a value: data, address pseudos, %pcrel_hi/%pcrel_lo, .equ */
  fprintf(f,
          "    .word .\n    .word .+4, .-4, .\n    .half . - _start, 0\n"
          "    la a0, .\n    lla a1, .+16\n    call .\n    tail .-8\n"
          "1:  auipc t1, %%pcrel_hi(.+16)\n    addi t1, t1, %%pcrel_lo(1b)\n"
          "    .equ here, .\n    .word here, here - _start\n"
          "    .word 2f - .\n2:  nop\n");
  return fclose(f) == 0;
}

TEST(standard_forms_match_gnu_as) {
  if (!have_tool(GNU "as") || !have_tool(GNU "ld")) {
    printf("SKIP: binutils-riscv64-unknown-elf not installed\n");
    return;
  }
  char dir[256], src[300], gobj[300], gelf[300], gbin[300], velf[300], vbin[300], cmd[3000];
  CHECK(st, tmpdir_new("dot", dir, sizeof dir));
  snprintf(src, sizeof src, "%s/dot.s", dir);
  snprintf(gobj, sizeof gobj, "%s/g.o", dir);
  snprintf(gelf, sizeof gelf, "%s/g.elf", dir);
  snprintf(gbin, sizeof gbin, "%s/g.bin", dir);
  snprintf(velf, sizeof velf, "%s/v.elf", dir);
  snprintf(vbin, sizeof vbin, "%s/v.bin", dir);
  CHECK(st, write_standard(src));
  snprintf(cmd, sizeof cmd,
           GNU "as -march=rv32im -mno-relax -o %s %s && " GNU
               "ld -m elf32lriscv -Ttext=0x80000000 -o %s %s && " GNU
               "objcopy -O binary -j .text %s %s",
           gobj, src, gelf, gobj, gelf, gbin);
  CHECK(st, system(cmd) == 0);
  snprintf(cmd, sizeof cmd, "%s as -o %s %s && " GNU "objcopy -O binary -j .text %s %s",
           VT_BINARY, velf, src, velf, vbin);
  CHECK(st, system(cmd) == 0);
  static uint32_t g[MAX_WORDS], v[MAX_WORDS];
  size_t gn = read_words(gbin, g, MAX_WORDS), vn = read_words(vbin, v, MAX_WORDS);
  CHECK(st, gn > 200 && gn == vn);
  int bad = 0;
  for (size_t i = 0; i < gn && i < vn; i++)
    if (g[i] != v[i] && bad++ < 20)
      fprintf(stderr, "word %zu (0x%08zx): GNU 0x%08x, vt 0x%08x\n", i, 0x80000000u + 4 * i,
              g[i], v[i]);
  CHECK(st, bad == 0);
  /* hand-computed anchors (16 branch lines per target, 4 jump lines) */
  CHECK_EQ_U32(st, v[0], 0x00b50063u);        /* beq a0, a1, .     */
  CHECK_EQ_U32(st, v[16], 0x00b50463u);       /* beq a0, a1, .+8   */
  CHECK_EQ_U32(st, v[16 * NB + 5], 0x11400defu); /* jal s11, .+276 */
  if (!st->failed_checks) tmpdir_remove(dir);
}

/* isa.md 2.0.1 B-type: [31]=imm[12] [30:25]=imm[10:5] [24:20]=vs2
 * [19:15]=vs1 [14:12]=f3 [11:8]=imm[4:1] [7]=imm[11] [6:0]=1011011 */
static uint32_t vbranch(unsigned f3, unsigned vs2, unsigned vs1, int32_t off) {
  uint32_t i = (uint32_t)off;
  return ((i >> 12 & 1) << 31) | ((i >> 5 & 0x3f) << 25) | (vs2 << 20) | (vs1 << 15) |
         (f3 << 12) | ((i >> 1 & 0xf) << 8) | ((i >> 11 & 1) << 7) | 0x5bu;
}

TEST(ventus_vector_branches) {
  /* the encoder against a word of the official compiler (isa.md 2.0.1):
   * 0x02100c5b at 0x80000164 is vbeq v1, v0, 0x8000019c */
  CHECK_EQ_U32(st, vbranch(0, 1, 0, 0x8000019c - 0x80000164), 0x02100c5bu);
  static const struct { const char *mn; unsigned f3; } vb[] = {
      {"vbeq", 0}, {"vbne", 1}, {"vblt", 4}, {"vbge", 5}, {"vbltu", 6}, {"vbgeu", 7}};
  static const int32_t offs[] = {0, 8, -8, 12, -12, 16, 4094, -4096, 2048, -2050};
  _Static_assert(sizeof offs / sizeof offs[0] == NB, "one offset per branch target");
  char src[16384];
  size_t o = 0;
  uint32_t want[6 * NB];
  size_t n = 0;
  for (size_t t = 0; t < NB; t++)
    for (size_t i = 0; i < 6; i++) {
      unsigned vs2 = (unsigned)(3 * i + t) % 32, vs1 = (unsigned)(5 * t + i) % 32;
      o += (size_t)snprintf(src + o, sizeof src - o, "  %s v%u, v%u, %s\n", vb[i].mn, vs2, vs1,
                            branch_targets[t]);
      want[n++] = vbranch(vb[i].f3, vs2, vs1, offs[t]);
    }
  /* the compiler's re-convergence idiom with a '.'-relative post-dominator */
  o += (size_t)snprintf(src + o, sizeof src - o,
                        "1: auipc t1, %%pcrel_hi(.+16)\n  setrpc zero, t1, %%pcrel_lo(1b)\n");
  img im;
  CHECK(st, build1(&im, src) == 0);
  if (im.nerrors) fprintf(stderr, "%s", im.errors);
  for (size_t i = 0; i < n; i++) CHECK_EQ_U32(st, text_word(&im, (unsigned)i), want[i]);
  CHECK_EQ_U32(st, text_word(&im, (unsigned)n), 0x00000317u);     /* auipc t1, 0 */
  CHECK_EQ_U32(st, text_word(&im, (unsigned)n + 1), 0x0103305bu); /* setrpc zero, t1, 16 */
  img_free(&im);
}

/* '.' in the second of two linked files: its own section's address */
TEST(dot_in_second_file) {
  const char *files[] = {"a.s", "  nop\n  nop\n  nop\n",
                         "b.s", "x: .word .\n  beq a0, a1, .-12\n  jal .+8\n  .word . - x\n", NULL};
  img im;
  CHECK(st, build_opts(&im, NULL, files) == 0);
  uint32_t x = symval(&im, "x");
  CHECK_EQ_U32(st, x, 0x8000000cu);
  CHECK_EQ_U32(st, text_word(&im, 3), x);
  CHECK_EQ_U32(st, text_word(&im, 4), 0xfeb50ae3u); /* beq a0, a1, -12 */
  CHECK_EQ_U32(st, text_word(&im, 5), 0x008000efu); /* jal ra, 8 */
  CHECK_EQ_U32(st, text_word(&im, 6), 12);
  img_free(&im);
}

TEST(one_line_api) {
  uint32_t w = 0;
  char err[200] = "";
  CHECK(st, vt_asm_one("beq a0, a1, .+8", 0x80000100u, &w, err, sizeof err) == 0);
  CHECK_EQ_U32(st, w, 0x00b50463u);
  CHECK(st, vt_asm_one("jal s11, .+276", 0x80000100u, &w, err, sizeof err) == 0);
  CHECK_EQ_U32(st, w, 0x11400defu); /* imm[10:1] = 138 at 30:21, rd = 27 */
  CHECK(st, vt_asm_one("vbne v6, v7, .-60", 0x80000100u, &w, err, sizeof err) == 0);
  CHECK_EQ_U32(st, w, vbranch(1, 6, 7, -60));
}

TEST(range_errors_name_the_offset) {
  img im;
  CHECK(st, build1(&im, "  beq a0, a1, .+4096\n  jal .-1048578\n  bnez a0, .+3\n") != 0);
  CHECK(st, strstr(im.errors, "branch target offset 4096 out of range [-4096, 4094]") != NULL);
  CHECK(st, strstr(im.errors, "jump target offset -1048578 out of range") != NULL);
  CHECK(st, strstr(im.errors, "misaligned branch target: offset 3 is odd") != NULL);
  if (st->failed_checks) fprintf(stderr, "%s", im.errors);
  img_free(&im);
}

RUN_TESTS(T(standard_forms_match_gnu_as), T(ventus_vector_branches), T(dot_in_second_file),
          T(one_line_api), T(range_errors_name_the_offset))
