/* Kernel arguments and the argument buffer (formats-and-launch.md 4):
 * declaration order from offset 0; buffers and __local pointers take 4
 * bytes at the next multiple of 4; a by-value argument of s bytes takes s
 * bytes at the next multiple of A = the next power of two >= max(s, 4). */
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

static const char *const kind_names[] = {"a buffer", "a __local pointer", "a by-value argument"};

/* what the kernel's .vt.kernel_args section says argument index is, when
 * an argument of 'kind' (ARG_*) and 'size' bytes does not fit it */
static int check_signature(vt_rt_kernel *k, unsigned index, int kind, size_t size) {
  const vt_karg *a = &k->sig->args[index];
  int want = a->kind == VT_KARG_BUFFER ? ARG_BUFFER : a->kind == VT_KARG_LOCAL ? ARG_LOCAL : ARG_SCALAR;
  int given = kind == ARG_BUFFER ? 0 : kind == ARG_LOCAL ? 1 : 2;
  if (want != kind)
    return rt_fail(k->prog->rt, "kernel '%s': argument %u (%s %s) is %s, not %s", k->name, index,
                   *a->type ? a->type : "", a->name, kind_names[a->kind], kind_names[given]);
  if (kind == ARG_SCALAR && size != a->size)
    return rt_fail(k->prog->rt, "kernel '%s': argument %u (%s %s) takes %u bytes, not %zu",
                   k->name, index, *a->type ? a->type : "", a->name, a->size, size);
  return 0;
}

/* the slot of argument index, emptied, for an argument of 'kind' and
 * 'size' bytes (checked against the kernel's signature when known) */
static int slot(vt_rt_kernel *k, unsigned index, int kind, size_t size, rt_arg **out) {
  vt_rt *rt = k->prog->rt;
  if (k->declared && index >= k->ndeclared)
    return rt_fail(rt, "kernel '%s': argument index %u out of range (the kernel has %u)",
                   k->name, index, k->ndeclared);
  if (k->sig && check_signature(k, index, kind, size) != 0) return -1;
  if (index >= VT_RT_MAX_ARGS)
    return rt_fail(rt, "kernel '%s': argument index %u out of range (at most %u arguments)",
                   k->name, index, VT_RT_MAX_ARGS);
  if (index >= k->capargs) {
    unsigned cap = k->capargs ? k->capargs : 8;
    while (cap <= index) cap *= 2;
    rt_arg *a = realloc(k->args, cap * sizeof *a);
    if (!a) return rt_fail(rt, "out of memory");
    memset(a + k->capargs, 0, (cap - k->capargs) * sizeof *a);
    k->args = a;
    k->capargs = cap;
  }
  if (index >= k->nargs) k->nargs = index + 1;
  rt_arg *a = &k->args[index];
  free(a->bytes);
  memset(a, 0, sizeof *a);
  *out = a;
  return 0;
}

int vt_rt_kernel_set_num_args(vt_rt_kernel *k, unsigned n) {
  if (k->sig && n != k->sig->nargs)
    return rt_fail(k->prog->rt, "kernel '%s' takes %u argument%s (its %s section), not %u",
                   k->name, k->sig->nargs, k->sig->nargs == 1 ? "" : "s", VT_KARGS_SECTION, n);
  if (n > VT_RT_MAX_ARGS)
    return rt_fail(k->prog->rt, "kernel '%s': %u arguments is more than %u", k->name, n,
                   VT_RT_MAX_ARGS);
  if (n < k->nargs) {
    for (unsigned i = n; i < k->nargs; i++) {
      free(k->args[i].bytes);
      memset(&k->args[i], 0, sizeof k->args[i]);
    }
    k->nargs = n;
  }
  k->declared = true;
  k->ndeclared = n;
  return 0;
}

int vt_rt_set_arg_buffer(vt_rt_kernel *k, unsigned index, uint32_t addr, uint32_t offset) {
  vt_rt *rt = k->prog->rt;
  if (addr == 0 && offset != 0)
    return rt_fail(rt, "kernel '%s': argument %u: offset %u on a NULL buffer", k->name, index,
                   offset);
  for (size_t i = 0; i < rt->nbufs; i++)
    if (rt->bufs[i].addr == addr && offset >= rt->bufs[i].size)
      return rt_fail(rt,
                     "kernel '%s': argument %u: offset %u is outside the buffer at 0x%08x (%llu "
                     "bytes)",
                     k->name, index, offset, addr, (unsigned long long)rt->bufs[i].size);
  if ((uint64_t)addr + offset > 0xffffffffull)
    return rt_fail(rt, "kernel '%s': argument %u: 0x%08x + %u exceeds 32 bits", k->name, index,
                   addr, offset);
  rt_arg *a = NULL;
  if (slot(k, index, ARG_BUFFER, 4, &a)) return -1;
  a->kind = ARG_BUFFER;
  a->size = 4;
  a->value = addr + offset;
  return 0;
}

int vt_rt_set_arg_scalar(vt_rt_kernel *k, unsigned index, const void *value, size_t size) {
  vt_rt *rt = k->prog->rt;
  if (size == 0 || size > VT_RT_MAX_SCALAR)
    return rt_fail(rt, "kernel '%s': argument %u: a by-value argument of %zu bytes (1 to %u allowed)",
                   k->name, index, size, VT_RT_MAX_SCALAR);
  if (!value) return rt_fail(rt, "kernel '%s': argument %u: no value", k->name, index);
  rt_arg *a = NULL;
  if (slot(k, index, ARG_SCALAR, size, &a)) return -1;
  if (!(a->bytes = malloc(size))) return rt_fail(rt, "out of memory");
  memcpy(a->bytes, value, size);
  a->kind = ARG_SCALAR;
  a->size = (uint32_t)size;
  return 0;
}

int vt_rt_set_arg_local(vt_rt_kernel *k, unsigned index, uint32_t size) {
  vt_rt *rt = k->prog->rt;
  if (size == 0)
    return rt_fail(rt, "kernel '%s': argument %u: a __local argument of 0 bytes", k->name, index);
  if (size > 0x01000000u)
    return rt_fail(rt, "kernel '%s': argument %u: %u bytes of local memory is too much", k->name,
                   index, size);
  rt_arg *a = NULL;
  if (slot(k, index, ARG_LOCAL, size, &a)) return -1;
  a->kind = ARG_LOCAL;
  a->size = size;
  return 0;
}

int rt_check_args(vt_rt_kernel *k) {
  unsigned n = k->declared ? k->ndeclared : k->nargs;
  for (unsigned i = 0; i < n; i++)
    if (i >= k->nargs || k->args[i].kind == ARG_UNSET)
      return rt_fail(k->prog->rt, "kernel '%s': argument %u is not set", k->name, i);
  return 0;
}

static uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) & ~(a - 1); }

static uint32_t pow2_at_least(uint32_t v) {
  uint32_t p = 4;
  while (p < v) p <<= 1;
  return p;
}

uint32_t rt_local_arg_bytes(const vt_rt_kernel *k) {
  uint32_t off = 0;
  for (unsigned i = 0; i < k->nargs; i++)
    if (k->args[i].kind == ARG_LOCAL)
      off = align_up(off, VT_RT_LOCAL_ARG_ALIGN) + k->args[i].size;
  return off;
}

int rt_pack_args(vt_rt_kernel *k, uint32_t local_base, uint8_t *buf, uint32_t *size,
                 uint32_t *local_bytes) {
  uint32_t off = 0, loc = 0;
  for (unsigned i = 0; i < k->nargs; i++) {
    const rt_arg *a = &k->args[i];
    uint32_t align = a->kind == ARG_SCALAR ? pow2_at_least(a->size) : 4;
    uint32_t bytes = a->kind == ARG_SCALAR ? a->size : 4;
    uint32_t at = align_up(off, align);
    if ((uint64_t)at + bytes > VT_RT_MAX_ARG_BUFFER)
      return rt_fail(k->prog->rt, "kernel '%s': the arguments need more than %u bytes", k->name,
                     VT_RT_MAX_ARG_BUFFER);
    memset(buf + off, 0, at - off);
    uint32_t v = a->value;
    if (a->kind == ARG_LOCAL) {
      loc = align_up(loc, VT_RT_LOCAL_ARG_ALIGN);
      v = local_base + loc;
      loc += a->size;
    }
    if (a->kind == ARG_SCALAR) {
      memcpy(buf + at, a->bytes, a->size);
    } else {
      buf[at] = (uint8_t)v;
      buf[at + 1] = (uint8_t)(v >> 8);
      buf[at + 2] = (uint8_t)(v >> 16);
      buf[at + 3] = (uint8_t)(v >> 24);
    }
    off = at + bytes;
  }
  *size = off;
  if (local_bytes) *local_bytes = loc;
  return 0;
}
