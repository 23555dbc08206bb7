/* vt sweep's options (cmd_sweep.c) and its modes (cmd_sweep_modes.c). */
#ifndef VT_TOOLS_CMD_SWEEP_H
#define VT_TOOLS_CMD_SWEEP_H
#include <stdbool.h>

#include "sweep/sweep.h"

typedef enum sweep_mode { MODE_RUN, MODE_STATUS, MODE_WAIT, MODE_COLLECT, MODE_TASK } sweep_mode;

typedef struct sweep_cli {
  sweep_mode mode;
  const char *file, *dir, *output, *launcher;
  bool slurm, wait, dry_run, quiet;
  unsigned poll, task;
  sweep_run_opts run;
  sweep_batch_opts batch;
} sweep_cli;

int sweep_mode_run(sweep_cli *c);
int sweep_mode_follow(sweep_cli *c); /* --status, --wait, --collect */
int sweep_mode_task(sweep_cli *c);
#endif
