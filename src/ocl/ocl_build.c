/* clBuildProgram and the build queries (clGetProgramInfo,
 * clGetProgramBuildInfo), clCreateProgramWithBuiltInKernels,
 * clUnload*Compiler (clCompileProgram and clLinkProgram: ocl_link.c).
 *
 * The kernels of a program: those its .vt.kernel_args section lists (each
 * must be a function of the ELF), or, without the section (the official
 * toolchain's ELFs), its global functions except the start-up code and the
 * device library's: names starting with "_Z" (C++-mangled, such as
 * _Z13get_global_idj) or "__" (reserved: __builtin_riscv_*), "vt_"
 * (vtprintf.s) and printf (libclc). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_api.h"
#include "vt/elf.h"

static bool library_function(const char *n) {
  return !strncmp(n, "_Z", 2) || !strncmp(n, "__", 2) || !strncmp(n, "vt_", 3) ||
         !strcmp(n, "printf");
}

static void set_log(cl_program p, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  free(p->log);
  p->log = vtcl_strdup(msg);
}

static bool is_candidate(const vt_rt_program *rtp, const char *name) {
  for (size_t i = 0; i < vt_rt_program_kernel_count(rtp); i++)
    if (!strcmp(vt_rt_program_kernel_name(rtp, i), name)) return true;
  return false;
}

static int add_name(cl_program p, const char *name) {
  char **n = realloc(p->kernel_names, (p->nkernels + 1) * sizeof *n);
  if (!n) return -1;
  p->kernel_names = n;
  if (!(n[p->nkernels] = vtcl_strdup(name))) return -1;
  p->nkernels++;
  return 0;
}

/* Reads .vt.kernel_args and lists the kernels; 0, or -1 with the log set. */
static int list_kernels(cl_program p) {
  vt_elf *elf = NULL;
  char msg[512];
  if (vt_elf_open_mem(p->binary, p->binary_size, &elf, msg, sizeof msg) != 0) {
    set_log(p, "vt: %s", msg);
    return -1;
  }
  const vt_elf_section *s = vt_elf_section_by_name(elf, VT_KARGS_SECTION);
  int rc = 0;
  if (s && vt_kargs_parse(s->data, s->size, &p->kargs, msg, sizeof msg) != 0) {
    set_log(p, "vt: the %s section is malformed: %s", VT_KARGS_SECTION, msg);
    rc = -1;
  }
  vt_elf_free(elf);
  for (size_t i = 0; rc == 0 && p->kargs && i < vt_kargs_count(p->kargs); i++) {
    const char *name = vt_kargs_at(p->kargs, i)->name;
    if (!is_candidate(p->rtp, name)) {
      set_log(p, "vt: kernel '%s' of the %s section is not a global function of the program",
              name, VT_KARGS_SECTION);
      rc = -1;
    } else if (add_name(p, name)) {
      rc = -1;
    }
  }
  for (size_t i = 0; rc == 0 && !p->kargs && i < vt_rt_program_kernel_count(p->rtp); i++) {
    const char *name = vt_rt_program_kernel_name(p->rtp, i);
    if (!library_function(name) && add_name(p, name)) rc = -1;
  }
  return rc;
}

cl_int vtcl_program_load(cl_program p) {
  cl_context ctx = p->ctx;
  vtcl_program_clear_build(p);
  cl_int rc = CL_SUCCESS;
  if (vt_rt_program_load_mem(ctx->rt, p->binary, p->binary_size, "program", &p->rtp) != 0) {
    set_log(p, "vt: %s", vt_rt_error(ctx->rt));
    rc = CL_BUILD_PROGRAM_FAILURE;
  } else if (list_kernels(p) != 0) {
    if (!p->log) set_log(p, "vt: out of memory");
    vtcl_program_clear_build(p);
    rc = CL_BUILD_PROGRAM_FAILURE;
  } else {
    set_log(p, "vt: %zu kernel(s)%s", p->nkernels,
            p->kargs ? "" : "; no " VT_KARGS_SECTION " section: argument information is derived "
                            "(docs/opencl.md)");
  }
  p->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  p->btype = rc == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE;
  if (rc != CL_SUCCESS) vtcl_notify(ctx, false, "clBuildProgram: %s", p->log);
  return rc;
}

/* ctx locked (the compiler runs under it too: builds are rare). A program
 * from source is compiled again at every build (the options may differ);
 * its build log is then the compiler's diagnostics. */
static cl_int build(cl_program p, const char *options) {
  free(p->options);
  p->options = vtcl_strdup(options ? options : "");
  if (!p->source) return vtcl_program_load(p);
  vtcl_program_clear_build(p);
  free(p->binary);
  p->binary = NULL;
  p->binary_size = 0;
  char *log = NULL;
  cl_int rc = vtcl_compile(p->source, p->options, &p->binary, &p->binary_size, &log);
  free(p->log);
  p->log = log;
  if (rc != CL_SUCCESS) {
    p->status = CL_BUILD_ERROR;
    p->btype = CL_PROGRAM_BINARY_TYPE_NONE;
    vtcl_notify(p->ctx, false, "clBuildProgram: %s", log ? log : "compilation failed");
    return rc;
  }
  p->log = NULL;
  rc = vtcl_program_load(p);
  if (rc == CL_SUCCESS) {
    free(p->log);
    p->log = log ? log : vtcl_strdup("");
  } else {
    free(log);
  }
  return rc;
}

cl_int CL_API_CALL vtcl_BuildProgram(cl_program program, cl_uint num_devices,
                                     const cl_device_id *device_list, const char *options,
                                     void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                     void *user_data) {
  if (!vtcl_is_program(program)) return CL_INVALID_PROGRAM;
  if ((num_devices == 0) != (device_list == NULL) || (!pfn_notify && user_data))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++)
    if (!vtcl_is_device(device_list[i])) return CL_INVALID_DEVICE;
  vtcl_lock(program->ctx);
  cl_int rc = atomic_load(&program->attached) ? CL_INVALID_OPERATION : build(program, options);
  if (pfn_notify && rc != CL_INVALID_OPERATION)
    vtcl_defer_program_cb(program->ctx, pfn_notify, program, user_data);
  vtcl_unlock(program->ctx);
  return rc;
}

static cl_int kernel_names(cl_program p, size_t size, void *value, size_t *size_ret) {
  size_t n = 1;
  for (size_t i = 0; i < p->nkernels; i++) n += strlen(p->kernel_names[i]) + (i > 0);
  char *s = malloc(n);
  if (!s) return CL_OUT_OF_HOST_MEMORY;
  s[0] = 0;
  for (size_t i = 0; i < p->nkernels; i++) {
    if (i) strcat(s, ";");
    strcat(s, p->kernel_names[i]);
  }
  cl_int rc = vtcl_info(s, n, size, value, size_ret);
  free(s);
  return rc;
}

/* CL_PROGRAM_BINARIES: param_value is an array of one pointer to fill. */
static cl_int binaries(cl_program p, size_t size, void *value, size_t *size_ret) {
  if (size_ret) *size_ret = sizeof(unsigned char *);
  if (!value) return CL_SUCCESS;
  if (size < sizeof(unsigned char *)) return CL_INVALID_VALUE;
  unsigned char *dst = *(unsigned char **)value;
  if (dst && p->binary) memcpy(dst, p->binary, p->binary_size);
  return CL_SUCCESS;
}

static cl_int program_info(cl_program p, cl_program_info param_name, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret) {
  cl_uint u;
  size_t sz;
  cl_device_id dev = vtcl_device();
  bool built = p->status == CL_BUILD_SUCCESS;
  switch (param_name) {
  case CL_PROGRAM_REFERENCE_COUNT: u = atomic_load(&p->refs); return VTCL_INFO(u);
  case CL_PROGRAM_CONTEXT: return VTCL_INFO(p->ctx);
  case CL_PROGRAM_NUM_DEVICES: u = 1; return VTCL_INFO(u);
  case CL_PROGRAM_DEVICES: return VTCL_INFO(dev);
  case CL_PROGRAM_SOURCE:
    return vtcl_info_str(p->source, param_value_size, param_value, param_value_size_ret);
  case CL_PROGRAM_BINARY_SIZES: sz = p->binary ? p->binary_size : 0; return VTCL_INFO(sz);
  case CL_PROGRAM_BINARIES:
    return binaries(p, param_value_size, param_value, param_value_size_ret);
  case CL_PROGRAM_NUM_KERNELS:
    if (!built) return CL_INVALID_PROGRAM_EXECUTABLE;
    sz = p->nkernels;
    return VTCL_INFO(sz);
  case CL_PROGRAM_KERNEL_NAMES:
    if (!built) return CL_INVALID_PROGRAM_EXECUTABLE;
    return kernel_names(p, param_value_size, param_value, param_value_size_ret);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int build_info(cl_program p, cl_program_build_info param_name,
                         size_t param_value_size, void *param_value,
                         size_t *param_value_size_ret) {
  switch (param_name) {
  case CL_PROGRAM_BUILD_STATUS: return VTCL_INFO(p->status);
  case CL_PROGRAM_BUILD_OPTIONS:
    return vtcl_info_str(p->options, param_value_size, param_value, param_value_size_ret);
  case CL_PROGRAM_BUILD_LOG:
    return vtcl_info_str(p->log, param_value_size, param_value, param_value_size_ret);
  case CL_PROGRAM_BINARY_TYPE: return VTCL_INFO(p->btype);
  default: return CL_INVALID_VALUE;
  }
}

/* The build results change under the context lock: read them under it. */
cl_int CL_API_CALL vtcl_GetProgramInfo(cl_program p, cl_program_info param_name,
                                       size_t param_value_size, void *param_value,
                                       size_t *param_value_size_ret) {
  if (!vtcl_is_program(p)) return CL_INVALID_PROGRAM;
  vtcl_lock(p->ctx);
  cl_int rc = program_info(p, param_name, param_value_size, param_value, param_value_size_ret);
  vtcl_unlock(p->ctx);
  return rc;
}

cl_int CL_API_CALL vtcl_GetProgramBuildInfo(cl_program p, cl_device_id device,
                                            cl_program_build_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret) {
  if (!vtcl_is_program(p)) return CL_INVALID_PROGRAM;
  if (!vtcl_is_device(device)) return CL_INVALID_DEVICE;
  vtcl_lock(p->ctx);
  cl_int rc = build_info(p, param_name, param_value_size, param_value, param_value_size_ret);
  vtcl_unlock(p->ctx);
  return rc;
}

cl_program CL_API_CALL vtcl_CreateProgramWithBuiltInKernels(cl_context context,
                                                            cl_uint num_devices,
                                                            const cl_device_id *device_list,
                                                            const char *kernel_names,
                                                            cl_int *errcode_ret) {
  (void)num_devices, (void)device_list, (void)kernel_names;
  cl_int dummy;
  if (!errcode_ret) errcode_ret = &dummy;
  /* the device has no built-in kernels, so every name is unknown */
  *errcode_ret = vtcl_is_context(context) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT;
  return NULL;
}

cl_int CL_API_CALL vtcl_UnloadCompiler(void) { return CL_SUCCESS; }

cl_int CL_API_CALL vtcl_UnloadPlatformCompiler(cl_platform_id platform) {
  return platform == vtcl_platform() ? CL_SUCCESS : CL_INVALID_PLATFORM;
}
