/* Device configuration of the driver: defaults, then the file named by
 * VT_CONFIG, then the variables VT_SMS, VT_WARP_SLOTS, VT_THREADS,
 * VT_LDS_BYTES, VT_MAX_INSNS, VT_SIMT_DEPTH (docs/driver.md). */
#ifndef VT_DRIVER_CONFIG_H
#define VT_DRIVER_CONFIG_H
#include <stddef.h>

#include "vt/sim.h"

int vt_driver_config(vt_dev_config *cfg, char *err, size_t errn);
#endif
