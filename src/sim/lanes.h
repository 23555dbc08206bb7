/* Lane masks as per-lane arrays, written so that the compiler vectorises
 * the expansion with baseline SSE2 (a variable shift per lane, m >> i,
 * needs AVX2; an AND with a constant vector of lane bits and a compare
 * does not). */
#ifndef VT_SIM_LANES_H
#define VT_SIM_LANES_H
#include <stdint.h>

#include "vt/sim.h"

/* bit i of a lane mask, by lane */
static const uint32_t vt_lane_bit[VT_MAX_LANES] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
    1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};

/* 1 when lane i of m is set, else 0 */
#define VT_LANE_SET(m, i) ((uint32_t)(((m) & vt_lane_bit[i]) != 0))
#endif
