/* The ICD entry points of libvtocl: the dispatch table that the ICD loader
 * (ocl-icd) calls through for every object, and the four exported symbols
 * it looks up: clIcdGetPlatformIDsKHR, clGetExtensionFunctionAddress,
 * clGetExtensionFunctionAddressForPlatform and clGetPlatformInfo (the
 * loader checks cl_khr_icd with it). Everything else stays internal
 * (vtocl.map). The table is constant: entries the cl_icd.h of this system
 * marks as unavailable (Direct3D, DX9 media sharing) stay NULL; those
 * platforms' functions cannot be called on Linux. */
#include <string.h>

#include "ocl_api.h"

#define VTCL_EXPORT __attribute__((visibility("default")))

const cl_icd_dispatch vtcl_dispatch = {
    .clGetPlatformIDs = vtcl_GetPlatformIDs,
    .clGetPlatformInfo = vtcl_GetPlatformInfo,
    .clGetDeviceIDs = vtcl_GetDeviceIDs,
    .clGetDeviceInfo = vtcl_GetDeviceInfo,
    .clCreateContext = vtcl_CreateContext,
    .clCreateContextFromType = vtcl_CreateContextFromType,
    .clRetainContext = vtcl_RetainContext,
    .clReleaseContext = vtcl_ReleaseContext,
    .clGetContextInfo = vtcl_GetContextInfo,
    .clCreateCommandQueue = vtcl_CreateCommandQueue,
    .clRetainCommandQueue = vtcl_RetainCommandQueue,
    .clReleaseCommandQueue = vtcl_ReleaseCommandQueue,
    .clGetCommandQueueInfo = vtcl_GetCommandQueueInfo,
    .clSetCommandQueueProperty = vtcl_SetCommandQueueProperty,
    .clCreateBuffer = vtcl_CreateBuffer,
    .clCreateImage2D = vtcl_CreateImage2D,
    .clCreateImage3D = vtcl_CreateImage3D,
    .clRetainMemObject = vtcl_RetainMemObject,
    .clReleaseMemObject = vtcl_ReleaseMemObject,
    .clGetSupportedImageFormats = vtcl_GetSupportedImageFormats,
    .clGetMemObjectInfo = vtcl_GetMemObjectInfo,
    .clGetImageInfo = vtcl_GetImageInfo,
    .clCreateSampler = vtcl_CreateSampler,
    .clRetainSampler = vtcl_RetainSampler,
    .clReleaseSampler = vtcl_ReleaseSampler,
    .clGetSamplerInfo = vtcl_GetSamplerInfo,
    .clCreateProgramWithSource = vtcl_CreateProgramWithSource,
    .clCreateProgramWithBinary = vtcl_CreateProgramWithBinary,
    .clRetainProgram = vtcl_RetainProgram,
    .clReleaseProgram = vtcl_ReleaseProgram,
    .clBuildProgram = vtcl_BuildProgram,
    .clUnloadCompiler = vtcl_UnloadCompiler,
    .clGetProgramInfo = vtcl_GetProgramInfo,
    .clGetProgramBuildInfo = vtcl_GetProgramBuildInfo,
    .clCreateKernel = vtcl_CreateKernel,
    .clCreateKernelsInProgram = vtcl_CreateKernelsInProgram,
    .clRetainKernel = vtcl_RetainKernel,
    .clReleaseKernel = vtcl_ReleaseKernel,
    .clSetKernelArg = vtcl_SetKernelArg,
    .clGetKernelInfo = vtcl_GetKernelInfo,
    .clGetKernelWorkGroupInfo = vtcl_GetKernelWorkGroupInfo,
    .clWaitForEvents = vtcl_WaitForEvents,
    .clGetEventInfo = vtcl_GetEventInfo,
    .clRetainEvent = vtcl_RetainEvent,
    .clReleaseEvent = vtcl_ReleaseEvent,
    .clGetEventProfilingInfo = vtcl_GetEventProfilingInfo,
    .clFlush = vtcl_Flush,
    .clFinish = vtcl_Finish,
    .clEnqueueReadBuffer = vtcl_EnqueueReadBuffer,
    .clEnqueueWriteBuffer = vtcl_EnqueueWriteBuffer,
    .clEnqueueCopyBuffer = vtcl_EnqueueCopyBuffer,
    .clEnqueueReadImage = vtcl_EnqueueReadImage,
    .clEnqueueWriteImage = vtcl_EnqueueWriteImage,
    .clEnqueueCopyImage = vtcl_EnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = vtcl_EnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = vtcl_EnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = vtcl_EnqueueMapBuffer,
    .clEnqueueMapImage = vtcl_EnqueueMapImage,
    .clEnqueueUnmapMemObject = vtcl_EnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = vtcl_EnqueueNDRangeKernel,
    .clEnqueueTask = vtcl_EnqueueTask,
    .clEnqueueNativeKernel = vtcl_EnqueueNativeKernel,
    .clEnqueueMarker = vtcl_EnqueueMarker,
    .clEnqueueWaitForEvents = vtcl_EnqueueWaitForEvents,
    .clEnqueueBarrier = vtcl_EnqueueBarrier,
    .clGetExtensionFunctionAddress = vtcl_GetExtensionFunctionAddress,
    .clCreateFromGLBuffer = vtcl_CreateFromGLBuffer,
    .clCreateFromGLTexture2D = vtcl_CreateFromGLTexture2D,
    .clCreateFromGLTexture3D = vtcl_CreateFromGLTexture3D,
    .clCreateFromGLRenderbuffer = vtcl_CreateFromGLRenderbuffer,
    .clGetGLObjectInfo = vtcl_GetGLObjectInfo,
    .clGetGLTextureInfo = vtcl_GetGLTextureInfo,
    .clEnqueueAcquireGLObjects = vtcl_EnqueueAcquireGLObjects,
    .clEnqueueReleaseGLObjects = vtcl_EnqueueReleaseGLObjects,
    .clGetGLContextInfoKHR = vtcl_GetGLContextInfoKHR,
    .clSetEventCallback = vtcl_SetEventCallback,
    .clCreateSubBuffer = vtcl_CreateSubBuffer,
    .clSetMemObjectDestructorCallback = vtcl_SetMemObjectDestructorCallback,
    .clCreateUserEvent = vtcl_CreateUserEvent,
    .clSetUserEventStatus = vtcl_SetUserEventStatus,
    .clEnqueueReadBufferRect = vtcl_EnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = vtcl_EnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = vtcl_EnqueueCopyBufferRect,
    .clCreateSubDevicesEXT = vtcl_CreateSubDevicesEXT,
    .clRetainDeviceEXT = vtcl_RetainDeviceEXT,
    .clReleaseDeviceEXT = vtcl_ReleaseDeviceEXT,
    .clCreateEventFromGLsyncKHR = vtcl_CreateEventFromGLsyncKHR,
    .clCreateSubDevices = vtcl_CreateSubDevices,
    .clRetainDevice = vtcl_RetainDevice,
    .clReleaseDevice = vtcl_ReleaseDevice,
    .clCreateImage = vtcl_CreateImage,
    .clCreateProgramWithBuiltInKernels = vtcl_CreateProgramWithBuiltInKernels,
    .clCompileProgram = vtcl_CompileProgram,
    .clLinkProgram = vtcl_LinkProgram,
    .clUnloadPlatformCompiler = vtcl_UnloadPlatformCompiler,
    .clGetKernelArgInfo = vtcl_GetKernelArgInfo,
    .clEnqueueFillBuffer = vtcl_EnqueueFillBuffer,
    .clEnqueueFillImage = vtcl_EnqueueFillImage,
    .clEnqueueMigrateMemObjects = vtcl_EnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = vtcl_EnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = vtcl_EnqueueBarrierWithWaitList,
    .clGetExtensionFunctionAddressForPlatform = vtcl_GetExtensionFunctionAddressForPlatform,
    .clCreateFromGLTexture = vtcl_CreateFromGLTexture,
    .clCreateFromEGLImageKHR = vtcl_CreateFromEGLImageKHR,
    .clEnqueueAcquireEGLObjectsKHR = vtcl_EnqueueAcquireEGLObjectsKHR,
    .clEnqueueReleaseEGLObjectsKHR = vtcl_EnqueueReleaseEGLObjectsKHR,
    .clCreateEventFromEGLSyncKHR = vtcl_CreateEventFromEGLSyncKHR,
    .clCreateCommandQueueWithProperties = vtcl_CreateCommandQueueWithProperties,
    .clCreatePipe = vtcl_CreatePipe,
    .clGetPipeInfo = vtcl_GetPipeInfo,
    .clSVMAlloc = vtcl_SVMAlloc,
    .clSVMFree = vtcl_SVMFree,
    .clEnqueueSVMFree = vtcl_EnqueueSVMFree,
    .clEnqueueSVMMemcpy = vtcl_EnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = vtcl_EnqueueSVMMemFill,
    .clEnqueueSVMMap = vtcl_EnqueueSVMMap,
    .clEnqueueSVMUnmap = vtcl_EnqueueSVMUnmap,
    .clCreateSamplerWithProperties = vtcl_CreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = vtcl_SetKernelArgSVMPointer,
    .clSetKernelExecInfo = vtcl_SetKernelExecInfo,
    .clGetKernelSubGroupInfoKHR = vtcl_GetKernelSubGroupInfoKHR,
    .clCloneKernel = vtcl_CloneKernel,
    .clCreateProgramWithIL = vtcl_CreateProgramWithIL,
    .clEnqueueSVMMigrateMem = vtcl_EnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = vtcl_GetDeviceAndHostTimer,
    .clGetHostTimer = vtcl_GetHostTimer,
    .clGetKernelSubGroupInfo = vtcl_GetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = vtcl_SetDefaultDeviceCommandQueue,
    .clSetProgramReleaseCallback = vtcl_SetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = vtcl_SetProgramSpecializationConstant,
    .clCreateBufferWithProperties = vtcl_CreateBufferWithProperties,
    .clCreateImageWithProperties = vtcl_CreateImageWithProperties,
    .clSetContextDestructorCallback = vtcl_SetContextDestructorCallback,
};

VTCL_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                      cl_platform_id *platforms,
                                                      cl_uint *num_platforms) {
  return vtcl_GetPlatformIDs(num_entries, platforms, num_platforms);
}

VTCL_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                 cl_platform_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  return vtcl_GetPlatformInfo(platform, param_name, param_value_size, param_value,
                              param_value_size_ret);
}

/* Only the ICD extension's own function is offered: the platform reports
 * no other extension with entry points. */
void *CL_API_CALL vtcl_GetExtensionFunctionAddress(const char *func_name) {
  if (func_name && !strcmp(func_name, "clIcdGetPlatformIDsKHR"))
    return (void *)(uintptr_t)clIcdGetPlatformIDsKHR;
  return NULL;
}

void *CL_API_CALL vtcl_GetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                              const char *func_name) {
  if (platform != vtcl_platform()) return NULL;
  return vtcl_GetExtensionFunctionAddress(func_name);
}

VTCL_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  return vtcl_GetExtensionFunctionAddress(func_name);
}

VTCL_EXPORT void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                       const char *func_name) {
  return vtcl_GetExtensionFunctionAddressForPlatform(platform, func_name);
}
