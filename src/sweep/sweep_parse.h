/* The sweep file parser's state, shared by sweep_parse.c (sections and
 * lines), sweep_workload.c (workload keys) and sweep_check.c (checks after
 * the last line). */
#ifndef VT_SWEEP_PARSE_H
#define VT_SWEEP_PARSE_H
#include "sweep.h"

enum { SEC_NONE, SEC_SWEEP, SEC_SETTINGS, SEC_AXES, SEC_POINTS, SEC_WORKLOAD };

typedef struct sweep_parser {
  sweep_file *sf;
  unsigned line;
  int section;
  bool seen[4]; /* [sweep] [settings] [axes] [points] */
  char ***point_rows; /* [points]: one row of axis values per line */
  unsigned *point_lines;
  size_t npoint_rows;
  /* the current workload: first line of a key of the other kind */
  unsigned launch_key_line, run_key_line;
  char *err;
  size_t errn;
} sweep_parser;

/* "FILE:LINE: message" into ps->err; returns -1 */
int sweep_fail(sweep_parser *ps, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
char *sweep_trim(char *s);
/* takes the row (nvalues strings) */
int sweep_points_add_row(sweep_parser *ps, char **row, size_t nvalues);
int sweep_workload_begin(sweep_parser *ps, const char *name);
int sweep_workload_key(sweep_parser *ps, const char *key, const char *value);
/* the current workload is complete: checks across its keys */
int sweep_workload_end(sweep_parser *ps);
void sweep_workload_free(sweep_workload *w);
/* after the last line: the current workload, settings, axes, points, baseline */
int sweep_check(sweep_parser *ps);
void sweep_parser_free(sweep_parser *ps);
#endif
