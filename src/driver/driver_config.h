/* Settings of the driver: defaults, then the file named by VT_CONFIG, then
 * the VT_<KEY> variables of the settings table (docs/driver.md). */
#ifndef VT_DRIVER_CONFIG_H
#define VT_DRIVER_CONFIG_H
#include <stddef.h>

#include "vt/settings.h"

int vt_driver_config(vt_settings *s, char *err, size_t errn);
#endif
