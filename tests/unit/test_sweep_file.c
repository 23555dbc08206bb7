/* Sweep files (src/sweep, docs/sweep.md): axis ranges and lists, the
 * product of the axes and [points], every error naming its line (line
 * numbers counted by hand in the texts below), the plan's argument vectors
 * and plan.json read back; no setting key collides with a result column. */
#include "check.h"
#include "sweep/sweep.h"
#include "vt/counters.h"
#include "vt/settings.h"

#define DATA VT_SOURCE_DIR "/examples/sweep/data/"

static void spit(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static void check_values(check_state *st, const char *text, const char *const *want, size_t n) {
  sweep_strv v = {0};
  char err[300] = "";
  int rc = sweep_axis_values(text, "f:1", &v, err, sizeof err);
  CHECK(st, rc == 0);
  CHECK(st, v.n == n);
  for (size_t i = 0; rc == 0 && i < n && i < v.n; i++) CHECK_STR(st, v.v[i], want[i]);
  if (rc) fprintf(stderr, "%s: %s\n", text, err);
  sweep_strv_free(&v);
}

TEST(axis_values) {
  static const char *const pow2[] = {"1", "2", "4", "8", "16"};
  static const char *const step[] = {"32", "64", "96", "128", "160", "192", "224", "256"};
  static const char *const list[] = {"1", "2", "4"};
  static const char *const names[] = {"ventus-2025", "verilog-2024"};
  static const char *const one[] = {"7"};
  static const char *const odd[] = {"3", "5", "7", "9"};
  check_values(st, "1..16 *2", pow2, 5);
  check_values(st, "1..20 *2", pow2, 5); /* stops before passing LAST */
  check_values(st, "32..256 +32", step, 8);
  check_values(st, "1, 2 ,4", list, 3);
  check_values(st, "ventus-2025, verilog-2024", names, 2);
  check_values(st, "7..7", one, 1);
  check_values(st, "3..10 +2", odd, 4);
  static const char *const bad[] = {"8..1", "1..8 *1", "0..8 *2", "1..8 +0", "1..x", "1,,2", "1..8 +",
                                    "1..100000"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sweep_strv v = {0};
    char err[300] = "";
    CHECK(st, sweep_axis_values(bad[i], "f:9", &v, err, sizeof err) == -1);
    CHECK(st, !strncmp(err, "f:9: ", 5));
    sweep_strv_free(&v);
  }
}

/* the sweep file 'text' must fail with a message starting "FILE:LINE: " and
 * containing 'want' */
static void check_error(check_state *st, const char *text, unsigned line, const char *want) {
  spit("e.sweep", text);
  sweep_file sf;
  char err[1200] = "", prefix[64];
  int rc = sweep_file_parse("e.sweep", &sf, err, sizeof err);
  sweep_file_free(&sf);
  snprintf(prefix, sizeof prefix, "e.sweep:%u: ", line);
  CHECK(st, rc == -1);
  if (strncmp(err, prefix, strlen(prefix)) || !strstr(err, want)) {
    st->failed_checks++;
    fprintf(stderr, "error \"%s\", expected \"%s...%s\"\n", err, prefix, want);
  }
}

#define WL "[workload w]\nlaunch = " VT_SOURCE_DIR "/examples/sweep/demo.sweep\nglobal = 64\n"

TEST(errors_name_the_line) {
  check_error(st, "[sweep]\nmode = timing\n[axes]\nsms = 1, 0\n" WL, 4, "sms = 0 is out of range (1 to 1024 SMs)");
  check_error(st, "[axes]\n\nthreads = 1..8\n" WL, 3, "threads = 3 is not a power of two");
  check_error(st, "[axes]\nwarp_slots = 4\nno_such_key = 1\n" WL, 3, "unknown setting 'no_such_key'");
  check_error(st, "[sweep]\nmode = functional\n[axes]\nl1d_sets = 32, 64\n" WL, 4,
              "l1d_sets is a timing-model setting: it needs 'mode = timing'");
  check_error(st, "[sweep]\nmodus = timing\n" WL, 2, "unknown key 'modus' in [sweep]");
  check_error(st, "[sweep]\nmode = fast\n" WL, 2, "expected functional or timing");
  check_error(st, "[sweep]\nrepetitions = 0\n" WL, 2, "repetitions must be at least 1");
  check_error(st, "# a comment\n[sweeps]\n" WL, 2, "unknown section [sweeps]");
  check_error(st, "[axes]\nsms = 1\n[points]\nsms=1\n" WL, 3, "[axes] and [points] exclude each other");
  check_error(st, "[points]\nsms=1 warp_slots=4\nsms=2\n" WL, 3, "this point names 1 settings, the first point 2");
  check_error(st, "[points]\nsms=1 warp_slots=4\nwarp_slots=4 sms=2\n" WL, 3, "setting 1 is warp_slots");
  check_error(st, "[points]\nsms=1\nsms=5000\n" WL, 3, "sms = 5000 is out of range");
  check_error(st, "[settings]\nstats_json = x.json\n" WL, 2, "stats_json is chosen by vt sweep itself");
  check_error(st, "[settings]\ntiming = 1\n" WL, 2, "timing is the sweep's mode");
  check_error(st, "[settings]\nsms = 2\n[axes]\nsms = 1, 2\n" WL, 4, "sms is both an axis and in [settings] (line 2)");
  check_error(st, "[axes]\nsms = 1\nsms = 2\n" WL, 3, "axis sms is given twice");
  check_error(st, "[sweep]\nbaseline = sms=3\n[axes]\nsms = 1, 2\n" WL, 2, "baseline: no configuration has sms=3");
  check_error(st, "[sweep]\nbaseline = warp_slots=3\n[axes]\nsms = 1, 2\n" WL, 2, "is not AXIS=VALUE of an axis");
  check_error(st, "[workload w]\nglobal = 64\n", 1, "has neither 'launch = ELF' nor 'run = FILE.metadata'");
  check_error(st, "[workload w]\nlaunch = /no/such.elf\n", 2, "/no/such.elf: no such file");
  check_error(st, WL "dump = 0x90000000:16\n", 4, "this key belongs to run workloads");
  check_error(st, "[workload w]\nlaunch = " DATA "vecadd_a.bin\n", 1, "needs 'global = X[,Y[,Z]]'");
  check_error(st, WL "local = 0\n", 4, "expected 1 to 3 numbers X[,Y[,Z]], each at least 1");
  check_error(st, WL "global = 4\n", 4, "global is given twice");
  check_error(st, WL "arg = ptr:4\n", 4, "arg = 'ptr:4': expected in:FILE");
  check_error(st, WL "arg = in:/no/file\n", 4, "/no/file: no such file");
  check_error(st, WL "arg = i32:1\nexpect = arg0:" DATA "vecadd_a.bin\n", 1, "expect names argument 0");
  check_error(st, WL "expect = res:x\n", 4, "expected argK:FILE (launch) or dumpN:FILE (run)");
  check_error(st, WL "colour = red\n", 4, "unknown key 'colour' in a workload");
  check_error(st, WL "[workload w]\n", 4, "workload 'w' appears twice (line 1)");
  check_error(st, "[sweep]\nmode = timing\n", 2, "no [workload NAME] section");
  check_error(st, "sms = 4\n" WL, 1, "before any [section]");
  check_error(st, "[workload w]\nrun = " DATA "vecadd_a.bin\nkernel = k\n", 3, "belongs to launch workloads");
  check_error(st, "[settings]\nprint_buffer = 0\n[workload w]\nrun = " DATA "vecadd_a.bin\n", 2,
              "print_buffer is a runtime setting of vt launch");
  check_error(st, "[axes]\nsms = 1..1000\nwarp_slots = 1..1000\n" WL, 3, "more than 100000 configurations");
  check_error(st, "[sweep]\ntimeline = yes\n" WL, 2, "timelines come from the timing model");
  check_error(st, "[workload w]\nlaunch = " DATA "vecadd_a.bin\nglobal = 64\ncheck = ./nope\n", 4,
              "./nope: no such file");
  check_error(st, "[sweep\n", 1, "a section header is [NAME] alone on its line");
  check_error(st, "[workload]\n", 1, "unknown section [workload]");
  check_error(st, "[workload  ]\n", 1, "unknown section");
}

static const char GOOD[] =
    "# comment line\n"
    "[sweep]\n"
    "name = t#1      # a comment after a blank; '#' inside a word stays\n"
    "mode = timing\n"
    "repetitions = 2\n"
    "baseline = sms=2 preset=verilog-2024\n"
    "[settings]\n"
    "l2-sets = 8\n"
    "[axes]\n"
    "sms = 1, 2\n"
    "preset = ventus-2025, verilog-2024\n"
    "warp-slots = 4..8 *2\n"
    "[workload a b; rm -rf x]\n"
    "launch = " DATA "vecadd_a.bin\n"
    "kernel = vecadd\n"
    "global = 64\n"
    "arg = in:" DATA "vecadd_b.bin\n"
    "arg = out:256\n"
    "expect = arg1:" DATA "vecadd_c.bin\n"
    "[workload r]\n"
    "run = " DATA "matmul_a.bin\n"
    "dump = 0x90000000:16\n"
    "expect = dump0:" DATA "matmul_b.bin\n";

TEST(product_plan_and_round_trip) {
  spit("g.sweep", GOOD);
  sweep_file sf;
  char err[1200] = "";
  int rc = sweep_file_parse("g.sweep", &sf, err, sizeof err);
  CHECK(st, rc == 0);
  if (rc) {
    fprintf(stderr, "%s\n", err);
    sweep_file_free(&sf);
    return;
  }
  CHECK_STR(st, sf.name, "t#1");
  CHECK(st, sf.naxes == 3 && sf.nconfigs == 8 && sf.nworkloads == 2 && sf.repetitions == 2);
  CHECK_STR(st, sf.axes[2].key, "warp_slots"); /* '-' written for '_' */
  CHECK_STR(st, sf.set_keys.v[0], "l2_sets");
  /* first axis slowest: (1,ventus,4) (1,ventus,8) (1,verilog,4) ... (2,verilog,8) */
  CHECK_STR(st, sf.configs[1 * 3 + 2], "8");
  CHECK_STR(st, sf.configs[2 * 3 + 1], "verilog-2024");
  CHECK_STR(st, sf.configs[4 * 3 + 0], "2");
  CHECK(st, sf.baseline == 6); /* sms=2, verilog-2024, warp_slots=4 */
  sweep_plan p, q;
  rc = sweep_plan_build(&sf, "/bin/vt", VT_TEST_TMP, &p, err, sizeof err);
  CHECK(st, rc == 0 && p.npoints == 32);
  CHECK_STR(st, p.points[0].workload, "a b; rm -rf x");
  CHECK_STR(st, p.points[17].workload, "r");
  CHECK(st, p.points[17].rep == 1); /* config 0 of workload r, second repetition */
  static const char *const argv0[] = {"launch", DATA "vecadd_a.bin", "--kernel", "vecadd",
                                      "--global", "64", "--arg", "in:" DATA "vecadd_b.bin",
                                      "--arg", "out:256", "--save", "save", "-q", "--stats-json",
                                      "stats.json", "--timing", "--set", "l2_sets=8", "--set", "sms=1",
                                      "--set", "preset=ventus-2025", "--set", "warp_slots=4"};
  CHECK(st, p.points[0].argv.n == sizeof argv0 / sizeof argv0[0]);
  for (size_t i = 0; i < p.points[0].argv.n && i < sizeof argv0 / sizeof argv0[0]; i++)
    CHECK_STR(st, p.points[0].argv.v[i], argv0[i]);
  CHECK_STR(st, p.points[17].argv.v[2], "--dump");
  CHECK_STR(st, p.points[17].argv.v[3], "0x90000000:16:dump0.bin");
  CHECK_STR(st, p.points[17].expect[0].produced, "dump0.bin");
  CHECK(st, strcmp(p.points[0].key, p.points[1].key) != 0); /* repetitions differ */
  CHECK(st, sweep_plan_write(&p, err, sizeof err) == 0);
  CHECK(st, sweep_plan_read(VT_TEST_TMP, &q, err, sizeof err) == 0);
  CHECK(st, q.npoints == p.npoints && q.timing && q.axes.n == 3);
  CHECK_STR(st, q.baseline.v[1], "verilog-2024");
  for (size_t i = 0; i < q.npoints && i < p.npoints; i++) {
    CHECK_STR(st, q.points[i].key, p.points[i].key);
    CHECK(st, q.points[i].argv.n == p.points[i].argv.n && q.points[i].nexpect == p.points[i].nexpect);
  }
  sweep_plan_free(&q);
  sweep_plan_free(&p);
  sweep_file_free(&sf);
}

TEST(points_section) {
  spit("p.sweep", "[points]\nsms=1 warp_slots=4\nsms=4 warp_slots=4\nsms=1 warp_slots=8\n" WL);
  sweep_file sf;
  char err[1200] = "";
  CHECK(st, sweep_file_parse("p.sweep", &sf, err, sizeof err) == 0);
  CHECK(st, sf.nconfigs == 3 && sf.naxes == 2);
  CHECK(st, sf.axes[0].values.n == 2 && sf.axes[1].values.n == 2); /* distinct values */
  CHECK_STR(st, sf.configs[1 * 2 + 0], "4");
  CHECK_STR(st, sf.configs[2 * 2 + 1], "8");
  sweep_file_free(&sf);
}

TEST(plan_json_rejects_damage) {
  /* the last one: a point whose index does not match its position */
  static const char bad_index[] = "{\"name\":\"x\",\"vt\":\"v\",\"timing\":true,\"axes\":[],"
                                  "\"baseline\":[],\"points\":[{\"index\":5}]}";
  static const char *const bad[] = {"", "{", "{\"points\": 3}", "[1, 2]", bad_index};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    spit("plan.json", bad[i]);
    sweep_plan p;
    char err[600] = "";
    CHECK(st, sweep_plan_read(".", &p, err, sizeof err) == -1);
    CHECK(st, strstr(err, "plan.json") != NULL);
  }
}

/* results name settings and counters as columns: no clash, no fixed name */
TEST(column_names_unique) {
  static const char *const fixed[] = {"point", "workload", "rep", "status", "message",
                                      "exit_status", "host_time_s", "peak_rss_kb", "key"};
  for (int i = 0; i < VT_S_COUNT; i++) {
    const char *k = vt_setting_info_of(i)->key;
    CHECK(st, vt_counter_find(k) < 0);
    for (size_t j = 0; j < sizeof fixed / sizeof fixed[0]; j++) CHECK(st, strcmp(k, fixed[j]) != 0);
  }
  for (int c = 0; c < VT_C_COUNT; c++)
    for (size_t j = 0; j < sizeof fixed / sizeof fixed[0]; j++)
      CHECK(st, strcmp(vt_counter_info_of(c)->name, fixed[j]) != 0);
}

RUN_TESTS(T(axis_values), T(errors_name_the_line), T(product_plan_and_round_trip), T(points_section),
          T(plan_json_rejects_damage), T(column_names_unique))
