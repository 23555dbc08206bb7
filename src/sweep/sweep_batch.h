/* Chunks of points for batch systems (sweep_batch.c, sweep_slurm.c). */
#ifndef VT_SWEEP_BATCH_H
#define VT_SWEEP_BATCH_H
#include "sweep.h"

/* The chunks (of 'chunk' points, in plan order) holding a point that needs
 * to run, into out (room for every chunk); their count. */
unsigned sweep_chunks_needed(const sweep_plan *p, unsigned chunk, bool retry_failed, unsigned *out);
/* vt sweep --task DIR --chunk K [--retry-failed] N, as words */
int sweep_task_argv(const sweep_plan *p, unsigned chunk, bool retry_failed, unsigned task,
                    sweep_strv *v);
#endif
