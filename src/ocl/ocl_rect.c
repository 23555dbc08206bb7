/* Rectangular buffer commands (OpenCL 1.2 section 5.2.2):
 * clEnqueueReadBufferRect, clEnqueueWriteBufferRect, clEnqueueCopyBufferRect.
 * A region is region[2] slices of region[1] rows of region[0] bytes; a row
 * pitch of 0 means region[0], a slice pitch of 0 means region[1] rows. The
 * command copies row by row. */
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"
#include "ocl_transfer.h"

/* Normalise and check one side's pitches. */
static bool pitches(const size_t *region, size_t *row, size_t *slice) {
  if (*row > (1ull << 32) || *slice > (1ull << 62)) return false; /* no overflow below */
  if (*row == 0) *row = region[0];
  else if (*row < region[0]) return false;
  if (*slice == 0) *slice = region[1] * *row;
  else if (*slice < region[1] * *row || *slice % *row) return false;
  return true;
}

static size_t offset_of(const size_t *origin, size_t row, size_t slice) {
  return origin[2] * slice + origin[1] * row + origin[0];
}

/* Bytes from the first byte of the region to one past its last byte. */
static size_t extent(const size_t *region, size_t row, size_t slice) {
  return (region[2] - 1) * slice + (region[1] - 1) * row + region[0];
}

static bool region_ok(const size_t *region) {
  return region && region[0] && region[1] && region[2] && region[0] <= (1u << 30) &&
         region[1] <= (1u << 30) && region[2] <= (1u << 30);
}

/* Buffers hold at most 2^30 bytes, so larger origins and pitches are out of
 * bounds anyway; bounding them keeps the offset arithmetic below 2^63. */
static bool fits(cl_mem m, const size_t *origin, const size_t *region, size_t row, size_t slice) {
  if (origin[0] > (1u << 30) || origin[1] > (1u << 30) || origin[2] > (1u << 30) ||
      row > (1ull << 32) || slice > (1ull << 32))
    return false;
  size_t off = offset_of(origin, row, slice), ext = extent(region, row, slice);
  return off <= m->size && ext <= m->size - off;
}

/* Overlap of two regions of one buffer with the same pitches: the
 * check_copy_overlap algorithm of the OpenCL 1.2 specification (appendix). */
static bool same_buffer_overlap(const size_t *so, const size_t *dof, const size_t *region,
                                size_t row, size_t slice) {
  size_t slice_size = (region[1] - 1) * row + region[0];
  size_t block = (region[2] - 1) * slice + slice_size;
  size_t src_start = offset_of(so, row, slice), dst_start = offset_of(dof, row, slice);
  if (dst_start + block <= src_start || src_start + block <= dst_start) return false;
  size_t sdx = so[0] % row, ddx = dof[0] % row;
  if ((ddx >= sdx + region[0] && ddx + region[0] <= sdx + row) ||
      (sdx >= ddx + region[0] && sdx + region[0] <= ddx + row))
    return false;
  size_t sdy = (so[1] * row + so[0]) % slice, ddy = (dof[1] * row + dof[0]) % slice;
  if ((ddy >= sdy + slice_size && ddy + slice_size <= sdy + slice) ||
      (sdy >= ddy + slice_size && sdy + slice_size <= ddy + slice))
    return false;
  return true;
}

static cl_int run_rect(cl_command_queue q, vtcl_cmd *c, cl_event ev) {
  (void)ev;
  const size_t *bo = c->rect[0], *ho = c->rect[1], *region = c->rect[2];
  bool copy = c->mem2 != NULL, to_device = copy || c->ptr == NULL;
  uint8_t *tmp = copy ? malloc(region[0]) : NULL;
  if (copy && !tmp) return CL_OUT_OF_HOST_MEMORY;
  cl_int st = CL_COMPLETE;
  for (size_t z = 0; z < region[2] && st == CL_COMPLETE; z++)
    for (size_t y = 0; y < region[1] && st == CL_COMPLETE; y++) {
      size_t b = offset_of(bo, c->pitch[0], c->pitch[1]) + z * c->pitch[1] + y * c->pitch[0];
      size_t h = offset_of(ho, c->pitch[2], c->pitch[3]) + z * c->pitch[3] + y * c->pitch[2];
      if (copy) {
        st = vtcl_device_copy(q->ctx, "clEnqueueCopyBufferRect", false, vtcl_mem_addr(c->mem, b),
                              tmp, region[0]);
        if (st == CL_COMPLETE)
          st = vtcl_device_copy(q->ctx, "clEnqueueCopyBufferRect", true,
                                vtcl_mem_addr(c->mem2, h), tmp, region[0]);
      } else {
        uint8_t *host = (uint8_t *)(to_device ? c->host_src : c->ptr) + h;
        st = vtcl_device_copy(q->ctx, to_device ? "clEnqueueWriteBufferRect"
                                                : "clEnqueueReadBufferRect",
                              to_device, vtcl_mem_addr(c->mem, b), host, region[0]);
      }
    }
  free(tmp);
  return st;
}

static cl_int host_rect(cl_command_queue q, cl_mem m, bool blocking, const size_t *bo,
                        const size_t *ho, const size_t *region, size_t brow, size_t bslice,
                        size_t hrow, size_t hslice, void *ptr, cl_uint nwait,
                        const cl_event *wait, cl_event *event, bool write) {
  cl_int err = vtcl_check_target(q, m);
  if (err == CL_SUCCESS) err = vtcl_check_wait_list(q->ctx, nwait, wait);
  if (err != CL_SUCCESS) return err;
  if (!ptr || !bo || !ho || !region_ok(region) || !pitches(region, &brow, &bslice) ||
      !pitches(region, &hrow, &hslice) || !fits(m, bo, region, brow, bslice))
    return CL_INVALID_VALUE;
  if ((err = vtcl_check_host_access(m, !write, write)) != CL_SUCCESS) return err;
  vtcl_cmd *c = vtcl_cmd_new(run_rect);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  vtcl_cmd_set_mem(c, m, NULL);
  memcpy(c->rect[0], bo, sizeof c->rect[0]);
  memcpy(c->rect[1], ho, sizeof c->rect[1]);
  memcpy(c->rect[2], region, sizeof c->rect[2]);
  c->pitch[0] = brow;
  c->pitch[1] = bslice;
  c->pitch[2] = hrow;
  c->pitch[3] = hslice;
  if (write) c->host_src = ptr; /* c->ptr == NULL marks a write */
  else c->ptr = ptr;
  return vtcl_enqueue(q, write ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT, c,
                      nwait, wait, event, blocking);
}

cl_int CL_API_CALL vtcl_EnqueueReadBufferRect(
    cl_command_queue q, cl_mem buffer, cl_bool blocking_read, const size_t *buffer_origin,
    const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
    size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return host_rect(q, buffer, blocking_read, buffer_origin, host_origin, region,
                   buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                   num_events_in_wait_list, event_wait_list, event, false);
}

cl_int CL_API_CALL vtcl_EnqueueWriteBufferRect(
    cl_command_queue q, cl_mem buffer, cl_bool blocking_write, const size_t *buffer_origin,
    const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
    size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return host_rect(q, buffer, blocking_write, buffer_origin, host_origin, region,
                   buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                   (void *)(uintptr_t)ptr, num_events_in_wait_list, event_wait_list, event, true);
}

cl_int CL_API_CALL vtcl_EnqueueCopyBufferRect(
    cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
    const size_t *dst_origin, const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
    size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  cl_int err = vtcl_check_target(q, src);
  if (err == CL_SUCCESS) err = vtcl_check_target(q, dst);
  if (err == CL_SUCCESS)
    err = vtcl_check_wait_list(q->ctx, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  if (!src_origin || !dst_origin || !region_ok(region) ||
      !pitches(region, &src_row_pitch, &src_slice_pitch) ||
      !pitches(region, &dst_row_pitch, &dst_slice_pitch) ||
      !fits(src, src_origin, region, src_row_pitch, src_slice_pitch) ||
      !fits(dst, dst_origin, region, dst_row_pitch, dst_slice_pitch))
    return CL_INVALID_VALUE;
  if (src == dst && (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch))
    return CL_INVALID_VALUE;
  if (src == dst ? same_buffer_overlap(src_origin, dst_origin, region, src_row_pitch,
                                       src_slice_pitch)
                 : vtcl_ranges_overlap(src, offset_of(src_origin, src_row_pitch, src_slice_pitch),
                                       extent(region, src_row_pitch, src_slice_pitch), dst,
                                       offset_of(dst_origin, dst_row_pitch, dst_slice_pitch),
                                       extent(region, dst_row_pitch, dst_slice_pitch)))
    return CL_MEM_COPY_OVERLAP; /* sub-buffers of one parent: their byte spans */
  vtcl_cmd *c = vtcl_cmd_new(run_rect);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  vtcl_cmd_set_mem(c, src, dst);
  memcpy(c->rect[0], src_origin, sizeof c->rect[0]);
  memcpy(c->rect[1], dst_origin, sizeof c->rect[1]);
  memcpy(c->rect[2], region, sizeof c->rect[2]);
  c->pitch[0] = src_row_pitch;
  c->pitch[1] = src_slice_pitch;
  c->pitch[2] = dst_row_pitch;
  c->pitch[3] = dst_slice_pitch;
  return vtcl_enqueue(q, CL_COMMAND_COPY_BUFFER_RECT, c, num_events_in_wait_list,
                      event_wait_list, event, false);
}
