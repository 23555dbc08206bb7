/* vt sweep as a program (docs/sweep.md): 24 points locally whose rows equal
 * `vt launch` run alone for each point (every counter but host time); a
 * sweep killed half-way resumes with only the missing points (recorded
 * ones untouched, no point process left behind); statuses ok /
 * verify_failed / error / timeout and --retry-failed; SIGTERM; a generic
 * launcher receiving the task command as separate arguments with awkward
 * names and paths; the Slurm script and submission through stand-in
 * sbatch/squeue programs, the script then run by hand as array tasks. The
 * real one-node Slurm test is tests/scripts/sweep_slurm_test.py. */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

#include "sweep_test_util.h"
#include "vt/counters.h"

#define DATA VT_SOURCE_DIR "/examples/sweep/data/"

static char EX[EXAMPLES_DIR_LEN];

/* the two demo workloads, with 'extra' lines appended to each */
static void workloads(FILE *f) {
  fprintf(f, "[workload vecadd]\nlaunch = %s/vecadd.elf\nkernel = vecadd\nglobal = 1024\nlocal = 128\n"
          "arg = in:" DATA "vecadd_a.bin\narg = in:" DATA "vecadd_b.bin\narg = out:4096\n"
          "expect = arg2:" DATA "vecadd_c.bin\n", EX);
  fprintf(f, "[workload matmul]\nlaunch = %s/matmul.elf\nkernel = matmul\nglobal = 32,32\nlocal = 8,8\n"
          "arg = in:" DATA "matmul_a.bin\narg = in:" DATA "matmul_b.bin\narg = out:4096\n"
          "arg = i32:32\narg = i32:32\narg = local:256\narg = local:256\n"
          "expect = arg2:" DATA "matmul_c.bin\n", EX);
}

static void write_grid(const char *path, const char *out) {
  FILE *f = fopen(path, "w");
  if (!f) return;
  fprintf(f, "[sweep]\noutput = %s\nmode = timing\n[axes]\nsms = 1, 2, 4\nwarp_slots = 4, 8\n"
          "l2_sets = 2, 64\n", out);
  workloads(f);
  fclose(f);
}

/* the arguments `vt launch` gets for a point, written out here by hand */
static int single_run(const char *wl, const char *sms, const char *ws, const char *l2, const char *json) {
  char elf[4200], sm[64], w[64], l[64];
  snprintf(elf, sizeof elf, "%s/%s.elf", EX, wl);
  snprintf(sm, sizeof sm, "%s", sms);
  snprintf(w, sizeof w, "%s", ws);
  snprintf(l, sizeof l, "l2_sets=%s", l2);
  if (!strcmp(wl, "vecadd")) {
    char *argv[] = {VT_BINARY, "launch", elf, "--global", "1024", "--local", "128", "--arg",
                    "in:" DATA "vecadd_a.bin", "--arg", "in:" DATA "vecadd_b.bin", "--arg", "out:4096",
                    "--timing", "--sms", sm, "--warp-slots", w, "--tcfg", l, "-q", "--stats-json",
                    (char *)json, NULL};
    return run(argv, "single.out");
  }
  char *argv[] = {VT_BINARY, "launch", elf, "--global", "32,32", "--local", "8,8", "--arg",
                  "in:" DATA "matmul_a.bin", "--arg", "in:" DATA "matmul_b.bin", "--arg", "out:4096",
                  "--arg", "i32:32", "--arg", "i32:32", "--arg", "local:256", "--arg", "local:256",
                  "--timing", "--sms", sm, "--warp-slots", w, "--tcfg", l, "-q", "--stats-json",
                  (char *)json, NULL};
  return run(argv, "single.out");
}

static void check_row(check_state *st, const csv_table *t, size_t r) {
  char **row = t->rows[r];
  int wl = csv_column(t, "workload"), sms = csv_column(t, "sms"), ws = csv_column(t, "warp_slots"),
      l2 = csv_column(t, "l2_sets");
  CHECK_STR(st, row[csv_column(t, "status")], "ok");
  CHECK(st, atof(row[csv_column(t, "host_time_s")]) > 0 && atol(row[csv_column(t, "peak_rss_kb")]) > 0);
  CHECK(st, single_run(row[wl], row[sms], row[ws], row[l2], "single.json") == 0);
  char *js = slurp("single.json");
  for (int c = 0; c < VT_C_COUNT; c++) {
    const char *name = vt_counter_info_of(c)->name;
    char want[64];
    int col = csv_column(t, name);
    if (c == VT_C_host_seconds) continue; /* host time */
    if (col < 0 || !stats_total(js, name, want, sizeof want) || strcmp(row[col], want)) {
      st->failed_checks++;
      fprintf(stderr, "row %zu (%s sms=%s warp_slots=%s l2_sets=%s): %s = '%s', alone '%s'\n", r,
              row[wl], row[sms], row[ws], row[l2], name, col >= 0 ? row[col] : "(no column)",
              stats_total(js, name, want, sizeof want) ? want : "(none)");
      break;
    }
  }
  free(js);
}

TEST(local_rows_equal_single_runs) {
  write_grid("grid.sweep", "grid");
  char *argv[] = {VT_BINARY, "sweep", "-j", "2", "grid.sweep", NULL};
  CHECK(st, run(argv, "sweep.out") == 0);
  csv_table t;
  CHECK(st, csv_read("grid/results.csv", &t) == 0);
  CHECK(st, t.nrows == 25); /* header + 2 x 3 x 2 x 2 */
  /* point, workload, rep, 3 axes, status, message, exit_status, host_time_s, peak_rss_kb */
  /* every counter of the table is a column, in table order, after the 11 fixed ones */
  CHECK(st, t.nrows && t.nfields[0] == 11 + VT_C_COUNT);
  for (int c = 0; t.nrows && c < VT_C_COUNT && 11 + c < (int)t.nfields[0]; c++)
    CHECK_STR(st, t.rows[0][11 + c], vt_counter_info_of(c)->name);
  for (size_t r = 1; r < t.nrows; r++) check_row(st, &t, r);
  char *jl = slurp("grid/results.jsonl");
  size_t lines = 0;
  for (char *s = jl; s && (s = strchr(s, '\n')); s++) lines++;
  CHECK(st, lines == 24);
  free(jl);
  csv_free(&t);
}

static unsigned count_results(const char *dir, unsigned n) {
  unsigned k = 0;
  for (unsigned i = 0; i < n; i++) {
    char path[4300];
    struct stat sb;
    snprintf(path, sizeof path, "%s/points/%04u/result.json", dir, i);
    k += stat(path, &sb) == 0;
  }
  return k;
}

/* processes whose working directory is inside 'dir' (a point still running) */
static int processes_in(const char *dir) {
  char real[4096];
  if (!realpath(dir, real)) return -1;
  int n = 0;
  DIR *d = opendir("/proc");
  for (struct dirent *e; d && (e = readdir(d));) {
    char link[300], cwd[4096];
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    snprintf(link, sizeof link, "/proc/%s/cwd", e->d_name);
    ssize_t len = readlink(link, cwd, sizeof cwd - 1);
    if (len <= 0) continue;
    cwd[len] = 0;
    n += !strncmp(cwd, real, strlen(real));
  }
  if (d) closedir(d);
  return n;
}

static void write_slow(const char *path, const char *out, const char *axis) {
  char text[20000];
  snprintf(text, sizeof text,
           "[sweep]\noutput = %s\nmode = timing\n[axes]\nsms = %s\n[workload big]\nlaunch = %s/vecadd.elf\n"
           "global = 131072\nlocal = 128\narg = out:524288\narg = out:524288\narg = out:524288\n",
           out, axis, EX);
  spit(path, text);
}

static void wait_for_results(const char *dir, unsigned n, unsigned want) {
  for (int i = 0; i < 1200 && count_results(dir, n) < want; i++) nanosleep(&(struct timespec){0, 50000000}, NULL);
}

TEST(resume_after_kill) {
  write_slow("slow.sweep", "slow", "1..16");
  char *argv[] = {VT_BINARY, "sweep", "-j", "1", "slow.sweep", NULL};
  pid_t pid = start(argv, "first.out");
  wait_for_results("slow", 16, 5);
  kill(pid, SIGKILL);
  finish(pid);
  nanosleep(&(struct timespec){0, 300000000}, NULL);
  CHECK(st, processes_in("slow") == 0); /* the running point died with the sweep */
  struct stat before[16];
  bool had[16];
  unsigned k = 0;
  for (unsigned i = 0; i < 16; i++) {
    char path[300];
    snprintf(path, sizeof path, "slow/points/%04u/result.json", i);
    had[i] = stat(path, &before[i]) == 0;
    k += had[i];
  }
  CHECK(st, k >= 5 && k < 16);
  CHECK(st, run(argv, "second.out") == 0);
  char *out = slurp("second.out"), want[128];
  snprintf(want, sizeof want, "16 points: 16 ok, 0 failed, 0 not recorded (ran %u now, %u recorded before)",
           16 - k, k);
  contains(st, out, want);
  free(out);
  for (unsigned i = 0; i < 16; i++) {
    char path[300];
    struct stat after;
    snprintf(path, sizeof path, "slow/points/%04u/result.json", i);
    CHECK(st, stat(path, &after) == 0);
    if (had[i])
      CHECK(st, after.st_ino == before[i].st_ino && after.st_mtim.tv_sec == before[i].st_mtim.tv_sec &&
                    after.st_mtim.tv_nsec == before[i].st_mtim.tv_nsec);
  }
  csv_table t;
  CHECK(st, csv_read("slow/results.csv", &t) == 0 && t.nrows == 17);
  for (size_t r = 1; r < t.nrows; r++) CHECK(st, atoi(t.rows[r][csv_column(&t, "sms")]) == (int)r);
  csv_free(&t);
}

TEST(sigterm_stops_cleanly) {
  write_slow("term.sweep", "term", "1..12");
  char *argv[] = {VT_BINARY, "sweep", "-j", "2", "term.sweep", NULL};
  pid_t pid = start(argv, "term.out");
  wait_for_results("term", 12, 2);
  kill(pid, SIGTERM);
  CHECK(st, finish(pid) == 130);
  char *out = slurp("term.out");
  contains(st, out, "stopping (running points are not recorded)");
  free(out);
  unsigned k = count_results("term", 12);
  csv_table t;
  CHECK(st, csv_read("term/results.csv", &t) == 0 && t.nrows == k + 1);
  csv_free(&t);
  CHECK(st, processes_in("term") == 0);
}

TEST(statuses_and_retry) {
  char text[20000];
  snprintf(text, sizeof text,
           "[sweep]\noutput = st\nmode = timing\ntimeout = 1\n[axes]\nsms = 1, 2\n"
           "[workload good]\nlaunch = %s/vecadd.elf\nglobal = 1024\nlocal = 128\narg = in:" DATA
           "vecadd_a.bin\narg = in:" DATA "vecadd_b.bin\narg = out:4096\nexpect = arg2:" DATA "vecadd_c.bin\n"
           "[workload wrong]\nlaunch = %s/vecadd.elf\nglobal = 1024\nlocal = 128\narg = in:" DATA
           "vecadd_a.bin\narg = in:" DATA "vecadd_b.bin\narg = out:4096\nexpect = arg2:" DATA "vecadd_a.bin\n"
           "[workload crash]\nlaunch = %s/vecadd.elf\nglobal = 1024\nlocal = 128\narg = out:4\n"
           "[workload slow]\nlaunch = %s/vecadd.elf\nglobal = 4194304\narg = out:16777216\n"
           "arg = out:16777216\narg = out:16777216\n", EX, EX, EX, EX);
  spit("st.sweep", text);
  char *argv[] = {VT_BINARY, "sweep", "-j", "2", "st.sweep", NULL};
  CHECK(st, run(argv, "st1.out") == 1);
  csv_table t;
  CHECK(st, csv_read("st/results.csv", &t) == 0 && t.nrows == 9);
  static const char *const want[] = {"ok", "verify_failed", "error", "timeout"};
  int status = csv_column(&t, "status"), msg = csv_column(&t, "message"), cyc = csv_column(&t, "cycles");
  for (size_t r = 1; r < t.nrows && status >= 0; r++) CHECK_STR(st, t.rows[r][status], want[(r - 1) / 2]);
  if (t.nrows == 9 && msg >= 0) {
    contains(st, t.rows[3][msg], "save/arg2.bin differs from " DATA "vecadd_a.bin at byte 6 (0x12, expected 0x2c)");
    /* element 1: -43 + 6.5 = -36.5 (0xc2120000) where A holds -43 (0xc22c0000) */
    /* one argument for three: the kernel's .vt.kernel_args section says so */
    contains(st, t.rows[5][msg], "vt launch: kernel 'vecadd' takes 3 arguments (its .vt.kernel_args "
                                 "section), not 1");
    CHECK_STR(st, t.rows[7][msg], "time limit of 1 s");
    CHECK(st, t.rows[7][csv_column(&t, "exit_status")][0] == '1'); /* 124 */
    CHECK(st, atol(t.rows[1][cyc]) > 0 && atol(t.rows[3][cyc]) > 0);
  }
  csv_free(&t);
  char *out = slurp("st1.out");
  contains(st, out, "8 points: 2 ok, 6 failed, 0 not recorded (ran 8 now, 0 recorded before)");
  contains(st, out, "point 2 (wrong sms=1): verify_failed");
  free(out);
  CHECK(st, run(argv, "st2.out") == 1);
  out = slurp("st2.out");
  contains(st, out, "(ran 0 now, 8 recorded before)");
  free(out);
  char *retry[] = {VT_BINARY, "sweep", "-j", "2", "--retry-failed", "st.sweep", NULL};
  CHECK(st, run(retry, "st3.out") == 1);
  out = slurp("st3.out");
  contains(st, out, "(ran 6 now, 2 recorded before)");
  free(out);
}

TEST(launcher_gets_separate_arguments) {
  mkdir("x", 0755);
  spit("launch.sh", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$LOGDIR/argv.$$\"\nexec \"$@\"\n");
  chmod("launch.sh", 0755);
  char cwd[4096], dir[4200], text[20000], lw[4300];
  if (!getcwd(cwd, sizeof cwd)) return;
  snprintf(dir, sizeof dir, "%s/o'dd dir", cwd);
  setenv("LOGDIR", cwd, 1);
  snprintf(text, sizeof text, "[sweep]\noutput = o'dd dir\nmode = timing\ntimeline = yes\n[axes]\nsms = 1..4\n"
           "[workload a b; rm -rf x]\n"
           "launch = %s/vecadd.elf\nglobal = 256\nlocal = 128\narg = in:" DATA "vecadd_a.bin\n"
           "arg = in:" DATA "vecadd_b.bin\narg = out:1024\n", EX);
  spit("l.sweep", text);
  snprintf(lw, sizeof lw, "%s/launch.sh {}", cwd);
  char *argv[] = {VT_BINARY, "sweep", "--chunk", "2", "--launcher", lw, "l.sweep", NULL};
  CHECK(st, run(argv, "l.out") == 0);
  struct stat sb;
  CHECK(st, stat("x", &sb) == 0);
  csv_table t;
  CHECK(st, csv_read("o'dd dir/results.csv", &t) == 0 && t.nrows == 5);
  for (size_t r = 1; r < t.nrows; r++) CHECK_STR(st, t.rows[r][1], "a b; rm -rf x");
  csv_free(&t);
  char *tl = slurp("o'dd dir/points/0003/timeline.json"); /* timeline = yes */
  CHECK(st, tl && !strncmp(tl, "{\"displayTimeUnit\"", 18) && strstr(tl, "\"pid\": 3"));
  free(tl);
  /* two launcher commands, each with the task command as 7 arguments */
  unsigned logs = 0;
  DIR *d = opendir(".");
  for (struct dirent *e; d && (e = readdir(d));) {
    if (strncmp(e->d_name, "argv.", 5)) continue;
    char *a = slurp(e->d_name), want[4400];
    logs++;
    snprintf(want, sizeof want, "%s\nsweep\n--task\n%s\n--chunk\n2\n", VT_BINARY, dir);
    CHECK(st, a && !strncmp(a, want, strlen(want)));
    CHECK(st, a && (!strcmp(a + strlen(want), "0\n") || !strcmp(a + strlen(want), "1\n")));
    free(a);
  }
  if (d) closedir(d);
  CHECK(st, logs == 2);
}

/* stand-in Slurm commands: sbatch records its arguments and folder */
static void fake_slurm(void) {
  mkdir("bin", 0755);
  spit("bin/sbatch", "#!/bin/sh\npwd > \"$LOGDIR/sbatch.cwd\"\nprintf '%s\\n' \"$@\" > \"$LOGDIR/sbatch.args\"\n"
       "echo 4242\n");
  spit("bin/squeue", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$LOGDIR/squeue.args\"\n");
  spit("bin/sacct", "#!/bin/sh\necho 'Slurm accounting storage is disabled' >&2\nexit 1\n");
  chmod("bin/sbatch", 0755);
  chmod("bin/squeue", 0755);
  chmod("bin/sacct", 0755);
}

TEST(slurm_script_by_hand) {
  char cwd[4096], path[20000], text[3000];
  if (!getcwd(cwd, sizeof cwd)) return;
  fake_slurm();
  setenv("LOGDIR", cwd, 1);
  snprintf(path, sizeof path, "%s/bin:%s", cwd, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
  setenv("PATH", path, 1);
  snprintf(text, sizeof text, "[sweep]\nname = it's a test\noutput = s'l dir\nmode = timing\n[axes]\n"
           "sms = 1, 2, 4\nwarp_slots = 4, 8\n");
  FILE *f = fopen("s.sweep", "w");
  if (!f) return;
  fputs(text, f);
  workloads(f);
  fclose(f);
  char *argv[] = {VT_BINARY, "sweep", "--slurm", "--chunk", "5", "--max-running", "2", "--sbatch-args",
                  "--partition=x  --time=5", "s.sweep", NULL};
  CHECK(st, run(argv, "s1.out") == 0);
  char *args = slurp("sbatch.args"), *where = slurp("sbatch.cwd"), *jobs = slurp("s'l dir/slurm/jobs");
  CHECK_STR(st, args, "--parsable\n--partition=x\n--time=5\nsweep.sbatch\n");
  snprintf(path, sizeof path, "%s/s'l dir/slurm\n", cwd);
  CHECK_STR(st, where, path);
  CHECK_STR(st, jobs, "4242\n");
  free(args), free(where), free(jobs);
  char *script = slurp("s'l dir/slurm/sweep.sbatch");
  contains(st, script, "#SBATCH --array=0-2%2\n"); /* 12 points in chunks of 5 */
  contains(st, script, "#SBATCH --job-name=vt-sweep-it_s_a_test\n");
  snprintf(path, sizeof path, "exec '%s' 'sweep' '--task' '%s/s'\\''l dir' '--chunk' '5' \"$SLURM_ARRAY_TASK_ID\"\n",
           VT_BINARY, cwd);
  contains(st, script, path);
  free(script);
  /* the script is a plain sh script: run its three array tasks here */
  for (int i = 0; i < 3; i++) {
    char id[8];
    snprintf(id, sizeof id, "%d", i);
    setenv("SLURM_ARRAY_TASK_ID", id, 1);
    char *sh[] = {"sh", "s'l dir/slurm/sweep.sbatch", NULL};
    CHECK(st, run(sh, "task.out") == 0);
  }
  unsetenv("SLURM_ARRAY_TASK_ID");
  char *status[] = {VT_BINARY, "sweep", "--status", "s'l dir", NULL};
  CHECK(st, run(status, "status.out") == 0);
  char *out = slurp("status.out");
  contains(st, out, "12 points: 12 ok, 0 verify_failed, 0 error, 0 timeout, 0 not recorded");
  contains(st, out, "slurm job(s) 4242: 0 array task(s) running, 0 pending");
  free(out);
  char *sq = slurp("squeue.args");
  CHECK_STR(st, sq, "-h\n-r\n-j\n4242\n-o\n%T\n");
  free(sq);
  char *collect[] = {VT_BINARY, "sweep", "--collect", "s'l dir", NULL};
  CHECK(st, run(collect, "collect.out") == 0);
  csv_table t;
  CHECK(st, csv_read("s'l dir/results.csv", &t) == 0 && t.nrows == 13);
  csv_free(&t);
  /* everything recorded: nothing to submit; one point lost: only its chunk */
  remove("sbatch.args");
  CHECK(st, run(argv, "s2.out") == 0);
  out = slurp("s2.out");
  contains(st, out, "every point is recorded already; nothing submitted");
  free(out);
  CHECK(st, remove("s'l dir/points/0007/result.json") == 0);
  CHECK(st, run(argv, "s3.out") == 0);
  script = slurp("s'l dir/slurm/sweep.sbatch");
  contains(st, script, "#SBATCH --array=1%2\n");
  free(script);
}

/* a terminal gets the progress line (script(1) provides one) */
TEST(progress_line_on_a_terminal) {
  if (system("command -v script >/dev/null 2>&1") != 0) {
    printf("note: script(1) is not installed: progress line not checked\n");
    return;
  }
  write_slow("prog.sweep", "prog", "1..4");
  char cmd[600];
  char *argv[] = {"script", "-qec", cmd, "/dev/null", NULL};
  snprintf(cmd, sizeof cmd, "'%s' sweep -j 1 prog.sweep", VT_BINARY);
  CHECK(st, run(argv, "prog.out") == 0);
  char *out = slurp("prog.out");
  contains(st, out, "\r\033[Kvt sweep: 0/4 points done, 0 failed, 1 running");
  contains(st, out, "vt sweep: 4/4 points done, 0 failed, 0 running");
  contains(st, out, ", ETA 0:0");
  free(out);
}

static void setup(void) { examples_dir(EX, sizeof EX); }

static void t_setup(check_state *st) {
  (void)st;
  setup();
}

RUN_TESTS(T(t_setup), T(local_rows_equal_single_runs), T(resume_after_kill), T(sigterm_stops_cleanly),
          T(statuses_and_retry), T(launcher_gets_separate_arguments), T(slurm_script_by_hand),
          T(progress_line_on_a_terminal))
