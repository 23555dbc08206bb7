/* The local backend: the points that need to run go to a pool of N child
 * processes; points already recorded are skipped (resume). One loop waits
 * for children, signals and the clock with sigtimedwait (no handlers, no
 * global state): SIGINT/SIGTERM/SIGHUP stop the sweep (running points are
 * ended and not recorded), a point past its time limit is killed. A
 * progress line (points done / total, failures, ETA) goes to a terminal. */
#define _DEFAULT_SOURCE /* wait4 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

typedef struct pool {
  const sweep_plan *p;
  const sweep_run_opts *o;
  sweep_tally *t;
  sweep_child *kids;
  unsigned nkids, done, failed, needed;
  double start, last_progress;
  bool tty, stopping;
} pool;

static void progress(pool *pl, bool final) {
  if (!pl->tty) return;
  double now = sweep_now();
  if (!final && now - pl->last_progress < 0.5) return;
  pl->last_progress = now;
  char eta[32] = "";
  if (pl->done && pl->done < pl->needed) {
    double left = (now - pl->start) / pl->done * (pl->needed - pl->done);
    snprintf(eta, sizeof eta, ", ETA %d:%02d", (int)left / 60, (int)left % 60);
  }
  fprintf(stderr, "\r\033[Kvt sweep: %u/%u points done, %u failed, %u running%s", pl->done,
          pl->needed, pl->failed, pl->nkids, eta);
  if (final) fputc('\n', stderr);
  fflush(stderr);
}

static void report_failure(pool *pl, unsigned index, sweep_status st) {
  if (pl->o->quiet) return;
  const sweep_point *pt = &pl->p->points[index];
  char dir[4200], msg[700] = "";
  sweep_point_dir(pl->p, index, dir, sizeof dir);
  if (pl->tty) fputs("\r\033[K", stderr);
  snprintf(msg, sizeof msg, "vt sweep: point %u (%s", index, pt->workload);
  fputs(msg, stderr);
  for (size_t i = 0; i < pt->param_keys.n; i++) fprintf(stderr, " %s=%s", pt->param_keys.v[i], pt->param_values.v[i]);
  fprintf(stderr, "): %s, see %s\n", sweep_status_name(st), dir);
}

static void reap(pool *pl, pid_t pid, int ws, const struct rusage *ru) {
  for (unsigned k = 0; k < pl->nkids; k++) {
    if (pl->kids[k].pid != pid) continue;
    char err[600];
    sweep_status st = sweep_point_finish(pl->p, &pl->kids[k], ws, ru->ru_maxrss, sweep_now(), err,
                                         sizeof err);
    if (st == SWEEP_MISSING && !pl->o->quiet) fprintf(stderr, "\nvt sweep: %s\n", err);
    if (st != SWEEP_INTERRUPTED && st != SWEEP_MISSING) {
      pl->done++;
      pl->last_progress = 0; /* a finished point updates the line (and its ETA) at once */
      pl->t->ran++;
      if (st == SWEEP_OK) pl->t->ok++;
      else pl->failed++, pl->t->failed++, report_failure(pl, pl->kids[k].index, st);
    }
    pl->kids[k] = pl->kids[--pl->nkids];
    return;
  }
}

static void stop_all(pool *pl, int sig) {
  for (unsigned k = 0; k < pl->nkids; k++) kill(pl->kids[k].pid, sig);
}

/* one wait: a signal, a child's end or 200 ms */
static void wait_events(pool *pl, const sigset_t *set) {
  struct timespec ts = {0, 200 * 1000 * 1000};
  int sig = sigtimedwait(set, NULL, &ts);
  if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
    if (!pl->stopping && !pl->o->quiet)
      fprintf(stderr, "%svt sweep: stopping (running points are not recorded)\n", pl->tty ? "\n" : "");
    pl->stopping = true;
    pl->t->interrupted = true;
    stop_all(pl, SIGTERM);
  }
  int ws;
  struct rusage ru;
  for (pid_t pid; (pid = wait4(-1, &ws, WNOHANG, &ru)) > 0;) reap(pl, pid, ws, &ru);
  double now = sweep_now();
  for (unsigned k = 0; k < pl->nkids; k++)
    if (pl->kids[k].deadline && now > pl->kids[k].deadline && !pl->kids[k].killed) {
      kill(pl->kids[k].pid, SIGKILL);
      pl->kids[k].killed = true;
    }
}

static int run_pool(pool *pl, const unsigned *todo, char *err, size_t errn) {
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  sigprocmask(SIG_BLOCK, &set, &old);
  int rc = 0;
  unsigned next = 0, jobs = pl->o->jobs ? pl->o->jobs : 1;
  while ((next < pl->needed && !pl->stopping) || pl->nkids) {
    while (!pl->stopping && next < pl->needed && pl->nkids < jobs) {
      if (sweep_point_start(pl->p, todo[next], &pl->kids[pl->nkids], err, errn) < 0) {
        rc = -1;
        pl->stopping = true;
        stop_all(pl, SIGTERM);
        break;
      }
      pl->nkids++;
      next++;
    }
    progress(pl, false);
    if (pl->nkids) wait_events(pl, &set);
  }
  progress(pl, true);
  sigprocmask(SIG_SETMASK, &old, NULL);
  return rc;
}

int sweep_local_run(const sweep_plan *p, unsigned first, unsigned count,
                    const sweep_run_opts *opts, sweep_tally *t, char *err, size_t errn) {
  memset(t, 0, sizeof *t);
  if (first > p->npoints) first = (unsigned)p->npoints;
  if (count > p->npoints - first) count = (unsigned)p->npoints - first;
  t->total = count;
  unsigned *todo = malloc((count ? count : 1) * sizeof *todo);
  pool pl = {.p = p, .o = opts, .t = t, .start = sweep_now()};
  pl.kids = calloc(opts->jobs ? opts->jobs : 1, sizeof *pl.kids);
  if (!todo || !pl.kids) {
    free(todo);
    free(pl.kids);
    return snprintf(err, errn, "out of memory"), -1;
  }
  for (unsigned i = first; i < first + count; i++)
    if (sweep_point_needed(p, i, opts->retry_failed)) todo[pl.needed++] = i;
  t->skipped = count - pl.needed;
  pl.tty = opts->progress && isatty(2);
  int rc = pl.needed ? run_pool(&pl, todo, err, errn) : 0;
  free(todo);
  free(pl.kids);
  return rc;
}
