/* Kernel programs: ELF images (official toolchain or `vt as`), their kernel
 * symbols and .ventus.resource.<kernel> sections. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"
#include "sim/elf_load.h"
#include "util/file.h"

#define SHF_EXECINSTR_ 0x4u
#define STT_FUNC_ 2u
#define STT_NOTYPE_ 0u
#define STB_LOCAL_ 0u

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* a defined symbol in an executable section */
static bool is_code_symbol(const vt_elf *elf, const vt_elf_symbol *s) {
  if (s->shndx == 0 || s->shndx >= 0xff00) return false;
  if (s->type != STT_FUNC_ && s->type != STT_NOTYPE_) return false;
  const vt_elf_section *sec = vt_elf_section_at(elf, s->shndx);
  return sec && (sec->flags & SHF_EXECINSTR_);
}

static bool startup_symbol(const char *name) {
  return !strcmp(name, "_start") || !strcmp(name, "spike_end");
}

static int list_kernels(vt_rt_program *p) {
  size_t n = vt_elf_symbol_count(p->elf);
  p->kernels = calloc(n ? n : 1, sizeof *p->kernels);
  if (!p->kernels) return -1;
  for (size_t i = 0; i < n; i++) {
    const vt_elf_symbol *s = vt_elf_symbol_at(p->elf, i);
    if (!strcmp(s->name, "printf") || !strcmp(s->name, "_printf_buffer")) p->wants_window = true;
    if (s->bind == STB_LOCAL_ || !s->name[0] || startup_symbol(s->name) ||
        !is_code_symbol(p->elf, s))
      continue;
    bool seen = false;
    for (size_t k = 0; k < p->nkernels && !seen; k++) seen = !strcmp(p->kernels[k], s->name);
    if (seen) continue;
    if (!(p->kernels[p->nkernels] = dup_str(s->name))) return -1;
    p->nkernels++;
  }
  return 0;
}

static int load(vt_rt *rt, uint8_t *image, size_t size, const char *name, vt_rt_program **out) {
  char msg[512];
  vt_rt_program *p = calloc(1, sizeof *p);
  if (!p || !(p->name = dup_str(name))) {
    free(p);
    free(image);
    return rt_fail(rt, "out of memory");
  }
  p->rt = rt;
  p->image = image;
  p->size = size;
  if (vt_elf_open_mem(image, size, &p->elf, msg, sizeof msg) != 0) {
    vt_rt_program_free(p);
    return rt_fail(rt, "%s: not a loadable kernel ELF: %s", name, msg);
  }
  const char *bad = NULL;
  if (vt_elf_machine(p->elf) != 243) bad = "not a RISC-V ELF (e_machine is not EM_RISCV)";
  else if (vt_elf_type(p->elf) != 2) bad = "not an executable (ET_EXEC) ELF";
  else if (vt_elf_entry(p->elf) != VT_ADDR_PROGRAM_BASE) {
    snprintf(msg, sizeof msg, "the entry point is not 0x%08x (the start-up code must come first)",
             VT_ADDR_PROGRAM_BASE);
    bad = msg;
  }
  if (!bad) {
    size_t nl = 0;
    for (size_t i = 0; i < vt_elf_segment_count(p->elf); i++)
      nl += vt_elf_segment_at(p->elf, i)->type == 1;
    if (nl == 0) bad = "no PT_LOAD segment";
  }
  if (!bad && vt_elf_check_placement(p->elf, msg, sizeof msg) != 0) bad = msg;
  const vt_elf_section *ks = bad ? NULL : vt_elf_section_by_name(p->elf, VT_KARGS_SECTION);
  char kmsg[300];
  if (ks && vt_kargs_parse(ks->data, ks->data ? ks->size : 0, &p->kargs, kmsg, sizeof kmsg) != 0) {
    snprintf(msg, sizeof msg, "the %s section is malformed: %s", VT_KARGS_SECTION, kmsg);
    bad = msg;
  }
  if (bad) {
    vt_rt_program_free(p);
    return rt_fail(rt, "%s: %s", name, bad);
  }
  if (list_kernels(p) != 0) {
    vt_rt_program_free(p);
    return rt_fail(rt, "out of memory");
  }
  if (rt->opt.print_window == VT_RT_WINDOW_ON ||
      (rt->opt.print_window == VT_RT_WINDOW_AUTO && p->wants_window)) {
    if (rt_window_map(rt) != 0) {
      vt_rt_program_free(p);
      return -1;
    }
  }
  *out = p;
  return 0;
}

int vt_rt_program_load_mem(vt_rt *rt, const void *elf, size_t size, const char *name,
                           vt_rt_program **out) {
  *out = NULL;
  if (!name) name = "<memory>";
  if (!elf || size == 0) return rt_fail(rt, "%s: empty program image", name);
  uint8_t *copy = malloc(size);
  if (!copy) return rt_fail(rt, "out of memory");
  memcpy(copy, elf, size);
  return load(rt, copy, size, name, out);
}

int vt_rt_program_load_file(vt_rt *rt, const char *path, vt_rt_program **out) {
  *out = NULL;
  uint8_t *buf;
  size_t n;
  char msg[512];
  int e = vt_read_file(path, VT_FILE_LIMIT_ELF, &buf, &n, msg, sizeof msg);
  if (e == ENOEXEC && strlen(msg) > strlen(path) + 2) /* msg: "PATH: not an ELF file ..." */
    return rt_fail(rt, "%s: not a loadable kernel ELF: %s", path, msg + strlen(path) + 2);
  if (e) return rt_fail(rt, "%s", msg);
  if (n == 0) {
    free(buf);
    return rt_fail(rt, "%s: empty file", path);
  }
  return load(rt, buf, n, path, out);
}

void vt_rt_program_free(vt_rt_program *p) {
  if (!p) return;
  for (size_t i = 0; i < p->nkernels; i++) free(p->kernels[i]);
  free(p->kernels);
  vt_elf_free(p->elf);
  vt_kargs_free(p->kargs);
  free(p->image);
  free(p->name);
  free(p);
}

size_t vt_rt_program_kernel_count(const vt_rt_program *p) { return p->nkernels; }

const char *vt_rt_program_kernel_name(const vt_rt_program *p, size_t i) {
  return i < p->nkernels ? p->kernels[i] : NULL;
}

/* .ventus.resource.<kernel>: four 16-bit values (VGPRs, SGPRs, LDS bytes,
 * PDS bytes) in the THU-DSP-LAB/llvm-project version (host-stack.md 6);
 * other sizes are other versions and are ignored. */
static void read_resources(vt_rt_kernel *k) {
  char sec[512];
  snprintf(sec, sizeof sec, ".ventus.resource.%s", k->name);
  const vt_elf_section *s = vt_elf_section_by_name(k->prog->elf, sec);
  if (!s || !s->data || s->size != 8) return;
  const uint8_t *d = s->data;
  uint32_t v = d[0] | (uint32_t)d[1] << 8, g = d[2] | (uint32_t)d[3] << 8;
  k->static_local = d[4] | (uint32_t)d[5] << 8;
  k->private_need = d[6] | (uint32_t)d[7] << 8;
  if (v) k->vgprs = v;
  if (g) k->sgprs = g;
}

int vt_rt_kernel_create(vt_rt_program *p, const char *name, vt_rt_kernel **out) {
  vt_rt *rt = p->rt;
  *out = NULL;
  if (!name || !*name) return rt_fail(rt, "no kernel name given");
  uint32_t entry = 0;
  const vt_elf_symbol *sym = NULL;
  for (size_t i = 0; i < vt_elf_symbol_count(p->elf); i++) {
    const vt_elf_symbol *s = vt_elf_symbol_at(p->elf, i);
    if (strcmp(s->name, name) || s->shndx == 0) continue;
    if (!sym || sym->bind == STB_LOCAL_) sym = s;
  }
  if (!sym) {
    char list[512] = "";
    size_t n = 0;
    for (size_t i = 0; i < p->nkernels && n + 4 < sizeof list; i++) {
      int w = snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", p->kernels[i]);
      if (w < 0 || (size_t)w >= sizeof list - n) break;
      n += (size_t)w;
    }
    return rt_fail(rt, "%s: no kernel '%s' in the program (kernels: %s)", p->name, name,
                   p->nkernels ? list : "none");
  }
  if (!is_code_symbol(p->elf, sym) || startup_symbol(name))
    return rt_fail(rt, "%s: '%s' is not a kernel function (not code in an executable section)",
                   p->name, name);
  entry = sym->value;
  vt_rt_kernel *k = calloc(1, sizeof *k);
  if (!k || !(k->name = dup_str(name))) {
    free(k);
    return rt_fail(rt, "out of memory");
  }
  k->prog = p;
  k->entry = entry;
  k->sgprs = 64; /* pocl's fixed values (host-stack.md 1.3) */
  k->vgprs = 64;
  read_resources(k);
  if (p->kargs && (k->sig = vt_kargs_find(p->kargs, name)) != NULL) {
    k->declared = true;
    k->ndeclared = k->sig->nargs;
  }
  *out = k;
  return 0;
}

void vt_rt_kernel_free(vt_rt_kernel *k) {
  if (!k) return;
  for (unsigned i = 0; i < k->nargs; i++) free(k->args[i].bytes);
  free(k->args);
  free(k->name);
  free(k);
}

const char *vt_rt_kernel_name(const vt_rt_kernel *k) { return k->name; }
uint32_t vt_rt_kernel_entry(const vt_rt_kernel *k) { return k->entry; }

int vt_rt_kernel_set_static_local(vt_rt_kernel *k, uint32_t bytes) {
  if (bytes > 0x01000000u)
    return rt_fail(k->prog->rt, "kernel '%s': %u bytes of static local memory is too much",
                   k->name, bytes);
  k->static_local = bytes;
  return 0;
}
