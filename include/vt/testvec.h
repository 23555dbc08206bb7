/* vt/testvec.h - the official test-vector format: NAME.metadata (launch
 * descriptor as 64-bit fields, two hex lines each, low half first; three
 * layout variants) and NAME.data (initial buffer contents, one 32-bit word
 * per line). formats-and-launch.md sections 2 and 12. */
#ifndef VT_TESTVEC_H
#define VT_TESTVEC_H

#include <stddef.h>
#include <stdint.h>

#include "vt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vt_tv_buffer {
  uint32_t base, size, alloc;
  size_t data_offset; /* into vt_testvec.data */
} vt_tv_buffer;

typedef enum vt_tv_variant {
  VT_TV_CURRENT = 1, /* start_pc first, allocation sizes present */
  VT_TV_OLD = 2,     /* no start_pc */
  VT_TV_OLDEST = 3   /* no start_pc, no allocation sizes */
} vt_tv_variant;

typedef struct vt_testvec {
  vt_tv_variant variant;
  uint32_t start_pc;
  uint32_t num_wg[3];
  uint32_t wf_size, wg_size; /* threads per warp, warps per workgroup */
  uint32_t knl, lds_size, pds_size, sgpr_usage, vgpr_usage, pds_base;
  unsigned nbuf;
  vt_tv_buffer *bufs;
  uint8_t *data; /* all .data words, little-endian bytes */
  size_t data_len;
} vt_testvec;

/* Parse a .metadata file and its .data file (data_path NULL: NAME.data
 * beside the metadata). Errors name the file and line. */
int vt_testvec_load(const char *metadata_path, const char *data_path, vt_testvec **out,
                    vt_error *err);
/* Same from memory (names used in messages). */
int vt_testvec_parse(const char *meta_text, size_t meta_len, const char *meta_name,
                     const char *data_text, size_t data_len, const char *data_name,
                     vt_testvec **out, vt_error *err);
void vt_testvec_free(vt_testvec *tv);

/* Map every buffer on the device, write the initial contents and fill the
 * launch description. */
int vt_testvec_apply(vt_device *dev, const vt_testvec *tv, vt_launch *launch, vt_error *err);

#ifdef __cplusplus
}
#endif
#endif
