/* clCompileProgram and clLinkProgram (OpenCL 1.2 section 5.6.3).
 *
 * vt cc compiles a whole program at once (docs/cc.md), so separate
 * compilation works on source: clCompileProgram runs clang's preprocessor
 * on the program with its -D and -I options and embedded headers, which
 * makes the unit self-contained, then clang's checks on the result (its
 * diagnostics are the compile log); the compiled object is that
 * preprocessed text (CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT). clLinkProgram
 * puts the units of its input programs one after the other and compiles
 * them with vt cc into an executable, or keeps them as a library with
 * -create-library. So a unit may call functions another unit defines; two
 * units may not both define a function or a type of the same name, which a
 * real linker would accept for static functions (docs/opencl.md "Separate
 * compilation"). Without vt's compiler both return *_NOT_AVAILABLE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ocl_api.h"
#include "ocl_clang.h"
#ifdef VTCL_HAVE_CC
#include "vt/cc.h"
#endif

static cl_int check_devices(cl_uint num_devices, const cl_device_id *device_list) {
  if ((num_devices == 0) != (device_list == NULL)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++)
    if (!vtcl_is_device(device_list[i])) return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

#ifdef VTCL_HAVE_CC
static void set_log(cl_program p, const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 1;
  char *log = malloc(n);
  if (log) snprintf(log, n, "%s%s", a, b);
  free(p->log);
  p->log = log;
}

enum { MAX_CLANG_ARGS = 16 + 2 * VTCL_MAX_WORDS };

/* The -D/-I words of w go to the preprocessor (-I made absolute: clang runs
 * in the temporary directory); -cl-std, -w and -Werror to both runs; the
 * others are kept in *rest for the final compilation. */
static int preprocessor_args(const vtcl_words *w, const char **pp, int *npp, const char **chk,
                             int *nchk, char **owned, int *nowned, vtcl_words *rest) {
  memset(rest, 0, sizeof *rest);
  for (int i = 0; i < w->n; i++) {
    const char *a = w->word[i];
    bool D = !strncmp(a, "-D", 2), I = !strncmp(a, "-I", 2);
    if (D || I) {
      const char *v = a[2] ? a + 2 : w->word[++i];
      if (I && v[0] != '/') {
        char *cwd = getcwd(NULL, 0), *abs = cwd ? malloc(strlen(cwd) + strlen(v) + 2) : NULL;
        if (abs) sprintf(abs, "%s/%s", cwd, v);
        free(cwd);
        if (!abs) return -1;
        owned[(*nowned)++] = abs;
        v = abs;
      }
      pp[(*npp)++] = D ? "-D" : "-I";
      pp[(*npp)++] = v;
    } else if (!strncmp(a, "-cl-std=", 8) || !strcmp(a, "-w") || !strcmp(a, "-Werror")) {
      pp[(*npp)++] = a;
      chk[(*nchk)++] = a;
    } else {
      rest->word[rest->n++] = a; /* kept for clLinkProgram */
    }
  }
  return 0;
}

/* The program's text and headers in dir; 0 or CL_INVALID_VALUE. */
static cl_int write_inputs(const char *dir, cl_program p, cl_uint nh, const cl_program *headers,
                           const char **names) {
  if (vtcl_write_file(dir, "program.cl", p->source, strlen(p->source)) != 0)
    return CL_OUT_OF_HOST_MEMORY;
  for (cl_uint i = 0; i < nh; i++)
    if (vtcl_write_file(dir, names[i], headers[i]->source, strlen(headers[i]->source)) != 0)
      return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* Preprocess, then check: CL_SUCCESS with p->unit set, or the failure
 * code with p->log set. ctx locked. */
static cl_int compile_unit(cl_program p, const vtcl_words *w, cl_uint nh,
                           const cl_program *headers, const char **names) {
  char dir[4200];
  vtcl_words rest = {0};
  if (vtcl_tmpdir_new(dir, sizeof dir) != 0) return CL_OUT_OF_RESOURCES;
  const char *pp[MAX_CLANG_ARGS], *chk[MAX_CLANG_ARGS];
  char *owned[VTCL_MAX_WORDS];
  int npp = 0, nchk = 0, nowned = 0;
  pp[npp++] = chk[nchk++] = vtcl_clang_path();
  const char *common[] = {"-cc1", "-triple", "spir-unknown-unknown"};
  for (int i = 0; i < 3; i++) pp[npp++] = chk[nchk++] = common[i];
  cl_int rc = write_inputs(dir, p, nh, headers, names);
  if (rc == CL_SUCCESS && preprocessor_args(w, pp, &npp, chk, &nchk, owned, &nowned, &rest) != 0)
    rc = CL_OUT_OF_HOST_MEMORY;
  const char *pp_tail[] = {"-E", "-I", ".", "-o", "unit.cl", "program.cl", NULL};
  const char *chk_tail[] = {"-finclude-default-header", "-cl-ext=-cl_khr_fp16", "-fsyntax-only",
                            "unit.cl", NULL};
  for (int i = 0; pp_tail[i]; i++) pp[npp++] = pp_tail[i];
  for (int i = 0; chk_tail[i]; i++) chk[nchk++] = chk_tail[i];
  pp[npp] = chk[nchk] = NULL;
  int status = rc == CL_SUCCESS ? vtcl_clang(pp, dir, "pp.log") : 0;
  char *log = rc == CL_SUCCESS ? vtcl_read_text(dir, "pp.log") : NULL;
  if (rc == CL_SUCCESS && status == 0) {
    status = vtcl_clang(chk, dir, "check.log");
    free(log);
    log = vtcl_read_text(dir, "check.log");
  }
  if (rc == CL_SUCCESS && status != 0) rc = CL_COMPILE_PROGRAM_FAILURE;
  if (rc == CL_SUCCESS) {
    free(p->unit);
    free(p->unit_options);
    p->unit = vtcl_read_text(dir, "unit.cl");
    p->unit_options = vtcl_words_for_compiler(&rest);
    if (!p->unit || !p->unit_options) rc = CL_OUT_OF_HOST_MEMORY;
  }
  if (status < 0) set_log(p, "vt: cannot run clang: ", vtcl_clang_path());
  else set_log(p, log ? log : "", "");
  free(log);
  for (int i = 0; i < nowned; i++) free(owned[i]);
  vtcl_tmpdir_remove(dir);
  return rc;
}
#endif

static cl_int check_headers(cl_program program, cl_uint nh, const cl_program *headers,
                            const char **names) {
  if ((nh == 0) != (headers == NULL) || (nh == 0) != (names == NULL)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < nh; i++) {
    if (!vtcl_is_program(headers[i]) || headers[i]->ctx != program->ctx)
      return CL_INVALID_PROGRAM;
    if (!names[i] || !headers[i]->source) return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

static cl_int compile(cl_program p, const char *options, cl_uint nh, const cl_program *headers,
                      const char **names) {
#ifdef VTCL_HAVE_CC
  vtcl_words w;
  int split = vtcl_words_split(options, &w);
  const char *bad = split == 0 ? vtcl_options_check(&w, VTCL_COMPILE) : "";
  cl_int rc = CL_INVALID_COMPILER_OPTIONS;
  free(p->options);
  p->options = vtcl_strdup(options ? options : "");
  vtcl_program_clear_build(p);
  free(p->binary);
  p->binary = NULL;
  p->binary_size = 0;
  if (bad) set_log(p, "vt: unknown or malformed compiler option: ", bad);
  else rc = compile_unit(p, &w, nh, headers, names);
  vtcl_words_free(&w);
  p->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  p->btype =
      rc == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_NONE;
  if (rc != CL_SUCCESS) vtcl_notify(p->ctx, false, "clCompileProgram: %s", p->log ? p->log : "");
  return rc;
#else
  (void)p, (void)options, (void)nh, (void)headers, (void)names;
  return CL_COMPILER_NOT_AVAILABLE;
#endif
}

cl_int CL_API_CALL vtcl_CompileProgram(cl_program program, cl_uint num_devices,
                                       const cl_device_id *device_list, const char *options,
                                       cl_uint num_input_headers,
                                       const cl_program *input_headers,
                                       const char **header_include_names,
                                       void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                       void *user_data) {
  if (!vtcl_is_program(program)) return CL_INVALID_PROGRAM;
  cl_int rc = check_devices(num_devices, device_list);
  if (rc == CL_SUCCESS && !pfn_notify && user_data) rc = CL_INVALID_VALUE;
  if (rc == CL_SUCCESS)
    rc = check_headers(program, num_input_headers, input_headers, header_include_names);
  if (rc != CL_SUCCESS) return rc;
  if (!program->source) return CL_INVALID_OPERATION; /* not created from source */
  vtcl_lock(program->ctx);
  rc = atomic_load(&program->attached)
           ? CL_INVALID_OPERATION
           : compile(program, options, num_input_headers, input_headers, header_include_names);
  if (pfn_notify && rc != CL_INVALID_OPERATION)
    vtcl_defer_program_cb(program->ctx, pfn_notify, program, user_data);
  vtcl_unlock(program->ctx);
  return rc;
}

static cl_int check_inputs(cl_context ctx, cl_uint n, const cl_program *in) {
  if (!n || !in) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++)
    if (!vtcl_is_program(in[i]) || in[i]->ctx != ctx) return CL_INVALID_PROGRAM;
  return CL_SUCCESS;
}

#ifdef VTCL_HAVE_CC
/* The inputs' units one after the other, and their kept options followed
 * by the link options (ctx locked). NULL if an input is not a compiled
 * object or a library. */
static char *join_units(cl_uint n, const cl_program *in, const vtcl_words *w, char **opts) {
  size_t size = 1, osize = 1;
  for (cl_uint i = 0; i < n; i++) {
    if (in[i]->btype != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
        in[i]->btype != CL_PROGRAM_BINARY_TYPE_LIBRARY)
      return NULL;
    size += strlen(in[i]->unit) + 1;
    osize += strlen(in[i]->unit_options) + 1;
  }
  char *link = vtcl_words_for_compiler(w);
  osize += link ? strlen(link) : 0;
  char *text = malloc(size), *o = malloc(osize);
  if (!text || !o || !link) {
    free(text);
    free(o);
    free(link);
    return NULL;
  }
  text[0] = o[0] = 0;
  for (cl_uint i = 0; i < n; i++) {
    strcat(strcat(text, in[i]->unit), "\n");
    if (*in[i]->unit_options) strcat(strcat(o, in[i]->unit_options), " ");
  }
  strcat(o, link);
  free(link);
  *opts = o;
  return text;
}

static bool has_word(const vtcl_words *w, const char *word) {
  for (int i = 0; i < w->n; i++)
    if (!strcmp(w->word[i], word)) return true;
  return false;
}

/* Link into p (new, ctx locked): CL_SUCCESS, or CL_LINK_PROGRAM_FAILURE
 * with the log. */
static cl_int link_into(cl_program p, cl_uint n, const cl_program *in, const vtcl_words *w) {
  char *opts = NULL, *text = join_units(n, in, w, &opts);
  if (!text) return CL_INVALID_OPERATION;
  cl_int rc = CL_SUCCESS;
  if (has_word(w, "-create-library")) {
    p->unit = text;
    p->unit_options = opts;
    p->btype = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    set_log(p, "", "");
  } else {
    char *log = NULL;
    if (vt_cc_compile(text, opts, &p->binary, &p->binary_size, &log) != 0) {
      rc = CL_LINK_PROGRAM_FAILURE;
      set_log(p, log && *log ? log : "vt: the compilation failed", "");
    } else if ((rc = vtcl_program_load(p)) == CL_SUCCESS) {
      set_log(p, log ? log : "", "");
      p->btype = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    } else {
      rc = CL_LINK_PROGRAM_FAILURE;
    }
    free(log);
    free(text);
    free(opts);
  }
  p->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (rc != CL_SUCCESS) vtcl_notify(p->ctx, false, "clLinkProgram: %s", p->log ? p->log : "");
  return rc;
}
#endif

cl_program CL_API_CALL vtcl_LinkProgram(cl_context context, cl_uint num_devices,
                                        const cl_device_id *device_list, const char *options,
                                        cl_uint num_input_programs,
                                        const cl_program *input_programs,
                                        void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                        void *user_data, cl_int *errcode_ret) {
  cl_int dummy;
  if (!errcode_ret) errcode_ret = &dummy;
  cl_int rc = vtcl_is_context(context) ? check_devices(num_devices, device_list)
                                       : CL_INVALID_CONTEXT;
  if (rc == CL_SUCCESS && !pfn_notify && user_data) rc = CL_INVALID_VALUE;
  if (rc == CL_SUCCESS) rc = check_inputs(context, num_input_programs, input_programs);
  *errcode_ret = rc;
  if (rc != CL_SUCCESS) return NULL;
#ifdef VTCL_HAVE_CC
  vtcl_words w;
  int split = vtcl_words_split(options, &w);
  if (split != 0 || vtcl_options_check(&w, VTCL_LINK)) {
    vtcl_words_free(&w);
    *errcode_ret = CL_INVALID_LINKER_OPTIONS;
    return NULL;
  }
  cl_program p = vtcl_program_new(context);
  if (!p) {
    vtcl_words_free(&w);
    *errcode_ret = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  vtcl_lock(context);
  p->options = vtcl_strdup(options ? options : "");
  rc = link_into(p, num_input_programs, input_programs, &w);
  if (pfn_notify && rc != CL_INVALID_OPERATION)
    vtcl_defer_program_cb(context, pfn_notify, p, user_data);
  vtcl_unlock(context);
  vtcl_words_free(&w);
  *errcode_ret = rc;
  if (rc == CL_INVALID_OPERATION) { /* an input is not compiled: no program */
    vtcl_program_release(p);
    return NULL;
  }
  return p;
#else
  (void)options;
  *errcode_ret = CL_LINKER_NOT_AVAILABLE;
  return NULL;
#endif
}
