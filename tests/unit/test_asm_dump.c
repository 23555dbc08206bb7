/* The assembler against real toolchain output: the body of the official
 * matadd.dump (llvm-objdump listing) re-written as assembly must give every
 * word printed in the dump; GNU binutils must accept our ELF; and GNU as
 * must agree with us on a set of constant-operand instructions. The tests of
 * the official listings are T_CASES (skipped by CTest without the cases);
 * those that need binutils are skipped with a message. */
#include <stdbool.h>
#include <sys/wait.h>

#include "asm_test_util.h"
#include "check.h"

#define MAXW 8192

typedef struct dump {
  char *src;
  size_t len, cap;
  uint32_t words[MAXW];
  size_t nwords;
  char labels[512][128];
  uint32_t label_addr[512];
  size_t nlabels;
} dump;

static void append(dump *d, const char *s) {
  size_t n = strlen(s);
  if (d->len + n + 1 > d->cap) {
    d->cap = (d->len + n + 1) * 2;
    d->src = realloc(d->src, d->cap);
  }
  memcpy(d->src + d->len, s, n + 1);
  d->len += n;
}

/* Convert an llvm-objdump listing into assembly: "ADDR <name>:" becomes a
 * label (repeated names, from different objects, get a suffix), and
 * "ADDR: b0 b1 b2 b3 \tmnemonic\toperands <sym>" becomes the instruction. */
static bool load_dump(const char *path, dump *d) {
  FILE *f = fopen(path, "r");
  if (!f) return false;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    unsigned addr, b[4];
    char name[100];
    int pos = 0;
    if (sscanf(line, "%8x <%99[^>]>:%n", &addr, name, &pos) == 2 && line[pos] == 0) {
      int dup = 0;
      for (size_t i = 0; i < d->nlabels; i++)
        if (!strncmp(d->labels[i], name, strlen(name)) &&
            (d->labels[i][strlen(name)] == 0 || d->labels[i][strlen(name)] == '_'))
          dup++;
      char lab[128];
      if (dup)
        snprintf(lab, sizeof lab, "%s_dup%d", name, dup);
      else
        snprintf(lab, sizeof lab, "%s", name);
      if (d->nlabels < 512) {
        snprintf(d->labels[d->nlabels], sizeof d->labels[0], "%s", lab);
        d->label_addr[d->nlabels++] = addr;
      }
      append(d, lab);
      append(d, ":\n");
      continue;
    }
    if (sscanf(line, "%8x: %2x %2x %2x %2x %n", &addr, &b[0], &b[1], &b[2], &b[3], &pos) == 5) {
      char *text = line + pos;
      while (*text == ' ' || *text == '\t') text++;
      char *lt = strstr(text, " <");
      if (lt) *lt = 0;
      for (char *p = text; *p; p++)
        if (*p == '\t') *p = ' ';
      if (d->nwords < MAXW)
        d->words[d->nwords++] = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
      append(d, "  ");
      append(d, text);
      append(d, "\n");
    }
  }
  fclose(f);
  return true;
}

static bool check_dump(check_state *st, const char *rel) {
  char path[512];
  snprintf(path, sizeof path, "%s/cases/%s", VT_SHARED_DIR, rel);
  static dump d;
  memset(&d, 0, sizeof d);
  if (!load_dump(path, &d)) {
    fprintf(stderr, "%s: cannot read the listing\n", path);
    st->failed_checks++;
    return false;
  }
  CHECK(st, d.nwords > 100);
  img im;
  int rc = build1(&im, d.src);
  if (rc) fprintf(stderr, "%s", im.errors);
  CHECK(st, rc == 0);
  const Elf32_Shdr *t = section(&im, ".text", NULL);
  CHECK(st, t != NULL);
  if (t) {
    CHECK_EQ_U32(st, t->sh_size, d.nwords * 4);
    int bad = 0;
    for (size_t i = 0; i < d.nwords && bad < 10; i++)
      if (text_word(&im, (unsigned)i) != d.words[i]) {
        fprintf(stderr, "%s: word %zu at 0x%08zx\n", rel, i, 0x80000000u + 4 * i);
        CHECK_EQ_U32(st, text_word(&im, (unsigned)i), d.words[i]);
        bad++;
      }
    for (size_t i = 0; i < d.nlabels; i++) CHECK_EQ_U32(st, symval(&im, d.labels[i]), d.label_addr[i]);
  }
  img_free(&im);
  free(d.src);
  return true;
}

TEST(matadd_dump_reassembles) { check_dump(st, "matadd/matadd.dump"); }
TEST(other_dumps_reassemble) {
  check_dump(st, "vecadd_4x16/vecadd.dump");
  check_dump(st, "gaussian/gaussian.dump");
}

static bool have_tool(const char *name) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
  int s = system(cmd);
  return WIFEXITED(s) && WEXITSTATUS(s) == 0;
}

static bool file_contains(const char *path, const char *needle) {
  FILE *f = fopen(path, "r");
  if (!f) return false;
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return strstr(buf, needle) != NULL;
}

TEST(binutils_accepts_output) {
  if (!have_tool("riscv64-unknown-elf-objdump") || !have_tool("riscv64-unknown-elf-readelf")) {
    printf("SKIP: riscv64-unknown-elf-objdump/readelf not installed (binutils-riscv64-unknown-elf)\n");
    return;
  }
  img im;
  CHECK(st, build1(&im,
                   ".globl _start\n_start:\n  li a0, 0x12345678\n  la a1, msg\n  call f\n"
                   "  vadd.vv v1, v2, v3\n.Lloop: j .Lloop\nf: ret\n"
                   ".section .rodata\nmsg: .string \"hello\"\n.data\nd: .word 1\n"
                   ".sdata\ns: .word 2\n.bss\nb: .zero 8\n") == 0);
  char elf[256], out[256], cmd[1024];
  snprintf(elf, sizeof elf, "%s/asm_binutils.elf", VT_TEST_TMP);
  snprintf(out, sizeof out, "%s/asm_binutils.txt", VT_TEST_TMP);
  FILE *f = fopen(elf, "wb");
  CHECK(st, f != NULL);
  if (!f) return;
  fwrite(im.p, 1, im.n, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "riscv64-unknown-elf-readelf -a %s > %s 2>&1", elf, out);
  CHECK(st, system(cmd) == 0);
  CHECK(st, !file_contains(out, "Error") && !file_contains(out, "Warning"));
  CHECK(st, file_contains(out, "EXEC (Executable file)"));
  CHECK(st, file_contains(out, "RISC-V"));
  CHECK(st, file_contains(out, ".tohost"));
  CHECK(st, file_contains(out, ".rodata"));
  CHECK(st, file_contains(out, "__global_pointer$"));
  CHECK(st, file_contains(out, ".Lloop"));
  CHECK(st, file_contains(out, "Entry point address:               0x80000000"));
  snprintf(cmd, sizeof cmd, "riscv64-unknown-elf-objdump -d %s > %s 2>&1", elf, out);
  CHECK(st, system(cmd) == 0);
  CHECK(st, file_contains(out, "<_start>:"));
  CHECK(st, file_contains(out, "lui\ta0,0x12345"));
  CHECK(st, file_contains(out, "jalr\t"));
  CHECK(st, file_contains(out, "<f>:"));
  img_free(&im);
}

/* GNU as (no compressed instructions) and vt must produce the same words */
TEST(gnu_as_agrees) {
  if (!have_tool("riscv64-unknown-elf-as") || !have_tool("riscv64-unknown-elf-objcopy")) {
    printf("SKIP: riscv64-unknown-elf-as not installed\n");
    return;
  }
  static const char src[] =
      "add a0, a1, a2\nsub t0, t1, t2\naddi a0, a0, -2048\nslli a0, a1, 31\nsrai a0, a1, 3\n"
      "lui a0, 0xfffff\nlw a0, -4(sp)\nsw ra, -16(sp)\nsb zero, 0(a0)\nlbu a0, 2047(a1)\n"
      "mul a0, a1, a2\nremu a0, a1, a2\nlr.w.aq a0, (a1)\namoor.w.rl a0, a2, (a1)\n"
      "csrrc a0, fcsr, a1\ncsrwi frm, 3\nfence r, w\nfence.i\nebreak\n"
      "fadd.s a0, a1, a2, rdn\nfnmadd.s a0, a1, a2, a3\nfcvt.s.wu a0, a1\nfclass.s a0, a1\n"
      "fmin.s a0, a1, a2\nfle.s a0, a1, a2\nfsqrt.s a0, a1, rmm\n"
      "vsetvli a0, a1, e16, m4, ta, mu\nvsetivli a0, 31, e8, mf4, tu, ma\n"
      "vle8.v v4, (a0)\nvse16.v v4, (a0), v0.t\nvlse32.v v1, (a0), a1\n"
      "vadd.vi v1, v2, 15\nvsub.vx v1, v2, a0, v0.t\nvmslt.vx v1, v2, a0\n"
      "vmsleu.vi v1, v2, -1\nvsra.vi v1, v2, 31\nvnclip.wv v1, v2, v3\nvwmacc.vx v2, a0, v4\n"
      "vredmax.vs v1, v2, v3\nvmv.s.x v1, a0\nvmv.x.s a0, v1\nviota.m v1, v2\n"
      "vmsbf.m v1, v2, v0.t\nvmxnor.mm v1, v2, v3\nvmv8r.v v8, v16\nvslide1down.vx v1, v2, a0\n"
      "li a0, 0x7ffff800\nli a1, -4096\nli a2, 123456\n";
  char s[256], o[256], bin[256], cmd[2048];
  snprintf(s, sizeof s, "%s/asm_gnu.s", VT_TEST_TMP);
  snprintf(o, sizeof o, "%s/asm_gnu.o", VT_TEST_TMP);
  snprintf(bin, sizeof bin, "%s/asm_gnu.bin", VT_TEST_TMP);
  FILE *f = fopen(s, "w");
  if (!f) return;
  fputs(src, f);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "riscv64-unknown-elf-as -march=rv32ima_zicsr_zifencei_zfinx_zve32x -o %s %s && "
           "riscv64-unknown-elf-objcopy -O binary -j .text %s %s",
           o, s, o, bin);
  CHECK(st, system(cmd) == 0);
  f = fopen(bin, "rb");
  CHECK(st, f != NULL);
  if (!f) return;
  static uint8_t g[4096];
  size_t n = fread(g, 1, sizeof g, f);
  fclose(f);
  img im;
  CHECK(st, build1(&im, src) == 0);
  const Elf32_Shdr *t = section(&im, ".text", NULL);
  CHECK(st, t && t->sh_size == n);
  for (size_t i = 0; t && i + 4 <= n && i + 4 <= t->sh_size; i += 4)
    CHECK_EQ_U32(st, text_word(&im, (unsigned)(i / 4)), word_at(g + i));
  img_free(&im);
}

RUN_TESTS(T_CASES(matadd_dump_reassembles), T_CASES(other_dumps_reassemble), T(binutils_accepts_output),
          T(gnu_as_agrees))
