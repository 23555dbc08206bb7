/* The Slurm backend (docs/sweep.md, "Slurm"): DIR/slurm/sweep.sbatch, a
 * readable job-array script whose task N runs chunk N of the plan with
 * `vt sweep --task`, submitted with sbatch from DIR/slurm (job ids appended
 * to DIR/slurm/jobs); squeue tells which tasks are still queued or running,
 * sacct (when the cluster keeps accounting) which ones failed. Paths reach
 * the script single-quoted; everything else about a point stays in
 * plan.json, so no parameter is ever part of a shell line. */
#include <stdlib.h>
#include <string.h>

#include "sweep_batch.h"
#include "sweep_exec.h"

static void shell_quote(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++)
    if (*s == '\'') fputs("'\\''", f);
    else fputc(*s, f);
  fputc('\'', f);
}

/* text for a comment or a job name: printable ASCII only */
static void plain(FILE *f, const char *s, bool name) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    bool ok = name ? (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         c == '-' || c == '_' || c == '.'
                   : c >= 0x20 && c < 0x7f;
    fputc(ok ? c : (name ? '_' : '?'), f);
  }
}

/* "0-5,7,9-12" */
static void array_ranges(FILE *f, const unsigned *t, unsigned n) {
  for (unsigned i = 0; i < n;) {
    unsigned j = i;
    while (j + 1 < n && t[j + 1] == t[j] + 1) j++;
    fprintf(f, "%s%u", i ? "," : "", t[i]);
    if (j > i) fprintf(f, "-%u", t[j]);
    i = j + 1;
  }
}

static void script(FILE *f, const sweep_plan *p, const sweep_batch_opts *o, const unsigned *t,
                   unsigned n) {
  fputs("#!/bin/sh\n# vt sweep '", f);
  plain(f, p->name, false);
  fprintf(f, "': %zu points in chunks of %u, %u array task(s) to run.\n", p->npoints, o->chunk, n);
  fputs("# Array task N runs points N*chunk .. N*chunk+chunk-1 of ../plan.json, one\n"
        "# `vt run`/`vt launch` process each, and records each point in\n"
        "# ../points/NNNN/result.json with an atomic rename: a point is recorded\n"
        "# whole or not at all, and a task skips the points already recorded.\n"
        "# Submit by hand from this folder: sbatch sweep.sbatch\n#SBATCH --job-name=vt-sweep-", f);
  plain(f, p->name, true);
  fputs("\n#SBATCH --array=", f);
  array_ranges(f, t, n);
  if (o->max_running) fprintf(f, "%%%u", o->max_running);
  fputs("\n#SBATCH --output=slurm-%A_%a.out\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\nexec", f);
  sweep_strv v = {0};
  sweep_task_argv(p, o->chunk, o->retry_failed, 0, &v);
  for (size_t i = 0; i + 1 < v.n; i++) {
    fputc(' ', f);
    shell_quote(f, v.v[i]);
  }
  fputs(" \"$SLURM_ARRAY_TASK_ID\"\n", f);
  sweep_strv_free(&v);
}

static int write_script(const sweep_plan *p, const sweep_batch_opts *o, const unsigned *t,
                        unsigned n, const char *path, char *err, size_t errn) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return snprintf(err, errn, "out of memory"), -1;
  script(f, p, o, t, n);
  int rc = fclose(f) ? (snprintf(err, errn, "out of memory"), -1)
                     : sweep_write_atomic(path, buf, len, err, errn);
  free(buf);
  return rc;
}

/* sbatch --parsable [ARGS] sweep.sbatch in DIR/slurm; the job id */
static int sbatch(const sweep_plan *p, const sweep_batch_opts *o, const char *sdir, char *jobid,
                  size_t jobidn, char *err, size_t errn) {
  sweep_strv v = {0};
  int rc = sweep_strv_push(&v, "sbatch") || sweep_strv_push(&v, "--parsable");
  for (size_t i = 0; i < o->sbatch_args.n; i++) rc = rc || sweep_strv_push(&v, o->sbatch_args.v[i]);
  rc = rc || sweep_strv_push(&v, "sweep.sbatch");
  char *out = NULL;
  int st = rc ? -1 : sweep_capture(v.v, sdir, &out);
  sweep_strv_free(&v);
  size_t digits = out ? strspn(out, "0123456789") : 0;
  if (st != 0 || !digits || digits >= jobidn) {
    if (st == 127) snprintf(err, errn, "sbatch: not found (Slurm's client commands are needed)");
    else snprintf(err, errn, "sbatch failed (status %d): %s", st, out ? out : "");
    free(out);
    return -1;
  }
  memcpy(jobid, out, digits);
  jobid[digits] = 0;
  free(out);
  char path[4400];
  snprintf(path, sizeof path, "%s/jobs", sdir);
  FILE *f = fopen(path, "a");
  if (!f || fprintf(f, "%s\n", jobid) < 0 || fclose(f) != 0) {
    snprintf(err, errn, "%s: cannot record job %s", path, jobid);
    return -1;
  }
  (void)p;
  return 0;
}

int sweep_slurm_submit(const sweep_plan *p, const sweep_batch_opts *o, unsigned *ntasks,
                       char *jobid, size_t jobidn, char *err, size_t errn) {
  char sdir[4300], path[4400];
  snprintf(sdir, sizeof sdir, "%s/slurm", p->dir);
  snprintf(path, sizeof path, "%s/sweep.sbatch", sdir);
  *ntasks = 0;
  jobid[0] = 0;
  unsigned *t = malloc((p->npoints ? p->npoints : 1) * sizeof *t);
  if (!t) return snprintf(err, errn, "out of memory"), -1;
  int rc = sweep_mkdirs(sdir, err, errn);
  unsigned n = rc ? 0 : sweep_chunks_needed(p, o->chunk, o->retry_failed, t);
  if (rc == 0 && n) rc = write_script(p, o, t, n, path, err, errn);
  if (rc == 0 && n) rc = sbatch(p, o, sdir, jobid, jobidn, err, errn);
  free(t);
  if (rc == 0) *ntasks = n;
  return rc;
}

/* the job ids of DIR/slurm/jobs */
static int read_jobs(const sweep_plan *p, sweep_strv *jobs) {
  char path[4300], line[64];
  snprintf(path, sizeof path, "%s/slurm/jobs", p->dir);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    line[strspn(line, "0123456789")] = 0;
    if (line[0]) sweep_strv_push(jobs, line);
  }
  fclose(f);
  return 0;
}

int sweep_slurm_active(const sweep_plan *p, unsigned *pending, unsigned *running, char *err,
                       size_t errn) {
  *pending = *running = 0;
  sweep_strv jobs = {0};
  if (read_jobs(p, &jobs)) return 0;
  int rc = 0;
  for (size_t j = 0; rc == 0 && j < jobs.n; j++) {
    char *argv[] = {"squeue", "-h", "-r", "-j", jobs.v[j], "-o", "%T", NULL}, *out = NULL;
    int st = sweep_capture(argv, NULL, &out);
    for (size_t n = out ? strlen(out) : 0; n && (out[n - 1] == '\n' || out[n - 1] == ' '); n--) out[n - 1] = 0;
    if (st != 0 && !(out && strstr(out, "Invalid job id"))) {
      snprintf(err, errn, "squeue -j %s failed (status %d): %s", jobs.v[j], st, out ? out : "");
      rc = -1;
    }
    for (char *l = out; rc == 0 && st == 0 && l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
      if (!strncmp(l, "PENDING", 7)) ++*pending;
      else if (*l != '\n') ++*running;
    }
    free(out);
  }
  sweep_strv_free(&jobs);
  return rc;
}

/* array tasks that sacct reports as not COMPLETED (needs accounting) */
static void sacct_failures(const sweep_plan *p, FILE *f) {
  sweep_strv jobs = {0};
  if (read_jobs(p, &jobs)) return;
  for (size_t j = 0; j < jobs.n; j++) {
    char *argv[] = {"sacct", "-n", "-X", "-P", "-j", jobs.v[j], "-o", "JobID,State", NULL}, *out = NULL;
    if (sweep_capture(argv, NULL, &out) != 0) {
      fprintf(f, "sacct: no accounting information for job %s\n", jobs.v[j]);
      free(out);
      break;
    }
    for (char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
      char *bar = strchr(l, '|');
      if (bar && strncmp(bar + 1, "COMPLETED", 9) && strncmp(bar + 1, "RUNNING", 7) &&
          strncmp(bar + 1, "PENDING", 7))
        fprintf(f, "slurm task %.*s", (int)(strcspn(l, "\n") + 1), l);
    }
    free(out);
  }
  sweep_strv_free(&jobs);
}

void sweep_print_status(const sweep_plan *p, FILE *f) {
  unsigned count[6] = {0};
  for (unsigned i = 0; i < p->npoints; i++) count[sweep_point_state(p, i)]++;
  fprintf(f, "%s: %zu points: %u ok, %u verify_failed, %u error, %u timeout, %u not recorded\n",
          p->dir, p->npoints, count[SWEEP_OK], count[SWEEP_VERIFY_FAILED], count[SWEEP_ERROR],
          count[SWEEP_TIMEOUT], count[SWEEP_MISSING]);
  sweep_strv jobs = {0};
  if (read_jobs(p, &jobs)) return;
  unsigned pend, run;
  char err[600];
  fprintf(f, "slurm job(s)");
  for (size_t j = 0; j < jobs.n; j++) fprintf(f, " %s", jobs.v[j]);
  if (sweep_slurm_active(p, &pend, &run, err, sizeof err) == 0)
    fprintf(f, ": %u array task(s) running, %u pending\n", run, pend);
  else
    fprintf(f, ": unknown (%s)\n", err);
  sweep_strv_free(&jobs);
  sacct_failures(p, f);
}
