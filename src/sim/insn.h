/* A decoded warp instruction: the table row, the operands with register
 * extension applied (isa.md 2.6), and the executor chosen for it. */
#ifndef VT_SIM_INSN_H
#define VT_SIM_INSN_H

#include <stdbool.h>
#include <stdint.h>

#include "vt/isa.h"

/* a pending new-form prefix (isa2025.md 3.5.4): none (or only an old-form
 * regext/regexti), PREFIX/PREFIXI with modifiers, PREFIX_MEMORY */
enum { VT_PFX_NONE, VT_PFX_MOD, VT_PFX_MODI, VT_PFX_MEM };
/* PREFIX_MEMORY space field (isa2025.md 3.5.3) */
enum { VT_MSPACE_DEFAULT, VT_MSPACE_GLOBAL, VT_MSPACE_PRIVATE, VT_MSPACE_LOCAL };

struct vt_device;
struct vt_warp;
struct vt_error;
struct vt_insn;
/* An executor: runs a decoded instruction on a warp (VT_OK or an error). */
typedef int (*vt_exec_fn)(struct vt_device *dev, struct vt_warp *w, const struct vt_insn *in,
                          struct vt_error *err);

typedef struct vt_insn {
  _Alignas(16) const vt_insn_desc *d; /* the table row: what the instruction does */
  /* the executor decode chose for it (exec_fast.c); NULL: the generic
   * dispatch of exec.c */
  vt_exec_fn fn;
  uint32_t word, pc;
  uint32_t word_hi;           /* second parcel of a 64-bit instruction (isa2025.md D1) */
  uint16_t id;
  uint16_t vtop;              /* vector registers [0, vtop) hold all it may write (vt_insn_derive) */
  unsigned rd, rs1, rs2, rs3; /* after regext (0..255) */
  unsigned vs3;               /* store data register: rd field, rs3 extension */
  int32_t imm;
  int32_t vimm;               /* 5-bit vector immediate, after regexti */
  uint32_t uimm;              /* the same field read unsigned (5 bits, 11 after regexti) */
  bool vm;                    /* 1 = unmasked */
  /* the prefix that applies (isa2025.md 3.5), from the warp's armed state */
  bool prefixed;              /* any prefix, old- or new-form, precedes */
  uint8_t pfx;                /* VT_PFX_*: a new-form prefix */
  uint8_t neg, abs;           /* NEG/ABS bits: bit k modifies src(k+1) (3.5.2) */
  bool pair;                  /* PREFIX pair = 1: 64-bit instruction on pairs (3.1.5) */
  uint8_t mspace, mwidth;     /* PREFIX_MEMORY space and width fields (3.5.3) */
  uint8_t mhint;              /* PREFIX_MEMORY cachehint (no architectural effect) */
  bool mpair;                 /* PREFIX_MEMORY pair = 1: 64-bit base address */
  bool check;                 /* vt_exec_v2025_check has something to check */
  bool counts_vector;         /* a vector instruction in the statistics (vt_insn_derive) */
  bool arms_prefix;           /* regext/regexti/PREFIX*: arms the next instruction's prefix */
  bool may_defer;             /* may wait for an epoch's end (run_sm.c must_defer): an AMO, a
                               * store or copy, endprg */
} vt_insn;

#endif
