/* The drop-in for the official driver library: libspike_driver.so with
 * the official library's functions and prototypes (spike_driver.h), on
 * the driver of libvt (driver_core.h), for the pocl Ventus device and any
 * other program written for the official library (docs/driver.md
 * "Drop-in for the official library").
 *
 * It behaves as libvt's driver (include/ventus.h: first-fit buffers whose
 * addresses are reused, copies checked, one buffer freed by vt_buf_free,
 * host writes into the local-memory window accepted) except where a caller
 * of the official library relies on the official behaviour:
 * - vt_ready_wait waits until every started launch has ended, whatever
 *   its timeout: the official library has run the launch inside vt_start
 *   and pocl waits 1000 ms after each launch (host-stack.md 2.7 step J).
 *   A launch is bounded by the device settings VT_TIMEOUT and VT_MAX_INSNS.
 * - A kernel trap (or a launch stopped by those limits) is reported as the
 *   official library reports it, by a 0 from vt_ready_wait (its start-up
 *   code turns a trap into the kernel's end, host-stack.md 1.6), and with
 *   vt's message on standard error.
 * - vt_finish_all_kernel takes the official std::queue<int> * and leaves
 *   it untouched, as the official spike backend does.
 * The reason of every -1 goes to standard error too: the official
 * interface has no vt_last_error. */
#include <stdint.h>
#include <stdio.h>

#include "../driver_core.h"
#include "spike_driver.h"

#define PREFIX "libspike_driver (vt): "

/* 0 stays 0; -1 is reported on standard error */
static int reported(int rc) {
  if (rc != 0) fprintf(stderr, PREFIX "%s\n", vtd_last_error());
  return rc;
}

int vt_dev_open(vt_device_h *hdevice) { return reported(vtd_dev_open(hdevice)); }

int vt_dev_close(vt_device_h hdevice) { return reported(vtd_dev_close(hdevice)); }

int vt_dev_caps(vt_device_h *hdevice, uint64_t caps_id, uint64_t *value) {
  return reported(vtd_dev_caps(hdevice, caps_id, value));
}

int vt_root_mem_alloc(vt_device_h hdevice, int taskID) {
  return reported(vtd_root_mem_alloc(hdevice, taskID));
}

int vt_root_mem_free(vt_device_h hdevice, int taskID) {
  return reported(vtd_root_mem_free(hdevice, taskID));
}

int vt_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, int BUF_TYPE,
                 uint64_t taskID, uint64_t kernelID) {
  (void)kernelID;
  return reported(vtd_buf_alloc(hdevice, size, vaddr, BUF_TYPE, taskID));
}

/* exactly the buffer at *vaddr (the official spike backend freed every
 * buffer: host-stack.md 1.6) */
int vt_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                uint64_t kernelID) {
  (void)size, (void)taskID, (void)kernelID;
  return reported(vtd_one_buf_free(hdevice, vaddr, "vt_buf_free"));
}

int vt_one_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                    uint64_t kernelID) {
  (void)size, (void)taskID, (void)kernelID;
  return reported(vtd_one_buf_free(hdevice, vaddr, "vt_one_buf_free"));
}

int vt_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void *src, uint64_t size,
                   uint64_t taskID, uint64_t kernelID) {
  (void)kernelID;
  return reported(vtd_copy_to_dev(hdevice, dev_vaddr, src, size, taskID));
}

int vt_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void *dst, uint64_t size,
                     uint64_t taskID, uint64_t kernelID) {
  (void)kernelID;
  return reported(vtd_copy_from_dev(hdevice, dev_vaddr, dst, size, taskID));
}

int vt_upload_kernel_file(vt_device_h hdevice, const char *filename, int taskID) {
  return reported(vtd_upload_kernel_file(hdevice, filename, taskID));
}

int vt_start(vt_device_h hdevice, void *metaData, uint64_t taskID) {
  return reported(vtd_start(hdevice, metaData, taskID));
}

/* Waits for every started launch; a failed launch is written on standard
 * error and, as the official library, not an error. */
static int wait_all(vt_device_h hdevice, const char *fn) {
  bool launch_failed;
  if (vtd_wait(hdevice, UINT64_MAX, fn, &launch_failed) == 0) return 0;
  fprintf(stderr, PREFIX "%s\n", vtd_last_error());
  return launch_failed ? 0 : -1;
}

int vt_ready_wait(vt_device_h hdevice, uint64_t timeout) {
  (void)timeout; /* not a limit: see the top of the file */
  return wait_all(hdevice, "vt_ready_wait");
}

int vt_finish_all_kernel(vt_device_h hdevice, void *finished_kernel_list) {
  (void)finished_kernel_list;
  int rc = wait_all(hdevice, "vt_finish_all_kernel");
  if (rc == 0) vtd_take_finished(hdevice, NULL, 0); /* dropped: the list stays as given */
  return rc;
}
