/* By-value argument specs of vt launch (docs/launch.md): i32, u32, f32,
 * i64, u64 and f64 values as the little-endian bytes the runtime packs. */
#ifndef VT_LAUNCH_SCALAR_H
#define VT_LAUNCH_SCALAR_H
#include <stddef.h>
#include <stdint.h>

/* The size in bytes of the scalar type named by type[0..len) ("i64" -> 8),
 * 0 when it names no scalar type. */
unsigned vt_launch_scalar_size(const char *type, size_t len);

/* Parses text as a value of that type into out (size bytes, little-endian).
 * Returns 0, or -1 with *what set to what was expected ("a 64-bit signed
 * integer"). */
int vt_launch_parse_scalar(const char *type, size_t len, const char *text, uint8_t out[8],
                           const char **what);
#endif
