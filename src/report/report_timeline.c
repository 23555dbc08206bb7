/* The report of a timing timeline (`--timeline`, Chrome trace events, docs/
 * timing.md): resident warps per SM over time, the time each warp slot
 * spent in each state, and workgroup residency on each SM's workgroup
 * slots. The events are read one at a time (a timeline can be large), in
 * two passes: extent, states and workgroups, then occupancy bins. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sweep/json.h"

#define MAX_PID 1024
#define MAX_TID 1024 /* warp slots: tid < 1000; workgroup slots: 1000 + k */
#define WG_TID 1000
#define NBINS 200
#define MAX_STATES 24
#define MAX_SLOTS_SHOWN 64
#define MAX_SPANS_SHOWN 2000

typedef struct slot {
  int pid, tid;
  double t[MAX_STATES];
} slot;

typedef struct tl {
  double t0, t1;
  size_t events, spans;
  int *slot_of; /* pid * MAX_TID + tid -> slots index + 1 */
  slot *slots;
  size_t nslots;
  sweep_strv states;
  int max_pid;
  double *occ; /* [pid][bin] */
  rp_chart *gantt;
} tl;

typedef struct event {
  const char *ph, *name;
  double ts, dur;
  int pid, tid;
} event;

static int get_event(const json_value *v, event *e) {
  const json_value *pid = json_get(v, "pid"), *tid = json_get(v, "tid");
  e->ph = json_str(json_get(v, "ph"));
  e->name = json_str(json_get(v, "name"));
  const json_value *ts = json_get(v, "ts"), *dur = json_get(v, "dur");
  e->ts = ts && ts->type == JSON_NUMBER ? ts->number : NAN;
  e->dur = dur && dur->type == JSON_NUMBER ? dur->number : NAN;
  e->pid = pid && pid->type == JSON_NUMBER && pid->number >= 0 && pid->number < MAX_PID ? (int)pid->number : -1;
  e->tid = tid && tid->type == JSON_NUMBER && tid->number >= 0 && tid->number < WG_TID + MAX_TID ? (int)tid->number : -1;
  return e->ph && e->name && e->pid >= 0 && e->tid >= 0 ? 0 : -1;
}

static int state_index(tl *t, const char *name) {
  for (size_t i = 0; i < t->states.n; i++)
    if (!strcmp(t->states.v[i], name)) return (int)i;
  if (t->states.n == MAX_STATES - 1) return MAX_STATES - 1; /* "other" */
  sweep_strv_push(&t->states, name);
  return (int)t->states.n - 1;
}

static slot *slot_at(tl *t, int pid, int tid) {
  int *idx = &t->slot_of[pid * MAX_TID + tid];
  if (!*idx) {
    slot *s = realloc(t->slots, (t->nslots + 1) * sizeof *s);
    if (!s) return NULL;
    t->slots = s;
    memset(&s[t->nslots], 0, sizeof *s);
    s[t->nslots].pid = pid, s[t->nslots].tid = tid;
    *idx = (int)++t->nslots;
  }
  return &t->slots[*idx - 1];
}

static void first_pass(tl *t, const event *e) {
  if (strcmp(e->ph, "X") || !isfinite(e->ts) || !isfinite(e->dur) || e->dur < 0) return;
  t->spans++;
  if (e->ts < t->t0) t->t0 = e->ts;
  if (e->ts + e->dur > t->t1) t->t1 = e->ts + e->dur;
  if (e->pid > t->max_pid) t->max_pid = e->pid;
  if (e->tid >= WG_TID) {
    char row[64], sm[32];
    snprintf(row, sizeof row, "SM %d workgroups %d", e->pid, e->tid - WG_TID); /* Perfetto's row */
    snprintf(sm, sizeof sm, "SM %d", e->pid);
    if (rp_points(t->gantt) < MAX_SPANS_SHOWN) rp_add(t->gantt, rp_series_of(t->gantt, sm), row, e->ts, 0, e->ts + e->dur);
    return;
  }
  slot *s = e->tid < MAX_TID ? slot_at(t, e->pid, e->tid) : NULL;
  if (s) s->t[state_index(t, e->name)] += e->dur;
}

/* warp-slot spans spread over the bins of their SM */
static void second_pass(tl *t, const event *e) {
  if (strcmp(e->ph, "X") || e->tid >= WG_TID || !isfinite(e->ts) || !isfinite(e->dur) || e->dur <= 0) return;
  double w = (t->t1 - t->t0) / NBINS;
  int b0 = (int)((e->ts - t->t0) / w), b1 = (int)((e->ts + e->dur - t->t0) / w);
  for (int b = b0 < 0 ? 0 : b0; b <= b1 && b < NBINS; b++) {
    double lo = t->t0 + b * w, hi = lo + w;
    double a = e->ts > lo ? e->ts : lo, z = e->ts + e->dur < hi ? e->ts + e->dur : hi;
    if (z > a) t->occ[e->pid * NBINS + b] += (z - a) / w;
  }
}

/* every event of traceEvents through fn; 0 or -1 with err */
static int each_event(const char *text, size_t len, tl *t, void (*fn)(tl *, const event *), char *err,
                      size_t errn) {
  json_cursor c;
  json_cursor_init(&c, text, len);
  bool found = false;
  int rc = json_enter(&c, '{');
  for (char *key = NULL; rc == 0 && (rc = json_next_key(&c, &key)) == 1; free(key), key = NULL) {
    if (strcmp(key, "traceEvents")) {
      rc = json_skip(&c);
      continue;
    }
    found = true;
    rc = json_enter(&c, '[');
    while (rc == 0 && (rc = json_next_item(&c)) == 1) {
      json_value v;
      event e;
      rc = json_read(&c, &v);
      if (rc == 0 && get_event(&v, &e) == 0) fn(t, &e), t->events++;
      json_free(&v);
    }
  }
  if (rc == 0) rc = json_finish(&c);
  if (rc) snprintf(err, errn, "%s", c.err);
  else if (!found) snprintf(err, errn, "no traceEvents: not a timeline of vt (--timeline, docs/timing.md)");
  return rc || !found ? -1 : 0;
}

static rp_chart *occupancy(const tl *t) {
  rp_chart *c = rp_chart_new(RP_LINE, "occupancy", "Resident warps per SM over time", "cycle [cycles]",
                             "resident warps [warps]");
  bool each = t->max_pid < 8;
  double w = (t->t1 - t->t0) / NBINS;
  for (int p = 0; c && p <= (each ? t->max_pid : 0); p++) {
    char name[32];
    snprintf(name, sizeof name, each ? "SM %d" : "all SMs (mean per SM)", p);
    int s = rp_series_of(c, name);
    for (int b = 0; b < NBINS; b++) {
      double v = 0;
      for (int q = each ? p : 0; q <= (each ? p : t->max_pid); q++) v += t->occ[q * NBINS + b];
      rp_add(c, s, NULL, t->t0 + (b + 0.5) * w, each ? v : v / (t->max_pid + 1), 0);
    }
  }
  return c;
}

static rp_chart *slot_states(const tl *t) {
  rp_chart *c = rp_chart_new(RP_STACKED, "slot-states", "Time of each warp slot in each state",
                             "warp slot", "time [cycles]");
  for (size_t i = 0; c && i < t->nslots && i < MAX_SLOTS_SHOWN; i++) {
    char cat[64];
    snprintf(cat, sizeof cat, "SM %d slot %d", t->slots[i].pid, t->slots[i].tid);
    rp_add_cat(c, cat);
    for (size_t k = 0; k < MAX_STATES; k++)
      if (t->slots[i].t[k] > 0)
        rp_add(c, rp_series_of(c, k < t->states.n ? t->states.v[k] : "other"), cat, 0, t->slots[i].t[k], 0);
  }
  if (c && t->nslots > MAX_SLOTS_SHOWN) {
    char note[128];
    snprintf(note, sizeof note, "The first %d of %zu warp slots.", MAX_SLOTS_SHOWN, t->nslots);
    c->note = strdup(note);
  }
  return c;
}

static int slot_cmp(const void *a, const void *b) {
  const slot *x = a, *y = b;
  return x->pid != y->pid ? (x->pid > y->pid) - (x->pid < y->pid) : (x->tid > y->tid) - (x->tid < y->tid);
}

/* "SM 1 workgroups 10" after "SM 1 workgroups 9" */
static int row_cmp(const void *a, const void *b) {
  int p1 = 0, k1 = 0, p2 = 0, k2 = 0;
  sscanf(*(char *const *)a, "SM %d workgroups %d", &p1, &k1);
  sscanf(*(char *const *)b, "SM %d workgroups %d", &p2, &k2);
  return p1 != p2 ? (p1 > p2) - (p1 < p2) : (k1 > k2) - (k1 < k2);
}

static void emit(FILE *f, rp_chart *c) {
  if (c && rp_points(c)) rp_chart_html(f, c);
  rp_chart_free(c);
}

static void page(const char *path, tl *t, const char *chartjs, FILE *f) {
  rp_page pg;
  char sub[4400];
  snprintf(sub, sizeof sub, "%s: %zu events, %d SM(s), cycles %.0f to %.0f", path, t->events,
           t->max_pid + 1, t->t0, t->t1);
  rp_page_begin(&pg, f, "vt timeline", sub, chartjs);
  fputs("<p>Every instruction and stall of this run is in the same file: open it in Perfetto "
        "(<a href=\"https://ui.perfetto.dev\">ui.perfetto.dev</a>, Open trace file; or chrome://tracing) "
        "to zoom in. 1 cycle is shown there as 1 &micro;s.</p>\n", f);
  rp_section(&pg, "Activity", "activity");
  rp_grid(&pg, true);
  emit(f, occupancy(t));
  if (t->nslots) qsort(t->slots, t->nslots, sizeof *t->slots, slot_cmp);
  emit(f, slot_states(t));
  rp_grid(&pg, false);
  rp_section(&pg, "Workgroups", "workgroups");
  if (t->gantt->cats.n) qsort(t->gantt->cats.v, t->gantt->cats.n, sizeof(char *), row_cmp);
  if (rp_points(t->gantt) >= MAX_SPANS_SHOWN) {
    char note[128];
    snprintf(note, sizeof note, "The first %d workgroup spans.", MAX_SPANS_SHOWN);
    t->gantt->note = strdup(note);
  }
  emit(f, t->gantt);
  t->gantt = NULL;
  rp_page_end(&pg);
}

int rp_timeline_report(const char *path, const char *text, size_t len, const char *chartjs, FILE *f,
                       char *err, size_t errn) {
  tl t = {.t0 = INFINITY, .t1 = -INFINITY, .max_pid = -1};
  t.slot_of = calloc((size_t)MAX_PID * MAX_TID, sizeof *t.slot_of);
  t.gantt = rp_chart_new(RP_GANTT, "workgroups", "Workgroups on each SM, allocation to completion "
                         "(rows as in Perfetto: workgroup id modulo wg_slots)", "cycle [cycles]", "row");
  char msg[300] = "";
  int rc = !t.slot_of || !t.gantt ? (snprintf(msg, sizeof msg, "out of memory"), -1)
                                  : each_event(text, len, &t, first_pass, msg, sizeof msg);
  if (rc == 0 && !t.spans) rc = -1, snprintf(msg, sizeof msg, "the timeline has no spans");
  if (rc == 0 && !(t.occ = calloc((size_t)(t.max_pid + 1) * NBINS, sizeof *t.occ))) rc = -1;
  if (rc == 0) {
    if (t.t1 <= t.t0) t.t1 = t.t0 + 1;
    t.events = 0;
    rc = each_event(text, len, &t, second_pass, msg, sizeof msg);
  }
  if (rc == 0) page(path, &t, chartjs, f);
  else snprintf(err, errn, "%s: %s", path, msg[0] ? msg : "out of memory");
  rp_chart_free(t.gantt);
  free(t.occ);
  free(t.slots);
  free(t.slot_of);
  sweep_strv_free(&t.states);
  return rc;
}
