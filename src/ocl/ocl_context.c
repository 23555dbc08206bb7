/* Contexts: clCreateContext, clCreateContextFromType, clRetainContext,
 * clReleaseContext, clGetContextInfo; the context lock and the callbacks
 * that run after it is released (user code never runs under the lock, so
 * callbacks may call the API). Each context owns one vt runtime (vt_rt)
 * on its own simulated device. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"

enum { CB_EVENT, CB_MEM, CB_PROGRAM, CB_NOTIFY, CB_RELEASE };

struct vtcl_callback {
  vtcl_callback *next;
  int kind;
  void *user;
  cl_int status;
  void *object; /* cl_event / cl_program (retained), cl_mem (deleted), message */
  void(CL_CALLBACK *event_fn)(cl_event, cl_int, void *);
  void(CL_CALLBACK *mem_fn)(cl_mem, void *);
  void(CL_CALLBACK *program_fn)(cl_program, void *);
  int release_kind; /* CB_RELEASE: VTCL_REL_* */
};

bool vtcl_is_context(cl_context c) { return c && c->magic == VTCL_CONTEXT; }

void vtcl_lock(cl_context ctx) { pthread_mutex_lock(&ctx->lock); }

static void release(int kind, void *object) {
  switch (kind) {
  case VTCL_REL_EVENT: vtcl_event_release(object); break;
  case VTCL_REL_MEM: vtcl_mem_release(object); break;
  case VTCL_REL_KERNEL: vtcl_kernel_release(object); break;
  case VTCL_REL_QUEUE: vtcl_queue_release(object); break;
  }
}

static void run_callback(vtcl_callback *cb) {
  switch (cb->kind) {
  case CB_EVENT:
    cb->event_fn((cl_event)cb->object, cb->status, cb->user);
    vtcl_event_release((cl_event)cb->object);
    break;
  case CB_MEM: cb->mem_fn((cl_mem)cb->object, cb->user); break;
  case CB_PROGRAM:
    cb->program_fn((cl_program)cb->object, cb->user);
    vtcl_program_release((cl_program)cb->object);
    break;
  case CB_RELEASE: release(cb->release_kind, cb->object); break;
  }
}

/* The callbacks are taken while the lock is held and run after it is
 * released; those queued later are run by whoever queued them. The
 * context stays alive meanwhile: a queued callback's object holds it. */
void vtcl_unlock(cl_context ctx) {
  vtcl_callback *list = ctx->callbacks, *rev = NULL;
  ctx->callbacks = NULL;
  void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *) = ctx->notify;
  void *notify_user = ctx->notify_user;
  pthread_mutex_unlock(&ctx->lock);
  while (list) { /* queued newest first: restore the order */
    vtcl_callback *n = list->next;
    list->next = rev;
    rev = list;
    list = n;
  }
  while (rev) {
    vtcl_callback *n = rev->next;
    if (rev->kind == CB_NOTIFY) { /* the context may be gone after other callbacks */
      notify((const char *)rev->object, NULL, 0, notify_user);
      free(rev->object);
    } else {
      run_callback(rev);
    }
    free(rev);
    rev = n;
  }
}

static void defer(cl_context ctx, vtcl_callback *cb) {
  cb->next = ctx->callbacks;
  ctx->callbacks = cb;
}

void vtcl_defer_event_cb(cl_context ctx, void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
                         cl_event ev, cl_int status, void *user) {
  vtcl_callback *cb = calloc(1, sizeof *cb);
  if (!cb) return;
  vtcl_event_retain(ev);
  cb->kind = CB_EVENT;
  cb->event_fn = fn;
  cb->object = ev;
  cb->status = status;
  cb->user = user;
  defer(ctx, cb);
}

void vtcl_defer_mem_cb(cl_context ctx, void(CL_CALLBACK *fn)(cl_mem, void *), cl_mem mem,
                       void *user) {
  vtcl_callback *cb = calloc(1, sizeof *cb);
  if (!cb) return;
  cb->kind = CB_MEM;
  cb->mem_fn = fn;
  cb->object = mem;
  cb->user = user;
  defer(ctx, cb);
}

void vtcl_defer_program_cb(cl_context ctx, void(CL_CALLBACK *fn)(cl_program, void *),
                           cl_program prog, void *user) {
  vtcl_callback *cb = calloc(1, sizeof *cb);
  if (!cb) return;
  vtcl_program_retain(prog);
  cb->kind = CB_PROGRAM;
  cb->program_fn = fn;
  cb->object = prog;
  cb->user = user;
  defer(ctx, cb);
}

void vtcl_defer_release(cl_context ctx, int kind, void *object) {
  if (!object) return;
  vtcl_callback *cb = calloc(1, sizeof *cb);
  if (!cb) { /* cannot defer: leak rather than deadlock on the held lock */
    return;
  }
  cb->kind = CB_RELEASE;
  cb->release_kind = kind;
  cb->object = object;
  defer(ctx, cb);
}

void vtcl_notify(cl_context ctx, bool execution, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!ctx->notify) {
    if (execution) fprintf(stderr, "vt OpenCL: %s\n", msg);
    return;
  }
  vtcl_callback *cb = calloc(1, sizeof *cb);
  if (!cb || !(cb->object = vtcl_strdup(msg))) {
    free(cb);
    return;
  }
  cb->kind = CB_NOTIFY;
  defer(ctx, cb);
}

void vtcl_context_retain(cl_context ctx) { atomic_fetch_add(&ctx->refs, 1); }

void vtcl_context_release(cl_context ctx) {
  if (atomic_fetch_sub(&ctx->refs, 1) != 1) return;
  vt_rt_destroy(ctx->rt);
  pthread_mutex_destroy(&ctx->lock);
  pthread_cond_destroy(&ctx->cond);
  free(ctx->props);
  ctx->magic = VTCL_DEAD;
  free(ctx);
}

/* Properties: CL_CONTEXT_PLATFORM (this platform) and
 * CL_CONTEXT_INTEROP_USER_SYNC, each at most once. */
static cl_int check_properties(const cl_context_properties *p, size_t *n) {
  bool platform = false, sync = false;
  size_t i = 0;
  for (; p && p[i]; i += 2) {
    if (p[i] == CL_CONTEXT_PLATFORM && !platform) {
      if ((cl_platform_id)p[i + 1] != vtcl_platform()) return CL_INVALID_PLATFORM;
      platform = true;
    } else if (p[i] == CL_CONTEXT_INTEROP_USER_SYNC && !sync) {
      sync = true;
    } else {
      return CL_INVALID_PROPERTY;
    }
    if (i > 64) return CL_INVALID_PROPERTY;
  }
  *n = p ? i + 1 : 0;
  return CL_SUCCESS;
}

static cl_context context_new(const cl_context_properties *properties, size_t nprops,
                              void(CL_CALLBACK *notify)(const char *, const void *, size_t,
                                                        void *),
                              void *user, cl_int *err) {
  if (!vtcl_props()->ok) {
    *err = CL_DEVICE_NOT_AVAILABLE;
    return NULL;
  }
  cl_context ctx = calloc(1, sizeof *ctx);
  if (!ctx || (nprops && !(ctx->props = malloc(nprops * sizeof *ctx->props)))) {
    free(ctx);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  char msg[512];
  if (vt_rt_create(NULL, &ctx->rt, msg, sizeof msg) != 0) {
    if (notify) notify(msg, NULL, 0, user);
    free(ctx->props);
    free(ctx);
    *err = CL_OUT_OF_RESOURCES;
    return NULL;
  }
  if (nprops) memcpy(ctx->props, properties, nprops * sizeof *ctx->props);
  ctx->nprops = nprops;
  ctx->dispatch = &vtcl_dispatch;
  ctx->magic = VTCL_CONTEXT;
  atomic_init(&ctx->refs, 1);
  pthread_mutex_init(&ctx->lock, NULL);
  pthread_cond_init(&ctx->cond, NULL);
  ctx->notify = notify;
  ctx->notify_user = user;
  *err = CL_SUCCESS;
  return ctx;
}

cl_context CL_API_CALL vtcl_CreateContext(
    const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *), void *user_data,
    cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS, dummy;
  if (!errcode_ret) errcode_ret = &dummy;
  size_t nprops = 0;
  if (!num_devices || !devices || (!pfn_notify && user_data)) err = CL_INVALID_VALUE;
  for (cl_uint i = 0; err == CL_SUCCESS && i < num_devices; i++)
    if (!vtcl_is_device(devices[i])) err = CL_INVALID_DEVICE;
  if (err == CL_SUCCESS) err = check_properties(properties, &nprops);
  *errcode_ret = err;
  if (err != CL_SUCCESS) return NULL;
  return context_new(properties, nprops, pfn_notify, user_data, errcode_ret);
}

cl_context CL_API_CALL vtcl_CreateContextFromType(
    const cl_context_properties *properties, cl_device_type device_type,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *), void *user_data,
    cl_int *errcode_ret) {
  cl_int dummy;
  if (!errcode_ret) errcode_ret = &dummy;
  cl_uint n = 0;
  cl_device_id dev;
  size_t nprops = 0;
  cl_int err = !pfn_notify && user_data ? CL_INVALID_VALUE
                                        : check_properties(properties, &nprops);
  if (err == CL_SUCCESS) err = vtcl_GetDeviceIDs(NULL, device_type, 1, &dev, &n);
  *errcode_ret = err;
  if (err != CL_SUCCESS) return NULL;
  return context_new(properties, nprops, pfn_notify, user_data, errcode_ret);
}

cl_int CL_API_CALL vtcl_RetainContext(cl_context context) {
  if (!vtcl_is_context(context)) return CL_INVALID_CONTEXT;
  vtcl_context_retain(context);
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_ReleaseContext(cl_context context) {
  if (!vtcl_is_context(context)) return CL_INVALID_CONTEXT;
  vtcl_context_release(context);
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_GetContextInfo(cl_context context, cl_context_info param_name,
                                       size_t param_value_size, void *param_value,
                                       size_t *param_value_size_ret) {
  if (!vtcl_is_context(context)) return CL_INVALID_CONTEXT;
  cl_uint u;
  cl_device_id dev = vtcl_device();
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT:
    u = atomic_load(&context->refs);
    return VTCL_INFO(u);
  case CL_CONTEXT_NUM_DEVICES:
    u = 1;
    return VTCL_INFO(u);
  case CL_CONTEXT_DEVICES: return VTCL_INFO(dev);
  case CL_CONTEXT_PROPERTIES:
    return vtcl_info(context->props, context->nprops * sizeof *context->props, param_value_size,
                     param_value, param_value_size_ret);
  default: return CL_INVALID_VALUE;
  }
}
