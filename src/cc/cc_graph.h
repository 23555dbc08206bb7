/* Control-flow graphs as index arrays, with reverse post-order,
 * dominators and post-dominators (cc_dom.c). Used on LLVM IR blocks (the
 * uniformity analysis) and on machine blocks (SIMT lowering, register
 * allocation); LLVM's C API does not expose its own dominator trees. */
#ifndef VT_CC_GRAPH_H
#define VT_CC_GRAPH_H

#include <stdbool.h>

typedef struct cc_graph {
  int n;                     /* nodes 0..n-1; node 0 is the entry */
  int *succ_at, *succ;       /* successors of v: succ[succ_at[v] .. succ_at[v+1]) */
  int *pred_at, *pred;
  int *rpo, nrpo;            /* reverse post-order of the nodes reachable from 0 */
  int *rpo_index;            /* position in rpo, -1 = unreachable */
  int *idom;                 /* immediate dominator (entry: itself; unreachable: -1) */
  int *ipdom;                /* immediate post-dominator; n = the virtual exit */
  int *loop_depth;           /* natural-loop nesting depth */
  int *loop_header;          /* innermost loop's header, -1 = in no loop */
  int nloops;
  int *loop_head;            /* header of loop k */
  unsigned char **loop_set;  /* membership of loop k, one byte per node */
} cc_graph;

/* A graph from an edge list; NULL when out of memory. */
cc_graph *cc_graph_new(int n, const int *from, const int *to, int nedges);
void cc_graph_free(cc_graph *g);
/* Fills rpo, idom, ipdom and the loop information. 0, or -1 out of memory. */
int cc_graph_analyze(cc_graph *g);
/* Does a dominate b? */
bool cc_dominates(const cc_graph *g, int a, int b);
/* Is v in the natural loop whose header is h? */
bool cc_in_loop(const cc_graph *g, int v, int h);

#define CC_SUCCS(g, v, i) for (int i = (g)->succ_at[v]; i < (g)->succ_at[(v) + 1]; i++)
#define CC_PREDS(g, v, i) for (int i = (g)->pred_at[v]; i < (g)->pred_at[(v) + 1]; i++)

#endif
