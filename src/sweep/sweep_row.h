/* A point's result row (result.json, a line of results.jsonl, a row of
 * results.csv): the point's parameters, status and message, every counter
 * of vt/counters.def (null when the run did not count it), host time and
 * peak RSS. Shared by sweep_point.c, sweep_verify.c and sweep_results.c. */
#ifndef VT_SWEEP_ROW_H
#define VT_SWEEP_ROW_H
#include "sweep.h"
#include "vt/counters.h"

typedef struct sweep_row {
  const sweep_point *pt;
  sweep_status status;
  char message[512];
  int exit_status; /* exit code, or minus the signal */
  double host_time;
  long peak_rss_kb;
  char *counters[VT_C_COUNT]; /* the number's text from stats.json, or NULL */
} sweep_row;

/* The columns before the counters: point, workload, rep, the axes, then
 * status, message, exit_status, host_time_s, peak_rss_kb. */
void sweep_row_init(sweep_row *r, const sweep_point *pt);
void sweep_row_free(sweep_row *r);
/* Counters from DIR/stats.json ("total"), when the run wrote it. */
void sweep_row_read_stats(sweep_row *r, const char *dir);
/* DIR/result.json, one line, atomically. */
int sweep_row_write(const sweep_row *r, const char *dir, char *err, size_t errn);
/* The row as one JSON line (no newline). */
void sweep_row_json(FILE *f, const sweep_row *r);
/* Verification of a finished point: expected files, then the check
 * program. 0, or -1 with the reason in msg. */
int sweep_verify(const sweep_point *pt, const char *dir, char *msg, size_t n);
#endif
