/* vt/counters.h - the statistics of runs, from one counters table
 * (vt/counters.def): functional counters (instructions, branches, SIMT
 * depth, host time) and the timing model's (cycles, stalls, caches).
 * Every counter is stored per launch and SM in a vt_stats; totals aggregate
 * as the table says. A device owns one (vt_device_stats). */
#ifndef VT_COUNTERS_H
#define VT_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vt/settings.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vt_counter {
#define VT_COUNTER(name, ...) VT_C_##name,
#define VT_RATIO(name, ...) VT_C_##name,
#include "vt/counters.def"
#undef VT_COUNTER
#undef VT_RATIO
  VT_C_COUNT
} vt_counter;

typedef enum vt_counter_model { VT_CM_FUNC, VT_CM_TIMING } vt_counter_model;
typedef enum vt_counter_kind { VT_CK_SUM, VT_CK_MAX, VT_CK_CYC, VT_CK_SEC, VT_CK_RATIO } vt_counter_kind;

typedef struct vt_counter_info {
  const char *name, *unit, *desc;
  vt_counter_model model;
  vt_counter_kind kind;
} vt_counter_info;

const vt_counter_info *vt_counter_info_of(vt_counter c);
/* The counter called 'name', or -1. */
int vt_counter_find(const char *name);

typedef struct vt_stats vt_stats;

vt_stats *vt_stats_new(void);
void vt_stats_free(vt_stats *s);
/* Start a launch: a zeroed row of counters per SM. Returns the rows
 * (nsm * VT_C_COUNT, SM s at s * VT_C_COUNT) or NULL when out of memory. */
uint64_t *vt_stats_launch_begin(vt_stats *s, const char *name, unsigned nsm, bool timed);

unsigned vt_stats_launch_count(const vt_stats *s);
unsigned vt_stats_sm_count(const vt_stats *s); /* most SMs of any launch */
const char *vt_stats_launch_name(const vt_stats *s, unsigned launch);
/* Did any launch run on the timing model? */
bool vt_stats_timed(const vt_stats *s);
/* launch = -1: all launches; sm = -1: all SMs. Ratios and seconds as
 * doubles; 0 for a counter that was never counted. */
double vt_stats_value(const vt_stats *s, int launch, int sm, vt_counter c);

/* Every counter as text (a summary line, then a table with a column per
 * SM; timing counters only when a launch was timed), as JSON and as CSV
 * (docs/counters.md describes the formats). For a timed run the JSON also
 * has the timing parameters of 'timing_settings' and the FIN line 'fin'
 * (either may be NULL). */
void vt_stats_report(const vt_stats *s, FILE *f);
int vt_stats_write_json(const vt_stats *s, const vt_settings *timing_settings, const char *fin,
                        FILE *f);
int vt_stats_write_csv(const vt_stats *s, FILE *f);
/* The counters reference (docs/counters.md). */
void vt_counters_markdown(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
