/* vt/knl.h - the kernel metadata (KNL) buffer of a launch, the 32-bit words
 * at CSR_KNL (formats-and-launch.md 3): what the driver and the test-vector
 * loader read from it. */
#ifndef VT_KNL_H
#define VT_KNL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VT_KNL_WORK_DIM 2   /* word index: work_dim */
#define VT_KNL_GLOBAL_SIZE 3 /* words 3..5: global size x, y, z */
#define VT_KNL_LOCAL_SIZE 6  /* words 6..8: local size x, y, z */
#define VT_KNL_GEOMETRY_BYTES 36 /* words 0..8 */

/* Work-items per workgroup that the KNL words 0..8 (little-endian bytes,
 * n >= VT_KNL_GEOMETRY_BYTES) describe for a launch of W warps of T
 * threads: the product of the three local sizes when it agrees with
 * W = ceil(items / T), i.e. (W - 1) * T < items <= W * T; otherwise 0
 * ("every lane", vt_launch.wg_threads), since then the words are not this
 * launch's local sizes (hand-written cases, old pocl versions). */
uint32_t vt_knl_wg_threads(const uint8_t *knl, size_t n, unsigned threads_per_warp,
                           unsigned warps_per_wg);

#ifdef __cplusplus
}
#endif
#endif
