/* Buffer commands: clEnqueueReadBuffer, clEnqueueWriteBuffer,
 * clEnqueueCopyBuffer, clEnqueueFillBuffer and their checks. Rectangles
 * are in ocl_rect.c, maps in ocl_map.c, markers and barriers in
 * ocl_sync.c. Each command copies through the context's runtime
 * (vt_rt_read / vt_rt_write) when it runs. */
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"
#include "ocl_transfer.h"

#define CHUNK (1u << 20) /* bytes per host staging copy */

uint32_t vtcl_mem_addr(cl_mem m, size_t offset) { return m->addr + (uint32_t)(m->origin + offset); }

cl_int vtcl_check_target(cl_command_queue q, cl_mem m) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!vtcl_is_mem(m)) return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

cl_int vtcl_check_host_access(cl_mem m, bool read, bool write) {
  if ((m->flags & CL_MEM_HOST_NO_ACCESS) || (read && (m->flags & CL_MEM_HOST_WRITE_ONLY)) ||
      (write && (m->flags & CL_MEM_HOST_READ_ONLY)))
    return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

bool vtcl_in_bounds(cl_mem m, size_t offset, size_t size) {
  return size && offset <= m->size && size <= m->size - offset;
}

vtcl_cmd *vtcl_cmd_new(vtcl_run_fn run) {
  vtcl_cmd *c = calloc(1, sizeof *c);
  if (c) c->run = run;
  return c;
}

void vtcl_cmd_set_mem(vtcl_cmd *c, cl_mem a, cl_mem b) {
  if (a) vtcl_mem_retain(a);
  if (b) vtcl_mem_retain(b);
  c->mem = a;
  c->mem2 = b;
}

cl_int vtcl_device_copy(cl_context ctx, const char *what, bool to_device, uint32_t addr,
                        void *host, size_t n) {
  int rc = to_device ? vt_rt_write(ctx->rt, addr, host, n) : vt_rt_read(ctx->rt, addr, host, n);
  if (rc == 0) return CL_COMPLETE;
  vtcl_notify(ctx, true, "%s: %s", what, vt_rt_error(ctx->rt));
  return CL_OUT_OF_RESOURCES;
}

static cl_int run_read(cl_command_queue q, vtcl_cmd *c, cl_event ev) {
  (void)ev;
  return vtcl_device_copy(q->ctx, "clEnqueueReadBuffer", false, vtcl_mem_addr(c->mem, c->off),
                          c->ptr, c->size);
}

static cl_int run_write(cl_command_queue q, vtcl_cmd *c, cl_event ev) {
  (void)ev;
  return vtcl_device_copy(q->ctx, "clEnqueueWriteBuffer", true, vtcl_mem_addr(c->mem, c->off),
                          c->ptr, c->size);
}

static cl_int rw(cl_command_queue q, cl_mem m, bool blocking, size_t offset, size_t size,
                 void *ptr, cl_uint nwait, const cl_event *wait, cl_event *event, bool write) {
  cl_int err = vtcl_check_target(q, m);
  if (err == CL_SUCCESS) err = vtcl_check_wait_list(q->ctx, nwait, wait);
  if (err != CL_SUCCESS) return err;
  if (!ptr || !vtcl_in_bounds(m, offset, size)) return CL_INVALID_VALUE;
  if ((err = vtcl_check_host_access(m, !write, write)) != CL_SUCCESS) return err;
  vtcl_cmd *c = vtcl_cmd_new(write ? run_write : run_read);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  vtcl_cmd_set_mem(c, m, NULL);
  c->off = offset;
  c->size = size;
  c->ptr = ptr;
  return vtcl_enqueue(q, write ? CL_COMMAND_WRITE_BUFFER : CL_COMMAND_READ_BUFFER, c, nwait,
                      wait, event, blocking);
}

cl_int CL_API_CALL vtcl_EnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                          size_t offset, size_t size, void *ptr,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  return rw(q, buffer, blocking, offset, size, ptr, num_events_in_wait_list, event_wait_list,
            event, false);
}

cl_int CL_API_CALL vtcl_EnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                           size_t offset, size_t size, const void *ptr,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  return rw(q, buffer, blocking, offset, size, (void *)(uintptr_t)ptr, num_events_in_wait_list,
            event_wait_list, event, true);
}

/* Device to device through a host staging buffer. */
static cl_int run_copy(cl_command_queue q, vtcl_cmd *c, cl_event ev) {
  (void)ev;
  size_t chunk = c->size < CHUNK ? c->size : CHUNK;
  uint8_t *tmp = malloc(chunk);
  if (!tmp) return CL_OUT_OF_HOST_MEMORY;
  cl_int st = CL_COMPLETE;
  for (size_t done = 0; done < c->size && st == CL_COMPLETE; done += chunk) {
    size_t n = c->size - done < chunk ? c->size - done : chunk;
    st = vtcl_device_copy(q->ctx, "clEnqueueCopyBuffer", false,
                          vtcl_mem_addr(c->mem, c->off + done), tmp, n);
    if (st == CL_COMPLETE)
      st = vtcl_device_copy(q->ctx, "clEnqueueCopyBuffer", true,
                            vtcl_mem_addr(c->mem2, c->off2 + done), tmp, n);
  }
  free(tmp);
  return st;
}

/* Do two ranges of buffers (or sub-buffers of one parent) share bytes? */
bool vtcl_ranges_overlap(cl_mem a, size_t ao, size_t an, cl_mem b, size_t bo, size_t bn) {
  cl_mem ra = a->parent ? a->parent : a, rb = b->parent ? b->parent : b;
  if (ra != rb) return false;
  size_t x = a->origin + ao, y = b->origin + bo;
  return x < y + bn && y < x + an;
}

cl_int CL_API_CALL vtcl_EnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                          size_t src_offset, size_t dst_offset, size_t size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  cl_int err = vtcl_check_target(q, src);
  if (err == CL_SUCCESS) err = vtcl_check_target(q, dst);
  if (err == CL_SUCCESS) err = vtcl_check_wait_list(q->ctx, num_events_in_wait_list,
                                                    event_wait_list);
  if (err != CL_SUCCESS) return err;
  if (!vtcl_in_bounds(src, src_offset, size) || !vtcl_in_bounds(dst, dst_offset, size))
    return CL_INVALID_VALUE;
  if (vtcl_ranges_overlap(src, src_offset, size, dst, dst_offset, size))
    return CL_MEM_COPY_OVERLAP;
  vtcl_cmd *c = vtcl_cmd_new(run_copy);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  vtcl_cmd_set_mem(c, src, dst);
  c->off = src_offset;
  c->off2 = dst_offset;
  c->size = size;
  return vtcl_enqueue(q, CL_COMMAND_COPY_BUFFER, c, num_events_in_wait_list, event_wait_list,
                      event, false);
}

static cl_int run_fill(cl_command_queue q, vtcl_cmd *c, cl_event ev) {
  (void)ev;
  size_t chunk = c->size < CHUNK ? c->size : CHUNK; /* a multiple of the pattern size */
  uint8_t *tmp = malloc(chunk);
  if (!tmp) return CL_OUT_OF_HOST_MEMORY;
  for (size_t i = 0; i < chunk; i += c->pattern_size) memcpy(tmp + i, c->pattern, c->pattern_size);
  cl_int st = CL_COMPLETE;
  for (size_t done = 0; done < c->size && st == CL_COMPLETE; done += chunk) {
    size_t n = c->size - done < chunk ? c->size - done : chunk;
    st = vtcl_device_copy(q->ctx, "clEnqueueFillBuffer", true,
                          vtcl_mem_addr(c->mem, c->off + done), tmp, n);
  }
  free(tmp);
  return st;
}

cl_int CL_API_CALL vtcl_EnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void *pattern,
                                          size_t pattern_size, size_t offset, size_t size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  cl_int err = vtcl_check_target(q, buffer);
  if (err == CL_SUCCESS) err = vtcl_check_wait_list(q->ctx, num_events_in_wait_list,
                                                    event_wait_list);
  if (err != CL_SUCCESS) return err;
  bool pow2 = pattern_size && !(pattern_size & (pattern_size - 1));
  if (!pattern || !pow2 || pattern_size > 128 || offset % pattern_size || size % pattern_size ||
      !vtcl_in_bounds(buffer, offset, size))
    return CL_INVALID_VALUE;
  vtcl_cmd *c = vtcl_cmd_new(run_fill);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  vtcl_cmd_set_mem(c, buffer, NULL);
  memcpy(c->pattern, pattern, pattern_size);
  c->pattern_size = pattern_size;
  c->off = offset;
  c->size = size;
  return vtcl_enqueue(q, CL_COMMAND_FILL_BUFFER, c, num_events_in_wait_list, event_wait_list,
                      event, false);
}
