/* vt launch's kernel arguments (launch_args.c). */
#ifndef VT_TOOLS_LAUNCH_H
#define VT_TOOLS_LAUNCH_H
#include <stdint.h>
#include <stdio.h>

#include "vt_runtime.h"

typedef enum { SPEC_IN, SPEC_OUT, SPEC_IO, SPEC_SCALAR, SPEC_LOCAL } spec_kind;

typedef struct launch_arg {
  spec_kind kind;
  const char *text; /* the whole SPEC, for messages */
  const char *file;
  uint64_t size;
  uint8_t value[8]; /* scalars: size bytes, little-endian */
  uint32_t addr;    /* buffers */
} launch_arg;

/* --global/--local/--offset "X[,Y[,Z]]" -> v[0..*n); 0 or -1 (printed). */
int launch_parse_dims(const char *opt, const char *s, uint32_t v[3], unsigned *n);
/* One --arg SPEC; 0 or -1 (printed). */
int launch_parse_arg(const char *s, launch_arg *a);
/* Set every argument of k (allocating and filling buffers); 0 or -1. */
int launch_set_args(vt_rt *rt, vt_rt_kernel *k, launch_arg *args, unsigned nargs);
/* Write each buffer argument K to DIR/argK.bin; 0 or -1. */
int launch_save(vt_rt *rt, const launch_arg *args, unsigned nargs, const char *dir);
#endif
