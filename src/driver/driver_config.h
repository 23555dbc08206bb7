/* Device configuration of the driver: defaults, then the file named by
 * VT_CONFIG, then the variables VT_SMS, VT_WARP_SLOTS, VT_THREADS,
 * VT_LDS_BYTES, VT_MAX_INSNS, VT_SIMT_DEPTH (docs/driver.md). */
#ifndef VT_DRIVER_CONFIG_H
#define VT_DRIVER_CONFIG_H
#include <stdbool.h>
#include <stddef.h>

#include "vt/sim.h"

int vt_driver_config(vt_dev_config *cfg, char *err, size_t errn);

struct vt_timing_config;
/* VT_TIMING=PRESET (ventus-2025, verilog-2024) runs launches on the timing
 * model; VT_TCFG="key=value,key=value" sets timing parameters. *timed tells
 * whether timing is on. */
int vt_driver_timing_config(struct vt_timing_config *tcfg, bool *timed, char *err, size_t errn);
#endif
