/* vt sweep: design-space exploration (docs/sweep.md). A sweep file names
 * workloads and axes of settings; its points (workload x configuration x
 * repetition) each run as one `vt run` / `vt launch` child process, locally
 * (a pool of workers) or as Slurm array tasks / through a generic launcher,
 * and each leaves one result row.
 *
 *   sweep_file_parse   the sweep file -> sweep_file (every value range-checked)
 *   sweep_plan_build   sweep_file -> the points with their argv (plan.json)
 *   sweep_point_run    one point as a child process -> its result.json
 *   sweep_local_run    the points of a plan on N workers, resumable
 *   sweep_slurm_*      sbatch job arrays, --status, --wait
 *   sweep_collect      results.csv and results.jsonl from the result files
 */
#ifndef VT_SWEEP_H
#define VT_SWEEP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SWEEP_MAX_POINTS 100000
#define SWEEP_MAX_AXES 32
#define SWEEP_MAX_VALUES 10000 /* of one axis */

/* ---------------- the sweep file ---------------- */

typedef struct sweep_strv {
  char **v;
  size_t n;
} sweep_strv;

typedef struct sweep_expect {
  char *produced; /* relative to the point's folder: save/argK.bin, dumpN.bin */
  char *expected; /* absolute path of the reference file */
} sweep_expect;

typedef enum sweep_kind { SWEEP_LAUNCH, SWEEP_RUN } sweep_kind;

typedef struct sweep_workload {
  char *name;
  unsigned line;      /* of its [workload NAME] header */
  sweep_kind kind;
  char *program;      /* launch: the ELF (absolute) */
  char *kernel, *global, *local, *offset; /* launch: vt launch options or NULL */
  sweep_strv args;    /* launch: --arg specs (in:/io: paths absolute) */
  sweep_strv runs;    /* run: the .metadata files (absolute) */
  sweep_strv elfs;    /* run: --elf files (absolute) */
  sweep_strv dumps;   /* run: ADDR:LEN, written to dumpN.bin */
  sweep_expect *expect;
  size_t nexpect;
  sweep_strv check;   /* a verifying program and its arguments, or empty */
} sweep_workload;

typedef struct sweep_axis {
  char *key; /* a settings key (vt/settings.def) */
  unsigned line;
  sweep_strv values;
} sweep_axis;

typedef struct sweep_file {
  char *path, *name, *output;
  bool timing, timeline;
  unsigned repetitions, timeout; /* timeout: seconds per point, 0 none */
  sweep_strv set_keys, set_values; /* [settings]: every point */
  unsigned *set_lines;             /* the line of each */
  unsigned mode_line, timeline_line, baseline_line, points_line;
  char *baseline_text;
  sweep_axis *axes;
  size_t naxes;
  /* configurations: nconfigs rows of naxes values (the product of the
   * axes, or the [points] list) */
  char **configs;
  size_t nconfigs;
  size_t baseline; /* configuration index of the speed-up baseline */
  sweep_workload *workloads;
  size_t nworkloads;
} sweep_file;

/* Parse and check a sweep file: unknown sections or keys, malformed lines,
 * values out of a setting's range, settings without effect in the mode,
 * missing input files are errors naming "FILE:LINE". 0, or -1 with err. */
int sweep_file_parse(const char *path, sweep_file *sf, char *err, size_t errn);
void sweep_file_free(sweep_file *sf);
/* The value range of an axis line ("1, 2, 4", "1..16 *2", "32..256 +32")
 * into values. 0 or -1 with err (prefixed by 'where'). */
int sweep_axis_values(const char *text, const char *where, sweep_strv *out, char *err, size_t errn);

/* ---------------- the plan: points with their commands ---------------- */

typedef struct sweep_point {
  unsigned index;
  char *workload;
  unsigned rep;
  sweep_strv param_keys, param_values; /* the axes' values */
  sweep_strv argv;                     /* after the vt program: "launch" ... */
  sweep_expect *expect;
  size_t nexpect;
  sweep_strv check;
  unsigned timeout;
  char key[17]; /* hash of everything that defines the run (resume) */
} sweep_point;

typedef struct sweep_plan {
  char *name, *vt, *dir; /* vt: absolute path of the program; dir: output folder */
  bool timing;
  sweep_strv axes;                   /* axis keys, in order */
  sweep_strv baseline;               /* the baseline configuration's values */
  sweep_point *points;
  size_t npoints;
} sweep_plan;

/* Points from a parsed sweep file; vt is the vt program's absolute path,
 * dir the absolute output folder. 0 or -1 with err. */
int sweep_plan_build(const sweep_file *sf, const char *vt, const char *dir, sweep_plan *p,
                     char *err, size_t errn);
/* DIR/plan.json written (atomically) and read back. */
int sweep_plan_write(const sweep_plan *p, char *err, size_t errn);
int sweep_plan_read(const char *dir, sweep_plan *p, char *err, size_t errn);
void sweep_plan_free(sweep_plan *p);
/* "points/0042" */
void sweep_point_dir(const sweep_plan *p, unsigned index, char *buf, size_t n);

/* ---------------- results ---------------- */

typedef enum sweep_status {
  SWEEP_MISSING,      /* not run (yet) */
  SWEEP_OK,
  SWEEP_VERIFY_FAILED,
  SWEEP_ERROR,        /* the simulator (or vt) failed: message */
  SWEEP_TIMEOUT,
  SWEEP_INTERRUPTED   /* stopped by a signal from outside: not recorded */
} sweep_status;

const char *sweep_status_name(sweep_status s);

/* What a finished point left in DIR/points/N/result.json. */
typedef struct sweep_result {
  sweep_status status;
  char key[17];
} sweep_result;

/* The recorded state of point i (SWEEP_MISSING when absent or stale). */
sweep_status sweep_point_state(const sweep_plan *p, unsigned index);
/* Should this point run: not recorded, or failed and retry_failed. */
bool sweep_point_needed(const sweep_plan *p, unsigned index, bool retry_failed);

/* Start point i as a child process (working directory its folder, stdout
 * and stderr to files there, killed if this process dies). Returns the pid
 * or -1 with err. */
typedef struct sweep_child {
  int pid;
  unsigned index;
  double start;    /* monotonic seconds */
  double deadline; /* monotonic seconds at which it is killed, 0 none */
  bool killed;     /* by the deadline */
} sweep_child;
int sweep_point_start(const sweep_plan *p, unsigned index, sweep_child *c, char *err, size_t errn);
/* After the child ended (wait status and peak RSS from wait4): verify,
 * read its statistics and write result.json atomically. Returns the
 * status (SWEEP_INTERRUPTED: nothing written). */
sweep_status sweep_point_finish(const sweep_plan *p, const sweep_child *c, int wstatus,
                                long maxrss_kb, double end, char *err, size_t errn);

/* ---------------- running ---------------- */

typedef struct sweep_run_opts {
  unsigned jobs;      /* worker processes */
  bool retry_failed;  /* run points whose recorded status is not ok */
  bool progress;      /* a progress line on standard error */
  bool quiet;
} sweep_run_opts;

typedef struct sweep_tally {
  unsigned total, ran, skipped, ok, failed, missing;
  bool interrupted;
} sweep_tally;

/* Run the needed points among [first, first + count) with opts->jobs
 * workers; SIGINT/SIGTERM stop it (running points are ended, not recorded).
 * 0, or -1 with err. */
int sweep_local_run(const sweep_plan *p, unsigned first, unsigned count,
                    const sweep_run_opts *opts, sweep_tally *t, char *err, size_t errn);

/* results.csv and results.jsonl (atomically) from every recorded point in
 * plan order; counts into t. 0 or -1 with err. */
int sweep_collect(const sweep_plan *p, sweep_tally *t, char *err, size_t errn);

/* ---------------- batch systems ---------------- */

typedef struct sweep_batch_opts {
  unsigned chunk;        /* points per array task (>= 1) */
  unsigned max_running;  /* %N throttle of the array, 0 none */
  sweep_strv sbatch_args;
  bool retry_failed;
  unsigned jobs;         /* launcher commands at once */
} sweep_batch_opts;

/* Write DIR/slurm/sweep.sbatch for the chunks that need to run and submit
 * it with sbatch (from DIR/slurm). *njobs = 0 when nothing needed running.
 * 0 or -1 with err. */
int sweep_slurm_submit(const sweep_plan *p, const sweep_batch_opts *o, unsigned *ntasks,
                       char *jobid, size_t jobidn, char *err, size_t errn);
/* Queued/running array tasks of the sweep's jobs (squeue); -1 if squeue failed. */
int sweep_slurm_active(const sweep_plan *p, unsigned *pending, unsigned *running, char *err,
                       size_t errn);
/* Print the state of the sweep (points, and the Slurm jobs if any). */
void sweep_print_status(const sweep_plan *p, FILE *f);
/* Run 'launcher' (words, one of them "{}") once per chunk needing work,
 * "{}" replaced by the task command (vt sweep --task DIR --chunk K N). */
int sweep_launcher_run(const sweep_plan *p, const sweep_strv *launcher, const sweep_batch_opts *o,
                       unsigned *ntasks, char *err, size_t errn);
/* Run chunk 'task' of size 'chunk' (the array task side). */
int sweep_task_run(const char *dir, unsigned chunk, unsigned task, bool retry_failed, char *err,
                   size_t errn);

/* ---------------- helpers (sweep_util.c) ---------------- */

int sweep_strv_push(sweep_strv *v, const char *s);
void sweep_strv_free(sweep_strv *v);
/* Split on blanks (no quoting: every word is one argument). */
int sweep_split_words(const char *s, sweep_strv *out);
/* Write 'len' bytes to path atomically (path.tmp.PID, fsync-less rename). */
int sweep_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errn);
/* mkdir -p */
int sweep_mkdirs(const char *path, char *err, size_t errn);
double sweep_now(void);
/* Absolute path of 'path' relative to the working directory (no symlink
 * resolution, the file need not exist). */
char *sweep_abspath(const char *path);
/* 64-bit FNV-1a of the bytes, as 16 hex digits */
void sweep_hash_hex(const void *data, size_t n, char out[17]);
#endif
