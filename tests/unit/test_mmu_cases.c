/* The official compiled kernels (VT_SHARED_DIR/cases) with the MMU on: the
 * same results as the values in the cases' README and as a run with the
 * MMU off, their code and buffers at the virtual addresses the launches use
 * but on other physical pages; with the timing model too; the same traces
 * for every launch sequence of cases/rtl-verilog. `vt run --mmu`
 * and `vt launch --mmu` (a kernel with printf) from the command line. */
#include <sys/stat.h>
#include <sys/wait.h>

#include "check.h"
#include "vt/mmu.h"
#include "vt/session.h"
#include "vt/testvec.h"

#define CASES VT_SHARED_DIR "/cases"

/* run the metadata files in order on a fresh session; NULL on failure */
static vt_session *run_cases(const char *const *files, bool mmu, bool timing) {
  vt_settings s;
  vt_settings_default(&s);
  s.mmu = mmu;
  s.timing = timing;
  s.progress = false;
  vt_session *ses = NULL;
  char msg[256];
  if (vt_session_new(&s, &ses, msg, sizeof msg) != 0) {
    fprintf(stderr, "%s\n", msg);
    return NULL;
  }
  for (; *files; files++) {
    vt_error e;
    if (vt_session_run_testvec(ses, *files, &e) != VT_OK) {
      fprintf(stderr, "%s: %s\n", *files, e.message);
      vt_session_free(ses);
      return NULL;
    }
  }
  return ses;
}

static bool read_words(vt_session *s, uint32_t addr, uint32_t *out, size_t n) {
  vt_error e;
  return vt_mem_read(vt_session_device(s), addr, out, 4 * n, &e) == VT_OK;
}

/* a virtual page of the launch that is not at its physical address */
static void check_moved(check_state *st, vt_session *s, uint32_t va) {
  vt_mmu_walk w;
  vt_error e;
  CHECK_EQ_U32(st, vt_mmu_translate(vt_session_device(s), 0, va, VT_MMU_HOST, &w, &e), VT_OK);
  CHECK_EQ_U32(st, w.fault, VT_MMU_OK);
  CHECK(st, w.pa != va);
}

/* every word of C at 0x90002000 (n words) is 'value', with the MMU on as off */
static void one_launch(check_state *st, const char *file, unsigned n, uint32_t value) {
  const char *files[] = {file, NULL};
  vt_session *on = run_cases(files, true, false), *off = run_cases(files, false, false);
  CHECK(st, on && off);
  if (!on || !off) return;
  uint32_t a[64], b[64];
  CHECK(st, read_words(on, 0x90002000u, a, n) && read_words(off, 0x90002000u, b, n));
  unsigned wrong = 0;
  for (unsigned i = 0; i < n; i++) wrong += a[i] != value || b[i] != value;
  CHECK_EQ_U32(st, wrong, 0);
  check_moved(st, on, 0x80000000u);
  check_moved(st, on, 0x90002000u);
  vt_session_free(on);
  vt_session_free(off);
}

TEST(official_vecadd4x4) { one_launch(st, CASES "/vecadd4x4/vecadd4x4.metadata", 16, 0x41800000u); }
TEST(official_vecadd_4x16) { one_launch(st, CASES "/vecadd_4x16/vecadd.metadata", 64, 0x42800000u); }
TEST(official_matadd) { one_launch(st, CASES "/matadd/matadd.metadata", 16, 0x41800000u); }

/* the six gaussian launches sharing memory; final a, b, m from the
 * cases' README */
static void gaussian(check_state *st, bool timing) {
  static const char *const files[] = {
      CASES "/gaussian/Fan1_0.metadata", CASES "/gaussian/Fan2_0.metadata",
      CASES "/gaussian/Fan1_1.metadata", CASES "/gaussian/Fan2_1.metadata",
      CASES "/gaussian/Fan1_2.metadata", CASES "/gaussian/Fan2_2.metadata", NULL};
  static const uint32_t a_want[16] = {0xbf19999a, 0xbf000000, 0x3f333333, 0x3e99999a,
                                      0x00000000, 0xbf266666, 0xbd4cccc8, 0x3f0ccccc,
                                      0xb26eeef0, 0x31424c20, 0xbf40fc10, 0xbf920d21,
                                      0x00000000, 0xb0c4ec50, 0x32036a80, 0x3f0042df};
  static const uint32_t b_want[4] = {0xbf59999a, 0xbe828f5c, 0x3f5f3ec1, 0xbe8042df};
  static const uint32_t m_want[16] = {0, 0, 0, 0, 0x3f000000, 0, 0, 0, 0x3f2aaaaa, 0x3e834836,
                                      0, 0, 0x80000000, 0x3e1d89d9, 0xbe8d0fac, 0};
  vt_session *s = run_cases(files, true, timing);
  CHECK(st, s != NULL);
  if (!s) return;
  uint32_t a[16], b[4], m[16];
  CHECK(st, read_words(s, 0x90000000u, a, 16) && read_words(s, 0x90001000u, b, 4) &&
                read_words(s, 0x90002000u, m, 16));
  CHECK(st, memcmp(a, a_want, sizeof a) == 0);
  CHECK(st, memcmp(b, b_want, sizeof b) == 0);
  CHECK(st, memcmp(m, m_want, sizeof m) == 0);
  check_moved(st, s, 0x80000000u);
  check_moved(st, s, 0x90000000u);
  if (timing) {
    const vt_stats *stt = vt_session_stats(s);
    CHECK(st, vt_stats_value(stt, -1, -1, VT_C_ptw_walks) > 0);
    CHECK(st, vt_stats_value(stt, -1, -1, VT_C_tlb_l1_hits) > 0);
  }
  vt_session_free(s);
}

TEST(official_gaussian) { gaussian(st, false); }
TEST(official_gaussian_timing) { gaussian(st, true); }

static int sh(const char *cmd) {
  int rc = system(cmd);
  return rc == -1 || !WIFEXITED(rc) ? -1 : WEXITSTATUS(rc);
}

static size_t slurp(const char *path, uint8_t *buf, size_t max) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(buf, 1, max, f);
  fclose(f);
  return n;
}

TEST(vt_run_mmu_cli) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "'%s' run --mmu --phys-bytes 536870912 '%s/vecadd_4x16/vecadd.metadata' "
           "--dump 0x90002000:256:c.bin 2>run.err",
           VT_BINARY, CASES);
  CHECK_EQ_U32(st, sh(cmd), 0);
  uint8_t c[256];
  CHECK_EQ_U32(st, slurp("c.bin", c, sizeof c), 256);
  unsigned wrong = 0;
  for (unsigned i = 0; i < 64; i++)
    wrong += c[4 * i] != 0 || c[4 * i + 1] != 0 || c[4 * i + 2] != 0x80 || c[4 * i + 3] != 0x42;
  CHECK_EQ_U32(st, wrong, 0);
}

static bool same_file(const char *a, const char *b) {
  static uint8_t x[1 << 20], y[1 << 20];
  size_t n = slurp(a, x, sizeof x), m = slurp(b, y, sizeof y);
  return n > 0 && n == m && n < sizeof x && memcmp(x, y, n) == 0;
}

/* every launch sequence of cases/rtl-verilog: the trace (every register
 * write, every memory address and value, in order) is the same with the
 * MMU on as off */
TEST(rtl_cases_trace_identical) {
  static const char *const dirs[] = {"bfs_2w16t", "gaussian_2w8t", "gaussian_4w4t", "matadd_2w8t",
                                     "matadd_4w4t", "nn_2w16t", "nn_4w8t", "vecadd_4w16t",
                                     "vecadd_4w8t", "vecadd_8w4t"};
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    char list[256], cmd[8192];
    snprintf(list, sizeof list, CASES "/rtl-verilog/%s/launches.txt", dirs[i]);
    FILE *f = fopen(list, "r");
    CHECK(st, f != NULL);
    if (!f) continue;
    size_t n = 0;
    char line[256];
    char files[3072] = "";
    while (fgets(line, sizeof line, f) && n + 300 < sizeof files) {
      line[strcspn(line, "\r\n")] = 0;
      if (line[0]) n += (size_t)snprintf(files + n, sizeof files - n, " '%s/rtl-verilog/%s/%s'", CASES, dirs[i], line);
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' run%s --trace off.txt 2>/dev/null && '%s' run --mmu%s --trace on.txt 2>/dev/null",
             VT_BINARY, files, VT_BINARY, files);
    CHECK_EQ_U32(st, sh(cmd), 0);
    if (!same_file("off.txt", "on.txt")) {
      st->failed_checks++;
      fprintf(stderr, "%s: the traces differ\n", dirs[i]);
    }
  }
}

/* hello: out[i] = i * i and a printf line per work-item, through the
 * runtime with the MMU on */
TEST(vt_launch_mmu_cli) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "'%s' as '%s/examples/kernels/crt0.s' '%s/examples/kernels/hello.s' "
           "'%s/examples/kernels/vtprintf.s' -o hello.elf && "
           "'%s' launch hello.elf --mmu --kernel hello --global 8 --local 8 --arg out:32 "
           "--save saved >launch.out 2>launch.err",
           VT_BINARY, VT_SOURCE_DIR, VT_SOURCE_DIR, VT_SOURCE_DIR, VT_BINARY);
  CHECK_EQ_U32(st, sh(cmd), 0);
  uint8_t out[32];
  CHECK_EQ_U32(st, slurp("saved/arg0.bin", out, sizeof out), 32);
  unsigned wrong = 0;
  for (unsigned i = 0; i < 8; i++) wrong += out[4 * i] != i * i || out[4 * i + 1] != 0;
  CHECK_EQ_U32(st, wrong, 0);
  char text[4096] = {0};
  slurp("launch.out", (uint8_t *)text, sizeof text - 1);
  CHECK(st, strstr(text, "49") != NULL); /* 7 * 7 printed */
}

RUN_TESTS(T_CASES(official_vecadd4x4), T_CASES(official_vecadd_4x16), T_CASES(official_matadd),
          T_CASES(official_gaussian), T_CASES(official_gaussian_timing), T_CASES(vt_run_mmu_cli),
          T_CASES(rtl_cases_trace_identical),
          T(vt_launch_mmu_cli))
