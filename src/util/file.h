/* Reading whole files, shared by the loaders and the vt command. */
#ifndef VT_UTIL_FILE_H
#define VT_UTIL_FILE_H
#include <stddef.h>
#include <stdint.h>

/* Reads all of 'path' into a malloc'd buffer (one extra NUL byte after the
 * data, so text can be scanned safely). Returns 0, or an errno value
 * (ENOENT, EACCES, ENOMEM, EIO, ...) and leaves *data NULL. */
int vt_read_file(const char *path, uint8_t **data, size_t *len);
#endif
