/* Disassembler throughput: decode + vt_disasm in a loop.
 *
 *   bench_disasm [-n WORDS] [-r REPEATS] [ELF...]
 *
 * First on WORDS random-but-valid words (a random instruction of the table
 * with random operand bits; default 1,000,000), then on the executable
 * sections of each ELF32 file given. Prints the best of REPEATS (default 5)
 * runs as instructions per second, next to the 5 M insns/s target. The ELF
 * reading here is a minimal bounds-checked section walk so that the
 * benchmark does not depend on the ELF reader. Not a test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vt/isa.h"

#define TARGET_INSNS_PER_S 5e6

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

/* One pass over the words; returns a checksum so nothing is optimised out. */
static uint64_t pass(const uint32_t *w, const uint32_t *pc, size_t n, const vt_disasm_opts *o) {
  char buf[128];
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i++) {
    sum += (uint64_t)vt_decode(w[i]);
    sum += (uint64_t)vt_disasm(w[i], pc[i], o, buf, sizeof buf) + (unsigned char)buf[0];
  }
  return sum;
}

static void measure(const char *what, const uint32_t *w, const uint32_t *pc, size_t n,
                    int repeats) {
  vt_disasm_opts o = {0};
  double best = 1e30;
  uint64_t sum = 0;
  /* small inputs are repeated so that one timed run is at least ~0.1 s */
  size_t loops = n >= 1000000 ? 1 : (1000000 + n - 1) / n;
  for (int r = 0; r < repeats; r++) {
    double t0 = now();
    for (size_t l = 0; l < loops; l++) sum += pass(w, pc, n, &o);
    double t = now() - t0;
    if (t < best) best = t;
  }
  double rate = (double)n * (double)loops / best;
  printf("%-34s %10zu insns  %8.2f M insns/s  (target %.0f M/s: %s)  [chk %llx]\n", what, n,
         rate / 1e6, TARGET_INSNS_PER_S / 1e6, rate >= TARGET_INSNS_PER_S ? "met" : "NOT met",
         (unsigned long long)(sum & 0xffff));
}

static uint32_t rd32(const uint8_t *p) {
  return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Appends the words of the SHF_EXECINSTR sections of an ELF32 LE file. */
static int load_elf_text(const char *path, uint32_t **w, uint32_t **pc, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return -1;
  }
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *d = sz > 0 ? malloc((size_t)sz) : NULL;
  if (!d || fread(d, 1, (size_t)sz, f) != (size_t)sz) {
    fprintf(stderr, "%s: cannot read\n", path);
    fclose(f);
    free(d);
    return -1;
  }
  fclose(f);
  size_t size = (size_t)sz;
  if (size < 52 || memcmp(d, "\177ELF\1\1", 6) != 0) {
    fprintf(stderr, "%s: not an ELF32 little-endian file\n", path);
    free(d);
    return -1;
  }
  uint32_t shoff = rd32(d + 32);
  uint16_t shentsize = rd16(d + 46), shnum = rd16(d + 48);
  if (shentsize < 40 || shoff > size || (size_t)shnum * shentsize > size - shoff) {
    fprintf(stderr, "%s: bad section header table\n", path);
    free(d);
    return -1;
  }
  size_t cap = *n + 1024;
  for (unsigned i = 0; i < shnum; i++) {
    const uint8_t *sh = d + shoff + (size_t)i * shentsize;
    uint32_t type = rd32(sh + 4), flags = rd32(sh + 8), addr = rd32(sh + 12);
    uint32_t off = rd32(sh + 16), len = rd32(sh + 20);
    if (type != 1 /* PROGBITS */ || !(flags & 4) /* EXECINSTR */) continue;
    if (off > size || len > size - off) continue;
    cap += len / 4;
    *w = realloc(*w, cap * sizeof **w);
    *pc = realloc(*pc, cap * sizeof **pc);
    if (!*w || !*pc) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    for (uint32_t k = 0; k + 4 <= len; k += 4) {
      (*w)[*n] = rd32(d + off + k);
      (*pc)[*n] = addr + k;
      (*n)++;
    }
  }
  free(d);
  return 0;
}

int main(int argc, char **argv) {
  size_t n = 1000000;
  int repeats = 5, status = 0;
  int first_file = argc;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      n = (size_t)strtoul(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
      repeats = atoi(argv[++i]);
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: bench_disasm [-n WORDS] [-r REPEATS] [ELF...]\n");
      return 2;
    } else {
      first_file = i;
      break;
    }
  }
  if (n == 0 || repeats < 1) {
    fprintf(stderr, "bench_disasm: -n and -r must be positive\n");
    return 2;
  }
  uint32_t *w = malloc(n * sizeof *w), *pc = malloc(n * sizeof *pc);
  if (!w || !pc) return 2;
  size_t ninsn = vt_isa_insn_count();
  for (size_t i = 0; i < n; i++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)(next() % ninsn));
    while (d->length != 4) d = vt_isa_insn((vt_insn_id)(next() % ninsn)); /* 32-bit words */
    w[i] = (uint32_t)d->match | ((uint32_t)next() & ~(uint32_t)d->mask);
    pc[i] = 0x80000000u + 4u * (uint32_t)i;
    if (vt_decode(w[i]) == VT_INSN_INVALID) {
      fprintf(stderr, "bench_disasm: 0x%08x (%s) does not decode\n", w[i], d->mnemonic);
      return 1;
    }
  }
  measure("random valid words", w, pc, n, repeats);
  free(w);
  free(pc);

  for (int i = first_file; i < argc; i++) {
    uint32_t *ew = NULL, *epc = NULL;
    size_t en = 0;
    if (load_elf_text(argv[i], &ew, &epc, &en) != 0 || en == 0) {
      if (en == 0) fprintf(stderr, "%s: no executable section\n", argv[i]);
      status = 1;
    } else {
      char what[64];
      const char *base = strrchr(argv[i], '/');
      snprintf(what, sizeof what, "ELF %s", base ? base + 1 : argv[i]);
      measure(what, ew, epc, en, repeats);
    }
    free(ew);
    free(epc);
  }
  return status;
}
