/* vt run, driven as a program: the four official cases with --dump against
 * the expected words of cases/README.md, --stats-json, --trace,
 * --dump-config, --config, configuration errors, malformed input, the
 * budget error; and random inputs for vecadd_4x16, matadd and gaussian
 * against a C reference (through the library). */
#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check.h"
#include "vt/testvec.h"

#define CASES VT_SHARED_DIR "/cases"
#define TMP VT_TEST_TMP

static void spit(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* Run "vt run ARGS"; stdout and stderr captured into *out / *err (caller
 * frees). Returns the exit status, or -1. */
static int vt_run(const char *args, char **out, char **err) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' run %s >'%s/cli.out' 2>'%s/cli.err'", VT_BINARY, args, TMP, TMP);
  int rc = system(cmd);
  if (out) *out = test_slurp(TMP "/cli.out", NULL);
  if (err) *err = test_slurp(TMP "/cli.err", NULL);
  if (rc == -1 || !WIFEXITED(rc)) return -1;
  return WEXITSTATUS(rc);
}

static void check_contains(check_state *st, const char *hay, const char *needle) {
  if (!hay || !strstr(hay, needle)) {
    st->failed_checks++;
    fprintf(stderr, "output \"%s\" lacks \"%s\"\n", hay ? hay : "(null)", needle);
  }
}

/* compare a dump file with expected little-endian words */
static void check_dump(check_state *st, const char *path, const uint32_t *want, size_t n) {
  size_t len = 0;
  char *b = test_slurp(path, &len);
  CHECK(st, b != NULL);
  if (!b) return;
  CHECK(st, len == 4 * n);
  for (size_t i = 0; i < n && 4 * i + 3 < len; i++) {
    const uint8_t *p = (const uint8_t *)b + 4 * i;
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    if (v != want[i]) {
      st->failed_checks++;
      fprintf(stderr, "%s word %zu = %08x, expected %08x\n", path, i, v, want[i]);
      break;
    }
  }
  free(b);
}

/* ---- a minimal JSON checker: one flat object of "key": number ---- */
typedef struct json_kv {
  char key[64];
  double value;
} json_kv;

static int parse_flat_json(const char *s, json_kv *kv, int max) {
  int n = 0;
  while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r') s++;
  if (*s++ != '{') return -1;
  for (;;) {
    while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r') s++;
    if (*s == '}' && n == 0) return 0;
    if (*s++ != '"') return -1;
    const char *e = strchr(s, '"');
    if (!e || e - s >= 64 || n >= max) return -1;
    memcpy(kv[n].key, s, (size_t)(e - s));
    kv[n].key[e - s] = 0;
    s = e + 1;
    while (*s == ' ') s++;
    if (*s++ != ':') return -1;
    while (*s == ' ') s++;
    char *end;
    kv[n].value = strtod(s, &end);
    if (end == s || *s == '+' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9')) return -1;
    s = end;
    n++;
    while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r') s++;
    if (*s == ',') {
      s++;
      continue;
    }
    return *s == '}' ? n : -1;
  }
}

/* the flat "total" object of the statistics JSON (docs/counters.md) */
static int parse_totals(const char *js, json_kv *kv, int max) {
  const char *t = js ? strstr(js, "\"total\": {") : NULL;
  return t ? parse_flat_json(t + 9, kv, max) : -1;
}

static double json_get(const json_kv *kv, int n, const char *key) {
  for (int i = 0; i < n; i++)
    if (!strcmp(kv[i].key, key)) return kv[i].value;
  return -1;
}

static const char *const STATS_KEYS[] = {
    "launches", "workgroups", "warps", "warp_instructions", "thread_instructions",
    "scalar_instructions", "vector_instructions", "vector_branches",
    "divergent_vector_branches", "barriers", "max_simt_depth", "host_seconds", "divergence"};

#define GAUSSIAN_FILES                                                                    \
  CASES "/gaussian/Fan1_0.metadata " CASES "/gaussian/Fan2_0.metadata " CASES            \
        "/gaussian/Fan1_1.metadata " CASES "/gaussian/Fan2_1.metadata " CASES            \
        "/gaussian/Fan1_2.metadata " CASES "/gaussian/Fan2_2.metadata"

/* ---------------- official cases through the CLI ---------------- */

TEST(official_cases_dump) {
  uint32_t want[64];
  for (int i = 0; i < 64; i++) want[i] = 0x41800000u; /* 16.0 */
  CHECK_EQ_U32(st, vt_run("-q --dump 0x90002000:64:" TMP "/c1.bin " CASES
                          "/vecadd4x4/vecadd4x4.metadata", NULL, NULL), 0);
  check_dump(st, TMP "/c1.bin", want, 16);
  CHECK_EQ_U32(st, vt_run("-q --dump 0x90002000:64:" TMP "/c2.bin " CASES "/matadd/matadd.metadata",
                          NULL, NULL), 0);
  check_dump(st, TMP "/c2.bin", want, 16);
  for (int i = 0; i < 64; i++) want[i] = 0x42800000u; /* 64.0 */
  CHECK_EQ_U32(st, vt_run("-q --dump 0x90002000:256:" TMP "/c3.bin " CASES
                          "/vecadd_4x16/vecadd.metadata", NULL, NULL), 0);
  check_dump(st, TMP "/c3.bin", want, 64);
  static const uint32_t ga[16] = {0xbf19999a, 0xbf000000, 0x3f333333, 0x3e99999a,
                                  0x00000000, 0xbf266666, 0xbd4cccc8, 0x3f0ccccc,
                                  0xb26eeef0, 0x31424c20, 0xbf40fc10, 0xbf920d21,
                                  0x00000000, 0xb0c4ec50, 0x32036a80, 0x3f0042df};
  static const uint32_t gb[4] = {0xbf59999a, 0xbe828f5c, 0x3f5f3ec1, 0xbe8042df};
  static const uint32_t gm[16] = {0, 0, 0, 0, 0x3f000000, 0, 0, 0, 0x3f2aaaaa, 0x3e834836,
                                  0, 0, 0x80000000, 0x3e1d89d9, 0xbe8d0fac, 0};
  CHECK_EQ_U32(st, vt_run("-q --dump 0x90000000:64:" TMP "/ga.bin --dump 0x90001000:16:" TMP
                          "/gb.bin --dump 0x90002000:64:" TMP "/gm.bin " GAUSSIAN_FILES,
                          NULL, NULL), 0);
  check_dump(st, TMP "/ga.bin", ga, 16);
  check_dump(st, TMP "/gb.bin", gb, 4);
  check_dump(st, TMP "/gm.bin", gm, 16);
  /* other device shapes give the same result */
  CHECK_EQ_U32(st, vt_run("-q --sms 1 --warp-slots 4 --dump 0x90000000:64:" TMP "/ga2.bin "
                          GAUSSIAN_FILES, NULL, NULL), 0);
  check_dump(st, TMP "/ga2.bin", ga, 16);
  for (int i = 0; i < 16; i++) want[i] = 0x41800000u;
  CHECK_EQ_U32(st, vt_run("-q --sms 3 --warp-slots 32 --threads 4 --lds-bytes 65536 --dump "
                          "0x90002000:64:" TMP "/c4.bin " CASES "/matadd/matadd.metadata",
                          NULL, NULL), 0);
  check_dump(st, TMP "/c4.bin", want, 16);
  /* a dump beyond the mapped buffers (C is 64 bytes) fails */
  char *err = NULL;
  CHECK_EQ_U32(st, vt_run("-q --dump 0x90002000:256:" TMP "/c5.bin " CASES
                          "/matadd/matadd.metadata", NULL, &err), 1);
  check_contains(st, err, "--dump: host read of 256 bytes at 0x90002000: not in a mapped buffer");
  free(err);
}

TEST(summary_line) {
  char *err = NULL;
  CHECK_EQ_U32(st, vt_run(GAUSSIAN_FILES, NULL, &err), 0);
  check_contains(st, err, "vt run: 6 launch(es), 6 workgroup(s), ");
  check_contains(st, err, " warp-instructions, ");
  check_contains(st, err, " thread-instructions, ");
  check_contains(st, err, " M warp-insn/s\n");
  free(err);
  CHECK_EQ_U32(st, vt_run("-q " CASES "/matadd/matadd.metadata", NULL, &err), 0);
  CHECK(st, err && err[0] == 0);
  free(err);
}

TEST(stats_json) {
  CHECK_EQ_U32(st, vt_run("-q --stats-json " TMP "/s.json " CASES "/vecadd_4x16/vecadd.metadata",
                          NULL, NULL), 0);
  char *js = test_slurp(TMP "/s.json", NULL);
  CHECK(st, js != NULL);
  if (!js) return;
  json_kv kv[32];
  int n = parse_totals(js, kv, 32);
  CHECK(st, n == (int)(sizeof STATS_KEYS / sizeof STATS_KEYS[0]));
  for (size_t k = 0; k < sizeof STATS_KEYS / sizeof STATS_KEYS[0]; k++)
    CHECK(st, json_get(kv, n, STATS_KEYS[k]) >= 0);
  CHECK(st, json_get(kv, n, "launches") == 1);
  CHECK(st, json_get(kv, n, "workgroups") == 1);
  CHECK(st, json_get(kv, n, "warps") == 4);
  double wi = json_get(kv, n, "warp_instructions");
  CHECK(st, wi > 0);
  CHECK(st, json_get(kv, n, "scalar_instructions") + json_get(kv, n, "vector_instructions") == wi);
  CHECK(st, json_get(kv, n, "vector_instructions") > 0);
  /* all 16 lanes active throughout */
  CHECK(st, json_get(kv, n, "thread_instructions") == 16 * wi);
  free(js);
  /* gaussian: six launches, barriers in Fan2? at least branches */
  CHECK_EQ_U32(st, vt_run("-q --stats-json " TMP "/s2.json " GAUSSIAN_FILES, NULL, NULL), 0);
  js = test_slurp(TMP "/s2.json", NULL);
  n = js ? parse_totals(js, kv, 32) : -1;
  CHECK(st, n > 0);
  CHECK(st, json_get(kv, n, "launches") == 6);
  CHECK(st, json_get(kv, n, "warps") == 3 * 1 + 3 * 4);
  CHECK(st, json_get(kv, n, "warp_instructions") > 0);
  CHECK(st, json_get(kv, n, "vector_branches") > 0);
  free(js);
}

/* one trace line per warp instruction; the format of a line */
TEST(trace_lines) {
  CHECK_EQ_U32(st, vt_run("-q --trace " TMP "/t.txt --stats-json " TMP "/t.json " CASES
                          "/matadd/matadd.metadata", NULL, NULL), 0);
  size_t len = 0;
  char *t = test_slurp(TMP "/t.txt", &len);
  char *js = test_slurp(TMP "/t.json", NULL);
  CHECK(st, t && js);
  if (!t || !js) return;
  size_t lines = 0;
  for (size_t i = 0; i < len; i++) lines += t[i] == '\n';
  json_kv kv[32];
  int n = parse_totals(js, kv, 32);
  CHECK(st, lines > 0 && (double)lines == json_get(kv, n, "warp_instructions"));
  CHECK(st, strncmp(t, "S0 WG0 W0 80000000 00004197 auipc gp, 4", 39) == 0);
  check_contains(st, t, " mask=0000000f x3=80004000\n");
  check_contains(st, t, "endprg");
  free(t);
  free(js);
}

/* ---------------- configuration ---------------- */

TEST(dump_config) {
  char *out = NULL;
  CHECK_EQ_U32(st, vt_run("--dump-config", &out, NULL), 0);
  static const char *keys[] = {"\nsms = 2\n", "\nwarp_slots = 8\n", "\nthreads = 0\n",
                               "\nlds_bytes = 131072\n", "\nmax_insns = 4000000000\n",
                               "\npreset = ventus-2025\n", "\nl1d_sets = 256\n"};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) check_contains(st, out, keys[k]);
  free(out);
  CHECK_EQ_U32(st, vt_run("--sms 3 --max-insns 99 --warp-slots 4 --dump-config", &out, NULL), 0);
  check_contains(st, out, "sms = 3\n");
  check_contains(st, out, "max_insns = 99\n");
  check_contains(st, out, "warp_slots = 4\n");
  free(out);
}

TEST(config_file) {
  spit(TMP "/good.cfg", "# device\nsms = 4   # four SMs\n\nwarp_slots=16\nthreads = 4\n"
                        "lds_bytes = 0x10000\nmax_insns = 100000\n");
  char *out = NULL, *err = NULL;
  CHECK_EQ_U32(st, vt_run("--config " TMP "/good.cfg --dump-config", &out, NULL), 0);
  check_contains(st, out, "sms = 4\n");
  check_contains(st, out, "warp_slots = 16\n");
  check_contains(st, out, "threads = 4\n");
  check_contains(st, out, "lds_bytes = 65536\n");
  check_contains(st, out, "max_insns = 100000\n");
  free(out);
  /* later options override the file */
  CHECK_EQ_U32(st, vt_run("--config " TMP "/good.cfg --sms 1 --dump-config", &out, NULL), 0);
  check_contains(st, out, "sms = 1\n");
  free(out);
  struct {
    const char *text, *msg;
  } bad[] = {
      {"sms = 4\nbogus = 1\n", "bad.cfg:2: unknown setting 'bogus'"},
      {"sms = 4\n# c\n\nwarp_slots = x\n", "bad.cfg:4: 'x' is not a valid value for warp_slots"},
      {"threads = 3\n", "bad.cfg:1: threads = 3 is not a power of two"},
      {"threads = 64\n", "bad.cfg:1: threads = 64 is out of range (0 to 32 threads)"},
      {"fetch_bytes = 4096\nl1d_sets = 0\n", "bad.cfg:2: l1d_sets = 0 is out of range"},
      {"sms = 0\n", "bad.cfg:1: sms = 0 is out of range"},
      {"sms\n", "bad.cfg:1: expected 'key = value'"},
      {"max_insns = -5\n", "bad.cfg:1: '-5' is not a valid value for max_insns"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    spit(TMP "/bad.cfg", bad[k].text);
    CHECK_EQ_U32(st, vt_run("--config " TMP "/bad.cfg --dump-config", NULL, &err), 2);
    check_contains(st, err, bad[k].msg);
    free(err);
  }
  CHECK_EQ_U32(st, vt_run("--config " TMP "/no-such.cfg --dump-config", NULL, &err), 2);
  check_contains(st, err, "no-such.cfg: No such file or directory");
  free(err);
}

/* a configuration file applied to a run of an official case */
TEST(config_file_run) {
  char *err = NULL;
  spit(TMP "/good.cfg", "sms = 4\nwarp_slots=16\nthreads = 4\nlds_bytes = 0x10000\n"
                        "max_insns = 100000\n");
  CHECK_EQ_U32(st, vt_run("-q --config " TMP "/good.cfg " CASES "/matadd/matadd.metadata",
                          NULL, NULL), 0);
  spit(TMP "/small.cfg", "max_insns = 10\n");
  CHECK_EQ_U32(st, vt_run("-q --config " TMP "/small.cfg " CASES "/matadd/matadd.metadata",
                          NULL, &err), 1);
  check_contains(st, err, "instruction budget of 10 warp instructions exhausted");
  free(err);
}

TEST(usage_errors) {
  char *err = NULL;
  CHECK_EQ_U32(st, vt_run("", NULL, &err), 2);
  check_contains(st, err, "usage: vt run");
  free(err);
  CHECK_EQ_U32(st, vt_run("--frobnicate 1 x.metadata", NULL, &err), 2);
  check_contains(st, err, "unknown option --frobnicate");
  free(err);
  CHECK_EQ_U32(st, vt_run("--dump 0x90000000:16 x.metadata", NULL, &err), 2);
  check_contains(st, err, "bad --dump '0x90000000:16'");
  free(err);
  CHECK_EQ_U32(st, vt_run("--threads 6 x.metadata", NULL, &err), 2);
  check_contains(st, err, "--threads: threads = 6 is not a power of two");
  free(err);
  CHECK_EQ_U32(st, vt_run("--max-insns", NULL, &err), 2);
  check_contains(st, err, "--max-insns needs a value");
  free(err);
  char *out = NULL;
  CHECK_EQ_U32(st, vt_run("--help", &out, NULL), 0);
  check_contains(st, out, "--stats-json X");
  free(out);
}

TEST(threads_fixed_mismatch) {
  char *err = NULL;
  int rc = vt_run("--threads 8 " CASES "/matadd/matadd.metadata", NULL, &err);
  CHECK(st, rc != 0);
  CHECK_EQ_U32(st, rc, 1);
  check_contains(st, err, "matadd.metadata: launch needs 4 threads per warp, the device has 8 "
                          "(configuration fixed by the user)");
  free(err);
  CHECK(st, vt_run("--warp-slots 2 " CASES "/matadd/matadd.metadata", NULL, &err) == 1);
  check_contains(st, err, "a workgroup of 4 warps does not fit an SM with 2 warp slots "
                          "(configuration fixed by the user)");
  free(err);
}

TEST(malformed_input) {
  char *m = test_slurp(CASES "/matadd/matadd.metadata", NULL), *d = test_slurp(CASES "/matadd/matadd.data", NULL);
  CHECK(st, m && d);
  if (!m || !d) return;
  m[9 * 9 + 2] = 'g'; /* line 10 */
  spit(TMP "/bad.metadata", m);
  spit(TMP "/bad.data", d);
  char *err = NULL;
  int rc = vt_run(TMP "/bad.metadata", NULL, &err);
  CHECK_EQ_U32(st, rc, 1);
  check_contains(st, err, "bad.metadata:10: 'g' is not a hex digit");
  free(err);
  /* a missing .data */
  spit(TMP "/lonely.metadata", "00000000\n");
  remove(TMP "/lonely.data");
  CHECK_EQ_U32(st, vt_run(TMP "/lonely.metadata", NULL, &err), 1);
  check_contains(st, err, "lonely.data: cannot open");
  free(err);
  /* a failing launch stops the sequence: later files are not run */
  CHECK_EQ_U32(st, vt_run(TMP "/bad.metadata " CASES "/matadd/matadd.metadata", NULL, &err), 1);
  check_contains(st, err, "vt run: 0 launch(es)");
  free(err);
  free(m);
  free(d);
}

TEST(budget_error_names_location) {
  char *err = NULL;
  CHECK_EQ_U32(st, vt_run("--max-insns 10 " CASES "/matadd/matadd.metadata", NULL, &err), 1);
  check_contains(st, err, "matadd.metadata: SM 0, workgroup 0, warp ");
  check_contains(st, err, ", pc 0x800000");
  check_contains(st, err, "): instruction budget of 10 warp instructions exhausted (--max-insns)");
  check_contains(st, err, "10 warp-instructions");
  free(err);
  /* dumps are not written after a failure */
  remove(TMP "/nodump.bin");
  CHECK_EQ_U32(st, vt_run("-q --max-insns 10 --dump 0x90002000:4:" TMP "/nodump.bin " CASES
                          "/matadd/matadd.metadata", NULL, NULL), 1);
  struct stat sb;
  CHECK(st, stat(TMP "/nodump.bin", &sb) != 0);
}

/* ---------------- random inputs against a C reference ---------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 16);
}
/* finite floats over many magnitudes and both signs (no NaN/inf, so the
 * host's NaN rules play no part) */
static float rnd_float(void) {
  float m = (float)(rnd() & 0xffffff) / 16777216.0f + 0.5f;
  int e = (int)(rnd() % 41) - 20;
  float v = ldexpf(m, e);
  return (rnd() & 1) ? -v : v;
}
static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* load a case, overwrite A (0x90000000) and B (0x90001000) with random
 * floats, run, compare C (0x90002000) with A + B */
static void random_add_case(check_state *st, const char *meta, unsigned n, unsigned rounds) {
  for (unsigned r = 0; r < rounds; r++) {
    vt_testvec *tv = NULL;
    vt_error e;
    CHECK_EQ_U32(st, vt_testvec_load(meta, NULL, &tv, &e), VT_OK);
    if (!tv) return;
    vt_device *dev = vt_device_new(NULL);
    vt_launch l;
    CHECK_EQ_U32(st, vt_testvec_apply(dev, tv, &l, &e), VT_OK);
    float a[64], b[64], c[64];
    for (unsigned i = 0; i < n; i++) {
      a[i] = rnd_float();
      b[i] = rnd_float();
    }
    CHECK_EQ_U32(st, vt_mem_write(dev, 0x90000000u, a, 4 * n, &e), VT_OK);
    CHECK_EQ_U32(st, vt_mem_write(dev, 0x90001000u, b, 4 * n, &e), VT_OK);
    CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_OK);
    CHECK_EQ_U32(st, vt_mem_read(dev, 0x90002000u, c, 4 * n, &e), VT_OK);
    for (unsigned i = 0; i < n; i++) {
      volatile float want = a[i] + b[i];
      if (fbits(c[i]) != fbits(want)) {
        st->failed_checks++;
        fprintf(stderr, "%s: C[%u] = %08x, expected %08x (%08x + %08x)\n", meta, i,
                fbits(c[i]), fbits(want), fbits(a[i]), fbits(b[i]));
        break;
      }
    }
    vt_device_free(dev);
    vt_testvec_free(tv);
  }
}

TEST(random_vecadd_4x16) {
  random_add_case(st, CASES "/vecadd_4x16/vecadd.metadata", 64, 8);
}

TEST(random_matadd) {
  random_add_case(st, CASES "/matadd/matadd.metadata", 16, 8);
}

TEST(random_vecadd4x4) {
  random_add_case(st, CASES "/vecadd4x4/vecadd4x4.metadata", 16, 4);
}

/* Rodinia Fan1/Fan2 reference (cases/README.md), N = 4 */
static void gaussian_ref(float *a, float *b, float *m) {
  const int N = 4;
  for (int t = 0; t < N - 1; t++) {
    for (int g = 0; g < N - 1 - t; g++) m[N * (g + t + 1) + t] = a[N * (g + t + 1) + t] / a[N * t + t];
    for (int gx = 0; gx < N - 1 - t; gx++)
      for (int gy = 0; gy < N - t; gy++) {
        float mm = m[N * (gx + 1 + t) + t];
        a[N * (gx + 1 + t) + gy + t] = fmaf(-mm, a[N * t + gy + t], a[N * (gx + 1 + t) + gy + t]);
        if (gy == 0) b[gx + 1 + t] = fmaf(-mm, b[t], b[gx + 1 + t]);
      }
  }
}

static const char *const GAUSS[] = {"Fan1_0", "Fan2_0", "Fan1_1", "Fan2_1", "Fan1_2", "Fan2_2"};

/* run the six launches on one device; 'a0'/'b0' NULL: keep the shipped inputs */
static int gaussian_run(check_state *st, const float *a0, const float *b0, float *a, float *b,
                        float *m) {
  vt_device *dev = vt_device_new(NULL);
  vt_error e;
  int rc = VT_OK;
  for (int k = 0; k < 6 && rc == VT_OK; k++) {
    char path[512];
    snprintf(path, sizeof path, "%s/gaussian/%s.metadata", CASES, GAUSS[k]);
    vt_testvec *tv = NULL;
    vt_launch l;
    rc = vt_testvec_load(path, NULL, &tv, &e);
    if (rc == VT_OK) rc = vt_testvec_apply(dev, tv, &l, &e);
    if (rc == VT_OK && k == 0 && a0) {
      vt_mem_write(dev, 0x90000000u, a0, 64, &e);
      vt_mem_write(dev, 0x90001000u, b0, 16, &e);
    }
    if (rc == VT_OK) rc = vt_device_run(dev, &l, NULL, &e);
    if (rc != VT_OK) {
      st->failed_checks++;
      fprintf(stderr, "%s: %s\n", path, e.message);
    }
    vt_testvec_free(tv);
  }
  vt_mem_read(dev, 0x90000000u, a, 64, &e);
  vt_mem_read(dev, 0x90001000u, b, 16, &e);
  vt_mem_read(dev, 0x90002000u, m, 64, &e);
  vt_device_free(dev);
  return rc;
}

static void compare_floats(check_state *st, const char *what, const float *got, const float *want,
                           unsigned n) {
  for (unsigned i = 0; i < n; i++)
    if (fbits(got[i]) != fbits(want[i])) {
      st->failed_checks++;
      fprintf(stderr, "%s[%u] = %08x, expected %08x\n", what, i, fbits(got[i]), fbits(want[i]));
      return;
    }
}

TEST(random_gaussian) {
  /* the reference reproduces the shipped case first (m starts at zero) */
  float a[16], b[4], m[16], ra[16], rb[4], rm[16];
  CHECK_EQ_U32(st, gaussian_run(st, NULL, NULL, a, b, m), VT_OK);
  {
    vt_testvec *tv = NULL;
    vt_error e;
    vt_testvec_load(CASES "/gaussian/Fan1_0.metadata", NULL, &tv, &e);
    CHECK(st, tv != NULL);
    if (!tv) return;
    /* buffers: m, a, b first (argument order of first use) */
    memcpy(rm, tv->data + tv->bufs[0].data_offset, 64);
    memcpy(ra, tv->data + tv->bufs[1].data_offset, 64);
    memcpy(rb, tv->data + tv->bufs[2].data_offset, 16);
    vt_testvec_free(tv);
    gaussian_ref(ra, rb, rm);
    compare_floats(st, "shipped a", a, ra, 16);
    compare_floats(st, "shipped b", b, rb, 4);
    compare_floats(st, "shipped m", m, rm, 16);
    CHECK_EQ_U32(st, fbits(rm[12]), 0x80000000u); /* the -0.0 of the README */
  }
  for (int round = 0; round < 20; round++) {
    float a0[16], b0[4];
    /* diagonally dominant: well conditioned, no pivoting needed */
    for (int i = 0; i < 4; i++) {
      float sum = 0;
      for (int j = 0; j < 4; j++) {
        a0[4 * i + j] = rnd_float();
        if (fabsf(a0[4 * i + j]) > 4.0f) a0[4 * i + j] = ldexpf(a0[4 * i + j], -4);
        sum += fabsf(a0[4 * i + j]);
      }
      a0[4 * i + i] = (rnd() & 1) ? sum + 1.0f : -(sum + 1.0f);
      b0[i] = rnd_float();
    }
    memcpy(ra, a0, sizeof ra);
    memcpy(rb, b0, sizeof rb);
    memset(rm, 0, sizeof rm);
    gaussian_ref(ra, rb, rm);
    CHECK_EQ_U32(st, gaussian_run(st, a0, b0, a, b, m), VT_OK);
    compare_floats(st, "a", a, ra, 16);
    compare_floats(st, "b", b, rb, 4);
    compare_floats(st, "m", m, rm, 16);
    if (st->failed_checks) {
      fprintf(stderr, "  (round %d)\n", round);
      break;
    }
  }
}

/* --elf places the ELF's PT_LOAD segments (here a .data word and a zeroed
 * .bss) before the launches; a non-ELF file is a clear error */
TEST(elf_segments_loaded) {
  spit(TMP "/seg.s", ".text\n.globl _start\n_start: ret\n.data\nw: .word 0x12345678\n"
                     ".bss\nz: .zero 8\n");
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' as -o '%s/seg.elf' '%s/seg.s'", VT_BINARY, TMP, TMP);
  CHECK(st, system(cmd) == 0);
  char args[4096];
  snprintf(args, sizeof args,
           "-q --elf '%s/seg.elf' '%s/cases/vecadd_4x16/vecadd.metadata' "
           "--dump 0x80002000:12:'%s/seg.bin'", TMP, VT_SHARED_DIR, TMP);
  CHECK_EQ_U32(st, vt_run(args, NULL, NULL), 0);
  const uint32_t want[3] = {0x12345678, 0, 0};
  check_dump(st, TMP "/seg.bin", want, 3);
  char *err = NULL;
  snprintf(args, sizeof args, "--elf '%s/seg.s' '%s/cases/vecadd_4x16/vecadd.metadata'", TMP,
           VT_SHARED_DIR);
  CHECK_EQ_U32(st, vt_run(args, NULL, &err), 1);
  check_contains(st, err, "seg.s: not an ELF file");
  free(err);
}

RUN_TESTS(T_CASES(official_cases_dump), T_CASES(elf_segments_loaded), T_CASES(summary_line), T_CASES(stats_json), T_CASES(trace_lines), T(dump_config),
          T(config_file), T_CASES(config_file_run), T(usage_errors), T_CASES(threads_fixed_mismatch), T_CASES(malformed_input),
          T_CASES(budget_error_names_location), T_CASES(random_vecadd_4x16), T_CASES(random_matadd),
          T_CASES(random_vecadd4x4), T_CASES(random_gaussian))
