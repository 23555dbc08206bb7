/* vt sweep: run a sweep file's points locally, through Slurm or a launcher,
 * and follow them (docs/sweep.md). This file reads the options. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_sweep.h"
#include "tools.h"
#include "util/parse.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: vt sweep [options] SWEEP_FILE\n"
          "       vt sweep --status DIR | --wait DIR | --collect DIR\n"
          "Runs every point (workload x configuration x repetition) of a sweep file as its own\n"
          "`vt run`/`vt launch` process; results go to DIR/results.csv and DIR/results.jsonl\n"
          "(docs/sweep.md). Points already recorded in DIR are skipped.\n\n"
          "options:\n"
          "  -j N                  worker processes (default: the number of cores)\n"
          "  -o, --output DIR      output folder (default: the sweep file's output key)\n"
          "  --retry-failed        run again the recorded points whose status is not ok\n"
          "  --dry-run             check the sweep file and write DIR/plan.json, run nothing\n"
          "  -q, --quiet           no progress line and no line per failed point\n"
          "  --slurm               submit the points to Slurm as a job array (sbatch)\n"
          "  --sbatch-args \"ARGS\"  more sbatch arguments (split at blanks, no shell)\n"
          "  --chunk K             points per array task or launcher command (default 1)\n"
          "  --max-running N       at most N array tasks at once (--array=...%%N)\n"
          "  --wait                with --slurm: wait until the job ends, then collect\n"
          "  --poll SECONDS        how often --wait asks squeue (default 10)\n"
          "  --launcher 'CMD {}'   run each chunk through CMD (words; {} stands for the task\n"
          "                        command `vt sweep --task DIR --chunk K N`)\n"
          "following a sweep:\n"
          "  --status DIR          points recorded, failed, queued and running\n"
          "  --wait DIR            wait for the sweep's Slurm jobs, then collect\n"
          "  --collect DIR         write DIR/results.csv and DIR/results.jsonl again\n");
}

static int number(const char *opt, const char *v, unsigned min, unsigned max, unsigned *out) {
  uint64_t x;
  if (!v || vt_parse_u64(v, &x) || x < min || x > max) {
    fprintf(stderr, "vt sweep: %s needs a whole number from %u to %u\n", opt, min, max);
    return -1;
  }
  *out = (unsigned)x;
  return 0;
}

/* options with a value: 1 consumed, 0 not one, -1 error */
static int valued(sweep_cli *c, int argc, char **argv, int *i) {
  const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
  static const char *const names[] = {"-j", "-o", "--output", "--sbatch-args", "--chunk",
                                      "--max-running", "--poll", "--launcher", "--status",
                                      "--wait", "--collect", "--task"};
  int k = -1;
  for (int j = 0; j < 12; j++)
    if (!strcmp(a, names[j])) k = j;
  struct stat sb; /* --wait DIR follows a sweep; --slurm --wait FILE waits for the job */
  if (k < 0 || (k == 9 && (!v || stat(v, &sb) != 0 || !S_ISDIR(sb.st_mode)))) return 0;
  if (!v) return fprintf(stderr, "vt sweep: %s needs a value\n", a), -1;
  ++*i;
  switch (k) {
  case 0: return number(a, v, 1, 1024, &c->run.jobs) ? -1 : 1;
  case 1:
  case 2: c->output = v; return 1;
  case 3: return sweep_split_words(v, &c->batch.sbatch_args) ? -1 : 1;
  case 4: return number(a, v, 1, SWEEP_MAX_POINTS, &c->batch.chunk) ? -1 : 1;
  case 5: return number(a, v, 1, 1000000, &c->batch.max_running) ? -1 : 1;
  case 6: return number(a, v, 1, 86400, &c->poll) ? -1 : 1;
  case 7: c->launcher = v; return 1;
  default:
    c->mode = k == 8 ? MODE_STATUS : k == 9 ? MODE_WAIT : k == 10 ? MODE_COLLECT : MODE_TASK;
    c->dir = v;
    return 1;
  }
}

static int flag(sweep_cli *c, const char *a) {
  if (!strcmp(a, "--retry-failed")) return c->run.retry_failed = c->batch.retry_failed = true, 1;
  if (!strcmp(a, "--dry-run")) return c->dry_run = true, 1;
  if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) return c->quiet = c->run.quiet = true, 1;
  if (!strcmp(a, "--slurm")) return c->slurm = true, 1;
  if (!strcmp(a, "--wait")) return c->wait = true, 1;
  return 0;
}

/* 0, 1 (--help), -1 */
static int parse(sweep_cli *c, int argc, char **argv) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  c->run.jobs = cores > 0 && cores < 1024 ? (unsigned)cores : 1;
  c->run.progress = true;
  c->batch.chunk = 1;
  c->poll = 10;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout), 1;
    int rc = valued(c, argc, argv, &i);
    if (rc == 0) rc = flag(c, a);
    if (rc < 0) return -1;
    if (rc > 0) continue;
    if (a[0] == '-' && a[1]) return fprintf(stderr, "vt sweep: unknown option %s (vt help sweep)\n", a), -1;
    if (c->mode == MODE_TASK && c->task == 0 && !c->file) {
      if (number("--task N", a, 0, SWEEP_MAX_POINTS, &c->task)) return -1;
      c->file = a;
      continue;
    }
    if (c->file) return fprintf(stderr, "vt sweep: more than one sweep file ('%s', '%s')\n", c->file, a), -1;
    c->file = a;
  }
  if (c->quiet) c->run.progress = false;
  c->batch.jobs = c->run.jobs;
  if ((c->mode == MODE_RUN && !c->file) || (c->mode != MODE_RUN && c->mode != MODE_TASK && c->file) ||
      (c->mode == MODE_TASK && !c->file))
    return usage(stderr), -1;
  if (c->slurm && c->launcher)
    return fprintf(stderr, "vt sweep: --slurm and --launcher exclude each other\n"), -1;
  return 0;
}

int vt_cmd_sweep(int argc, char **argv) {
  sweep_cli c = {0};
  int rc = parse(&c, argc, argv);
  if (rc == 0) {
    switch (c.mode) {
    case MODE_RUN: rc = sweep_mode_run(&c); break;
    case MODE_TASK: rc = sweep_mode_task(&c); break;
    default: rc = sweep_mode_follow(&c); break;
    }
  } else {
    rc = rc > 0 ? 0 : 2;
  }
  sweep_strv_free(&c.batch.sbatch_args);
  return rc;
}
