/* vt/trace.h - trace files from the simulator's trace events
 * (vt_device_set_trace, vt/sim.h) in two formats: vt's text lines
 * (docs/trace.md) and the commit log of the official simulator, the Ventus
 * spike fork (formats-and-launch.md 9.2), which can be compared with the
 * .log files of the official cases line by line. `vt run`, `vt launch` and
 * `vt debug` write them with --trace FILE --trace-format text|spike.
 *
 *   vt_trace_writer *t = vt_trace_writer_new(f, VT_TRACE_SPIKE);
 *   vt_device_set_trace(dev, vt_trace_writer_event, t);
 *   ... launches ...
 *   vt_trace_writer_free(t);            // f stays open */
#ifndef VT_TRACE_H
#define VT_TRACE_H

#include <stdio.h>

#include "vt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vt_trace_format { VT_TRACE_TEXT, VT_TRACE_SPIKE } vt_trace_format;

/* "text" or "spike"; 0, or -1 for another name. */
int vt_trace_format_parse(const char *name, vt_trace_format *out);

typedef struct vt_trace_writer vt_trace_writer;
/* NULL when out of memory. The writer keeps per-warp state (the spike
 * format's SIMT "current npc"); one writer per file. */
vt_trace_writer *vt_trace_writer_new(FILE *f, vt_trace_format format);
void vt_trace_writer_free(vt_trace_writer *t);
/* A vt_trace_fn: ctx is the writer. */
void vt_trace_writer_event(void *ctx, const vt_trace_event *ev);

#ifdef __cplusplus
}
#endif
#endif
