/* In-order command queues and command execution.
 *
 * A command runs as soon as the commands before it in its queue and the
 * events in its wait list have completed: normally at once, in the thread
 * that enqueues it. A command that waits for a user event (or for a
 * command that does) stays pending; setting the user event's status runs
 * it and what follows, in the thread that sets it. So every command runs
 * with the context locked, in queue order, exactly once. */
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"

bool vtcl_is_queue(cl_command_queue q) { return q && q->magic == VTCL_QUEUE; }

void vtcl_queue_retain(cl_command_queue q) { atomic_fetch_add(&q->refs, 1); }

/* Not with the context locked. Pending commands hold references, so a
 * released queue has none. */
void vtcl_queue_release(cl_command_queue q) {
  if (atomic_fetch_sub(&q->refs, 1) != 1) return;
  cl_context ctx = q->ctx;
  vtcl_lock(ctx);
  for (cl_command_queue *p = &ctx->queues; *p; p = &(*p)->next)
    if (*p == q) {
      *p = q->next;
      break;
    }
  vtcl_unlock(ctx);
  q->magic = VTCL_DEAD;
  free(q);
  vtcl_context_release(ctx);
}

static cl_command_queue queue_new(cl_context ctx, cl_device_id dev,
                                  cl_command_queue_properties props, cl_int *err) {
  if (!vtcl_is_context(ctx)) {
    *err = CL_INVALID_CONTEXT;
    return NULL;
  }
  if (!vtcl_is_device(dev)) {
    *err = CL_INVALID_DEVICE;
    return NULL;
  }
  if (props & ~(cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                             CL_QUEUE_PROFILING_ENABLE)) {
    *err = CL_INVALID_VALUE;
    return NULL;
  }
  if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
    *err = CL_INVALID_QUEUE_PROPERTIES; /* in-order queues only */
    return NULL;
  }
  cl_command_queue q = calloc(1, sizeof *q);
  if (!q) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  q->dispatch = &vtcl_dispatch;
  q->magic = VTCL_QUEUE;
  atomic_init(&q->refs, 1);
  q->ctx = ctx;
  q->props = props;
  vtcl_context_retain(ctx);
  vtcl_lock(ctx);
  q->next = ctx->queues;
  ctx->queues = q;
  vtcl_unlock(ctx);
  *err = CL_SUCCESS;
  return q;
}

cl_command_queue CL_API_CALL vtcl_CreateCommandQueue(cl_context context, cl_device_id device,
                                                     cl_command_queue_properties properties,
                                                     cl_int *errcode_ret) {
  cl_int dummy;
  return queue_new(context, device, properties, errcode_ret ? errcode_ret : &dummy);
}

/* The OpenCL 2.0 form, for applications that prefer it: CL_QUEUE_PROPERTIES
 * only (no on-device queues). */
cl_command_queue CL_API_CALL vtcl_CreateCommandQueueWithProperties(
    cl_context context, cl_device_id device, const cl_queue_properties *properties,
    cl_int *errcode_ret) {
  cl_int dummy;
  if (!errcode_ret) errcode_ret = &dummy;
  cl_command_queue_properties props = 0;
  for (size_t i = 0; properties && properties[i]; i += 2) {
    if (properties[i] != CL_QUEUE_PROPERTIES || i > 8) {
      *errcode_ret = properties[i] == CL_QUEUE_SIZE ? CL_INVALID_QUEUE_PROPERTIES
                                                    : CL_INVALID_VALUE;
      return NULL;
    }
    props = (cl_command_queue_properties)properties[i + 1];
  }
  return queue_new(context, device, props, errcode_ret);
}

cl_int CL_API_CALL vtcl_RetainCommandQueue(cl_command_queue q) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  vtcl_queue_retain(q);
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_ReleaseCommandQueue(cl_command_queue q) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  vtcl_queue_release(q);
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_GetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  cl_device_id dev = vtcl_device();
  cl_uint refs;
  switch (param_name) {
  case CL_QUEUE_CONTEXT: return VTCL_INFO(q->ctx);
  case CL_QUEUE_DEVICE: return VTCL_INFO(dev);
  case CL_QUEUE_REFERENCE_COUNT:
    refs = atomic_load(&q->refs);
    return VTCL_INFO(refs);
  case CL_QUEUE_PROPERTIES: return VTCL_INFO(q->props);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL vtcl_Flush(cl_command_queue q) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  vtcl_lock(q->ctx);
  vtcl_progress(q->ctx);
  vtcl_unlock(q->ctx);
  return CL_SUCCESS;
}

/* Waits for the queue's commands; one that waits for a user event that is
 * never set waits forever, as the specification says. */
cl_int CL_API_CALL vtcl_Finish(cl_command_queue q) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  cl_context ctx = q->ctx;
  vtcl_lock(ctx);
  vtcl_progress(ctx);
  while (q->head) pthread_cond_wait(&ctx->cond, &ctx->lock);
  vtcl_unlock(ctx);
  return CL_SUCCESS;
}

cl_int vtcl_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list) {
  if ((n == 0) != (list == NULL)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; i++) {
    if (!vtcl_is_event(list[i])) return CL_INVALID_EVENT_WAIT_LIST;
    if (list[i]->ctx != ctx) return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

void vtcl_cmd_free(cl_context ctx, vtcl_cmd *c) {
  if (!c) return;
  if (c->unmap && c->map) { /* an unmap that never ran still ends the mapping */
    c->mem->map_count--;
    if (c->map->owned) free(c->map->ptr);
    free(c->map);
  }
  vtcl_defer_release(ctx, VTCL_REL_MEM, c->mem);
  vtcl_defer_release(ctx, VTCL_REL_MEM, c->mem2);
  vtcl_defer_release(ctx, VTCL_REL_KERNEL, c->kernel);
  for (unsigned i = 0; i < c->nargs; i++) {
    vtcl_defer_release(ctx, VTCL_REL_MEM, c->args[i].mem);
    free(c->args[i].bytes);
  }
  free(c->args);
  free(c);
}

/* 1: every waited-for event completed, 0: some still pending, -1: one failed */
static int wait_state(cl_event e) {
  int state = 1;
  for (cl_uint i = 0; i < e->nwait; i++) {
    if (e->wait[i]->status < 0) return -1;
    if (e->wait[i]->status > CL_COMPLETE) state = 0;
  }
  return state;
}

static void run_head(cl_command_queue q, cl_event e, int state) {
  cl_context ctx = q->ctx;
  q->head = e->next;
  if (!q->head) q->tail = NULL;
  e->next = NULL;
  cl_int status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (state > 0) {
    e->t_submit = vtcl_now_ns();
    vtcl_event_set_status(e, CL_SUBMITTED);
    e->t_start = e->t_submit > q->device_time ? e->t_submit : q->device_time;
    vtcl_event_set_status(e, CL_RUNNING);
    status = e->cmd && e->cmd->run ? e->cmd->run(q, e->cmd, e) : CL_COMPLETE;
    cl_ulong now = vtcl_now_ns();
    if (!e->t_end) e->t_end = now > e->t_start ? now : e->t_start;
    q->device_time = e->t_end;
  }
  vtcl_cmd_free(ctx, e->cmd);
  e->cmd = NULL;
  vtcl_event_set_status(e, status);
  vtcl_defer_release(ctx, VTCL_REL_EVENT, e); /* the pending list's reference */
}

void vtcl_progress(cl_context ctx) {
  bool moved = true;
  while (moved) { /* a completed command may unblock another queue's head */
    moved = false;
    for (cl_command_queue q = ctx->queues; q; q = q->next) {
      while (q->head) {
        int state = wait_state(q->head);
        if (state == 0) break;
        run_head(q, q->head, state);
        moved = true;
      }
    }
  }
}

cl_int vtcl_enqueue(cl_command_queue q, cl_command_type type, vtcl_cmd *c, cl_uint nwait,
                    const cl_event *wait, cl_event *out, bool blocking) {
  cl_context ctx = q->ctx;
  cl_event e = vtcl_event_new(ctx, q, type);
  cl_event *w = nwait ? malloc(nwait * sizeof *w) : NULL;
  if (!e || (nwait && !w)) {
    free(w);
    vtcl_lock(ctx);
    vtcl_cmd_free(ctx, c);
    vtcl_unlock(ctx);
    if (e) vtcl_event_release(e);
    return CL_OUT_OF_HOST_MEMORY;
  }
  for (cl_uint i = 0; i < nwait; i++) {
    w[i] = wait[i];
    vtcl_event_retain(w[i]);
  }
  e->wait = w;
  e->nwait = nwait;
  e->cmd = c;
  vtcl_event_retain(e); /* the pending list's reference */
  vtcl_lock(ctx);
  if (q->tail) q->tail->next = e;
  else q->head = e;
  q->tail = e;
  vtcl_progress(ctx);
  cl_int rc = CL_SUCCESS;
  if (blocking) {
    while (e->status > CL_COMPLETE) pthread_cond_wait(&ctx->cond, &ctx->lock);
    if (e->status < 0) rc = e->status;
  }
  vtcl_unlock(ctx);
  if (out && rc == CL_SUCCESS) *out = e; /* a failed call returns no event */
  else vtcl_event_release(e);
  return rc;
}
