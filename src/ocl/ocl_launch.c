/* clEnqueueNDRangeKernel and clEnqueueTask: the checks of OpenCL 1.2
 * section 5.8 in the order the error codes are listed, a snapshot of the
 * arguments (later clSetKernelArg calls do not change an enqueued launch),
 * and the launch through the runtime (vt_rt_launch). Profiling times of a
 * launch come from the simulator: START is when the device can start it,
 * END = START + the simulated cycles at the device clock when the timing
 * model is on (VT_TIMING), else + the simulator's own run time. */
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"

/* The argument buffer size the arguments pack into (docs/runtime.md). */
static uint32_t packed_size(const vtcl_arg *args, unsigned n) {
  uint32_t off = 0;
  for (unsigned i = 0; i < n; i++) {
    uint32_t size = args[i].kind == VTCL_ARG_VALUE ? args[i].size : 4, align = 4;
    while (align < size) align <<= 1;
    off = (off + align - 1) / align * align + size;
  }
  return off;
}

/* With argument information every argument must be set; without, the
 * arguments are 0 .. the highest index set, and they must fill the bytes
 * the kernel is seen to read (the derived count assumes 4-byte arguments,
 * so it is not a requirement: one long fills two 4-byte slots). */
static cl_int check_args(cl_kernel k) { /* ctx locked */
  unsigned n = k->info ? k->info->nargs : k->nargs;
  for (unsigned i = 0; i < n; i++)
    if (i >= k->nargs || k->args[i].kind == VTCL_ARG_UNSET) {
      vtcl_notify(k->prog->ctx, false, "kernel '%s': argument %u is not set", k->name, i);
      return CL_INVALID_KERNEL_ARGS;
    }
  uint32_t have = packed_size(k->args, n);
  if (!k->info && have < k->derived_extent) {
    vtcl_notify(k->prog->ctx, false,
                "kernel '%s' reads %u bytes of arguments; the arguments set fill %u "
                "(docs/opencl.md \"Programs without argument information\")",
                k->name, k->derived_extent, have);
    return CL_INVALID_KERNEL_ARGS;
  }
  return CL_SUCCESS;
}

static cl_int check_geometry(const vtcl_device_props *d, cl_uint dims, const size_t *offset,
                             const size_t *global, const size_t *local) {
  if (dims < 1 || dims > 3) return CL_INVALID_WORK_DIMENSION;
  if (!global) return CL_INVALID_GLOBAL_WORK_SIZE;
  for (cl_uint i = 0; i < dims; i++)
    if (global[i] == 0 || global[i] > 0xffffffffu) return CL_INVALID_GLOBAL_WORK_SIZE;
  for (cl_uint i = 0; offset && i < dims; i++)
    if (offset[i] > 0xffffffffu - global[i]) return CL_INVALID_GLOBAL_OFFSET;
  if (!local) return CL_SUCCESS;
  size_t items = 1;
  for (cl_uint i = 0; i < dims; i++) {
    if (local[i] == 0 || global[i] % local[i]) return CL_INVALID_WORK_GROUP_SIZE;
    if (local[i] > d->max_group) return CL_INVALID_WORK_ITEM_SIZE;
    items *= local[i];
  }
  return items > d->max_group ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS;
}

/* Set the runtime kernel's arguments from a snapshot (ctx locked). */
static int apply_args(cl_kernel k, const vtcl_arg *args, unsigned n) {
  int rc = 0;
  for (unsigned i = 0; i < n && rc == 0; i++) {
    const vtcl_arg *a = &args[i];
    if (a->kind == VTCL_ARG_BUFFER)
      rc = a->mem ? vt_rt_set_arg_buffer(k->rtk, i, a->mem->addr, (uint32_t)a->mem->origin)
                  : vt_rt_set_arg_buffer(k->rtk, i, 0, 0);
    else if (a->kind == VTCL_ARG_LOCAL)
      rc = vt_rt_set_arg_local(k->rtk, i, a->size);
    else
      rc = vt_rt_set_arg_scalar(k->rtk, i, a->bytes, a->size);
  }
  return rc;
}

/* Simulated nanoseconds of the device so far: cycles at the clock with
 * the timing model, else the simulator's host time. */
static cl_ulong device_ns(vt_rt *rt) {
  uint64_t cycles = 0;
  int timed = 0;
  if (vt_rt_timing_cycles(rt, &cycles, &timed) == 0 && timed)
    return (cl_ulong)(cycles * 1000u / VTCL_CLOCK_MHZ);
  return (cl_ulong)(vt_rt_counter(rt, VT_C_host_seconds) * 1e9);
}

static cl_int run_launch(cl_command_queue q, vtcl_cmd *c, cl_event ev) {
  cl_context ctx = q->ctx;
  cl_kernel k = c->kernel;
  if (apply_args(k, c->args, c->nargs) != 0) {
    vtcl_notify(ctx, true, "clEnqueueNDRangeKernel: %s", vt_rt_error(ctx->rt));
    return CL_INVALID_KERNEL_ARGS;
  }
  cl_ulong before = ev->profiled ? device_ns(ctx->rt) : 0;
  if (vt_rt_launch(k->rtk, &c->nd, NULL) != 0) {
    vtcl_notify(ctx, true, "%s", vt_rt_error(ctx->rt));
    return CL_OUT_OF_RESOURCES;
  }
  if (ev->profiled) {
    cl_ulong after = device_ns(ctx->rt);
    ev->t_end = ev->t_start + (after > before ? after - before : 0);
  }
  return CL_COMPLETE;
}

/* Copy the kernel's arguments into c, retaining their buffers (ctx locked). */
static cl_int snapshot(cl_kernel k, vtcl_cmd *c) {
  unsigned n = k->info ? k->info->nargs : k->nargs;
  c->args = calloc(n ? n : 1, sizeof *c->args);
  if (!c->args) return CL_OUT_OF_HOST_MEMORY;
  for (unsigned i = 0; i < n; i++) {
    vtcl_arg a = k->args[i];
    if (a.bytes && !(a.bytes = malloc(a.size))) return CL_OUT_OF_HOST_MEMORY;
    if (a.bytes) memcpy(a.bytes, k->args[i].bytes, a.size);
    if (a.mem) vtcl_mem_retain(a.mem);
    c->args[i] = a;
    c->nargs = i + 1;
  }
  return CL_SUCCESS;
}

/* Argument and geometry checks that need the runtime (local memory, warp
 * slots), with the snapshot applied; ctx locked. */
static cl_int plan(cl_kernel k, vtcl_cmd *c) {
  vt_rt_launch_info info;
  if (apply_args(k, c->args, c->nargs) != 0 || vt_rt_plan(k->rtk, &c->nd, &info) != 0) {
    vtcl_notify(k->prog->ctx, false, "clEnqueueNDRangeKernel: %s",
                vt_rt_error(k->prog->ctx->rt));
    return CL_OUT_OF_RESOURCES;
  }
  return CL_SUCCESS;
}

static vtcl_cmd *launch_cmd(cl_kernel k, cl_uint dims, const size_t *offset, const size_t *global,
                            const size_t *local, cl_int *err) {
  vtcl_cmd *c = calloc(1, sizeof *c);
  if (!c) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  c->run = run_launch;
  c->nd.dims = dims;
  for (cl_uint i = 0; i < dims; i++) {
    c->nd.global[i] = (uint32_t)global[i];
    c->nd.local[i] = local ? (uint32_t)local[i] : 0;
    c->nd.offset[i] = offset ? (uint32_t)offset[i] : 0;
  }
  c->kernel = k;
  vtcl_kernel_retain(k);
  cl_context ctx = k->prog->ctx;
  vtcl_lock(ctx);
  *err = check_args(k);
  if (*err == CL_SUCCESS) *err = snapshot(k, c);
  if (*err == CL_SUCCESS) *err = plan(k, c);
  if (*err != CL_SUCCESS) {
    vtcl_cmd_free(ctx, c);
    c = NULL;
  }
  vtcl_unlock(ctx);
  return c;
}

cl_int CL_API_CALL vtcl_EnqueueNDRangeKernel(cl_command_queue q, cl_kernel kernel,
                                             cl_uint work_dim, const size_t *global_work_offset,
                                             const size_t *global_work_size,
                                             const size_t *local_work_size,
                                             cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event) {
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!vtcl_is_kernel(kernel)) return CL_INVALID_KERNEL;
  if (kernel->prog->ctx != q->ctx) return CL_INVALID_CONTEXT;
  cl_int err = check_geometry(vtcl_props(), work_dim, global_work_offset, global_work_size,
                              local_work_size);
  if (err == CL_SUCCESS)
    err = vtcl_check_wait_list(q->ctx, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  vtcl_cmd *c = launch_cmd(kernel, work_dim, global_work_offset, global_work_size,
                           local_work_size, &err);
  if (!c) return err;
  return vtcl_enqueue(q, CL_COMMAND_NDRANGE_KERNEL, c, num_events_in_wait_list,
                      event_wait_list, event, false);
}

cl_int CL_API_CALL vtcl_EnqueueTask(cl_command_queue q, cl_kernel kernel,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event) {
  const size_t one = 1;
  if (!vtcl_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!vtcl_is_kernel(kernel)) return CL_INVALID_KERNEL;
  if (kernel->prog->ctx != q->ctx) return CL_INVALID_CONTEXT;
  cl_int err = vtcl_check_wait_list(q->ctx, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  vtcl_cmd *c = launch_cmd(kernel, 1, NULL, &one, &one, &err);
  if (!c) return err;
  return vtcl_enqueue(q, CL_COMMAND_TASK, c, num_events_in_wait_list, event_wait_list, event,
                      false);
}
