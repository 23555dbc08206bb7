/* Writing an output file whole: to a temporary file beside it, then renamed
 * over it, so that a failed write never leaves a truncated output. */
#ifndef VT_TOOLS_WRITE_OUT_H
#define VT_TOOLS_WRITE_OUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 0, or -1 after "CMD: error: cannot ..." on stderr; exec: mode 0777 (less
 * the umask) instead of 0666. */
int write_out_file(const char *cmd, const char *path, const uint8_t *data, size_t size, bool exec);

#endif
