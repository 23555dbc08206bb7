/* Helpers shared by the buffer commands (ocl_transfer.c, ocl_rect.c,
 * ocl_map.c, ocl_sync.c). */
#ifndef VT_OCL_TRANSFER_H
#define VT_OCL_TRANSFER_H

#include "ocl_internal.h"

/* Device address of byte 'offset' of a buffer or sub-buffer. */
uint32_t vtcl_mem_addr(cl_mem m, size_t offset);
/* Queue and buffer valid and of one context: the error code or CL_SUCCESS. */
cl_int vtcl_check_target(cl_command_queue q, cl_mem m);
/* CL_MEM_HOST_* flags allow the host to read / write? */
cl_int vtcl_check_host_access(cl_mem m, bool read, bool write);
/* 0 < size and [offset, offset + size) inside the buffer */
bool vtcl_in_bounds(cl_mem m, size_t offset, size_t size);
bool vtcl_ranges_overlap(cl_mem a, size_t ao, size_t an, cl_mem b, size_t bo, size_t bn);
vtcl_cmd *vtcl_cmd_new(vtcl_run_fn run);
/* c->mem = a, c->mem2 = b, retained */
void vtcl_cmd_set_mem(vtcl_cmd *c, cl_mem a, cl_mem b);
/* One copy between the host and the device: CL_COMPLETE, or
 * CL_OUT_OF_RESOURCES after notifying the runtime's message. */
cl_int vtcl_device_copy(cl_context ctx, const char *what, bool to_device, uint32_t addr,
                        void *host, size_t n);
#endif
