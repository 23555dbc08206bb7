/* Bit counting without a library call (hosts without POPCNT make
 * __builtin_popcount a call into libgcc). */
#ifndef VT_UTIL_BITS_H
#define VT_UTIL_BITS_H

#include <stdint.h>

static inline unsigned vt_popcount32(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

#endif
