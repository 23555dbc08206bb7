/* Dominators and post-dominators (Cooper, Harvey, Kennedy: "A Simple, Fast
 * Dominance Algorithm"), reverse post-order and natural loops on a
 * cc_graph. Post-dominators are dominators of the reversed graph whose
 * entry is a virtual exit node n, reached from every node without
 * successors and from every node that cannot reach one (endless loops). */
#include <stdlib.h>
#include <string.h>

#include "cc_graph.h"

cc_graph *cc_graph_new(int n, const int *from, const int *to, int nedges) {
  cc_graph *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->n = n;
  g->succ_at = calloc((size_t)n + 2, sizeof(int));
  g->pred_at = calloc((size_t)n + 2, sizeof(int));
  g->succ = malloc(((size_t)nedges + 1) * sizeof(int));
  g->pred = malloc(((size_t)nedges + 1) * sizeof(int));
  if (!g->succ_at || !g->pred_at || !g->succ || !g->pred) {
    cc_graph_free(g);
    return NULL;
  }
  for (int e = 0; e < nedges; e++) {
    g->succ_at[from[e] + 1]++;
    g->pred_at[to[e] + 1]++;
  }
  for (int v = 0; v < n; v++) {
    g->succ_at[v + 1] += g->succ_at[v];
    g->pred_at[v + 1] += g->pred_at[v];
  }
  int *fs = calloc((size_t)n + 1, sizeof(int)), *fp = calloc((size_t)n + 1, sizeof(int));
  if (!fs || !fp) {
    free(fs);
    free(fp);
    cc_graph_free(g);
    return NULL;
  }
  for (int e = 0; e < nedges; e++) {
    g->succ[g->succ_at[from[e]] + fs[from[e]]++] = to[e];
    g->pred[g->pred_at[to[e]] + fp[to[e]]++] = from[e];
  }
  free(fs);
  free(fp);
  return g;
}

void cc_graph_free(cc_graph *g) {
  if (!g) return;
  free(g->succ_at);
  free(g->succ);
  free(g->pred_at);
  free(g->pred);
  free(g->rpo);
  free(g->rpo_index);
  free(g->idom);
  free(g->ipdom);
  free(g->loop_depth);
  free(g->loop_header);
  for (int k = 0; k < g->nloops; k++) free(g->loop_set[k]);
  free(g->loop_set);
  free(g->loop_head);
  free(g);
}

/* Post-order of the nodes reachable from 'root' over adjacency (at, adj),
 * iteratively; returns the count. */
static int post_order(int n, int root, const int *at, const int *adj, int *order, int *stack,
                      int *next, char *seen) {
  memset(seen, 0, (size_t)n);
  int sp = 0, k = 0;
  stack[sp++] = root;
  seen[root] = 1;
  next[root] = at[root];
  while (sp) {
    int v = stack[sp - 1];
    if (next[v] < at[v + 1]) {
      int w = adj[next[v]++];
      if (!seen[w]) {
        seen[w] = 1;
        next[w] = at[w];
        stack[sp++] = w;
      }
    } else {
      order[k++] = v;
      sp--;
    }
  }
  return k;
}

static int intersect(const int *idom, const int *po_num, int a, int b) {
  while (a != b) {
    while (po_num[a] < po_num[b]) a = idom[a];
    while (po_num[b] < po_num[a]) b = idom[b];
  }
  return a;
}

/* Dominators over a graph given as (at, adj) forward and (pat, padj)
 * backward, from root; idom[] for nodes not reached is -1. */
static int dominators(int n, int root, const int *at, const int *adj, const int *pat,
                      const int *padj, int *idom) {
  int *order = malloc((size_t)n * sizeof(int)), *stack = malloc((size_t)n * sizeof(int));
  int *next = malloc((size_t)n * sizeof(int)), *po_num = malloc((size_t)n * sizeof(int));
  char *seen = malloc((size_t)n);
  if (!order || !stack || !next || !po_num || !seen) {
    free(order);
    free(stack);
    free(next);
    free(po_num);
    free(seen);
    return -1;
  }
  int k = post_order(n, root, at, adj, order, stack, next, seen);
  for (int v = 0; v < n; v++) {
    idom[v] = -1;
    po_num[v] = -1;
  }
  for (int i = 0; i < k; i++) po_num[order[i]] = i;
  idom[root] = root;
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = k - 2; i >= 0; i--) { /* reverse post-order, root excluded */
      int v = order[i], nd = -1;
      for (int e = pat[v]; e < pat[v + 1]; e++) {
        int p = padj[e];
        if (po_num[p] < 0 || idom[p] < 0) continue;
        nd = nd < 0 ? p : intersect(idom, po_num, p, nd);
      }
      if (nd >= 0 && idom[v] != nd) {
        idom[v] = nd;
        changed = true;
      }
    }
  }
  free(order);
  free(stack);
  free(next);
  free(po_num);
  free(seen);
  return 0;
}

static int analyze_rpo(cc_graph *g) {
  int n = g->n;
  int *order = malloc((size_t)n * sizeof(int)), *stack = malloc((size_t)n * sizeof(int));
  int *next = malloc((size_t)n * sizeof(int));
  char *seen = malloc((size_t)n);
  g->rpo = malloc((size_t)n * sizeof(int));
  g->rpo_index = malloc((size_t)n * sizeof(int));
  if (!order || !stack || !next || !seen || !g->rpo || !g->rpo_index) {
    free(order);
    free(stack);
    free(next);
    free(seen);
    return -1;
  }
  int k = post_order(n, 0, g->succ_at, g->succ, order, stack, next, seen);
  for (int v = 0; v < n; v++) g->rpo_index[v] = -1;
  for (int i = 0; i < k; i++) {
    g->rpo[i] = order[k - 1 - i];
    g->rpo_index[g->rpo[i]] = i;
  }
  g->nrpo = k;
  free(order);
  free(stack);
  free(next);
  free(seen);
  return 0;
}

/* The reversed graph with the virtual exit n. */
static int post_dominators(cc_graph *g) {
  int n = g->n, m = n + 1;
  int nedges = g->succ_at[n];
  int *from = malloc(((size_t)nedges + (size_t)n) * sizeof(int));
  int *to = malloc(((size_t)nedges + (size_t)n) * sizeof(int));
  char *reaches = calloc((size_t)m, 1);
  int *queue = malloc((size_t)m * sizeof(int));
  g->ipdom = malloc((size_t)m * sizeof(int));
  if (!from || !to || !reaches || !queue || !g->ipdom) {
    free(from);
    free(to);
    free(reaches);
    free(queue);
    return -1;
  }
  int ne = 0;
  for (int v = 0; v < n; v++) {
    CC_SUCCS(g, v, e) {
      from[ne] = g->succ[e];
      to[ne++] = v;
    }
    if (g->succ_at[v] == g->succ_at[v + 1]) {
      from[ne] = n;
      to[ne++] = v;
    }
  }
  /* nodes that reach no exit hang off the virtual exit too */
  int qh = 0, qt = 0;
  for (int e = 0; e < ne; e++)
    if (from[e] == n && !reaches[to[e]]) reaches[queue[qt++] = to[e]] = 1;
  while (qh < qt) {
    int v = queue[qh++];
    CC_PREDS(g, v, e) if (!reaches[g->pred[e]]) reaches[queue[qt++] = g->pred[e]] = 1;
  }
  for (int v = 0; v < n; v++)
    if (!reaches[v] && g->rpo_index[v] >= 0) {
      from[ne] = n;
      to[ne++] = v;
      reaches[v] = 1;
      qh = qt = 0;
      queue[qt++] = v;
      while (qh < qt) {
        int u = queue[qh++];
        CC_PREDS(g, u, e) if (!reaches[g->pred[e]]) reaches[queue[qt++] = g->pred[e]] = 1;
      }
    }
  cc_graph *r = cc_graph_new(m, from, to, ne);
  free(from);
  free(to);
  free(reaches);
  free(queue);
  if (!r) return -1;
  int rc = dominators(m, n, r->succ_at, r->succ, r->pred_at, r->pred, g->ipdom);
  cc_graph_free(r);
  return rc;
}

bool cc_dominates(const cc_graph *g, int a, int b) {
  if (g->idom[b] < 0) return false;
  for (;;) {
    if (a == b) return true;
    int d = g->idom[b];
    if (d == b) return false;
    b = d;
  }
}

/* Natural loops: a back edge t -> h (h dominates t) makes the nodes that
 * reach t without passing h members of h's loop. Headers are visited in
 * reverse post-order, so an inner loop's header comes after its outer
 * loop's and loop_header ends up naming the innermost loop. */
static int loops(cc_graph *g) {
  int n = g->n;
  g->loop_depth = calloc((size_t)n, sizeof(int));
  g->loop_header = malloc((size_t)n * sizeof(int));
  g->loop_head = malloc((size_t)n * sizeof(int));
  g->loop_set = calloc((size_t)n, sizeof *g->loop_set);
  int *stack = malloc((size_t)n * sizeof(int));
  if (!g->loop_depth || !g->loop_header || !g->loop_head || !g->loop_set || !stack) {
    free(stack);
    return -1;
  }
  for (int v = 0; v < n; v++) g->loop_header[v] = -1;
  for (int i = 0; i < g->nrpo; i++) {
    int h = g->rpo[i];
    bool header = false;
    CC_PREDS(g, h, e) if (cc_dominates(g, h, g->pred[e])) header = true;
    if (!header) continue;
    unsigned char *mark = calloc((size_t)n, 1);
    if (!mark) {
      free(stack);
      return -1;
    }
    g->loop_head[g->nloops] = h;
    g->loop_set[g->nloops++] = mark;
    int sp = 0;
    mark[h] = 1;
    CC_PREDS(g, h, e) {
      int t = g->pred[e];
      if (cc_dominates(g, h, t) && !mark[t]) mark[stack[sp++] = t] = 1;
    }
    while (sp) {
      int v = stack[--sp];
      CC_PREDS(g, v, e) {
        int p = g->pred[e];
        if (!mark[p] && g->rpo_index[p] >= 0) mark[stack[sp++] = p] = 1;
      }
    }
    for (int v = 0; v < n; v++)
      if (mark[v]) {
        g->loop_depth[v]++;
        g->loop_header[v] = h;
      }
  }
  free(stack);
  return 0;
}

bool cc_in_loop(const cc_graph *g, int v, int h) {
  for (int k = 0; k < g->nloops; k++)
    if (g->loop_head[k] == h) return g->loop_set[k][v] != 0;
  return false;
}

int cc_graph_analyze(cc_graph *g) {
  g->idom = malloc(((size_t)g->n + 1) * sizeof(int));
  if (!g->idom || analyze_rpo(g) != 0) return -1;
  if (dominators(g->n, 0, g->succ_at, g->succ, g->pred_at, g->pred, g->idom) != 0) return -1;
  if (post_dominators(g) != 0) return -1;
  return loops(g);
}
