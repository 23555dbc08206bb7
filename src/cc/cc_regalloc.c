/* Register allocation: graph colouring (Chaitin-Briggs, optimistic) per
 * register class on the interference graph built from cc_live.c's sets
 * (which include the SIMT rule for scalar registers), with copies
 * coalesced by preferring a copy partner's colour. Registers that do not
 * fit are rematerialised (constants, addresses) or spilled: scalar ones to
 * 4-byte slots of the warp's stack (sp), vector ones to 4-byte slots of
 * each lane's private memory (vsw.v/vlw.v, isa.md 2.8.2). Registers 32 and
 * above are reached through regext (vt as inserts it), so they come last
 * in the preference order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"
#include "cc_live.h"
#include "cc_regalloc.h"

/* scalar: caller-saved first (t1, t2, t3-t6, a0-a7), then s1-s11 (saved by
 * the prologue), then x32.. (regext) */
static const int s_pref[] = {6, 7, 28, 29, 30, 31, 10, 11, 12, 13, 14, 15, 16, 17, 9,
                             18, 19, 20, 21, 22, 23, 24, 25, 26, 27};

typedef struct rgraph {
  int rc, ncolors;
  int colors[64];   /* physical registers in preference order */
  int n;            /* nodes */
  int *node_of;     /* register -> node, -1 */
  int *reg_of;      /* node -> register */
  int **alist, *alen, *acap; /* neighbours; a pair defined twice may repeat */
  int **hint, *hlen, *hcap;
  double *cost;
  int *color;       /* index into colors, -1 = none */
  bool *pre;        /* precoloured (a physical register) */
} rgraph;

static bool push_int(int **a, int *len, int *cap, int v) {
  if (*len == *cap) {
    int c = *cap ? 2 * *cap : 8;
    int *p = realloc(*a, (size_t)c * sizeof(int));
    if (!p) return false;
    *a = p;
    *cap = c;
  }
  (*a)[(*len)++] = v;
  return true;
}

static void rg_free(rgraph *g) {
  for (int i = 0; i < g->n; i++) {
    if (g->alist) free(g->alist[i]);
    if (g->hint) free(g->hint[i]);
  }
  free(g->node_of);
  free(g->reg_of);
  free(g->alist);
  free(g->alen);
  free(g->acap);
  free(g->hint);
  free(g->hlen);
  free(g->hcap);
  free(g->cost);
  free(g->color);
  free(g->pre);
}

static int color_index(const rgraph *g, int r) {
  for (int k = 0; k < g->ncolors; k++)
    if (g->colors[k] == r) return k;
  return -1;
}

/* An edge: recorded where a register is defined while the other is live,
 * so a pair repeats only for registers defined more than once, which
 * counts their degree a little high and changes nothing else. */
static bool rg_edge(rgraph *g, int a, int b) {
  if (a == b || a < 0 || b < 0 || (g->pre[a] && g->pre[b])) return true;
  int last = g->alen[a] ? g->alist[a][g->alen[a] - 1] : -1;
  if (last == b) return true;
  return push_int(&g->alist[a], &g->alen[a], &g->acap[a], b) &&
         push_int(&g->alist[b], &g->alen[b], &g->acap[b], a);
}

static int rg_nodes(rgraph *g, const cc_mf *f, const cc_ra_opts *o) {
  g->node_of = malloc((size_t)f->nvr * sizeof(int));
  g->reg_of = malloc((size_t)f->nvr * sizeof(int));
  if (!g->node_of || !g->reg_of) return -1;
  if (g->rc == CC_RC_S) {
    for (size_t k = 0; k < sizeof s_pref / sizeof s_pref[0]; k++) g->colors[g->ncolors++] = CC_X(s_pref[k]);
    for (int r = 32; r < o->max_sregs && g->ncolors < 64; r++) g->colors[g->ncolors++] = CC_X(r);
  } else {
    for (int r = 1; r < o->max_vregs && g->ncolors < 64; r++) g->colors[g->ncolors++] = CC_V(r);
  }
  for (int r = 0; r < f->nvr; r++) {
    g->node_of[r] = -1;
    if (cc_vr_class(f, r) != g->rc) continue;
    if (r < CC_VR_FIRST && color_index(g, r) < 0) continue;
    g->node_of[r] = g->n;
    g->reg_of[g->n++] = r;
  }
  int n = g->n;
  g->alist = calloc((size_t)n + 1, sizeof(int *));
  g->alen = calloc((size_t)n + 1, sizeof(int));
  g->acap = calloc((size_t)n + 1, sizeof(int));
  g->hint = calloc((size_t)n + 1, sizeof(int *));
  g->hlen = calloc((size_t)n + 1, sizeof(int));
  g->hcap = calloc((size_t)n + 1, sizeof(int));
  g->cost = calloc((size_t)n + 1, sizeof(double));
  g->color = malloc(((size_t)n + 1) * sizeof(int));
  g->pre = calloc((size_t)n + 1, sizeof(bool));
  if (!g->alist || !g->alen || !g->acap || !g->hint || !g->hlen || !g->hcap ||
      !g->cost || !g->color || !g->pre)
    return -1;
  for (int v = 0; v < n; v++) {
    int r = g->reg_of[v];
    g->pre[v] = r < CC_VR_FIRST;
    g->color[v] = g->pre[v] ? color_index(g, r) : -1;
  }
  return 0;
}

static double weight(int depth) {
  double w = 1;
  for (int i = 0; i < depth && i < 6; i++) w *= 10;
  return w;
}

/* interference: a register defined at a point interferes with everything
 * live after it (but a copy's source, which may share its register) */
static int rg_build(rgraph *g, const cc_mf *f, const cc_live *L, const uint8_t *nospill) {
  uint64_t *live = malloc(((size_t)L->words + 1) * sizeof(uint64_t));
  if (!live) return -1;
  int uses[32], defs[32];
  for (int b = 0; b < f->nb; b++) {
    memcpy(live, L->out + (size_t)b * L->words, (size_t)L->words * sizeof(uint64_t));
    double w = weight(f->b[b].loop_depth);
    for (int i = f->b[b].n - 1; i >= 0; i--) {
      const cc_mi *mi = &f->b[b].mi[i];
      int nd = cc_mi_defs(mi, defs), nu = cc_mi_uses(mi, uses);
      int src = mi->op == CC_COPY ? mi->s[0] : -1;
      for (int k = 0; k < nd; k++) {
        int d = g->node_of[defs[k]];
        if (d < 0) continue;
        g->cost[d] += w;
        for (int wd = 0; wd < L->words; wd++)
          for (uint64_t m = live[wd]; m; m &= m - 1) {
            int r = wd * 64 + __builtin_ctzll(m);
            int o = g->node_of[r];
            if (o >= 0 && r != src && !rg_edge(g, d, o)) {
              free(live);
              return -1;
            }
          }
        if (src >= 0 && g->node_of[src] >= 0) {
          int s2 = g->node_of[src];
          if (!push_int(&g->hint[d], &g->hlen[d], &g->hcap[d], s2) ||
              !push_int(&g->hint[s2], &g->hlen[s2], &g->hcap[s2], d)) {
            free(live);
            return -1;
          }
        }
      }
      for (int k = 0; k < nd; k++) cc_clear(live, defs[k]);
      for (int k = 0; k < nu; k++) {
        cc_set(live, uses[k]);
        if (g->node_of[uses[k]] >= 0) g->cost[g->node_of[uses[k]]] += w;
      }
    }
  }
  for (int v = 0; v < g->n; v++)
    if (g->reg_of[v] >= CC_VR_FIRST && nospill[g->reg_of[v]]) g->cost[v] = 1e30;
  free(live);
  return 0;
}

/* simplify + optimistic select; spilled nodes get color -1 and go to out */
static int rg_color(rgraph *g, int *spilled, int *nspilled) {
  int n = g->n, k = g->ncolors;
  int *deg = malloc(((size_t)n + 1) * sizeof(int)), *stack = malloc(((size_t)n + 1) * sizeof(int));
  int *queue = malloc(((size_t)n + 1) * sizeof(int));
  bool *gone = calloc((size_t)n + 1, sizeof(bool));
  if (!deg || !stack || !queue || !gone) {
    free(deg);
    free(stack);
    free(queue);
    free(gone);
    return -1;
  }
  int remaining = 0, sp = 0, qh = 0, qt = 0;
  for (int v = 0; v < n; v++) {
    deg[v] = g->alen[v];
    if (g->pre[v]) continue;
    remaining++;
    if (deg[v] < k) queue[qt++] = v;
  }
  while (remaining) {
    int v = -1;
    while (qh < qt && v < 0) {
      v = queue[qh++];
      if (gone[v]) v = -1;
    }
    if (v < 0) { /* potential spill: cheapest per neighbour */
      double best = 0;
      for (int u = 0; u < n; u++) {
        if (g->pre[u] || gone[u]) continue;
        double c = g->cost[u] / (deg[u] + 1);
        if (v < 0 || c < best) {
          best = c;
          v = u;
        }
      }
    }
    gone[v] = true;
    stack[sp++] = v;
    remaining--;
    for (int e = 0; e < g->alen[v]; e++) {
      int u = g->alist[v][e];
      if (g->pre[u] || gone[u]) continue;
      if (--deg[u] == k - 1) queue[qt++] = u;
      if (qt > n) qt = n; /* cannot happen: each node drops below k once */
    }
  }
  *nspilled = 0;
  while (sp) {
    int v = stack[--sp];
    uint64_t used = 0;
    for (int e = 0; e < g->alen[v]; e++) {
      int c = g->color[g->alist[v][e]];
      if (c >= 0) used |= 1ull << c;
    }
    uint64_t allowed = k >= 64 ? ~0ull : (1ull << k) - 1;
    uint64_t free_colors = allowed & ~used;
    int pick = -1;
    for (int h = 0; h < g->hlen[v] && pick < 0; h++) {
      int c = g->color[g->hint[v][h]];
      if (c >= 0 && ((free_colors >> c) & 1)) pick = c;
    }
    if (pick < 0 && free_colors) pick = __builtin_ctzll(free_colors);
    g->color[v] = pick;
    if (pick < 0) spilled[(*nspilled)++] = g->reg_of[v];
  }
  free(deg);
  free(stack);
  free(queue);
  free(gone);
  return 0;
}

static bool rematerializable(const cc_mi *mi) {
  return mi->op == CC_LI || mi->op == CC_LA || mi->op == CC_VMV_VI || mi->op == CC_CSRR ||
         mi->op == CC_VID;
}

/* the single definition of r, or NULL */
static const cc_mi *single_def(const cc_mf *f, int r) {
  const cc_mi *def = NULL;
  int tmp[32];
  for (int b = 0; b < f->nb; b++)
    for (int i = 0; i < f->b[b].n; i++) {
      const cc_mi *mi = &f->b[b].mi[i];
      int n = cc_mi_defs(mi, tmp);
      for (int k = 0; k < n; k++)
        if (tmp[k] == r) {
          if (def) return NULL;
          def = mi;
        }
    }
  return def;
}

typedef struct nsp {
  uint8_t *p;
  size_t cap;
} nsp;

static int new_temp(cc_mf *f, int rc, nsp *ns) {
  int t = cc_mf_vreg(f, rc);
  if ((size_t)f->capvr > ns->cap) {
    uint8_t *n = realloc(ns->p, (size_t)f->capvr);
    if (!n) {
      f->oom = true;
      return t;
    }
    memset(n + ns->cap, 0, (size_t)f->capvr - ns->cap);
    ns->p = n;
    ns->cap = (size_t)f->capvr;
  }
  ns->p[t] = 1;
  return t;
}

/* Rewrites every use and definition of spilled register r. */
static int spill(cc_mf *f, int r, cc_ra_state *st, nsp *nospill, cc_ctx *c) {
  const cc_mi *d = single_def(f, r);
  cc_mi remat;
  bool re = d && rematerializable(d);
  if (re) remat = *d;
  int rc = cc_vr_class(f, r);
  int32_t slot = 0;
  if (!re) {
    if (rc == CC_RC_S) {
      slot = (int32_t)st->stack_slots++ * 4;
    } else {
      slot = (int32_t)(f->private_bytes + st->private_slots++ * 4);
      if (slot > 1023) {
        cc_buf_printf(&c->log, "%s: error: kernel '%s' needs more than %u private spill slots\n",
                      c->display_name, f->name, st->private_slots - 1);
        c->errors++;
        return -1;
      }
    }
  }
  for (int b = 0; b < f->nb; b++)
    for (int i = 0; i < f->b[b].n; i++) {
      cc_mi *mi = &f->b[b].mi[i];
      bool used = false, defd = mi->d == r && (cc_fmt_of((cc_op)mi->op)->def != CC_RC_NONE || mi->op == CC_COPY);
      for (int k = 0; k < 3; k++) used |= mi->s[k] == r && k < (mi->op == CC_COPY ? 1 : cc_fmt_of((cc_op)mi->op)->nsrc);
      if (!used && !defd) continue;
      if (defd && re) { /* the constant is recomputed where needed */
        memmove(mi, mi + 1, (size_t)(f->b[b].n - i - 1) * sizeof *mi);
        f->b[b].n--;
        i--;
        continue;
      }
      int t = new_temp(f, rc, nospill);
      uint32_t line = mi->line;
      for (int k = 0; k < 3; k++)
        if (mi->s[k] == r) mi->s[k] = t;
      if (defd) mi->d = t;
      if (used) {
        cc_mi ld;
        if (re) {
          ld = remat;
          ld.d = t;
        } else {
          ld = (cc_mi){.op = rc == CC_RC_S ? CC_LW : CC_VLW, .d = t,
                       .s = {rc == CC_RC_S ? CC_X(2) : CC_V(0), -1, -1}, .imm = slot,
                       .target = rc == CC_RC_S ? CC_FRAME_SLOT : -1, .target2 = -1};
        }
        ld.line = line;
        if (!cc_mb_insert(f, b, i, &ld)) return -1;
        i++;
      }
      if (defd) {
        cc_mi stm = {.op = rc == CC_RC_S ? CC_SW : CC_VSW, .d = -1,
                     .s = {t, rc == CC_RC_S ? CC_X(2) : CC_V(0), -1}, .imm = slot,
                     .target = rc == CC_RC_S ? CC_FRAME_SLOT : -1, .target2 = -1, .line = line};
        if (!cc_mb_insert(f, b, i + 1, &stm)) return -1;
        i++;
      }
    }
  return f->oom ? -1 : 0;
}

static void apply(cc_mf *f, const int *phys) {
  for (int b = 0; b < f->nb; b++) {
    int w = 0;
    for (int i = 0; i < f->b[b].n; i++) {
      cc_mi mi = f->b[b].mi[i];
      if (mi.d >= CC_VR_FIRST) mi.d = phys[mi.d];
      for (int k = 0; k < 3; k++)
        if (mi.s[k] >= CC_VR_FIRST) mi.s[k] = phys[mi.s[k]];
      if (mi.op == CC_COPY && mi.d == mi.s[0]) continue;
      f->b[b].mi[w++] = mi;
    }
    f->b[b].n = w;
  }
}

int cc_regalloc(cc_ctx *c, cc_mf *f, const cc_ra_opts *o, cc_ra_state *st) {
  memset(st, 0, sizeof *st);
  nsp nospill = {calloc((size_t)f->capvr, 1), (size_t)f->capvr};
  int *phys = NULL, *spilled = NULL;
  if (!nospill.p) return -1;
  int rc_out = -1;
  for (int round = 0; round < 12; round++) {
    cc_live L;
    if (cc_liveness(f, &L) != 0) break;
    free(phys);
    free(spilled);
    phys = malloc((size_t)f->nvr * sizeof(int));
    spilled = malloc(((size_t)f->nvr + 1) * sizeof(int));
    int nsp_total = 0;
    bool ok = phys && spilled;
    for (int r = 0; ok && r < f->nvr; r++) phys[r] = r;
    int all_spilled[2][4096], nall[2] = {0, 0};
    for (int rc = 0; ok && rc < 2; rc++) {
      rgraph g;
      memset(&g, 0, sizeof g);
      g.rc = rc;
      int nsp = 0;
      ok = rg_nodes(&g, f, o) == 0 && rg_build(&g, f, &L, nospill.p) == 0 && rg_color(&g, spilled, &nsp) == 0;
      if (ok)
        for (int v = 0; v < g.n; v++)
          if (g.color[v] >= 0) phys[g.reg_of[v]] = g.colors[g.color[v]];
      for (int k = 0; ok && k < nsp; k++) {
        if (getenv("VT_CC_DEBUG_RA")) {
          const cc_mi *dm = single_def(f, spilled[k]);
          fprintf(stderr, "round %d class %d spill r%d nospill %d def %s imm %d\n", round, rc,
                  spilled[k], nospill.p[spilled[k]], dm ? cc_ops[dm->op].mn : "?", dm ? dm->imm : 0);
        }
        if (nospill.p[spilled[k]] || nall[rc] >= 4096) {
          cc_buf_printf(&c->log, "%s: error: kernel '%s': register allocation failed (too many "
                        "values live at once)\n", c->display_name, f->name);
          c->errors++;
          ok = false;
          break;
        }
        all_spilled[rc][nall[rc]++] = spilled[k];
      }
      nsp_total += nsp;
      rg_free(&g);
    }
    cc_live_free(&L);
    if (!ok) break;
    if (!nsp_total) {
      apply(f, phys);
      rc_out = 0;
      break;
    }
    for (int rc = 0; rc < 2 && ok; rc++)
      for (int k = 0; k < nall[rc] && ok; k++) ok = spill(f, all_spilled[rc][k], st, &nospill, c) == 0;
    if (!ok) break;
  }
  if (rc_out != 0 && !c->errors) {
    cc_buf_printf(&c->log, "%s: error: kernel '%s': register allocation did not converge\n",
                  c->display_name, f->name);
    c->errors++;
  }
  free(nospill.p);
  free(phys);
  free(spilled);
  return rc_out;
}
