/* Internal state of a trace writer (vt/trace.h). */
#ifndef VT_TRACE_INTERNAL_H
#define VT_TRACE_INTERNAL_H
#include <stdint.h>

#include "vt/trace.h"

struct vt_trace_writer {
  FILE *f;
  vt_trace_format format;
  /* spike: per core, the SIMT unit's "current npc" (0 until a vector
   * branch or a popping join sets it) and the SIMT depth after the core's
   * last instruction */
  struct vt_spike_core {
    uint32_t npc;
    unsigned depth;
  } *cores;
  size_t ncores;
};

/* One spike commit record (and SIMT dump) for ev (trace_spike.c). */
void vt_trace_spike_line(vt_trace_writer *t, const vt_trace_event *ev);
#endif
