/* Buffers: clCreateBuffer, clCreateSubBuffer, clRetainMemObject,
 * clReleaseMemObject, clGetMemObjectInfo, clSetMemObjectDestructorCallback.
 * A buffer is a vt_rt allocation (device memory of the context's device);
 * a sub-buffer is a window into its parent's allocation. Images are not
 * supported (ocl_stubs.c). */
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"

#define SUB_BUFFER_ALIGN 128u /* CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8 */
#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

bool vtcl_is_mem(cl_mem m) { return m && m->magic == VTCL_MEM; }

bool vtcl_mem_of_context(cl_context ctx, cl_mem m) {
  for (cl_mem p = ctx->mems; p; p = p->next)
    if (p == m) return true;
  return false;
}

void vtcl_mem_retain(cl_mem m) { atomic_fetch_add(&m->refs, 1); }

/* Not with the context locked. */
void vtcl_mem_release(cl_mem m) {
  if (atomic_fetch_sub(&m->refs, 1) != 1) return;
  cl_context ctx = m->ctx;
  vtcl_lock(ctx);
  for (cl_mem *p = &ctx->mems; *p; p = &(*p)->next)
    if (*p == m) {
      *p = m->next;
      break;
    }
  if (!m->parent) vt_rt_free(ctx->rt, m->addr);
  while (m->maps) {
    vtcl_mapping *n = m->maps->next;
    if (m->maps->owned) free(m->maps->ptr);
    free(m->maps);
    m->maps = n;
  }
  /* newest first: the reverse order of registration, as 5.4.1 asks */
  for (vtcl_mem_cb *cb = m->destructors; cb; cb = cb->next)
    vtcl_defer_mem_cb(ctx, cb->fn, m, cb->user);
  m->magic = VTCL_DEAD;
  vtcl_unlock(ctx); /* runs the destructor callbacks */
  while (m->destructors) {
    vtcl_mem_cb *n = m->destructors->next;
    free(m->destructors);
    m->destructors = n;
  }
  cl_mem parent = m->parent;
  free(m);
  if (parent) vtcl_mem_release(parent);
  vtcl_context_release(ctx);
}

static cl_int check_flags(cl_mem_flags f) {
  const cl_mem_flags known = ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS;
  if (f & ~known) return CL_INVALID_VALUE;
  cl_mem_flags a = f & ACCESS_FLAGS, h = f & HOST_ACCESS_FLAGS;
  if ((a & (a - 1)) || (h & (h - 1))) return CL_INVALID_VALUE; /* two of one group */
  if ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

static cl_mem mem_new(cl_context ctx, cl_mem_flags flags, size_t size) {
  cl_mem m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->dispatch = &vtcl_dispatch;
  m->magic = VTCL_MEM;
  atomic_init(&m->refs, 1);
  m->ctx = ctx;
  m->flags = flags;
  m->size = size;
  return m;
}

static void link_mem(cl_context ctx, cl_mem m) { /* ctx locked */
  m->next = ctx->mems;
  ctx->mems = m;
  vtcl_context_retain(ctx);
}

cl_mem CL_API_CALL vtcl_CreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                     void *host_ptr, cl_int *errcode_ret) {
  cl_int dummy, err = CL_SUCCESS;
  if (!errcode_ret) errcode_ret = &dummy;
  bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (!vtcl_is_context(context)) err = CL_INVALID_CONTEXT;
  else if (check_flags(flags) != CL_SUCCESS) err = CL_INVALID_VALUE;
  else if (size == 0 || size > VT_ADDR_BUFFER_SIZE / 4) err = CL_INVALID_BUFFER_SIZE;
  else if (wants_ptr != (host_ptr != NULL)) err = CL_INVALID_HOST_PTR;
  *errcode_ret = err;
  if (err != CL_SUCCESS) return NULL;
  cl_mem m = mem_new(context, flags, size);
  if (!m) {
    *errcode_ret = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  if (flags & CL_MEM_USE_HOST_PTR) m->host_ptr = host_ptr;
  vtcl_lock(context);
  if (vt_rt_alloc(context->rt, size, &m->addr) != 0) {
    vtcl_notify(context, false, "clCreateBuffer: %s", vt_rt_error(context->rt));
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
  } else if (wants_ptr && vt_rt_write(context->rt, m->addr, host_ptr, size) != 0) {
    vtcl_notify(context, false, "clCreateBuffer: %s", vt_rt_error(context->rt));
    vt_rt_free(context->rt, m->addr);
    err = CL_OUT_OF_RESOURCES;
  }
  if (err == CL_SUCCESS) link_mem(context, m);
  vtcl_unlock(context);
  *errcode_ret = err;
  if (err != CL_SUCCESS) {
    free(m);
    return NULL;
  }
  return m;
}

/* Flags of a sub-buffer: the parent's where none are given; no access the
 * parent forbids; no host pointer flags (5.2.1). */
static cl_int sub_flags(cl_mem parent, cl_mem_flags *f) {
  cl_mem_flags pf = parent->flags, a = *f & ACCESS_FLAGS, h = *f & HOST_ACCESS_FLAGS;
  if (check_flags(*f) != CL_SUCCESS || (*f & HOST_PTR_FLAGS)) return CL_INVALID_VALUE;
  if (((pf & CL_MEM_WRITE_ONLY) && (a & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((pf & CL_MEM_READ_ONLY) && (a & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))))
    return CL_INVALID_VALUE;
  if (((pf & CL_MEM_HOST_WRITE_ONLY) && (h & CL_MEM_HOST_READ_ONLY)) ||
      ((pf & CL_MEM_HOST_READ_ONLY) && (h & CL_MEM_HOST_WRITE_ONLY)) ||
      ((pf & CL_MEM_HOST_NO_ACCESS) && (h & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return CL_INVALID_VALUE;
  if (!a) *f |= pf & ACCESS_FLAGS;
  if (!h) *f |= pf & HOST_ACCESS_FLAGS;
  *f |= pf & HOST_PTR_FLAGS;
  return CL_SUCCESS;
}

cl_mem CL_API_CALL vtcl_CreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                        cl_buffer_create_type buffer_create_type,
                                        const void *buffer_create_info, cl_int *errcode_ret) {
  cl_int dummy, err = CL_SUCCESS;
  if (!errcode_ret) errcode_ret = &dummy;
  const cl_buffer_region *r = buffer_create_info;
  if (!vtcl_is_mem(buffer) || buffer->parent) err = CL_INVALID_MEM_OBJECT;
  else if (sub_flags(buffer, &flags) != CL_SUCCESS) err = CL_INVALID_VALUE;
  else if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !r) err = CL_INVALID_VALUE;
  else if (r->size == 0) err = CL_INVALID_BUFFER_SIZE;
  else if (r->origin > buffer->size || r->size > buffer->size - r->origin) err = CL_INVALID_VALUE;
  else if (r->origin % SUB_BUFFER_ALIGN) err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
  *errcode_ret = err;
  if (err != CL_SUCCESS) return NULL;
  cl_mem m = mem_new(buffer->ctx, flags, r->size);
  if (!m) {
    *errcode_ret = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  m->parent = buffer;
  m->origin = r->origin;
  m->addr = buffer->addr;
  if (buffer->host_ptr) m->host_ptr = (uint8_t *)buffer->host_ptr + r->origin;
  vtcl_mem_retain(buffer);
  vtcl_lock(buffer->ctx);
  link_mem(buffer->ctx, m);
  vtcl_unlock(buffer->ctx);
  return m;
}

cl_int CL_API_CALL vtcl_RetainMemObject(cl_mem memobj) {
  if (!vtcl_is_mem(memobj)) return CL_INVALID_MEM_OBJECT;
  vtcl_mem_retain(memobj);
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_ReleaseMemObject(cl_mem memobj) {
  if (!vtcl_is_mem(memobj)) return CL_INVALID_MEM_OBJECT;
  vtcl_mem_release(memobj);
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_GetMemObjectInfo(cl_mem m, cl_mem_info param_name,
                                         size_t param_value_size, void *param_value,
                                         size_t *param_value_size_ret) {
  if (!vtcl_is_mem(m)) return CL_INVALID_MEM_OBJECT;
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  cl_uint u;
  switch (param_name) {
  case CL_MEM_TYPE: return VTCL_INFO(type);
  case CL_MEM_FLAGS: return VTCL_INFO(m->flags);
  case CL_MEM_SIZE: return VTCL_INFO(m->size);
  case CL_MEM_HOST_PTR: return VTCL_INFO(m->host_ptr);
  case CL_MEM_MAP_COUNT:
    vtcl_lock(m->ctx);
    u = m->map_count;
    vtcl_unlock(m->ctx);
    return VTCL_INFO(u);
  case CL_MEM_REFERENCE_COUNT:
    u = atomic_load(&m->refs);
    return VTCL_INFO(u);
  case CL_MEM_CONTEXT: return VTCL_INFO(m->ctx);
  case CL_MEM_ASSOCIATED_MEMOBJECT: return VTCL_INFO(m->parent);
  case CL_MEM_OFFSET: return VTCL_INFO(m->origin);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL vtcl_SetMemObjectDestructorCallback(cl_mem memobj,
                                                       void(CL_CALLBACK *pfn_notify)(cl_mem,
                                                                                     void *),
                                                       void *user_data) {
  if (!vtcl_is_mem(memobj)) return CL_INVALID_MEM_OBJECT;
  if (!pfn_notify) return CL_INVALID_VALUE;
  vtcl_mem_cb *cb = calloc(1, sizeof *cb);
  if (!cb) return CL_OUT_OF_HOST_MEMORY;
  cb->fn = pfn_notify;
  cb->user = user_data;
  vtcl_lock(memobj->ctx);
  cb->next = memobj->destructors;
  memobj->destructors = cb;
  vtcl_unlock(memobj->ctx);
  return CL_SUCCESS;
}
