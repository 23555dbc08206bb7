/* The clGet*Info return convention (OpenCL 1.2 section 4 and 5): the size
 * of the value in *param_value_size_ret, the value in param_value when its
 * buffer is large enough, CL_INVALID_VALUE when it is too small. */
#include <stdlib.h>
#include <string.h>

#include "ocl_internal.h"

cl_int vtcl_info(const void *value, size_t size, size_t param_value_size, void *param_value,
                 size_t *param_value_size_ret) {
  if (param_value) {
    if (param_value_size < size) return CL_INVALID_VALUE;
    if (size) memcpy(param_value, value, size);
  }
  if (param_value_size_ret) *param_value_size_ret = size;
  return CL_SUCCESS;
}

cl_int vtcl_info_str(const char *s, size_t param_value_size, void *param_value,
                     size_t *param_value_size_ret) {
  if (!s) s = "";
  return vtcl_info(s, strlen(s) + 1, param_value_size, param_value, param_value_size_ret);
}

char *vtcl_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}
