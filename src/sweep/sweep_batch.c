/* The batch side of vt sweep: chunks of points (one array task or launcher
 * command each), the task that runs one chunk (`vt sweep --task DIR
 * --chunk K N`), and the generic launcher ('CMD {}': "{}" becomes that task
 * command, as separate arguments). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep_batch.h"
#include "sweep_exec.h"

unsigned sweep_chunks_needed(const sweep_plan *p, unsigned chunk, bool retry_failed, unsigned *out) {
  unsigned n = 0, nchunks = (unsigned)((p->npoints + chunk - 1) / chunk);
  for (unsigned c = 0; c < nchunks; c++)
    for (unsigned i = c * chunk; i < p->npoints && i < (c + 1) * chunk; i++)
      if (sweep_point_needed(p, i, retry_failed)) {
        out[n++] = c;
        break;
      }
  return n;
}

int sweep_task_argv(const sweep_plan *p, unsigned chunk, bool retry_failed, unsigned task,
                    sweep_strv *v) {
  char k[16], t[16];
  snprintf(k, sizeof k, "%u", chunk);
  snprintf(t, sizeof t, "%u", task);
  int rc = sweep_strv_push(v, p->vt) || sweep_strv_push(v, "sweep") || sweep_strv_push(v, "--task") ||
           sweep_strv_push(v, p->dir) || sweep_strv_push(v, "--chunk") || sweep_strv_push(v, k);
  if (retry_failed) rc = rc || sweep_strv_push(v, "--retry-failed");
  return rc || sweep_strv_push(v, t) ? -1 : 0;
}

int sweep_task_run(const char *dir, unsigned chunk, unsigned task, bool retry_failed, char *err,
                   size_t errn) {
  sweep_plan p;
  if (sweep_plan_read(dir, &p, err, errn)) return -1;
  sweep_run_opts o = {.jobs = 1, .retry_failed = retry_failed, .quiet = false};
  sweep_tally t;
  int rc = 0;
  if (chunk == 0 || (uint64_t)task * chunk >= p.npoints) {
    snprintf(err, errn, "task %u of %u points each is past the %zu points of the plan", task, chunk,
             p.npoints);
    rc = -1;
  } else {
    rc = sweep_local_run(&p, task * chunk, chunk, &o, &t, err, errn);
    if (rc == 0 && t.interrupted) {
      snprintf(err, errn, "interrupted");
      rc = -1;
    }
    if (rc == 0)
      printf("vt sweep: task %u: %u points ran (%u ok, %u failed), %u recorded before\n", task, t.ran,
             t.ok, t.failed, t.skipped);
  }
  sweep_plan_free(&p);
  return rc;
}

/* the launcher's words with "{}" replaced by the task command */
static int launcher_argv(const sweep_plan *p, const sweep_strv *launcher, const sweep_batch_opts *o,
                         unsigned task, sweep_strv *v) {
  for (size_t i = 0; i < launcher->n; i++) {
    if (strcmp(launcher->v[i], "{}")) {
      if (sweep_strv_push(v, launcher->v[i])) return -1;
    } else if (sweep_task_argv(p, o->chunk, o->retry_failed, task, v)) {
      return -1;
    }
  }
  return 0;
}

static int start_launcher(const sweep_plan *p, const sweep_strv *launcher, const sweep_batch_opts *o,
                          unsigned task, char *err, size_t errn) {
  sweep_strv v = {0};
  char path[4300];
  snprintf(path, sizeof path, "%s/launcher/task-%u.out", p->dir, task);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int pid = fd < 0 || launcher_argv(p, launcher, o, task, &v) ? -1 : sweep_spawn(v.v, NULL, fd, fd);
  if (pid < 0) snprintf(err, errn, "%s: cannot start the launcher", path);
  if (fd >= 0) close(fd);
  sweep_strv_free(&v);
  return pid;
}

int sweep_launcher_run(const sweep_plan *p, const sweep_strv *launcher, const sweep_batch_opts *o,
                       unsigned *ntasks, char *err, size_t errn) {
  bool has_slot = false;
  for (size_t i = 0; i < launcher->n; i++) has_slot |= !strcmp(launcher->v[i], "{}");
  if (!has_slot) return snprintf(err, errn, "--launcher needs a word {} (where the task command goes)"), -1;
  char dir[4300];
  snprintf(dir, sizeof dir, "%s/launcher", p->dir);
  unsigned *tasks = malloc((p->npoints ? p->npoints : 1) * sizeof *tasks);
  int *pids = calloc(o->jobs ? o->jobs : 1, sizeof *pids);
  int rc = !tasks || !pids ? (snprintf(err, errn, "out of memory"), -1) : sweep_mkdirs(dir, err, errn);
  unsigned n = rc ? 0 : sweep_chunks_needed(p, o->chunk, o->retry_failed, tasks);
  unsigned jobs = o->jobs ? o->jobs : 1, running = 0, next = 0, failures = 0;
  while (rc == 0 && (next < n || running)) {
    if (next < n && running < jobs) {
      int pid = start_launcher(p, launcher, o, tasks[next++], err, errn);
      if (pid < 0) rc = -1;
      else pids[running++] = pid;
      continue;
    }
    if (sweep_wait(pids[0]) != 0) failures++;
    pids[0] = pids[--running];
  }
  while (running) sweep_wait(pids[--running]);
  if (rc == 0 && failures)
    fprintf(stderr, "vt sweep: %u launcher command(s) failed (%s/task-N.out)\n", failures, dir);
  *ntasks = n;
  free(tasks);
  free(pids);
  return rc;
}
