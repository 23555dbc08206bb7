/* vt/timing.h - the execution-driven, cycle-approximate performance model of
 * the Ventus GPGPU (docs/timing.md). The functional simulator executes each
 * warp instruction when the model dispatches it to the operand collector, so
 * lane masks and addresses are exact; the model decides when that happens.
 * Results of a launch run with timing equal those of vt_device_run.
 *
 *   vt_settings c;
 *   vt_settings_default(&c);                 // or a preset: vt_settings_set(&c, "preset", ...)
 *   vt_timing *t = vt_timing_new(&c);        // the timing parameters of vt/settings.def
 *   vt_timing_run(t, dev, &launch, "name", &err);   // once per launch
 *   vt_timing_report(t, stdout);                    // FIN line, counters
 *   vt_timing_free(t);
 *
 * No global state; a vt_timing keeps its statistics over all launches it ran.
 */
#ifndef VT_TIMING_H
#define VT_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vt/settings.h"
#include "vt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vt_timing vt_timing;

vt_timing *vt_timing_new(const vt_settings *cfg);
void vt_timing_free(vt_timing *t);
const vt_settings *vt_timing_get_config(const vt_timing *t);

/* Write a Chrome/Perfetto trace-event JSON timeline to f (owned by the caller;
 * call vt_timing_close_timeline before closing f). Call before the first run. */
void vt_timing_set_timeline(vt_timing *t, FILE *f);
/* Finish the JSON document. */
int vt_timing_close_timeline(vt_timing *t);

/* Run one launch to completion on dev with timing. The functional results
 * (and the functional counters) are those of vt_device_run. 'name' labels the launch in reports (may be
 * NULL). Returns VT_OK or an error code with *err filled. */
int vt_timing_run(vt_timing *t, vt_device *dev, const vt_launch *l, const char *name,
                  vt_error *err);

/* Results: the counters are in the device's statistics (vt_device_stats,
 * vt/counters.h); here the cycles of the launches this model ran, the FIN
 * line "FIN <cycles> | [i: X: <x> V: <v>] ..." as the RTL harness prints
 * it, and a report of both (launches with their cycles, the FIN line).
 * vt_timing_cycles counts every launch this model ran, on any device; the
 * FIN line and the report read the statistics of the device of the last
 * run, which must still exist. */
uint64_t vt_timing_cycles(const vt_timing *t);
void vt_timing_fin_line(const vt_timing *t, char *buf, size_t n);
void vt_timing_report(const vt_timing *t, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
