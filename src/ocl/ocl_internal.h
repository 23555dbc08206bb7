/* Internal structures of libvtocl, the OpenCL 1.2 platform of vt
 * (docs/opencl.md). Every object starts with the ICD dispatch pointer (the
 * ICD loader reads it to route each call) followed by a type tag that
 * every entry point checks, so that NULL, released and wrong-type handles
 * give the error code the specification names instead of a crash.
 *
 * Process-wide objects: the dispatch table (constant), the platform
 * (constant) and the device, whose properties are read once from the
 * device configuration under pthread_once and never change afterwards
 * (ocl_platform.c). Everything else belongs to a context: its lock guards
 * the context's runtime (vt_rt), queues, buffers, programs, kernels and
 * event states. */
#ifndef VT_OCL_INTERNAL_H
#define VT_OCL_INTERNAL_H

#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vt/kargs.h"
#include "vt_runtime.h"

/* type tags ("VTP\0" + type) */
enum {
  VTCL_PLATFORM = 0x56545001,
  VTCL_DEVICE = 0x56545002,
  VTCL_CONTEXT = 0x56545003,
  VTCL_QUEUE = 0x56545004,
  VTCL_MEM = 0x56545005,
  VTCL_PROGRAM = 0x56545006,
  VTCL_KERNEL = 0x56545007,
  VTCL_EVENT = 0x56545008,
  VTCL_DEAD = 0x44454144 /* written into a released object before its memory is freed */
};

extern const cl_icd_dispatch vtcl_dispatch;

/* The assumed clock of the device (ICCD 2024: 1.2 GHz), for
 * CL_DEVICE_MAX_CLOCK_FREQUENCY and cycles -> nanoseconds. */
#define VTCL_CLOCK_MHZ 1200u

/* ---- the device (ocl_platform.c) ---- */
typedef struct vtcl_device_props {
  bool ok;
  char error[512];      /* why the device is unavailable (bad configuration) */
  unsigned sms;         /* compute units */
  unsigned warp_slots;  /* per SM */
  unsigned warp_width;  /* threads per warp: the configured one, else 32 */
  uint64_t lds_bytes;   /* local memory per SM */
  size_t max_group;     /* largest workgroup */
} vtcl_device_props;

struct _cl_platform_id {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
};

struct _cl_device_id {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
};

cl_platform_id vtcl_platform(void);
cl_device_id vtcl_device(void);
/* The device's properties (initialised on first use, then constant). */
const vtcl_device_props *vtcl_props(void);
bool vtcl_is_device(cl_device_id d);

/* ---- deferred callbacks (run after the context lock is released) ---- */
typedef struct vtcl_callback vtcl_callback;

/* ---- contexts (ocl_context.c) ---- */
struct _cl_context {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  atomic_uint refs;
  pthread_mutex_t lock;
  pthread_cond_t cond; /* broadcast when an event changes status */
  vt_rt *rt;
  void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
  void *notify_user;
  cl_context_properties *props; /* as given at creation, with the closing 0 */
  size_t nprops;                 /* entries of props (0 when none were given) */
  struct _cl_command_queue *queues; /* live queues, for progress */
  struct _cl_mem *mems;             /* live memory objects, to validate handles */
  vtcl_callback *callbacks;         /* to run at the next unlock */
};

bool vtcl_is_context(cl_context c);
void vtcl_lock(cl_context ctx);
/* Releases the lock, then runs the queued callbacks. */
void vtcl_unlock(cl_context ctx);
void vtcl_context_retain(cl_context ctx);
void vtcl_context_release(cl_context ctx);
/* A message for the context's notification function (queued; runs at the
 * next unlock). Without one, execution errors (kernel traps) go to stderr. */
void vtcl_notify(cl_context ctx, bool execution, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Queue a user callback (called with the lock released). */
void vtcl_defer_event_cb(cl_context ctx, void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
                         cl_event ev, cl_int status, void *user);
void vtcl_defer_mem_cb(cl_context ctx, void(CL_CALLBACK *fn)(cl_mem, void *), cl_mem mem,
                       void *user);
void vtcl_defer_program_cb(cl_context ctx, void(CL_CALLBACK *fn)(cl_program, void *),
                           cl_program prog, void *user);
/* Release an object after the lock is released (object destruction may
 * take the lock, so references dropped under the lock go through here). */
enum { VTCL_REL_EVENT, VTCL_REL_MEM, VTCL_REL_KERNEL, VTCL_REL_QUEUE };
void vtcl_defer_release(cl_context ctx, int kind, void *object);

/* ---- memory objects (ocl_mem.c) ---- */
typedef struct vtcl_mem_cb {
  struct vtcl_mem_cb *next;
  void(CL_CALLBACK *fn)(cl_mem, void *);
  void *user;
} vtcl_mem_cb;

typedef struct vtcl_mapping {
  struct vtcl_mapping *next;
  void *ptr;      /* what the host got */
  size_t offset, size;
  cl_map_flags flags;
  bool owned;     /* ptr was allocated for the mapping (not host_ptr) */
} vtcl_mapping;

struct _cl_mem {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  atomic_uint refs;
  cl_context ctx;
  cl_mem_flags flags;
  size_t size;
  void *host_ptr;       /* CL_MEM_USE_HOST_PTR */
  cl_mem parent;        /* sub-buffers */
  size_t origin;        /* in the parent */
  uint32_t addr;        /* device address of the root buffer */
  vtcl_mem_cb *destructors;
  vtcl_mapping *maps;
  unsigned map_count;
  struct _cl_mem *next; /* in ctx->mems */
};

bool vtcl_is_mem(cl_mem m);
/* Is m a live memory object of ctx? (no dereference of a foreign pointer;
 * ctx locked) */
bool vtcl_mem_of_context(cl_context ctx, cl_mem m);
void vtcl_mem_retain(cl_mem m);
void vtcl_mem_release(cl_mem m);

/* ---- programs (ocl_program.c) ---- */
struct _cl_program {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  atomic_uint refs;
  cl_context ctx;
  char *source;           /* clCreateProgramWithSource */
  uint8_t *binary;        /* the ELF (given, or compiled) */
  size_t binary_size;
  cl_build_status status;
  char *log;
  char *options;
  cl_program_binary_type btype; /* CL_PROGRAM_BINARY_TYPE */
  char *unit;             /* compiled object or library: preprocessed OpenCL C (ocl_link.c) */
  char *unit_options;     /* its options for the final compilation */
  vt_rt_program *rtp;     /* after a successful build */
  vt_kargs *kargs;        /* the .vt.kernel_args section, if any */
  char **kernel_names;
  size_t nkernels;
  atomic_uint attached;   /* kernels made from the program */
};

bool vtcl_is_program(cl_program p);
/* A new program of ctx (no source, no binary), or NULL. */
cl_program vtcl_program_new(cl_context ctx);
/* Load p->binary into the context's runtime and list its kernels
 * (ctx locked): CL_SUCCESS or CL_BUILD_PROGRAM_FAILURE with the log set. */
cl_int vtcl_program_load(cl_program p);
/* Drop the build results (ctx locked). */
void vtcl_program_clear_build(cl_program p);
void vtcl_program_retain(cl_program p);
void vtcl_program_release(cl_program p);

/* ---- kernels (ocl_kernel.c) ---- */
typedef struct vtcl_arg {
  int kind;        /* 0 = unset, VTCL_ARG_* */
  uint32_t size;   /* by-value bytes or __local bytes */
  cl_mem mem;      /* buffer (NULL = a NULL pointer) */
  uint8_t *bytes;  /* by-value value */
} vtcl_arg;
enum { VTCL_ARG_UNSET = 0, VTCL_ARG_BUFFER, VTCL_ARG_LOCAL, VTCL_ARG_VALUE };

struct _cl_kernel {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  atomic_uint refs;
  cl_program prog;
  char *name;
  vt_rt_kernel *rtk;
  const vt_kargs_kernel *info; /* from the program's section, or NULL */
  uint32_t derived_extent;     /* without info: argument bytes the kernel reads */
  unsigned derived_args;       /* without info: the count derived from them */
  vtcl_arg *args;
  unsigned nargs;              /* slots in args */
};

bool vtcl_is_kernel(cl_kernel k);
void vtcl_kernel_retain(cl_kernel k);
void vtcl_kernel_release(cl_kernel k);
/* Number of arguments CL_KERNEL_NUM_ARGS reports. */
unsigned vtcl_kernel_num_args(cl_kernel k);

/* ---- events and commands (ocl_event.c, ocl_queue.c) ---- */
typedef struct vtcl_event_cb {
  struct vtcl_event_cb *next;
  cl_int when; /* CL_COMPLETE, CL_RUNNING or CL_SUBMITTED */
  void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
  void *user;
} vtcl_event_cb;

typedef struct vtcl_cmd vtcl_cmd;

struct _cl_event {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  atomic_uint refs;
  cl_context ctx;
  cl_command_queue queue;  /* NULL for user events */
  cl_command_type type;
  cl_int status;           /* CL_QUEUED .. CL_COMPLETE or a negative error (ctx lock) */
  bool profiled;
  cl_ulong t_queued, t_submit, t_start, t_end;
  vtcl_event_cb *callbacks;
  vtcl_cmd *cmd;           /* the command while it is pending */
  cl_event *wait;          /* retained */
  cl_uint nwait;
  cl_event next;           /* in the queue's pending list */
};

bool vtcl_is_event(cl_event e);
cl_event vtcl_event_new(cl_context ctx, cl_command_queue q, cl_command_type type);
void vtcl_event_retain(cl_event e);
void vtcl_event_release(cl_event e);
/* Set the status (ctx locked): timestamps, callbacks, condition broadcast. */
void vtcl_event_set_status(cl_event e, cl_int status);
/* Nanoseconds of the host's monotonic clock. */
cl_ulong vtcl_now_ns(void);

struct _cl_command_queue {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  atomic_uint refs;
  cl_context ctx;
  cl_command_queue_properties props;
  cl_event head, tail;     /* pending commands, in order */
  cl_ulong device_time;    /* end of the last profiled command */
  struct _cl_command_queue *next; /* in ctx->queues */
};

bool vtcl_is_queue(cl_command_queue q);
void vtcl_queue_retain(cl_command_queue q);
void vtcl_queue_release(cl_command_queue q);

/* A command's work (ocl_transfer.c, ocl_launch.c). It runs with the
 * context locked and returns CL_COMPLETE or a negative error (after a
 * vtcl_notify with the reason). */
typedef cl_int (*vtcl_run_fn)(cl_command_queue q, vtcl_cmd *c, cl_event ev);

struct vtcl_cmd {
  vtcl_run_fn run;
  cl_mem mem, mem2;            /* retained */
  size_t off, off2, size;
  void *ptr;                   /* host memory read into */
  void *host_src;           /* host memory written from (rect writes) */
  size_t rect[3][3];           /* rect copies: origins (2) and region */
  size_t pitch[4];             /* rect copies: row and slice pitches */
  uint8_t pattern[128];
  size_t pattern_size;
  vtcl_mapping *map;           /* map: in mem->maps; unmap: detached, the command's */
  bool unmap;
  cl_kernel kernel;            /* retained */
  vtcl_arg *args;              /* snapshot of the kernel's arguments */
  unsigned nargs;
  vt_rt_ndrange nd;
};

/* Validate a wait list (events of ctx): the error code or CL_SUCCESS. */
cl_int vtcl_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list);
/* Enqueue a command (c is taken over; NULL for markers and barriers).
 * Returns CL_SUCCESS and, if out is not NULL, the event; with blocking,
 * waits for it and returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
 * if a waited-for event failed, or the command's own error. The context
 * must not be locked. */
cl_int vtcl_enqueue(cl_command_queue q, cl_command_type type, vtcl_cmd *c, cl_uint nwait,
                    const cl_event *wait, cl_event *out, bool blocking);
/* Run what can run in every queue of the context (ctx locked). */
void vtcl_progress(cl_context ctx);
/* Free a command; its references are released through vtcl_defer_release
 * (ctx locked). */
void vtcl_cmd_free(cl_context ctx, vtcl_cmd *c);

/* ---- info helpers (ocl_info.c) ---- */
/* Copy 'size' bytes of 'value' to the caller's buffer the OpenCL way. */
cl_int vtcl_info(const void *value, size_t size, size_t param_value_size, void *param_value,
                 size_t *param_value_size_ret);
cl_int vtcl_info_str(const char *s, size_t param_value_size, void *param_value,
                     size_t *param_value_size_ret);
#define VTCL_INFO(v) vtcl_info(&(v), sizeof(v), param_value_size, param_value, param_value_size_ret)

/* ---- ELFs without argument information (ocl_derive.c) ---- */
/* Bytes of the argument buffer the kernel at 'entry' reads in its
 * straight-line prologue (0 if none are seen). */
uint32_t vtcl_derive_arg_extent(const uint8_t *elf, size_t size, uint32_t entry);

/* ---- build options (ocl_options.c) ---- */
#define VTCL_MAX_WORDS 256
typedef struct vtcl_words {
  char *storage;
  const char *word[VTCL_MAX_WORDS];
  int n;
} vtcl_words;
enum { VTCL_BUILD, VTCL_COMPILE, VTCL_LINK };
/* Split an option string (NULL: none); -1 for an unterminated quote, too
 * many words or no memory. Free with vtcl_words_free either way. */
int vtcl_words_split(const char *s, vtcl_words *w);
void vtcl_words_free(vtcl_words *w);
/* The first word that clBuildProgram / clCompileProgram / clLinkProgram
 * (stage) does not accept, or NULL. */
const char *vtcl_options_check(const vtcl_words *w, int stage);
/* The words as an option string for vt_cc_compile (quoted), without the
 * ones vt cc does not take (-cl-denorms-are-zero, the link-only options);
 * malloc'd, NULL if out of memory. */
char *vtcl_words_for_compiler(const vtcl_words *w);

/* ---- the OpenCL C compiler hook (ocl_compile.c) ---- */
bool vtcl_compiler_available(void);
/* Compile source with options into a kernel ELF. Returns CL_SUCCESS with
 * a malloc'd ELF, or CL_COMPILER_NOT_AVAILABLE / CL_INVALID_BUILD_OPTIONS /
 * CL_BUILD_PROGRAM_FAILURE; *log (malloc'd, may be NULL) is the build log
 * either way: the compiler's diagnostics. */
cl_int vtcl_compile(const char *source, const char *options, uint8_t **elf, size_t *size,
                    char **log);

/* helpers */
char *vtcl_strdup(const char *s);
#endif
