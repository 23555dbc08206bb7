/* The timing model on inputs that used to hang or mis-schedule it, run as
 * `vt run` and `vt run --timing` on test vectors built here from assembled
 * kernels (each command under a 20 s timeout, so a hang fails the test):
 *  - a jump to a pc that is 2 mod 4: both models report the same
 *    instruction-address error with SM, workgroup, warp and pc;
 *  - fetch_bytes 4 .. 4096 (a fetch group of 256 or more instructions
 *    wrapped an 8-bit count to 0): the kernel finishes with the right sum;
 *  - code at the top of the address space (a fetch group ending at 4 GiB);
 *  - register usage per warp so large that usage x warps overflowed 32 bits.
 * Expected values are computed by hand (sum 1..100 = 5050 = 0x13ba). */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "asm_elf.h"
#include "check.h"

static const char *path_of(const char *name) { return test_tmp_path("timing-robust", name); }

/* the .text words of an assembled kernel; NULL on failure */
static uint32_t *assemble(check_state *st, const char *src, size_t *nwords) {
  vt_elf *elf = test_assemble(st, "k.s", src);
  uint32_t *w = NULL;
  if (elf) {
    const vt_elf_section *t = vt_elf_section_by_name(elf, ".text");
    *nwords = t->size / 4;
    w = malloc(t->size);
    memcpy(w, t->data, t->size);
    vt_elf_free(elf);
  }
  CHECK(st, w != NULL);
  return w;
}

typedef struct vec_shape {
  uint32_t code_base, warps, sgpr, vgpr;
} vec_shape;

/* NAME.metadata/.data: 1 workgroup of 'warps' warps of 1 thread; buffers:
 * the code at code_base (start pc) and a 4-byte result at 0x90000000 */
static const char *write_vector(const char *name, const uint32_t *code, size_t n,
                                vec_shape s) {
  char file[256];
  snprintf(file, sizeof file, "%s.metadata", name);
  const char *meta = path_of(file);
  const uint64_t f[] = {s.code_base, 0, 1, 1, 1, 1, s.warps, 0x90001000, 0x1000, 0, s.sgpr,
                        s.vgpr, 0x90001000, 2,
                        /* bases */ s.code_base, 0x90000000,
                        /* sizes */ 4 * n, 4,
                        /* allocs */ 4 * n, 4};
  FILE *m = fopen(meta, "w");
  for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
    fprintf(m, "%08x\n%08x\n", (unsigned)(f[k] & 0xffffffffu), (unsigned)(f[k] >> 32));
  fclose(m);
  snprintf(file, sizeof file, "%s.data", name);
  FILE *d = fopen(path_of(file), "w");
  for (size_t i = 0; i < n; i++) fprintf(d, "%08x\n", code[i]);
  fprintf(d, "00000000\n"); /* the result, initially 0 */
  fclose(d);
  return meta;
}

/* vt run OPTIONS META under a 20 s timeout; stderr in *err. Exit status, or
 * -1 (killed: timeout) */
static int vt_run(const char *options, const char *meta, char **err) {
  char cmd[4096];
  const char *ep = path_of("run.err");
  snprintf(cmd, sizeof cmd, "timeout 20 '%s' run %s '%s' >/dev/null 2>'%s'", VT_BINARY, options,
           meta, ep);
  int rc = system(cmd);
  *err = test_slurp(ep, NULL);
  if (rc == -1 || !WIFEXITED(rc)) return -1;
  return WEXITSTATUS(rc);
}

static void check_contains(check_state *st, const char *hay, const char *needle) {
  if (!hay || !strstr(hay, needle)) {
    st->failed_checks++;
    fprintf(stderr, "\"%s\" lacks \"%s\"\n", hay ? hay : "(null)", needle);
  }
}

/* jalr to 0x80000000 + off, off = 6, 10, 14 (2 mod 4; 6 and 14 end a
 * default 8-byte fetch group), under both models and several fetch sizes */
TEST(misaligned_jump) {
  static const char *const models[] = {"", "--timing", "--timing --tcfg fetch_bytes=4",
                                       "--timing --tcfg fetch_bytes=16",
                                       "--timing --tcfg fetch_bytes=4096"};
  for (unsigned off = 6; off <= 14; off += 4) {
    char src[512];
    snprintf(src, sizeof src,
             "  .text\n  .globl _start\n_start:\n  auipc t0, 0\n  addi t0, t0, %u\n"
             "  jalr zero, 0(t0)\n  endprg x0, x0, x0\n  endprg x0, x0, x0\n"
             "  endprg x0, x0, x0\n",
             off);
    size_t n = 0;
    uint32_t *code = assemble(st, src, &n);
    if (!code) return;
    const char *meta = write_vector("jump", code, n, (vec_shape){0x80000000, 1, 64, 64});
    free(code);
    char want[256];
    snprintf(want, sizeof want,
             "jump.metadata: SM 0, workgroup 0, warp 0, pc 0x%08x (0x00000000 ?): instruction "
             "address 0x%08x is not 4-byte aligned\n",
             0x80000000u + off, 0x80000000u + off);
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
      char *err = NULL;
      int rc = vt_run(models[m], meta, &err);
      if (rc != 1) fprintf(stderr, "offset %u, '%s': exit %d\n", off, models[m], rc);
      CHECK_EQ_U32(st, rc, 1);
      check_contains(st, err, want);
      free(err);
    }
  }
}

static const char sum_kernel[] =
    "  .text\n  .globl _start\n_start:\n"
    "  li a0, 0x90000000\n  li t0, 0\n  li t1, 1\n  li t2, 101\n"
    "loop:\n  add t0, t0, t1\n  addi t1, t1, 1\n  bne t1, t2, loop\n"
    "  sw t0, 0(a0)\n  endprg x0, x0, x0\n";

/* runs the sum kernel with OPTIONS and checks the word at 0x90000000 */
static void check_sum(check_state *st, const char *options, vec_shape shape) {
  size_t n = 0;
  uint32_t *code = assemble(st, sum_kernel, &n);
  if (!code) return;
  const char *meta = write_vector("sum", code, n, shape);
  free(code);
  char opts[1024], *err = NULL;
  const char *out = path_of("sum.bin");
  unlink(out);
  snprintf(opts, sizeof opts, "%s --dump 0x90000000:4:'%s'", options, out);
  int rc = vt_run(opts, meta, &err);
  if (rc != 0) fprintf(stderr, "'%s': exit %d: %s\n", options, rc, err ? err : "");
  CHECK_EQ_U32(st, rc, 0);
  free(err);
  uint8_t b[4] = {0};
  FILE *f = fopen(out, "rb");
  CHECK(st, f && fread(b, 1, 4, f) == 4);
  if (f) fclose(f);
  CHECK_EQ_U32(st, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                       (uint32_t)b[3] << 24, 5050);
}

TEST(fetch_bytes_up_to_4096) {
  static const char *const sizes[] = {"4", "8", "256", "1024", "2048", "4096"};
  vec_shape shape = {0x80000000, 1, 64, 64};
  check_sum(st, "", shape);
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    char opts[128];
    snprintf(opts, sizeof opts, "--timing --tcfg fetch_bytes=%s", sizes[i]);
    check_sum(st, opts, shape);
  }
}

/* 1023 nops and endprg fill [0xfffff000, 4 GiB): the last fetch group ends
 * at 4 GiB exactly; 1024 warp instructions run */
TEST(code_at_top_of_address_space) {
  uint32_t *code = malloc(4096);
  for (int i = 0; i < 1023; i++) code[i] = 0x00000013; /* addi x0, x0, 0 */
  size_t n = 0;
  uint32_t *end = assemble(st, "  .text\n  .globl _start\n_start: endprg x0, x0, x0\n", &n);
  if (!end) return;
  code[1023] = end[0];
  free(end);
  const char *meta = write_vector("top", code, 1024, (vec_shape){0xfffff000, 1, 64, 64});
  free(code);
  static const char *const models[] = {"", "--timing", "--timing --tcfg fetch_bytes=4096"};
  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    char opts[256], *err = NULL;
    snprintf(opts, sizeof opts, "%s --max-insns 100000", models[m]);
    CHECK_EQ_U32(st, vt_run(opts, meta, &err), 0);
    check_contains(st, err, "1 launch(es), 1 workgroup(s), 1024 warp-instructions");
    free(err);
  }
}

/* 2 warps x 0x80000000 registers = 2^32: the product wrapped to 0 and the
 * workgroup never fit an SM (a false deadlock); the SM grows to hold it */
TEST(huge_register_usage) {
  check_sum(st, "--timing", (vec_shape){0x80000000, 2, 0x80000000u, 64});
  check_sum(st, "--timing", (vec_shape){0x80000000, 2, 64, 0x80000000u});
  check_sum(st, "--timing", (vec_shape){0x80000000, 32, 0xffffffffu, 0xffffffffu});
  check_sum(st, "", (vec_shape){0x80000000, 32, 0xffffffffu, 0xffffffffu});
}

RUN_TESTS(T(misaligned_jump), T(fetch_bytes_up_to_4096), T(code_at_top_of_address_space),
          T(huge_register_usage))
