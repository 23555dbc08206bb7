/* Breakpoints (an address, with an optional warp/workgroup/SM condition)
 * and watchpoints (an address range; any store by any lane into it stops
 * the device after the instruction and reports warp, lane and pc). */
#include <stdlib.h>
#include <string.h>

#include "dbg_internal.h"

static void update_watch(vt_dbg *d) {
  d->any_watch = false;
  for (size_t i = 0; i < d->npoints; i++) d->any_watch |= d->points[i].watch;
}

int dbg_point_add(vt_dbg *d, bool watch, bool temporary, uint32_t addr, uint32_t len,
                  const dbg_cond *c, const char *what) {
  if (d->npoints == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 8;
    dbg_point *p = realloc(d->points, cap * sizeof *p);
    if (!p) return -1;
    d->points = p;
    d->cap = cap;
  }
  dbg_point *p = &d->points[d->npoints++];
  memset(p, 0, sizeof *p);
  p->id = d->next_id++;
  p->watch = watch;
  p->temporary = temporary;
  p->addr = addr;
  p->len = len;
  p->cond = c ? *c : (dbg_cond){-1, -1, -1};
  snprintf(p->what, sizeof p->what, "%s", what ? what : "");
  update_watch(d);
  return p->id;
}

bool dbg_point_delete(vt_dbg *d, int id) {
  for (size_t i = 0; i < d->npoints; i++)
    if (d->points[i].id == id) {
      memmove(&d->points[i], &d->points[i + 1], (d->npoints - i - 1) * sizeof *d->points);
      d->npoints--;
      update_watch(d);
      return true;
    }
  return false;
}

void dbg_point_delete_all(vt_dbg *d) {
  d->npoints = 0;
  d->any_watch = false;
}

static bool cond_met(const vt_dbg *d, const dbg_cond *c, unsigned sm, unsigned wg, unsigned warp) {
  return (c->sm < 0 || (unsigned)c->sm == sm) && (c->wg < 0 || (unsigned)c->wg == wg) &&
         (c->warp < 0 || (unsigned)c->warp == dbg_gwarp(d, wg, warp));
}

dbg_point *dbg_break_at(vt_dbg *d, const vt_warp_info *wi) {
  for (size_t i = 0; i < d->npoints; i++) {
    dbg_point *p = &d->points[i];
    if (!p->watch && p->addr == wi->pc && cond_met(d, &p->cond, wi->sm, wi->wg, wi->warp))
      return p;
  }
  return NULL;
}

dbg_point *dbg_watch_check(vt_dbg *d, const vt_trace_event *ev, dbg_watch_hit *hit) {
  for (size_t i = 0; i < d->npoints; i++) {
    dbg_point *p = &d->points[i];
    if (!p->watch || !cond_met(d, &p->cond, ev->sm, ev->wg, ev->warp)) continue;
    memset(hit, 0, sizeof *hit);
    hit->pc = ev->pc;
    for (unsigned k = 0; k < ev->nmem; k++) {
      const vt_trace_mem *m = &ev->mem[k];
      uint64_t lo = m->addr, hi = lo + m->size;
      if (!m->is_store || m->addr_hi || hi <= p->addr || lo >= (uint64_t)p->addr + p->len) continue;
      hit->total++;
      if (hit->n < sizeof hit->st / sizeof hit->st[0])
        hit->st[hit->n++] = (dbg_store){m->addr, m->value, m->size, m->lane};
    }
    if (hit->n) return p;
  }
  return NULL;
}

static void cond_text(const vt_dbg *d, const dbg_cond *c, char *buf, size_t n) {
  (void)d;
  buf[0] = 0;
  size_t k = 0;
  if (c->warp < 0 && c->wg < 0 && c->sm < 0) return;
  k += (size_t)snprintf(buf + k, n - k, " if");
  if (c->warp >= 0 && k < n) k += (size_t)snprintf(buf + k, n - k, " warp=%d", c->warp);
  if (c->wg >= 0 && k < n) k += (size_t)snprintf(buf + k, n - k, " wg=%d", c->wg);
  if (c->sm >= 0 && k < n) snprintf(buf + k, n - k, " sm=%d", c->sm);
}

void dbg_points_print(const vt_dbg *d, FILE *out) {
  if (d->npoints == 0) {
    fprintf(out, "No breakpoints or watchpoints.\n");
    return;
  }
  fprintf(out, "Num  Type        Disp  Address     Hits  What\n");
  for (size_t i = 0; i < d->npoints; i++) {
    const dbg_point *p = &d->points[i];
    char cond[64];
    cond_text(d, &p->cond, cond, sizeof cond);
    fprintf(out, "%-4d %-11s %-5s 0x%08x  %-5u %s", p->id, p->watch ? "watchpoint" : "breakpoint",
            p->temporary ? "del" : "keep", p->addr, p->hits, p->what);
    if (p->watch) fprintf(out, " (%u byte%s)", p->len, p->len == 1 ? "" : "s");
    fprintf(out, "%s\n", cond);
  }
}
