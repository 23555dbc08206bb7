/* Filling a vt_error (vt/sim.h): the message, and text put in front of it. */
#ifndef VT_UTIL_ERROR_H
#define VT_UTIL_ERROR_H
#include "vt/sim.h"

void vt_err_set(vt_error *err, vt_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void vt_err_prefix(vt_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
