/* clEnqueueMapBuffer and clEnqueueUnmapMemObject. A mapping is host
 * memory: the buffer's host_ptr region for CL_MEM_USE_HOST_PTR buffers
 * (5.4.3: the pointer derives from host_ptr), otherwise a fresh
 * allocation. Mapping copies the device contents in (unless
 * CL_MAP_WRITE_INVALIDATE_REGION); unmapping a mapping made for writing
 * copies them back. */
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"
#include "ocl_transfer.h"

static cl_int run_map(cl_command_queue q, vtcl_cmd *c, cl_event ev) {
  (void)ev;
  if (c->map->flags & CL_MAP_WRITE_INVALIDATE_REGION) return CL_COMPLETE;
  return vtcl_device_copy(q->ctx, "clEnqueueMapBuffer", false, vtcl_mem_addr(c->mem, c->off),
                          c->map->ptr, c->size);
}

static cl_int run_unmap(cl_command_queue q, vtcl_cmd *c, cl_event ev) {
  (void)ev;
  vtcl_mapping *m = c->map;
  cl_int st = CL_COMPLETE;
  if (m->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    st = vtcl_device_copy(q->ctx, "clEnqueueUnmapMemObject", true,
                          vtcl_mem_addr(c->mem, m->offset), m->ptr, m->size);
  c->mem->map_count--;
  if (m->owned) free(m->ptr);
  free(m);
  c->map = NULL;
  return st;
}

static cl_int check_map(cl_command_queue q, cl_mem m, cl_map_flags flags, size_t offset,
                        size_t size) {
  const cl_map_flags all = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  cl_int err = vtcl_check_target(q, m);
  if (err != CL_SUCCESS) return err;
  if ((flags & ~all) ||
      ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))) ||
      !vtcl_in_bounds(m, offset, size))
    return CL_INVALID_VALUE;
  bool read = flags & CL_MAP_READ, write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
  return vtcl_check_host_access(m, read || !flags, write);
}

void *CL_API_CALL vtcl_EnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking_map,
                                        cl_map_flags map_flags, size_t offset, size_t size,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event,
                                        cl_int *errcode_ret) {
  cl_int dummy;
  if (!errcode_ret) errcode_ret = &dummy;
  cl_int err = check_map(q, buffer, map_flags, offset, size);
  if (err == CL_SUCCESS)
    err = vtcl_check_wait_list(q->ctx, num_events_in_wait_list, event_wait_list);
  *errcode_ret = err;
  if (err != CL_SUCCESS) return NULL;
  vtcl_mapping *m = calloc(1, sizeof *m);
  vtcl_cmd *c = vtcl_cmd_new(run_map);
  if (m && buffer->host_ptr) m->ptr = (uint8_t *)buffer->host_ptr + offset;
  else if (m && (m->ptr = malloc(size))) m->owned = true;
  if (!m || !c || !m->ptr) {
    free(c);
    if (m && m->owned) free(m->ptr);
    free(m);
    *errcode_ret = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  m->offset = offset;
  m->size = size;
  m->flags = map_flags;
  vtcl_cmd_set_mem(c, buffer, NULL);
  c->off = offset;
  c->size = size;
  c->map = m;
  void *ptr = m->ptr;
  vtcl_lock(q->ctx);
  m->next = buffer->maps;
  buffer->maps = m;
  buffer->map_count++;
  vtcl_unlock(q->ctx);
  err = vtcl_enqueue(q, CL_COMMAND_MAP_BUFFER, c, num_events_in_wait_list, event_wait_list,
                     event, blocking_map);
  *errcode_ret = err;
  return err == CL_SUCCESS ? ptr : NULL;
}

cl_int CL_API_CALL vtcl_EnqueueUnmapMemObject(cl_command_queue q, cl_mem memobj, void *mapped_ptr,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  cl_int err = vtcl_check_target(q, memobj);
  if (err == CL_SUCCESS)
    err = vtcl_check_wait_list(q->ctx, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  vtcl_cmd *c = vtcl_cmd_new(run_unmap);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  vtcl_lock(q->ctx);
  vtcl_mapping **p = &memobj->maps;
  while (*p && (*p)->ptr != mapped_ptr) p = &(*p)->next;
  vtcl_mapping *m = *p;
  if (m) *p = m->next; /* a second unmap of the pointer finds nothing */
  vtcl_unlock(q->ctx);
  if (!m) {
    free(c);
    return CL_INVALID_VALUE;
  }
  vtcl_cmd_set_mem(c, memobj, NULL);
  c->map = m;
  c->unmap = true;
  return vtcl_enqueue(q, CL_COMMAND_UNMAP_MEM_OBJECT, c, num_events_in_wait_list,
                      event_wait_list, event, false);
}
