/* Parsing helpers shared by the library and the vt command. */
#ifndef VT_UTIL_PARSE_H
#define VT_UTIL_PARSE_H
#include <stdint.h>

/* A whole unsigned number, decimal or 0x hex (or 0 octal); no sign, no
 * trailing characters, no overflow. 0 on success, -1 otherwise. */
int vt_parse_u64(const char *s, uint64_t *out);
#endif
