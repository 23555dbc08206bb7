/* Commands without work of their own: markers, barriers, waits and
 * migrations. In an in-order queue each already waits for everything
 * enqueued before it; a wait list adds its events. */
#include "ocl_api.h"
#include "ocl_transfer.h"

static cl_int sync_cmd(cl_command_queue q, cl_command_type type, cl_uint n, const cl_event *list,
                       cl_event *event) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  cl_int err = vtcl_check_wait_list(q->ctx, n, list);
  if (err != CL_SUCCESS) return err;
  return vtcl_enqueue(q, type, NULL, n, list, event, false);
}

cl_int CL_API_CALL vtcl_EnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n,
                                                  const cl_event *list, cl_event *event) {
  return sync_cmd(q, CL_COMMAND_MARKER, n, list, event);
}

cl_int CL_API_CALL vtcl_EnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n,
                                                   const cl_event *list, cl_event *event) {
  return sync_cmd(q, CL_COMMAND_BARRIER, n, list, event);
}

cl_int CL_API_CALL vtcl_EnqueueMarker(cl_command_queue q, cl_event *event) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!event) return CL_INVALID_VALUE;
  return sync_cmd(q, CL_COMMAND_MARKER, 0, NULL, event);
}

cl_int CL_API_CALL vtcl_EnqueueBarrier(cl_command_queue q) {
  return sync_cmd(q, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

/* OpenCL 1.1: a list of events to wait for (CL_INVALID_EVENT for a bad one). */
cl_int CL_API_CALL vtcl_EnqueueWaitForEvents(cl_command_queue q, cl_uint n,
                                             const cl_event *list) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!n || !list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++) {
    if (!vtcl_is_event(list[i])) return CL_INVALID_EVENT;
    if (list[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
  }
  return vtcl_enqueue(q, CL_COMMAND_BARRIER, NULL, n, list, NULL, false);
}

/* There is one device: nothing to move. */
cl_int CL_API_CALL vtcl_EnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_mem_objects,
                                                 const cl_mem *mem_objects,
                                                 cl_mem_migration_flags flags, cl_uint n,
                                                 const cl_event *list, cl_event *event) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!num_mem_objects || !mem_objects ||
      (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                         CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    cl_int err = vtcl_check_target(q, mem_objects[i]);
    if (err != CL_SUCCESS) return err;
  }
  return sync_cmd(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, n, list, event);
}
