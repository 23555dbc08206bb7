/* The interface of the official driver library libspike_driver.so
 * (THU-DSP-LAB/ventus-driver, spike backend; host-stack.md 1.2) as the
 * drop-in exports it: these fourteen functions and nothing else, with the
 * official prototypes, written in C. What the official header declares
 * beyond them (vt_upload_kernel_bytes, vt_dump_perf) the official library
 * does not define, so neither does the drop-in.
 *
 * Return convention: 0 on success, -1 on error (host-stack.md 1.1). The
 * drop-in writes the reason of every -1, and of kernel traps, on standard
 * error (docs/driver.md "Drop-in for the official library"). */
#ifndef VT_SPIKE_DRIVER_H
#define VT_SPIKE_DRIVER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void *vt_device_h;

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
/* metaData: the 96-byte launch descriptor (host-stack.md 1.3) */
int vt_start(vt_device_h hdevice, void *metaData, uint64_t taskID);
int vt_ready_wait(vt_device_h hdevice, uint64_t timeout);
/* finished_kernel_list is a C++ std::queue<int> * in the official header;
 * the official spike backend leaves it untouched, and so does the drop-in */
int vt_finish_all_kernel(vt_device_h hdevice, void *finished_kernel_list);

#ifdef __cplusplus
}
#endif
#endif
