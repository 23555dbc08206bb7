/* Events: creation, status changes with their callbacks, clWaitForEvents,
 * clGetEventInfo, clGetEventProfilingInfo, clSetEventCallback, user
 * events, clRetainEvent, clReleaseEvent. Status and callbacks are guarded
 * by the context lock; waiting uses the context's condition variable. */
#include <stdlib.h>
#include <time.h>

#include "ocl_api.h"

bool vtcl_is_event(cl_event e) { return e && e->magic == VTCL_EVENT; }

cl_ulong vtcl_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

cl_event vtcl_event_new(cl_context ctx, cl_command_queue q, cl_command_type type) {
  cl_event e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->dispatch = &vtcl_dispatch;
  e->magic = VTCL_EVENT;
  atomic_init(&e->refs, 1);
  e->ctx = ctx;
  vtcl_context_retain(ctx);
  e->queue = q;
  if (q) vtcl_queue_retain(q);
  e->type = type;
  e->status = q ? CL_QUEUED : CL_SUBMITTED;
  e->profiled = q && (q->props & CL_QUEUE_PROFILING_ENABLE);
  e->t_queued = vtcl_now_ns();
  return e;
}

void vtcl_event_retain(cl_event e) { atomic_fetch_add(&e->refs, 1); }

/* Not called with the context locked (queue and context release lock it). */
void vtcl_event_release(cl_event e) {
  if (atomic_fetch_sub(&e->refs, 1) != 1) return;
  cl_context ctx = e->ctx;
  if (e->cmd) { /* never ran (its queue went away with it pending) */
    vtcl_lock(ctx);
    vtcl_cmd_free(ctx, e->cmd);
    vtcl_unlock(ctx);
  }
  for (cl_uint i = 0; i < e->nwait; i++) vtcl_event_release(e->wait[i]);
  free(e->wait);
  while (e->callbacks) {
    vtcl_event_cb *n = e->callbacks->next;
    free(e->callbacks);
    e->callbacks = n;
  }
  if (e->queue) vtcl_queue_release(e->queue);
  e->magic = VTCL_DEAD;
  free(e);
  vtcl_context_release(ctx);
}

void vtcl_event_set_status(cl_event e, cl_int status) {
  e->status = status;
  vtcl_event_cb **p = &e->callbacks;
  while (*p) {
    vtcl_event_cb *cb = *p;
    if (status <= cb->when) { /* reached (CL_COMPLETE 0 < CL_RUNNING 1 < CL_SUBMITTED 2) */
      vtcl_defer_event_cb(e->ctx, cb->fn, e, status < 0 ? status : cb->when, cb->user);
      *p = cb->next;
      free(cb);
    } else {
      p = &cb->next;
    }
  }
  pthread_cond_broadcast(&e->ctx->cond);
}

cl_int CL_API_CALL vtcl_WaitForEvents(cl_uint num_events, const cl_event *event_list) {
  if (!num_events || !event_list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; i++) {
    if (!vtcl_is_event(event_list[i])) return CL_INVALID_EVENT;
    if (event_list[i]->ctx != event_list[0]->ctx) return CL_INVALID_CONTEXT;
  }
  cl_context ctx = event_list[0]->ctx;
  bool failed = false;
  vtcl_lock(ctx);
  vtcl_progress(ctx);
  for (cl_uint i = 0; i < num_events; i++) {
    while (event_list[i]->status > CL_COMPLETE) pthread_cond_wait(&ctx->cond, &ctx->lock);
    failed |= event_list[i]->status < 0;
  }
  vtcl_unlock(ctx);
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_GetEventInfo(cl_event event, cl_event_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret) {
  if (!vtcl_is_event(event)) return CL_INVALID_EVENT;
  cl_int status;
  cl_uint refs;
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE: return VTCL_INFO(event->queue);
  case CL_EVENT_CONTEXT: return VTCL_INFO(event->ctx);
  case CL_EVENT_COMMAND_TYPE: return VTCL_INFO(event->type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    vtcl_lock(event->ctx);
    status = event->status;
    vtcl_unlock(event->ctx);
    return VTCL_INFO(status);
  case CL_EVENT_REFERENCE_COUNT:
    refs = atomic_load(&event->refs);
    return VTCL_INFO(refs);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL vtcl_GetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret) {
  if (!vtcl_is_event(event)) return CL_INVALID_EVENT;
  if (param_name != CL_PROFILING_COMMAND_QUEUED && param_name != CL_PROFILING_COMMAND_SUBMIT &&
      param_name != CL_PROFILING_COMMAND_START && param_name != CL_PROFILING_COMMAND_END)
    return CL_INVALID_VALUE;
  vtcl_lock(event->ctx);
  bool done = event->status == CL_COMPLETE;
  cl_ulong t = param_name == CL_PROFILING_COMMAND_QUEUED   ? event->t_queued
               : param_name == CL_PROFILING_COMMAND_SUBMIT ? event->t_submit
               : param_name == CL_PROFILING_COMMAND_START  ? event->t_start
                                                           : event->t_end;
  vtcl_unlock(event->ctx);
  if (!event->profiled || !done) return CL_PROFILING_INFO_NOT_AVAILABLE;
  return VTCL_INFO(t);
}

cl_int CL_API_CALL vtcl_SetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                         void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                                         void *user_data) {
  if (!vtcl_is_event(event)) return CL_INVALID_EVENT;
  if (!pfn_notify || (command_exec_callback_type != CL_COMPLETE &&
                      command_exec_callback_type != CL_RUNNING &&
                      command_exec_callback_type != CL_SUBMITTED))
    return CL_INVALID_VALUE;
  vtcl_event_cb *cb = calloc(1, sizeof *cb);
  if (!cb) return CL_OUT_OF_HOST_MEMORY;
  cb->when = command_exec_callback_type;
  cb->fn = pfn_notify;
  cb->user = user_data;
  cl_context ctx = event->ctx;
  vtcl_lock(ctx);
  if (event->status <= cb->when) { /* already reached: call it now */
    vtcl_defer_event_cb(ctx, pfn_notify, event, event->status < 0 ? event->status : cb->when,
                        user_data);
    free(cb);
  } else {
    cb->next = event->callbacks;
    event->callbacks = cb;
  }
  vtcl_unlock(ctx);
  return CL_SUCCESS;
}

cl_event CL_API_CALL vtcl_CreateUserEvent(cl_context context, cl_int *errcode_ret) {
  cl_int dummy;
  if (!errcode_ret) errcode_ret = &dummy;
  if (!vtcl_is_context(context)) {
    *errcode_ret = CL_INVALID_CONTEXT;
    return NULL;
  }
  cl_event e = vtcl_event_new(context, NULL, CL_COMMAND_USER);
  *errcode_ret = e ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  return e;
}

cl_int CL_API_CALL vtcl_SetUserEventStatus(cl_event event, cl_int execution_status) {
  if (!vtcl_is_event(event) || event->queue) return CL_INVALID_EVENT;
  if (execution_status > CL_COMPLETE) return CL_INVALID_VALUE;
  cl_context ctx = event->ctx;
  vtcl_lock(ctx);
  cl_int rc = CL_SUCCESS;
  if (event->status != CL_SUBMITTED) {
    rc = CL_INVALID_OPERATION; /* already set */
  } else {
    vtcl_event_set_status(event, execution_status);
    vtcl_progress(ctx); /* commands waiting for it may run now */
  }
  vtcl_unlock(ctx);
  return rc;
}

cl_int CL_API_CALL vtcl_RetainEvent(cl_event event) {
  if (!vtcl_is_event(event)) return CL_INVALID_EVENT;
  vtcl_event_retain(event);
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_ReleaseEvent(cl_event event) {
  if (!vtcl_is_event(event)) return CL_INVALID_EVENT;
  vtcl_event_release(event);
  return CL_SUCCESS;
}
