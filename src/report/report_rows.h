/* The rows of a sweep for its report (report_rows.c): plan.json and
 * results.jsonl read back, the workloads and the values of each axis, the
 * baseline, labels with units, the table of every point. */
#ifndef VT_REPORT_ROWS_H
#define VT_REPORT_ROWS_H
#include "report.h"
#include "sweep/json.h"

typedef struct rp_rows {
  sweep_plan plan;      /* axes, baseline values, timing */
  json_value *rows;     /* one object per results.jsonl line */
  size_t n;
  unsigned ok;
  sweep_strv workloads; /* in order of appearance */
  sweep_strv *values;   /* per axis: the distinct values (numbers ascending) */
  char baseline_label[400];
} rp_rows;

/* DIR/plan.json and DIR/results.jsonl; 'baseline' (KEY=VALUE words, or
 * NULL) replaces the plan's baseline values it names. 0 or -1 with err. */
int rp_rows_read(const char *dir, const char *baseline, rp_rows *r, char *err, size_t errn);
void rp_rows_free(rp_rows *r);

/* a field as text ("" when absent or null), as a number (NAN) */
const char *rp_row_str(const rp_rows *r, size_t i, const char *key);
double rp_row_num(const rp_rows *r, size_t i, const char *key);
bool rp_row_ok(const rp_rows *r, size_t i);
/* the row of workload w at the baseline configuration, repetition 0, ok;
 * (size_t)-1 when there is none */
size_t rp_baseline_row(const rp_rows *r, const char *w);
bool rp_all_numbers(const sweep_strv *v);
/* "sms [SMs]", "ipc [warp-insn/cycle]" from the settings and counters tables */
void rp_axis_label(const char *key, char *buf, size_t n);
void rp_metric_label(const char *metric, char *buf, size_t n);
/* "sms=2 warp_slots=8" */
void rp_config_label(const rp_rows *r, size_t i, char *buf, size_t n);
/* every point: parameters, status, cycles, IPC, speed-up, host time, RSS */
void rp_points_table(FILE *f, const rp_rows *r);
#endif
