/* Prototypes of the implementations behind the dispatch table (ocl_icd.c):
 * vtcl_X implements clX, with the parameters of CL/cl.h, CL/cl_gl.h,
 * CL/cl_egl.h and CL/cl_ext.h. */
#ifndef VT_OCL_API_H
#define VT_OCL_API_H

#include "ocl_internal.h"

cl_int CL_API_CALL vtcl_GetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint
    *num_platforms);
cl_int CL_API_CALL vtcl_GetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_GetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint
    num_entries, cl_device_id *devices, cl_uint *num_devices);
cl_int CL_API_CALL vtcl_GetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_context CL_API_CALL vtcl_CreateContext(const cl_context_properties *properties, cl_uint
    num_devices, const cl_device_id *devices, void (CL_CALLBACK *pfn_notify)(const char *errinfo,
    const void *private_info, size_t cb, void *user_data), void *user_data, cl_int *errcode_ret);
cl_context CL_API_CALL vtcl_CreateContextFromType(const cl_context_properties *properties,
    cl_device_type device_type, void (CL_CALLBACK *pfn_notify)(const char *errinfo, const void
    *private_info, size_t cb, void *user_data), void *user_data, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_RetainContext(cl_context context);
cl_int CL_API_CALL vtcl_ReleaseContext(cl_context context);
cl_int CL_API_CALL vtcl_GetContextInfo(cl_context context, cl_context_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_command_queue CL_API_CALL vtcl_CreateCommandQueue(cl_context context, cl_device_id device,
    cl_command_queue_properties properties, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_RetainCommandQueue(cl_command_queue command_queue);
cl_int CL_API_CALL vtcl_ReleaseCommandQueue(cl_command_queue command_queue);
cl_int CL_API_CALL vtcl_GetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info
    param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_SetCommandQueueProperty(cl_command_queue command_queue,
    cl_command_queue_properties properties, cl_bool enable, cl_command_queue_properties
    *old_properties);
cl_mem CL_API_CALL vtcl_CreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void
    *host_ptr, cl_int *errcode_ret);
cl_mem CL_API_CALL vtcl_CreateImage2D(cl_context context, cl_mem_flags flags, const
    cl_image_format *image_format, size_t image_width, size_t image_height, size_t
    image_row_pitch, void *host_ptr, cl_int *errcode_ret);
cl_mem CL_API_CALL vtcl_CreateImage3D(cl_context context, cl_mem_flags flags, const
    cl_image_format *image_format, size_t image_width, size_t image_height, size_t image_depth,
    size_t image_row_pitch, size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_RetainMemObject(cl_mem memobj);
cl_int CL_API_CALL vtcl_ReleaseMemObject(cl_mem memobj);
cl_int CL_API_CALL vtcl_GetSupportedImageFormats(cl_context context, cl_mem_flags flags,
    cl_mem_object_type image_type, cl_uint num_entries, cl_image_format *image_formats, cl_uint
    *num_image_formats);
cl_int CL_API_CALL vtcl_GetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_GetImageInfo(cl_mem image, cl_image_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_sampler CL_API_CALL vtcl_CreateSampler(cl_context context, cl_bool normalized_coords,
    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_RetainSampler(cl_sampler sampler);
cl_int CL_API_CALL vtcl_ReleaseSampler(cl_sampler sampler);
cl_int CL_API_CALL vtcl_GetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_program CL_API_CALL vtcl_CreateProgramWithSource(cl_context context, cl_uint count, const char
    * *strings, const size_t *lengths, cl_int *errcode_ret);
cl_program CL_API_CALL vtcl_CreateProgramWithBinary(cl_context context, cl_uint num_devices, const
    cl_device_id *device_list, const size_t *lengths, const unsigned char * *binaries, cl_int
    *binary_status, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_RetainProgram(cl_program program);
cl_int CL_API_CALL vtcl_ReleaseProgram(cl_program program);
cl_int CL_API_CALL vtcl_BuildProgram(cl_program program, cl_uint num_devices, const cl_device_id
    *device_list, const char *options, void (CL_CALLBACK *pfn_notify)(cl_program program, void
    *user_data), void *user_data);
cl_int CL_API_CALL vtcl_UnloadCompiler(void);
cl_int CL_API_CALL vtcl_GetProgramInfo(cl_program program, cl_program_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_GetProgramBuildInfo(cl_program program, cl_device_id device,
    cl_program_build_info param_name, size_t param_value_size, void *param_value, size_t
    *param_value_size_ret);
cl_kernel CL_API_CALL vtcl_CreateKernel(cl_program program, const char *kernel_name, cl_int
    *errcode_ret);
cl_int CL_API_CALL vtcl_CreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel
    *kernels, cl_uint *num_kernels_ret);
cl_int CL_API_CALL vtcl_RetainKernel(cl_kernel kernel);
cl_int CL_API_CALL vtcl_ReleaseKernel(cl_kernel kernel);
cl_int CL_API_CALL vtcl_SetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const
    void *arg_value);
cl_int CL_API_CALL vtcl_GetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_GetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
    cl_kernel_work_group_info param_name, size_t param_value_size, void *param_value, size_t
    *param_value_size_ret);
cl_int CL_API_CALL vtcl_WaitForEvents(cl_uint num_events, const cl_event *event_list);
cl_int CL_API_CALL vtcl_GetEventInfo(cl_event event, cl_event_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_RetainEvent(cl_event event);
cl_int CL_API_CALL vtcl_ReleaseEvent(cl_event event);
cl_int CL_API_CALL vtcl_GetEventProfilingInfo(cl_event event, cl_profiling_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_Flush(cl_command_queue command_queue);
cl_int CL_API_CALL vtcl_Finish(cl_command_queue command_queue);
cl_int CL_API_CALL vtcl_EnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool
    blocking_read, size_t offset, size_t size, void *ptr, cl_uint num_events_in_wait_list, const
    cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool
    blocking_write, size_t offset, size_t size, const void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
    cl_mem dst_buffer, size_t src_offset, size_t dst_offset, size_t size, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool
    blocking_read, const size_t *origin, const size_t *region, size_t row_pitch, size_t
    slice_pitch, void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool
    blocking_write, const size_t *origin, const size_t *region, size_t input_row_pitch, size_t
    input_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem
    dst_image, const size_t *src_origin, const size_t *dst_origin, const size_t *region, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
    cl_mem dst_buffer, const size_t *src_origin, const size_t *region, size_t dst_offset, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem
    src_buffer, cl_mem dst_image, size_t src_offset, const size_t *dst_origin, const size_t
    *region, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
void *CL_API_CALL vtcl_EnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool
    blocking_map, cl_map_flags map_flags, size_t offset, size_t size, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event, cl_int
    *errcode_ret);
void *CL_API_CALL vtcl_EnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool
    blocking_map, cl_map_flags map_flags, const size_t *origin, const size_t *region, size_t
    *image_row_pitch, size_t *image_slice_pitch, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_EnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void
    *mapped_ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event
    *event);
cl_int CL_API_CALL vtcl_EnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
    cl_uint work_dim, const size_t *global_work_offset, const size_t *global_work_size, const
    size_t *local_work_size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueTask(cl_command_queue command_queue, cl_kernel kernel, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueNativeKernel(cl_command_queue command_queue, void (CL_CALLBACK
    *user_func)(void *), void *args, size_t cb_args, cl_uint num_mem_objects, const cl_mem
    *mem_list, const void * *args_mem_loc, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueMarker(cl_command_queue command_queue, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
    const cl_event *event_list);
cl_int CL_API_CALL vtcl_EnqueueBarrier(cl_command_queue command_queue);
void *CL_API_CALL vtcl_GetExtensionFunctionAddress(const char *func_name);
cl_mem CL_API_CALL vtcl_CreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint
    bufobj, cl_int *errcode_ret);
cl_mem CL_API_CALL vtcl_CreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum
    target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret);
cl_mem CL_API_CALL vtcl_CreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum
    target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret);
cl_mem CL_API_CALL vtcl_CreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags, cl_GLuint
    renderbuffer, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_GetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type,
    cl_GLuint *gl_object_name);
cl_int CL_API_CALL vtcl_GetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_EnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint
    num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint
    num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_GetGLContextInfoKHR(const cl_context_properties *properties,
    cl_gl_context_info param_name, size_t param_value_size, void *param_value, size_t
    *param_value_size_ret);
cl_int CL_API_CALL vtcl_SetEventCallback(cl_event event, cl_int command_exec_callback_type, void
    (CL_CALLBACK *pfn_notify)(cl_event event, cl_int event_command_status, void *user_data), void
    *user_data);
cl_mem CL_API_CALL vtcl_CreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type
    buffer_create_type, const void *buffer_create_info, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_SetMemObjectDestructorCallback(cl_mem memobj, void (CL_CALLBACK
    *pfn_notify)(cl_mem memobj, void *user_data), void *user_data);
cl_event CL_API_CALL vtcl_CreateUserEvent(cl_context context, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_SetUserEventStatus(cl_event event, cl_int execution_status);
cl_int CL_API_CALL vtcl_EnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
    cl_bool blocking_read, const size_t *buffer_origin, const size_t *host_origin, const size_t
    *region, size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch, size_t
    host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
    cl_bool blocking_write, const size_t *buffer_origin, const size_t *host_origin, const size_t
    *region, size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch, size_t
    host_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
    cl_mem dst_buffer, const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_CreateSubDevicesEXT(cl_device_id in_device, const
    cl_device_partition_property_ext *properties, cl_uint num_entries, cl_device_id *out_devices,
    cl_uint *num_devices);
cl_int CL_API_CALL vtcl_RetainDeviceEXT(cl_device_id device);
cl_int CL_API_CALL vtcl_ReleaseDeviceEXT(cl_device_id device);
cl_event CL_API_CALL vtcl_CreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync, cl_int
    *errcode_ret);
cl_int CL_API_CALL vtcl_CreateSubDevices(cl_device_id in_device, const
    cl_device_partition_property *properties, cl_uint num_devices, cl_device_id *out_devices,
    cl_uint *num_devices_ret);
cl_int CL_API_CALL vtcl_RetainDevice(cl_device_id device);
cl_int CL_API_CALL vtcl_ReleaseDevice(cl_device_id device);
cl_mem CL_API_CALL vtcl_CreateImage(cl_context context, cl_mem_flags flags, const cl_image_format
    *image_format, const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret);
cl_program CL_API_CALL vtcl_CreateProgramWithBuiltInKernels(cl_context context, cl_uint
    num_devices, const cl_device_id *device_list, const char *kernel_names, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_CompileProgram(cl_program program, cl_uint num_devices, const cl_device_id
    *device_list, const char *options, cl_uint num_input_headers, const cl_program *input_headers,
    const char * *header_include_names, void (CL_CALLBACK *pfn_notify)(cl_program program, void
    *user_data), void *user_data);
cl_program CL_API_CALL vtcl_LinkProgram(cl_context context, cl_uint num_devices, const
    cl_device_id *device_list, const char *options, cl_uint num_input_programs, const cl_program
    *input_programs, void (CL_CALLBACK *pfn_notify)(cl_program program, void *user_data), void
    *user_data, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_UnloadPlatformCompiler(cl_platform_id platform);
cl_int CL_API_CALL vtcl_GetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx, cl_kernel_arg_info
    param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_EnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const
    void *pattern, size_t pattern_size, size_t offset, size_t size, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void
    *fill_color, const size_t *origin, const size_t *region, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint
    num_mem_objects, const cl_mem *mem_objects, cl_mem_migration_flags flags, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueMarkerWithWaitList(cl_command_queue command_queue, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueBarrierWithWaitList(cl_command_queue command_queue, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
void *CL_API_CALL vtcl_GetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char
    *func_name);
cl_mem CL_API_CALL vtcl_CreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum
    target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret);
cl_mem CL_API_CALL vtcl_CreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR egldisplay,
    CLeglImageKHR eglimage, cl_mem_flags flags, const cl_egl_image_properties_khr *properties,
    cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_EnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint
    num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint
    num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event
    *event_wait_list, cl_event *event);
cl_event CL_API_CALL vtcl_CreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync,
    CLeglDisplayKHR display, cl_int *errcode_ret);
cl_command_queue CL_API_CALL vtcl_CreateCommandQueueWithProperties(cl_context context,
    cl_device_id device, const cl_queue_properties *properties, cl_int *errcode_ret);
cl_mem CL_API_CALL vtcl_CreatePipe(cl_context context, cl_mem_flags flags, cl_uint
    pipe_packet_size, cl_uint pipe_max_packets, const cl_pipe_properties *properties, cl_int
    *errcode_ret);
cl_int CL_API_CALL vtcl_GetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret);
void *CL_API_CALL vtcl_SVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint
    alignment);
void CL_API_CALL vtcl_SVMFree(cl_context context, void *svm_pointer);
cl_int CL_API_CALL vtcl_EnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
    void *svm_pointers[], void (CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint
    num_svm_pointers, void *svm_pointers[], void *user_data), void *user_data, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
    void *dst_ptr, const void *src_ptr, size_t size, cl_uint num_events_in_wait_list, const
    cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const
    void *pattern, size_t pattern_size, size_t size, cl_uint num_events_in_wait_list, const
    cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
    cl_map_flags flags, void *svm_ptr, size_t size, cl_uint num_events_in_wait_list, const
    cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_EnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr, cl_uint
    num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_sampler CL_API_CALL vtcl_CreateSamplerWithProperties(cl_context context, const
    cl_sampler_properties *sampler_properties, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_SetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void
    *arg_value);
cl_int CL_API_CALL vtcl_SetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t
    param_value_size, const void *param_value);
cl_int CL_API_CALL vtcl_GetKernelSubGroupInfoKHR(cl_kernel in_kernel, cl_device_id in_device,
    cl_kernel_sub_group_info param_name, size_t input_value_size, const void *input_value, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_kernel CL_API_CALL vtcl_CloneKernel(cl_kernel source_kernel, cl_int *errcode_ret);
cl_program CL_API_CALL vtcl_CreateProgramWithIL(cl_context context, const void *il, size_t length,
    cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_EnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint
    num_svm_pointers, const void * *svm_pointers, const size_t *sizes, cl_mem_migration_flags
    flags, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL vtcl_GetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
    cl_ulong *host_timestamp);
cl_int CL_API_CALL vtcl_GetHostTimer(cl_device_id device, cl_ulong *host_timestamp);
cl_int CL_API_CALL vtcl_GetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
    cl_kernel_sub_group_info param_name, size_t input_value_size, const void *input_value, size_t
    param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL vtcl_SetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
    cl_command_queue command_queue);
cl_int CL_API_CALL vtcl_SetProgramReleaseCallback(cl_program program, void (CL_CALLBACK
    *pfn_notify)(cl_program program, void *user_data), void *user_data);
cl_int CL_API_CALL vtcl_SetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
    size_t spec_size, const void *spec_value);
cl_mem CL_API_CALL vtcl_CreateBufferWithProperties(cl_context context, const cl_mem_properties
    *properties, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret);
cl_mem CL_API_CALL vtcl_CreateImageWithProperties(cl_context context, const cl_mem_properties
    *properties, cl_mem_flags flags, const cl_image_format *image_format, const cl_image_desc
    *image_desc, void *host_ptr, cl_int *errcode_ret);
cl_int CL_API_CALL vtcl_SetContextDestructorCallback(cl_context context, void (CL_CALLBACK
    *pfn_notify)(cl_context context, void *user_data), void *user_data);

#endif
