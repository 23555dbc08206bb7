/* Storage of vt_stats (vt/counters.h), shared by stats.c and stats_emit.c. */
#ifndef VT_STATS_INTERNAL_H
#define VT_STATS_INTERNAL_H
#include "vt/counters.h"

typedef struct vt_stats_launch {
  char *name;
  unsigned nsm;
  bool timed;
  uint64_t *rows; /* nsm * VT_C_COUNT */
} vt_stats_launch;

struct vt_stats {
  vt_stats_launch *l;
  unsigned n, cap, max_sms;
  bool timed;
};

extern const vt_counter_info vt_counter_table[VT_C_COUNT];
#endif
