/* API entries for what the platform does not support: images, samplers,
 * native kernels, sub-devices, OpenGL/EGL sharing and the OpenCL 2.0+
 * functions (SVM, pipes, ...). The dispatch table needs an entry for each so
 * that calling one never jumps through NULL; each checks its first handle
 * and returns the code the specification gives for a device without the
 * feature (images: CL_INVALID_OPERATION, "no device in the context supports
 * images"; GL: CL_INVALID_CONTEXT, "not created from a GL context"), and
 * CL_INVALID_OPERATION for functions newer than OpenCL 1.2. */
#include "ocl_api.h"

cl_int CL_API_CALL vtcl_SetCommandQueueProperty(cl_command_queue command_queue,
    cl_command_queue_properties properties, cl_bool enable, cl_command_queue_properties
    *old_properties) {
  (void)command_queue; (void)properties; (void)enable; (void)old_properties;
  /* removed in OpenCL 1.1 */
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_OPERATION;
}

cl_mem CL_API_CALL vtcl_CreateImage2D(cl_context context, cl_mem_flags flags, const
    cl_image_format *image_format, size_t image_width, size_t image_height, size_t
    image_row_pitch, void *host_ptr, cl_int *errcode_ret) {
  (void)context; (void)flags; (void)image_format; (void)image_width; (void)image_height;
  (void)image_row_pitch; (void)host_ptr; (void)errcode_ret;
  /* no device of the context supports images */
  if (errcode_ret) *errcode_ret = !vtcl_is_context(context) ? CL_INVALID_CONTEXT
                                 : CL_INVALID_OPERATION;
  return NULL;
}

cl_mem CL_API_CALL vtcl_CreateImage3D(cl_context context, cl_mem_flags flags, const
    cl_image_format *image_format, size_t image_width, size_t image_height, size_t image_depth,
    size_t image_row_pitch, size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  (void)context; (void)flags; (void)image_format; (void)image_width; (void)image_height;
  (void)image_depth; (void)image_row_pitch; (void)image_slice_pitch; (void)host_ptr;
  (void)errcode_ret;
  /* no device of the context supports images */
  if (errcode_ret) *errcode_ret = !vtcl_is_context(context) ? CL_INVALID_CONTEXT
                                 : CL_INVALID_OPERATION;
  return NULL;
}

/* No image formats: a valid query returns none. */
cl_int CL_API_CALL vtcl_GetSupportedImageFormats(cl_context context, cl_mem_flags flags,
    cl_mem_object_type image_type, cl_uint num_entries, cl_image_format *image_formats, cl_uint
    *num_image_formats) {
  (void)flags;
  if (!vtcl_is_context(context)) return CL_INVALID_CONTEXT;
  if ((num_entries == 0 && image_formats) || image_type < CL_MEM_OBJECT_IMAGE2D ||
      image_type > CL_MEM_OBJECT_IMAGE1D_BUFFER)
    return CL_INVALID_VALUE;
  if (num_image_formats) *num_image_formats = 0;
  return CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_GetImageInfo(cl_mem image, cl_image_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret) {
  (void)image; (void)param_name; (void)param_value_size; (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_MEM_OBJECT; /* no image can exist */
}

cl_sampler CL_API_CALL vtcl_CreateSampler(cl_context context, cl_bool normalized_coords,
    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode, cl_int *errcode_ret) {
  (void)context; (void)normalized_coords; (void)addressing_mode; (void)filter_mode;
  (void)errcode_ret;
  /* no device of the context supports images */
  if (errcode_ret) *errcode_ret = !vtcl_is_context(context) ? CL_INVALID_CONTEXT
                                 : CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL vtcl_RetainSampler(cl_sampler sampler) {
  (void)sampler;
  return CL_INVALID_SAMPLER;
}

cl_int CL_API_CALL vtcl_ReleaseSampler(cl_sampler sampler) {
  (void)sampler;
  return CL_INVALID_SAMPLER;
}

cl_int CL_API_CALL vtcl_GetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret) {
  (void)sampler; (void)param_name; (void)param_value_size; (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_SAMPLER;
}

cl_int CL_API_CALL vtcl_EnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool
    blocking_read, const size_t *origin, const size_t *region, size_t row_pitch, size_t
    slice_pitch, void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  (void)command_queue; (void)image; (void)blocking_read; (void)origin; (void)region;
  (void)row_pitch; (void)slice_pitch; (void)ptr; (void)num_events_in_wait_list;
  (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL vtcl_EnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool
    blocking_write, const size_t *origin, const size_t *region, size_t input_row_pitch, size_t
    input_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event) {
  (void)command_queue; (void)image; (void)blocking_write; (void)origin; (void)region;
  (void)input_row_pitch; (void)input_slice_pitch; (void)ptr; (void)num_events_in_wait_list;
  (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL vtcl_EnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem
    dst_image, const size_t *src_origin, const size_t *dst_origin, const size_t *region, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)src_image; (void)dst_image; (void)src_origin; (void)dst_origin;
  (void)region; (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL vtcl_EnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
    cl_mem dst_buffer, const size_t *src_origin, const size_t *region, size_t dst_offset, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)src_image; (void)dst_buffer; (void)src_origin; (void)region;
  (void)dst_offset; (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL vtcl_EnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem
    src_buffer, cl_mem dst_image, size_t src_offset, const size_t *dst_origin, const size_t
    *region, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)src_buffer; (void)dst_image; (void)src_offset; (void)dst_origin;
  (void)region; (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_MEM_OBJECT;
}

void * CL_API_CALL vtcl_EnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool
    blocking_map, cl_map_flags map_flags, const size_t *origin, const size_t *region, size_t
    *image_row_pitch, size_t *image_slice_pitch, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event, cl_int *errcode_ret) {
  (void)command_queue; (void)image; (void)blocking_map; (void)map_flags; (void)origin;
  (void)region; (void)image_row_pitch; (void)image_slice_pitch; (void)num_events_in_wait_list;
  (void)event_wait_list; (void)event; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE
                                 : CL_INVALID_MEM_OBJECT;
  return NULL;
}

cl_int CL_API_CALL vtcl_EnqueueNativeKernel(cl_command_queue command_queue, void (CL_CALLBACK
    *user_func)(void *), void *args, size_t cb_args, cl_uint num_mem_objects, const cl_mem
    *mem_list, const void * *args_mem_loc, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event) {
  (void)command_queue; (void)user_func; (void)args; (void)cb_args; (void)num_mem_objects;
  (void)mem_list; (void)args_mem_loc; (void)num_events_in_wait_list; (void)event_wait_list;
  (void)event;
  /* no CL_EXEC_NATIVE_KERNEL */
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_OPERATION;
}

cl_mem CL_API_CALL vtcl_CreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint
    bufobj, cl_int *errcode_ret) {
  (void)context; (void)flags; (void)bufobj; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT; /* not created from a GL context */
  return NULL;
}

cl_mem CL_API_CALL vtcl_CreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum
    target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret) {
  (void)context; (void)flags; (void)target; (void)miplevel; (void)texture; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

cl_mem CL_API_CALL vtcl_CreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum
    target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret) {
  (void)context; (void)flags; (void)target; (void)miplevel; (void)texture; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

cl_mem CL_API_CALL vtcl_CreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags, cl_GLuint
    renderbuffer, cl_int *errcode_ret) {
  (void)context; (void)flags; (void)renderbuffer; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

cl_int CL_API_CALL vtcl_GetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type,
    cl_GLuint *gl_object_name) {
  (void)memobj; (void)gl_object_type; (void)gl_object_name;
  return CL_INVALID_MEM_OBJECT; /* not a GL object */
}

cl_int CL_API_CALL vtcl_GetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret) {
  (void)memobj; (void)param_name; (void)param_value_size; (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL vtcl_EnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint
    num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event) {
  (void)command_queue; (void)num_objects; (void)mem_objects; (void)num_events_in_wait_list;
  (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_CONTEXT;
}

cl_int CL_API_CALL vtcl_EnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint
    num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event) {
  (void)command_queue; (void)num_objects; (void)mem_objects; (void)num_events_in_wait_list;
  (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_CONTEXT;
}

cl_int CL_API_CALL vtcl_GetGLContextInfoKHR(const cl_context_properties *properties,
    cl_gl_context_info param_name, size_t param_value_size, void *param_value, size_t
    *param_value_size_ret) {
  (void)properties; (void)param_name; (void)param_value_size; (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL vtcl_CreateSubDevicesEXT(cl_device_id in_device, const
    cl_device_partition_property_ext *properties, cl_uint num_entries, cl_device_id *out_devices,
    cl_uint *num_devices) {
  (void)in_device; (void)properties; (void)num_entries; (void)out_devices; (void)num_devices;
  return !vtcl_is_device(in_device) ? CL_INVALID_DEVICE : CL_INVALID_VALUE; /* no partitioning */
}

cl_int CL_API_CALL vtcl_RetainDeviceEXT(cl_device_id device) {
  (void)device;
  return !vtcl_is_device(device) ? CL_INVALID_DEVICE : CL_SUCCESS;
}

cl_int CL_API_CALL vtcl_ReleaseDeviceEXT(cl_device_id device) {
  (void)device;
  return !vtcl_is_device(device) ? CL_INVALID_DEVICE : CL_SUCCESS;
}

cl_event CL_API_CALL vtcl_CreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync, cl_int
    *errcode_ret) {
  (void)context; (void)sync; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

cl_int CL_API_CALL vtcl_CreateSubDevices(cl_device_id in_device, const
    cl_device_partition_property *properties, cl_uint num_devices, cl_device_id *out_devices,
    cl_uint *num_devices_ret) {
  (void)in_device; (void)properties; (void)num_devices; (void)out_devices;
  (void)num_devices_ret;
  /* CL_DEVICE_PARTITION_PROPERTIES is empty */
  return !vtcl_is_device(in_device) ? CL_INVALID_DEVICE : CL_INVALID_VALUE;
}

cl_mem CL_API_CALL vtcl_CreateImage(cl_context context, cl_mem_flags flags, const cl_image_format
    *image_format, const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret) {
  (void)context; (void)flags; (void)image_format; (void)image_desc; (void)host_ptr;
  (void)errcode_ret;
  /* no device of the context supports images */
  if (errcode_ret) *errcode_ret = !vtcl_is_context(context) ? CL_INVALID_CONTEXT
                                 : CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL vtcl_EnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void
    *fill_color, const size_t *origin, const size_t *region, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)image; (void)fill_color; (void)origin; (void)region;
  (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_MEM_OBJECT;
}

cl_mem CL_API_CALL vtcl_CreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum
    target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret) {
  (void)context; (void)flags; (void)target; (void)miplevel; (void)texture; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

cl_mem CL_API_CALL vtcl_CreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR egldisplay,
    CLeglImageKHR eglimage, cl_mem_flags flags, const cl_egl_image_properties_khr *properties,
    cl_int *errcode_ret) {
  (void)context; (void)egldisplay; (void)eglimage; (void)flags; (void)properties;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

cl_int CL_API_CALL vtcl_EnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint
    num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event) {
  (void)command_queue; (void)num_objects; (void)mem_objects; (void)num_events_in_wait_list;
  (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_CONTEXT;
}

cl_int CL_API_CALL vtcl_EnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint
    num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event) {
  (void)command_queue; (void)num_objects; (void)mem_objects; (void)num_events_in_wait_list;
  (void)event_wait_list; (void)event;
  return !vtcl_is_queue(command_queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_CONTEXT;
}

cl_event CL_API_CALL vtcl_CreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync,
    CLeglDisplayKHR display, cl_int *errcode_ret) {
  (void)context; (void)sync; (void)display; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

cl_mem CL_API_CALL vtcl_CreatePipe(cl_context context, cl_mem_flags flags, cl_uint
    pipe_packet_size, cl_uint pipe_max_packets, const cl_pipe_properties *properties, cl_int
    *errcode_ret) {
  (void)context; (void)flags; (void)pipe_packet_size; (void)pipe_max_packets; (void)properties;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
  return NULL;
}

cl_int CL_API_CALL vtcl_GetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  (void)pipe; (void)param_name; (void)param_value_size; (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

void * CL_API_CALL vtcl_SVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint
    alignment) {
  (void)context; (void)flags; (void)size; (void)alignment;
  return NULL;
}

void CL_API_CALL vtcl_SVMFree(cl_context context, void *svm_pointer) {
  (void)context; (void)svm_pointer;
}

cl_int CL_API_CALL vtcl_EnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
    void *svm_pointers[], void (CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint
    num_svm_pointers, void *svm_pointers[], void *user_data), void *user_data, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)num_svm_pointers; (void)svm_pointers; (void)pfn_free_func;
  (void)user_data; (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_EnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
    void *dst_ptr, const void *src_ptr, size_t size, cl_uint num_events_in_wait_list, const
    cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)blocking_copy; (void)dst_ptr; (void)src_ptr; (void)size;
  (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_EnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const
    void *pattern, size_t pattern_size, size_t size, cl_uint num_events_in_wait_list, const
    cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)svm_ptr; (void)pattern; (void)pattern_size; (void)size;
  (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_EnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
    cl_map_flags flags, void *svm_ptr, size_t size, cl_uint num_events_in_wait_list, const
    cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)blocking_map; (void)flags; (void)svm_ptr; (void)size;
  (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_EnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)svm_ptr; (void)num_events_in_wait_list; (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_sampler CL_API_CALL vtcl_CreateSamplerWithProperties(cl_context context, const
    cl_sampler_properties *sampler_properties, cl_int *errcode_ret) {
  (void)context; (void)sampler_properties; (void)errcode_ret;
  /* no device of the context supports images */
  if (errcode_ret) *errcode_ret = !vtcl_is_context(context) ? CL_INVALID_CONTEXT
                                 : CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL vtcl_SetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void
    *arg_value) {
  (void)kernel; (void)arg_index; (void)arg_value;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_SetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t
    param_value_size, const void *param_value) {
  (void)kernel; (void)param_name; (void)param_value_size; (void)param_value;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_GetKernelSubGroupInfoKHR(cl_kernel in_kernel, cl_device_id in_device,
    cl_kernel_sub_group_info param_name, size_t input_value_size, const void *input_value, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret) {
  (void)in_kernel; (void)in_device; (void)param_name; (void)input_value_size; (void)input_value;
  (void)param_value_size; (void)param_value; (void)param_value_size_ret;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_kernel CL_API_CALL vtcl_CloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  (void)source_kernel; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
  return NULL;
}

cl_program CL_API_CALL vtcl_CreateProgramWithIL(cl_context context, const void *il, size_t length,
    cl_int *errcode_ret) {
  (void)context; (void)il; (void)length; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
  return NULL;
}

cl_int CL_API_CALL vtcl_EnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint
    num_svm_pointers, const void * *svm_pointers, const size_t *sizes, cl_mem_migration_flags
    flags, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  (void)command_queue; (void)num_svm_pointers; (void)svm_pointers; (void)sizes; (void)flags;
  (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_GetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
    cl_ulong *host_timestamp) {
  (void)device; (void)device_timestamp; (void)host_timestamp;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_GetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
  (void)device; (void)host_timestamp;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_GetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
    cl_kernel_sub_group_info param_name, size_t input_value_size, const void *input_value, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret) {
  (void)kernel; (void)device; (void)param_name; (void)input_value_size; (void)input_value;
  (void)param_value_size; (void)param_value; (void)param_value_size_ret;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_SetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
    cl_command_queue command_queue) {
  (void)context; (void)device; (void)command_queue;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_SetProgramReleaseCallback(cl_program program, void (CL_CALLBACK
    *pfn_notify)(cl_program program, void *user_data), void *user_data) {
  (void)program; (void)pfn_notify; (void)user_data;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_int CL_API_CALL vtcl_SetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
    size_t spec_size, const void *spec_value) {
  (void)program; (void)spec_id; (void)spec_size; (void)spec_value;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}

cl_mem CL_API_CALL vtcl_CreateBufferWithProperties(cl_context context, const cl_mem_properties
    *properties, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret) {
  (void)context; (void)properties; (void)flags; (void)size; (void)host_ptr; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
  return NULL;
}

cl_mem CL_API_CALL vtcl_CreateImageWithProperties(cl_context context, const cl_mem_properties
    *properties, cl_mem_flags flags, const cl_image_format *image_format, const cl_image_desc
    *image_desc, void *host_ptr, cl_int *errcode_ret) {
  (void)context; (void)properties; (void)flags; (void)image_format; (void)image_desc;
  (void)host_ptr; (void)errcode_ret;
  if (errcode_ret) *errcode_ret = !vtcl_is_context(context) ? CL_INVALID_CONTEXT
                                 : CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL vtcl_SetContextDestructorCallback(cl_context context, void (CL_CALLBACK
    *pfn_notify)(cl_context context, void *user_data), void *user_data) {
  (void)context; (void)pfn_notify; (void)user_data;
  return CL_INVALID_OPERATION; /* OpenCL 2.0 or later */
}
