/* libvt's vt_* driver API (include/ventus.h): the official names and
 * argument meanings on the driver's implementations (driver_internal.h).
 * The kernel ids (kernelID) select nothing; the context ids (taskID) select
 * the context's address space with the MMU on (docs/memory.md) and nothing
 * with it off, when vt has one address space per device (docs/driver.md). The drop-in library defines
 * the same names with the official library's behaviour instead
 * (src/driver/dropin), so this file is not part of it. */
#include "driver_internal.h"

int vt_dev_open(vt_device_h *hdevice) { return vtd_dev_open(hdevice); }

int vt_dev_close(vt_device_h hdevice) { return vtd_dev_close(hdevice); }

int vt_dev_caps(vt_device_h *hdevice, uint64_t caps_id, uint64_t *value) {
  return vtd_dev_caps(hdevice, caps_id, value);
}

int vt_root_mem_alloc(vt_device_h hdevice, int taskID) {
  return vtd_root_mem_alloc(hdevice, taskID);
}

int vt_root_mem_free(vt_device_h hdevice, int taskID) { return vtd_root_mem_free(hdevice, taskID); }

int vt_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, int BUF_TYPE,
                 uint64_t taskID, uint64_t kernelID) {
  (void)kernelID;
  return vtd_buf_alloc(hdevice, size, vaddr, BUF_TYPE, taskID);
}

/* host-stack.md 1.6: frees exactly the buffer at *vaddr (the official spike
 * backend freed every buffer) */
int vt_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                uint64_t kernelID) {
  (void)size, (void)taskID, (void)kernelID;
  return vtd_one_buf_free(hdevice, vaddr, "vt_buf_free");
}

int vt_one_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                    uint64_t kernelID) {
  (void)size, (void)taskID, (void)kernelID;
  return vtd_one_buf_free(hdevice, vaddr, "vt_one_buf_free");
}

int vt_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void *src, uint64_t size,
                   uint64_t taskID, uint64_t kernelID) {
  (void)kernelID;
  return vtd_copy_to_dev(hdevice, dev_vaddr, src, size, taskID);
}

int vt_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void *dst, uint64_t size,
                     uint64_t taskID, uint64_t kernelID) {
  (void)kernelID;
  return vtd_copy_from_dev(hdevice, dev_vaddr, dst, size, taskID);
}

int vt_upload_kernel_file(vt_device_h hdevice, const char *filename, int taskID) {
  return vtd_upload_kernel_file(hdevice, filename, taskID);
}

int vt_upload_kernel_bytes(vt_device_h hdevice, const void *content, uint64_t size, int taskID) {
  return vtd_upload_kernel_bytes(hdevice, content, size, taskID);
}

int vt_start(vt_device_h hdevice, void *metaData, uint64_t taskID) {
  return vtd_start(hdevice, metaData, taskID);
}

int vt_ready_wait(vt_device_h hdevice, uint64_t timeout) {
  return vtd_wait(hdevice, timeout, "vt_ready_wait", NULL);
}

int vt_finish_all_kernel(vt_device_h hdevice, int *finished, int capacity, int *count) {
  if (!vtd_lookup(hdevice, "vt_finish_all_kernel")) return -1;
  if (capacity < 0 || (capacity > 0 && !finished))
    return vtd_fail("vt_finish_all_kernel: bad buffer");
  int rc = vtd_wait(hdevice, MAX_TIMEOUT, "vt_finish_all_kernel", NULL);
  int n = vtd_take_finished(hdevice, finished, capacity);
  if (count) *count = n < 0 ? 0 : n;
  return rc;
}

int vt_dump_perf(vt_device_h hdevice, FILE *stream) { return vtd_dump_perf(hdevice, stream); }
