/* vt sweep's modes: run a sweep file (locally, --slurm, --launcher),
 * follow one (--status, --wait, --collect) and the array task (--task). */
#define _DEFAULT_SOURCE /* flock */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cmd_sweep.h"

static void summary(const sweep_plan *p, const sweep_tally *all, const sweep_tally *now) {
  fprintf(stderr, "vt sweep: %u points: %u ok, %u failed, %u not recorded", all->total, all->ok,
          all->failed, all->missing);
  if (now) fprintf(stderr, " (ran %u now, %u recorded before)", now->ran, now->skipped);
  fprintf(stderr, "\nvt sweep: results in %s/results.csv and %s/results.jsonl\n", p->dir, p->dir);
}

static int exit_status(const sweep_tally *all) { return all->failed || all->missing ? 1 : 0; }

static int collect(const sweep_plan *p, const sweep_tally *now, bool quiet) {
  sweep_tally all;
  char err[700];
  if (sweep_collect(p, &all, err, sizeof err)) {
    fprintf(stderr, "vt sweep: %s\n", err);
    return 1;
  }
  if (!quiet || exit_status(&all)) summary(p, &all, now);
  return exit_status(&all);
}

/* the sweep file -> DIR/plan.json, read back as every task reads it */
static int make_plan(sweep_cli *c, sweep_plan *p) {
  sweep_file sf;
  char err[1200], vt[4096];
  memset(p, 0, sizeof *p);
  if (sweep_file_parse(c->file, &sf, err, sizeof err)) {
    fprintf(stderr, "vt sweep: %s\n", err);
    sweep_file_free(&sf);
    return -1;
  }
  const char *out = c->output ? c->output : sf.output;
  ssize_t n = readlink("/proc/self/exe", vt, sizeof vt - 1);
  char *dir = out ? sweep_abspath(out) : NULL;
  int rc = -1;
  if (!out) fprintf(stderr, "vt sweep: %s: no output folder ('output = DIR' in [sweep], or -o DIR)\n", c->file);
  else if (n <= 0) fprintf(stderr, "vt sweep: cannot find the vt program (/proc/self/exe)\n");
  else if (!dir || sweep_mkdirs(dir, err, sizeof err)) fprintf(stderr, "vt sweep: %s\n", dir ? err : "out of memory");
  else if (vt[n] = 0, sweep_plan_build(&sf, vt, dir, p, err, sizeof err) || sweep_plan_write(p, err, sizeof err))
    fprintf(stderr, "vt sweep: %s\n", err);
  else rc = 0;
  sweep_plan_free(p);
  sweep_file_free(&sf);
  if (rc == 0 && sweep_plan_read(dir, p, err, sizeof err)) {
    fprintf(stderr, "vt sweep: %s\n", err);
    rc = -1;
  }
  free(dir);
  return rc;
}

/* one vt sweep at a time per folder (array tasks excepted) */
static int lock_dir(const sweep_plan *p) {
  char path[4300];
  snprintf(path, sizeof path, "%s/.lock", p->dir);
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
  fprintf(stderr, "vt sweep: %s is in use by another vt sweep\n", p->dir);
  if (fd >= 0) close(fd);
  return -1;
}

static int submit_slurm(sweep_cli *c, sweep_plan *p) {
  unsigned ntasks;
  char jobid[64], err[2000];
  if (sweep_slurm_submit(p, &c->batch, &ntasks, jobid, sizeof jobid, err, sizeof err)) {
    fprintf(stderr, "vt sweep: %s\n", err);
    return 1;
  }
  if (!ntasks) {
    fprintf(stderr, "vt sweep: every point is recorded already; nothing submitted\n");
    return collect(p, NULL, c->quiet);
  }
  fprintf(stderr, "vt sweep: submitted Slurm job %s: %u array task(s), script %s/slurm/sweep.sbatch\n"
          "vt sweep: follow it with `vt sweep --status %s`, `vt sweep --wait %s`\n", jobid, ntasks,
          p->dir, p->dir, p->dir);
  if (!c->wait) return 0;
  c->dir = p->dir;
  c->mode = MODE_WAIT;
  return sweep_mode_follow(c);
}

static int run_here(sweep_cli *c, sweep_plan *p) {
  sweep_tally now;
  char err[1200];
  int rc;
  if (c->launcher) {
    sweep_strv words = {0};
    unsigned ntasks = 0;
    rc = sweep_split_words(c->launcher, &words) ? -1 : sweep_launcher_run(p, &words, &c->batch, &ntasks, err, sizeof err);
    sweep_strv_free(&words);
    memset(&now, 0, sizeof now);
  } else {
    rc = sweep_local_run(p, 0, (unsigned)p->npoints, &c->run, &now, err, sizeof err);
  }
  if (rc) fprintf(stderr, "vt sweep: %s\n", err);
  int st = collect(p, c->launcher ? NULL : &now, c->quiet);
  return now.interrupted ? 130 : rc ? 1 : st;
}

int sweep_mode_run(sweep_cli *c) {
  sweep_plan p;
  if (make_plan(c, &p)) return 2;
  int lock = lock_dir(&p), rc = 1;
  if (lock >= 0 && c->dry_run) {
    printf("%zu points planned in %s/plan.json\n", p.npoints, p.dir);
    rc = 0;
  } else if (lock >= 0) {
    rc = c->slurm ? submit_slurm(c, &p) : run_here(c, &p);
  }
  if (lock >= 0) close(lock);
  sweep_plan_free(&p);
  return rc;
}

static unsigned recorded(const sweep_plan *p) {
  unsigned n = 0;
  for (unsigned i = 0; i < p->npoints; i++) n += sweep_point_state(p, i) != SWEEP_MISSING;
  return n;
}

/* --wait: until no array task of the sweep's jobs is queued or running */
static int wait_jobs(sweep_cli *c, const sweep_plan *p) {
  char err[2000], last[200] = "";
  bool tty = !c->quiet && isatty(2);
  for (;;) {
    unsigned pend, run;
    if (sweep_slurm_active(p, &pend, &run, err, sizeof err)) {
      fprintf(stderr, "%svt sweep: %s\n", tty ? "\n" : "", err);
      return 1;
    }
    char line[200];
    snprintf(line, sizeof line, "vt sweep: %u/%zu points recorded, %u array task(s) running, %u pending",
             recorded(p), p->npoints, run, pend);
    if (tty) fprintf(stderr, "\r\033[K%s", line);
    else if (!c->quiet && strcmp(line, last)) fprintf(stderr, "%s\n", line);
    snprintf(last, sizeof last, "%s", line);
    if (!pend && !run) break;
    sleep(c->poll);
  }
  if (tty) fputc('\n', stderr);
  return 0;
}

int sweep_mode_follow(sweep_cli *c) {
  sweep_plan p;
  char err[1200];
  char *dir = sweep_abspath(c->dir);
  int rc = !dir || sweep_plan_read(dir, &p, err, sizeof err);
  if (rc) fprintf(stderr, "vt sweep: %s\n", dir ? err : "out of memory");
  free(dir);
  if (rc) return 2;
  if (c->mode == MODE_STATUS) sweep_print_status(&p, stdout);
  else if (c->mode == MODE_COLLECT) rc = collect(&p, NULL, false);
  else rc = wait_jobs(c, &p) ? 1 : collect(&p, NULL, c->quiet);
  sweep_plan_free(&p);
  return rc;
}

int sweep_mode_task(sweep_cli *c) {
  char err[1200];
  char *dir = sweep_abspath(c->dir);
  int rc = dir ? sweep_task_run(dir, c->batch.chunk, c->task, c->run.retry_failed, err, sizeof err) : -1;
  if (rc) fprintf(stderr, "vt sweep --task: %s\n", dir ? err : "out of memory");
  free(dir);
  return rc ? 1 : 0;
}
