/* ventus.h - the Ventus hardware-driver API (`vt_*`), with the names and
 * argument meanings of the official ventus-driver (host-stack.md 1), as a
 * plain C header, backed by the vt simulator. Differences from the official
 * backends (host-stack.md 1.6): vt_buf_free frees exactly one buffer, copies
 * outside the size asked for at vt_buf_alloc fail (writes into the
 * local-memory window are accepted and applied nowhere, docs/driver.md),
 * vt_start is asynchronous (a worker thread runs the device) and
 * vt_ready_wait honours its timeout, kernel traps are reported as errors,
 * unknown handles and double frees are errors.
 *
 * Return convention: 0 on success, -1 on error (as the official API);
 * vt_last_error() says why. */
#ifndef VENTUS_H
#define VENTUS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void *vt_device_h;
typedef void *vt_buffer_h;

/* capability ids for vt_dev_caps */
#define VT_CAPS_VERSION 0
#define VT_CAPS_MAX_CORES 1
#define VT_CAPS_MAX_WARPS 2
#define VT_CAPS_MAX_THREADS 3
#define VT_CAPS_CACHE_LINE_SIZE 4
#define VT_CAPS_LOCAL_MEM_SIZE 5
#define VT_CAPS_ALLOC_BASE_ADDR 6
#define VT_CAPS_KERNEL_BASE_ADDR 7

#define MAX_TIMEOUT (60 * 60 * 1000) /* ms */

/* buffer types (accepted, all behave as READ_WRITE) */
#define READ_WRITE 0
#define READ_ONLY 1
#define KERNEL_MEM 2

/* The 96-byte launch descriptor of vt_start (host-stack.md 1.3): twelve
 * little-endian uint64_t fields. */
typedef struct vt_launch_meta {
  uint64_t kernel_id;
  uint64_t kernel_size[3];   /* workgroups in x, y, z */
  uint64_t wf_size;          /* threads per warp */
  uint64_t wg_size;          /* warps per workgroup */
  uint64_t metaDataBaseAddr; /* kernel metadata buffer: CSR_KNL */
  uint64_t ldsSize;          /* local memory per workgroup (bytes) */
  uint64_t pdsSize;          /* private memory per thread (bytes) */
  uint64_t sgprUsage;
  uint64_t vgprUsage;
  uint64_t pdsBaseAddr;
} vt_launch_meta;

int vt_dev_open(vt_device_h *hdevice);
int vt_dev_close(vt_device_h hdevice);
int vt_dev_caps(vt_device_h *hdevice, uint64_t caps_id, uint64_t *value);

int vt_root_mem_alloc(vt_device_h hdevice, int taskID);
int vt_root_mem_free(vt_device_h hdevice, int taskID);

int vt_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, int BUF_TYPE,
                 uint64_t taskID, uint64_t kernelID);
int vt_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                uint64_t kernelID);
int vt_one_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                    uint64_t kernelID);

int vt_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void *src, uint64_t size,
                   uint64_t taskID, uint64_t kernelID);
int vt_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void *dst, uint64_t size,
                     uint64_t taskID, uint64_t kernelID);

int vt_upload_kernel_file(vt_device_h hdevice, const char *filename, int taskID);
int vt_upload_kernel_bytes(vt_device_h hdevice, const void *content, uint64_t size, int taskID);

/* metaData points to a vt_launch_meta (96 bytes). Returns once the launch is
 * queued; the device runs it in its worker thread. */
int vt_start(vt_device_h hdevice, void *metaData, uint64_t taskID);
/* Waits until every started launch has finished, at most timeout ms.
 * -1 on timeout or if a launch failed (vt_last_error has the trap). */
int vt_ready_wait(vt_device_h hdevice, uint64_t timeout);
/* C form of the official std::queue<int> signature: waits for everything
 * and stores the ids of finished kernels (kernel_id of each launch, in
 * order) into finished[0..*count), at most 'capacity'. */
int vt_finish_all_kernel(vt_device_h hdevice, int *finished, int capacity, int *count);
/* Writes the run statistics of the device as text. */
int vt_dump_perf(vt_device_h hdevice, FILE *stream);

/* Why the last failing vt_* call of the calling thread failed ("" if none),
 * e.g. the SM/workgroup/warp/PC of a kernel trap. */
const char *vt_last_error(void);

#ifdef __cplusplus
}
#endif
#endif
