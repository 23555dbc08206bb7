/* vnot.v vd, vs2[, v0.t] = vxor.vi vd, vs2, -1[, v0.t] (RVV 1.0 alias),
 * for every vd, vs2 and vm: the disassembly equals llvm-objdump 14's text
 * (LLVM 14 prints the alias for the masked form only), `vt as` and GNU as
 * accept both alias forms and give the words built here from the RVV OPIVI
 * layout, and vt's own text assembles back to the same word. Tool parts skip
 * when the tools are absent. */
#include "check.h"
#include "oracle_util.h"
#include "vt/asm.h"
#include "vt/isa.h"

#define NWORDS 2048 /* vm x vd x vs2 */

/* OPIVI: funct6 001011 (vxor) | vm | vs2 | simm5 = 11111 | 011 | vd | 1010111 */
static uint32_t vnot_word(size_t i, unsigned *vm, unsigned *vd, unsigned *vs2) {
  *vm = (unsigned)(i / 1024);
  *vd = (unsigned)(i / 32) % 32;
  *vs2 = (unsigned)i % 32;
  return (0x0bu << 26) | (*vm << 25) | (*vs2 << 20) | (0x1fu << 15) | (3u << 12) | (*vd << 7) |
         0x57u;
}

TEST(known_words) {
  char buf[64];
  vt_disasm_opts o = {0};
  vt_disasm(0x2c2fb0d7u, 0, &o, buf, sizeof buf);
  CHECK_STR(st, buf, "vnot.v\tv1, v2, v0.t");
  vt_disasm(0x2e2fb0d7u, 0, &o, buf, sizeof buf);
  CHECK_STR(st, buf, "vxor.vi\tv1, v2, -1");
  uint32_t w = 0;
  CHECK(st, vt_asm_one("vnot.v v1, v2", 0x80000000u, &w, NULL, 0) == 0);
  CHECK_EQ_U32(st, w, 0x2e2fb0d7u);
  CHECK(st, vt_asm_one("vnot.v v1, v2, v0.t", 0x80000000u, &w, NULL, 0) == 0);
  CHECK_EQ_U32(st, w, 0x2c2fb0d7u);
  CHECK(st, vt_asm_one("vnot.v v1", 0x80000000u, &w, NULL, 0) != 0);
  CHECK(st, vt_asm_one("vnot.v v1, v2, v1.t", 0x80000000u, &w, NULL, 0) != 0);
}

TEST(text_roundtrips) {
  int bad = 0;
  for (size_t i = 0; i < NWORDS; i++) {
    unsigned vm, vd, vs2;
    uint32_t w = vnot_word(i, &vm, &vd, &vs2), back = 0;
    char text[64];
    vt_disasm_opts o = {0};
    vt_disasm(w, 0, &o, text, sizeof text);
    if ((vt_asm_one(text, 0x80000000u, &back, NULL, 0) != 0 || back != w) && bad++ < 10)
      fprintf(stderr, "0x%08x \"%s\" assembles to 0x%08x\n", w, text, back);
  }
  CHECK(st, bad == 0);
}

TEST(text_matches_llvm_objdump_14) {
  if (!have_tool("llvm-mc") || !have_tool("llvm-objdump")) {
    printf("SKIP: llvm-mc/llvm-objdump not installed\n");
    return;
  }
  char dir[256], src[300], obj[300], dis[300], cmd[1400];
  CHECK(st, tmpdir_new("vnot_llvm", dir, sizeof dir));
  snprintf(src, sizeof src, "%s/w.s", dir);
  snprintf(obj, sizeof obj, "%s/w.o", dir);
  snprintf(dis, sizeof dis, "%s/w.txt", dir);
  FILE *f = fopen(src, "w");
  if (!f) return;
  for (size_t i = 0; i < NWORDS; i++) {
    unsigned vm, vd, vs2;
    fprintf(f, ".word 0x%08x\n", vnot_word(i, &vm, &vd, &vs2));
  }
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "llvm-mc -triple=riscv32 -mattr=+v -filetype=obj %s -o %s && "
           "llvm-objdump -d --mattr=+v %s > %s", src, obj, obj, dis);
  CHECK(st, system(cmd) == 0);
  f = fopen(dis, "r");
  if (!f) return;
  char line[256];
  size_t i = 0, aliases = 0;
  int bad = 0;
  while (fgets(line, sizeof line, f) && i < NWORDS) {
    unsigned addr, b0, b1, b2, b3;
    if (sscanf(line, " %x: %x %x %x %x", &addr, &b0, &b1, &b2, &b3) != 5) continue;
    char *text = strchr(line, '\t');
    if (!text) continue;
    text++;
    text[strcspn(text, "\n")] = 0;
    unsigned vm, vd, vs2;
    uint32_t w = vnot_word(i++, &vm, &vd, &vs2);
    aliases += !strncmp(text, "vnot.v", 6);
    char mine[96];
    vt_disasm_opts o = {0};
    vt_disasm(w, addr, &o, mine, sizeof mine);
    if (strcmp(mine, text) != 0 && bad++ < 10)
      fprintf(stderr, "0x%08x: llvm \"%s\", vt \"%s\"\n", w, text, mine);
  }
  fclose(f);
  CHECK(st, i == NWORDS);
  CHECK(st, aliases == 1024); /* every masked word, no unmasked one */
  CHECK(st, bad == 0);
  if (!st->failed_checks) tmpdir_remove(dir);
}

#define GNU "riscv64-unknown-elf-"
TEST(encodings_match_gnu_as) {
  if (!have_tool(GNU "as")) {
    printf("SKIP: binutils-riscv64-unknown-elf not installed\n");
    return;
  }
  char dir[256], src[300], gobj[300], gbin[300], velf[300], vbin[300], cmd[4096];
  CHECK(st, tmpdir_new("vnot_gnu", dir, sizeof dir));
  snprintf(src, sizeof src, "%s/vnot.s", dir);
  snprintf(gobj, sizeof gobj, "%s/g.o", dir);
  snprintf(gbin, sizeof gbin, "%s/g.bin", dir);
  snprintf(velf, sizeof velf, "%s/v.elf", dir);
  snprintf(vbin, sizeof vbin, "%s/v.bin", dir);
  FILE *f = fopen(src, "w");
  if (!f) return;
  for (size_t i = 0; i < NWORDS; i++) {
    unsigned vm, vd, vs2;
    vnot_word(i, &vm, &vd, &vs2);
    fprintf(f, "vnot.v v%u, v%u%s\n", vd, vs2, vm ? "" : ", v0.t");
  }
  fclose(f);
  snprintf(cmd, sizeof cmd,
           GNU "as -march=rv32imaf_zicsr_zifencei_zve32f -o %s %s && " GNU
               "objcopy -O binary -j .text %s %s && %s as -o %s %s && " GNU
               "objcopy -O binary -j .text %s %s",
           gobj, src, gobj, gbin, VT_BINARY, velf, src, velf, vbin);
  CHECK(st, system(cmd) == 0);
  static uint32_t g[NWORDS + 1], v[NWORDS + 1];
  size_t gn = read_words(gbin, g, NWORDS + 1), vn = read_words(vbin, v, NWORDS + 1);
  CHECK(st, gn == NWORDS && vn == NWORDS);
  int bad = 0;
  for (size_t i = 0; i < gn && i < vn; i++) {
    unsigned vm, vd, vs2;
    uint32_t want = vnot_word(i, &vm, &vd, &vs2);
    if ((g[i] != want || v[i] != want) && bad++ < 10)
      fprintf(stderr, "line %zu: expected 0x%08x, GNU as 0x%08x, vt as 0x%08x\n", i + 1, want,
              g[i], v[i]);
  }
  CHECK(st, bad == 0);
  if (!st->failed_checks) tmpdir_remove(dir);
}

RUN_TESTS(T(known_words), T(text_roundtrips), T(text_matches_llvm_objdump_14),
          T(encodings_match_gnu_as))
