/* Helpers shared by the instruction executors: the decoded instruction with
 * register extension applied, memory access with checks, trace records. */
#ifndef VT_SIM_EXEC_UTIL_H
#define VT_SIM_EXEC_UTIL_H
#include <string.h>

#include "sim_internal.h"

typedef struct vt_insn {
  uint32_t word, pc;
  uint32_t word_hi;           /* second parcel of a 64-bit instruction (isa2025.md D1) */
  uint16_t id;
  const vt_insn_desc *d;      /* the table row: what the instruction does */
  unsigned rd, rs1, rs2, rs3; /* after regext (0..255) */
  unsigned vs3;               /* store data register: rd field, rs3 extension */
  bool vm;                    /* 1 = unmasked */
  int32_t imm;
  int32_t vimm;               /* 5-bit vector immediate, after regexti */
  uint32_t next_pc;           /* set by the executor */
} vt_insn;

/* vt_exec_step in two halves: fetch + decode + regext (no state change),
 * then execution of the decoded instruction (in->next_pc is set). The timing
 * model decodes a warp's next instruction ahead of executing it. */
int vt_sim_decode(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err);
/* exec_v2025.c: fetch and decode the 64-bit instruction whose first parcel
 * is 'first' at w->pc; stop a v2025 row whose execution is not implemented. */
int vt_sim_fetch64(vt_device *dev, vt_warp *w, uint32_t first, vt_insn *in, vt_error *err);
int vt_exec_v2025_gate(const vt_insn *in, vt_error *err);
int vt_sim_execute(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err);
/* What vt_device_run does per warp instruction: execute 'in' (decoded at
 * w->pc), count it, call the trace callback, account for endprg and barrier
 * (release or deadlock). Errors carry the location. */
int vt_sim_run_insn(vt_device *dev, vt_warp *w, unsigned sm, vt_insn *in, vt_error *err);

/* Executors by unit class (the table's unit column): scalar integer, memory
 * and system instructions; scalar FP (Zfinx); RVV; Ventus warp control and
 * per-lane instructions. */
int vt_exec_scalar(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err);
int vt_exec_fp(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err);
int vt_exec_vector(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err);
int vt_exec_ventus(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err);

static inline void trace_x(vt_device *dev, unsigned reg, uint32_t value) {
  if (!dev->record || dev->ntw >= 8) return;
  vt_trace_write *t = &dev->twrites[dev->ntw++];
  t->kind = 'x';
  t->reg = (uint16_t)reg;
  t->lanes = 0;
  t->value[0] = value;
}
static inline void trace_csr(vt_device *dev, unsigned csr, uint32_t value) {
  if (!dev->record || dev->ntw >= 8) return;
  vt_trace_write *t = &dev->twrites[dev->ntw++];
  t->kind = 'c';
  t->reg = (uint16_t)csr;
  t->lanes = 0;
  t->value[0] = value;
}
static inline void trace_v(vt_device *dev, const vt_warp *w, unsigned reg, uint32_t lanes) {
  if (!dev->record || dev->ntw >= 8) return;
  vt_trace_write *t = &dev->twrites[dev->ntw++];
  t->kind = 'v';
  t->reg = (uint16_t)reg;
  t->lanes = lanes;
  memcpy(t->value, w->v[reg], sizeof t->value);
}
static inline void trace_mem(vt_device *dev, uint32_t addr, uint32_t value, unsigned size,
                             bool store, unsigned lane) {
  if ((!dev->record && !dev->rec_mem) || dev->ntm >= 2 * VT_MAX_LANES) return;
  vt_trace_mem *t = &dev->tmem[dev->ntm++];
  t->addr = addr;
  t->value = value;
  t->size = (uint8_t)size;
  t->is_store = store;
  t->lane = (uint8_t)lane;
}

static inline void write_x(vt_device *dev, vt_warp *w, unsigned rd, uint32_t value) {
  if (rd == 0) return;
  w->x[rd] = value;
  trace_x(dev, rd, value);
}

/* Host pointer for a data access of 'size' bytes at 'addr', or NULL with err
 * set (misaligned, unmapped, out of memory). */
uint8_t *vt_sim_access(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size, bool store,
                       vt_error *err);

static inline uint32_t load_le(const uint8_t *p, unsigned size) {
  switch (size) {
  case 1: return p[0];
  case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
  default: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  }
}
static inline void store_le(uint8_t *p, uint32_t v, unsigned size) {
  p[0] = (uint8_t)v;
  if (size > 1) p[1] = (uint8_t)(v >> 8);
  if (size > 2) {
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
  }
}

static inline uint32_t sext(uint32_t v, unsigned bits) {
  uint32_t m = 1u << (bits - 1);
  return (v ^ m) - m;
}
#endif
