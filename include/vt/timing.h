/* vt/timing.h - the execution-driven, cycle-approximate performance model of
 * the Ventus GPGPU (docs/timing.md). The functional simulator executes each
 * warp instruction when the model dispatches it to the operand collector, so
 * lane masks and addresses are exact; the model decides when that happens.
 * Results of a launch run with timing equal those of vt_device_run.
 *
 *   vt_timing_config c;
 *   vt_timing_config_preset(&c, "ventus-2025");
 *   vt_timing *t = vt_timing_new(&c);
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

#include "vt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vt_timing_config {
#define VT_TP(name, a, b, desc) uint32_t name;
#include "vt/timing_params.def"
#undef VT_TP
} vt_timing_config;

/* Presets: "ventus-2025" (current RTL parameters, the default) and
 * "verilog-2024" (the Verilog port of uarch.md 5.2). 0, or -1 if unknown. */
int vt_timing_config_preset(vt_timing_config *cfg, const char *name);
/* Set one parameter by name ('-' may replace '_'). 0, or -1 with a message
 * ("where: ...") in err; 1 if 'key' is not a timing parameter (err untouched). */
int vt_timing_config_set(vt_timing_config *cfg, const char *key, const char *value,
                         const char *where, char *err, size_t errn);
/* 'name = value  # description' lines. */
void vt_timing_config_print(FILE *f, const vt_timing_config *cfg);

/* Counters (vt/timing_counters.def). */
typedef enum vt_timing_counter {
#define VT_TC(name, kind, unit, desc) VT_TC_##name,
#define VT_TR(name, unit, desc, num, den) VT_TC_##name,
#include "vt/timing_counters.def"
#undef VT_TC
#undef VT_TR
  VT_TC_COUNT
} vt_timing_counter;

const char *vt_timing_counter_name(vt_timing_counter c);
const char *vt_timing_counter_unit(vt_timing_counter c);
const char *vt_timing_counter_desc(vt_timing_counter c);
/* Markdown table of every counter (docs/timing-counters.md). */
void vt_timing_counters_markdown(FILE *f);

typedef struct vt_timing vt_timing;

vt_timing *vt_timing_new(const vt_timing_config *cfg);
void vt_timing_free(vt_timing *t);
const vt_timing_config *vt_timing_get_config(const vt_timing *t);

/* Write a Chrome/Perfetto trace-event JSON timeline to f (owned by the caller;
 * call vt_timing_close_timeline before closing f). Call before the first run. */
void vt_timing_set_timeline(vt_timing *t, FILE *f);
/* Finish the JSON document. */
int vt_timing_close_timeline(vt_timing *t);

/* Run one launch to completion on dev with timing. The functional results
 * are those of vt_device_run. 'name' labels the launch in reports (may be
 * NULL). Returns VT_OK or an error code with *err filled. */
int vt_timing_run(vt_timing *t, vt_device *dev, const vt_launch *l, const char *name,
                  vt_error *err);

/* Results. launch = -1: all launches; sm = -1: all SMs. */
unsigned vt_timing_launch_count(const vt_timing *t);
unsigned vt_timing_sm_count(const vt_timing *t);
uint64_t vt_timing_cycles(const vt_timing *t); /* total over launches */
double vt_timing_counter_value(const vt_timing *t, int launch, int sm, vt_timing_counter c);
/* "FIN <cycles> | [i: X: <x> V: <v>] ..." as the RTL harness prints it. */
void vt_timing_fin_line(const vt_timing *t, char *buf, size_t n);

void vt_timing_report(const vt_timing *t, FILE *f);
int vt_timing_write_json(const vt_timing *t, FILE *f);
int vt_timing_write_csv(const vt_timing *t, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
