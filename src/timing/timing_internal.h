/* Internal state of the timing model: per-instruction static information,
 * caches and the memory system, SMs with their warps, collector units and
 * functional units, the CTA scheduler, statistics. All arrays are allocated
 * when a launch starts; the cycle loop does not allocate (workgroup creation
 * in the functional simulator excepted, once per workgroup). */
#ifndef VT_TIMING_INTERNAL_H
#define VT_TIMING_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/step.h"
#include "util/bits.h"
#include "util/error.h"
#include "vt/timing.h"

#define TM_NEVER UINT64_MAX

/* issue paths */
enum { TM_X, TM_V };
/* functional units; the order within a path is the writeback priority
 * (uarch.md 2.1 step 9) */
enum { TM_U_ALU, TM_U_CSR, TM_U_CTRL, TM_U_VALU, TM_U_MUL, TM_U_FPU, TM_U_SFU, TM_U_LSU,
       TM_U_TC, TM_U_DMA, TM_U_COUNT };
/* register kinds */
enum { TM_R_NONE, TM_R_X, TM_R_V };
/* vt_insn fields an operand comes from */
enum { TM_F_RD, TM_F_RS1, TM_F_RS2, TM_F_RS3, TM_F_VS3, TM_F_V0 };
/* instruction flags */
enum {
  TM_I_BRANCH = 1 << 0,  /* branch lock until the outcome (branches, jumps, vbranch, join) */
  TM_I_VECTOR = 1 << 1,  /* has vector operands: counts active lanes */
  TM_I_LOAD = 1 << 2,
  TM_I_STORE = 1 << 3,
  TM_I_AMO = 1 << 4,
  TM_I_FENCE = 1 << 5,
  TM_I_BARRIER = 1 << 6,
  TM_I_ENDPRG = 1 << 7,
  TM_I_REGEXT = 1 << 8,
  TM_I_MASKABLE = 1 << 9, /* reads v0 when vm = 0 */
  TM_I_IDIV = 1 << 10,    /* SFU integer divide (data-dependent) */
  TM_I_VBRANCH = 1 << 11,
  TM_I_MMA = 1 << 12,      /* MMA/MMA64 on the tensor units (tensor.c) */
  TM_I_DMA = 1 << 13,      /* a copy: queued on a DMA engine at dispatch (dma.c) */
  TM_I_DMA_WAIT = 1 << 14, /* cp_dma_mbarrier: waits for the warp's copies */
  TM_I_PREFIX = 1 << 15,   /* a v2025 prefix dispatched as an instruction (prefix_fused = 0) */
  TM_I_PRIVATE = 1 << 16,  /* Ventus private-memory addressing (one word per lane) */
  TM_I_MEM = TM_I_LOAD | TM_I_STORE | TM_I_AMO
};

typedef struct tm_src {
  uint8_t kind, field;
  uint8_t n; /* registers: 1, or 2 for a register pair (isa2025.md 3.1.1) */
} tm_src;

typedef struct tm_iinfo {
  uint8_t path, unit, lat, nsrc;
  uint8_t dst_kind; /* TM_R_*: register written (field rd) */
  uint8_t dst_n;    /* registers written from rd on: 1, or 2 for a pair */
  uint32_t flags;
  tm_src src[5];
} tm_iinfo;

/* What an instruction costs at dispatch when it depends on the warp's state
 * or on a prefix (dyn.c): register counts (pairs at SEW 64, widening
 * results, the pair prefix, PREFIX_MEMORY groups), the unit latency and
 * initiation interval (64-bit elements, binary64, VOP64 modifiers),
 * address-generation cycles and the SFU's binary64/64-bit work. */
typedef struct tm_dyn {
  uint8_t src_n[5];
  uint8_t dst_n;
  uint8_t lat;   /* unit latency (pipelined units) */
  uint8_t ii;    /* cycles the unit accepts nothing else (1: pipelined) */
  uint8_t agen;  /* extra LSU address-generation cycles */
  uint8_t hint;  /* PREFIX_MEMORY cachehint, when lsu_honor_hints */
  bool fp64;     /* SFU: binary64 divide/square root */
  bool wide;     /* SFU: 64-bit integer division */
  bool pair;     /* a scalar instruction on register pairs (counter) */
  bool multi;    /* some operand spans more than one register */
} tm_dyn;

/* ---- caches (tag arrays with the time each line becomes valid) ---- */
typedef struct tm_cache {
  unsigned sets, ways;
  uint32_t *tag;      /* line number + 1; 0 = invalid */
  uint64_t *valid_at; /* fill time: a line with valid_at > now is an outstanding miss */
  uint64_t *stamp;    /* LRU time stamp */
  uint8_t *dirty;
  uint32_t *old_tag;  /* line replaced by the fill in flight (readable until valid_at) */
  uint16_t lfsr;
  bool random;
} tm_cache;

int tm_cache_init(tm_cache *c, unsigned sets, unsigned ways, bool random);
void tm_cache_free(tm_cache *c);
/* index of the line's entry or -1 */
int tm_cache_find(const tm_cache *c, uint32_t line);
/* entry to replace in line's set (prefers invalid ways, then lines not in flight) */
int tm_cache_victim(tm_cache *c, uint32_t line, uint64_t now);
void tm_cache_touch(tm_cache *c, int e, uint64_t now);
/* the replaced line of an entry whose fill is in flight is still there */
bool tm_cache_old_hit(const tm_cache *c, uint32_t line, uint64_t now);
/* entry e receives line, valid from 'fill' (the line it held stays until then) */
void tm_cache_fill(tm_cache *c, int e, uint32_t line, uint64_t fill, uint64_t now);

/* ---- TLBs (setting mmu; tlb.c) ---- */
typedef struct tm_tlbe {
  uint64_t tag;       /* (virtual page number >> 9 * level) + 1; 0 = invalid */
  uint64_t ppn;       /* physical page number of the mapping's first 4 KiB page */
  uint64_t valid_at;  /* fill time: later is a walk in flight */
  uint64_t stamp;     /* LRU time stamp */
  uint16_t asid;
  uint8_t level;      /* 0: 4 KiB, 1: 2 MiB, 2: 1 GiB */
  bool global;        /* G: matches every ASID */
} tm_tlbe;
typedef struct tm_tlb {
  unsigned sets, ways;
  tm_tlbe *e;
} tm_tlb;
int tm_tlb_init(tm_tlb *tl, unsigned sets, unsigned ways);
void tm_tlb_free(tm_tlb *tl);
/* timeline threads of the page walkers (walker k: TM_TL_WALKER + k) */
#define TM_TL_WALKER 2000u

/* ---- collector units and in-flight instructions ---- */
#define TM_MAX_REQ 128 /* up to 4 words per lane (PREFIX_MEMORY width 128) */
typedef struct tm_op {
  uint64_t ready;     /* in the collector: issue-valid time; after issue: result time */
  uint64_t enter;     /* reaches its collector unit (reads from the next cycle) */
  uint16_t warp;      /* warp slot */
  uint8_t path, unit, dst_kind, nsrc, pending; /* pending: bit i = operand i not granted */
  uint8_t lat;
  uint32_t flags;
  uint16_t dst_reg;
  uint32_t tc_lat, tc_ii, tc_macs; /* MMA: latency, initiation interval, M*N*K */
  uint16_t src_reg[8];
  uint8_t src_kind[8];
  uint8_t src_bank[8];
  bool lost_bank;    /* lost a bank arbitration in the last cycle */
  bool redirect;     /* taken branch: flush and refetch at target */
  bool scalar_on_v;  /* scalar instruction on the V path (FIN quirk) */
  uint32_t target;
  uint32_t lanes;    /* active lanes */
  uint32_t hw_extra; /* lanes the hardware runs beyond the functional ones (hw_lanes) */
  const char *name;  /* mnemonic (timeline) */
  uint32_t sfu_cycles;
  uint16_t id;       /* vt_insn_id */
  uint8_t nreq;      /* memory requests */
  uint8_t agen;      /* extra address-generation cycles (dyn.c) */
  uint8_t ii;        /* cycles its unit accepts nothing else (dyn.c) */
  uint8_t hint;      /* cachehint (dyn.c) */
  uint8_t dst_n;     /* registers written from dst_reg on: 1, 2 for a pair, up to 8 for MMA D groups */
  uint8_t shared;    /* requests go to shared memory */
  uint64_t req_line[TM_MAX_REQ]; /* line number (global; virtual with the MMU on) */
  uint8_t req_cost[TM_MAX_REQ];  /* shared memory: cycles (bank conflicts) */
  int next;          /* free list / queue link */
} tm_op;

/* result queue of a unit (ops in completion order) */
#define TM_UQ 64
typedef struct tm_unitq {
  int q[TM_UQ];
  unsigned head, n;
  uint64_t head_ready; /* result time of the head op (valid when n > 0) */
} tm_unitq;

/* ---- warps ---- */
typedef struct tm_group {
  uint32_t pc;       /* first instruction (4-byte aligned) */
  uint16_t n;        /* instructions: up to fetch_bytes / 4 = 1024 */
  uint64_t ready;
} tm_group;

#define TM_IBUF 8

/* the registers of one decoded instruction, as the scoreboard sees them */
typedef struct tm_regs {
  uint16_t id; /* vt_insn_id: its tm_iinfo */
  uint16_t rd, rs1, rs2, rs3, vs3;
  bool vm;
} tm_regs;

/* registers of a workgroup: 32-bit usage per warp x up to 32 warps */
static inline uint64_t wg_regs(uint32_t per_warp, unsigned warps) {
  return (uint64_t)per_warp * warps;
}
enum { TM_ST_ISSUE, TM_ST_IBUFFER, TM_ST_SCOREBOARD, TM_ST_MEMORY, TM_ST_BRANCH, TM_ST_BARRIER,
       TM_ST_OPCOL, TM_ST_BANK, TM_ST_UNIT, TM_ST_DISPATCH, TM_ST_DMA_QUEUE, TM_ST_DMA_WAIT,
       TM_ST_ENDED, TM_ST_COUNT }; /* the order of the st_* counters */

struct tm_wg;
typedef struct tm_warp {
  vt_warp *fw;        /* functional warp; NULL: slot free */
  struct tm_wg *wg;
  uint64_t start_at;  /* cycle the warp entered the SM (it is active from then) */
  /* front end */
  uint64_t fetch_pc;     /* next group to request (2^32: past the last one) */
  uint32_t fetch_epoch;  /* requests of an older epoch are squashed */
  uint32_t slot0_pc;     /* SlowDown register: the pc of slot0 */
  uint64_t retry_until;  /* refetching a missing line: no hit before this */
  tm_group ib[TM_IBUF];
  unsigned ib_head, ib_n;
  /* decoded head instruction */
  bool head_valid;
  vt_insn head;
  const tm_iinfo *hinfo;
  tm_dyn hdyn;              /* its dispatch-time costs (dyn.c) */
  bool head64;              /* it is a 64-bit instruction ... */
  uint64_t head_at;         /* ... dispatchable from this cycle (insn64_decode_extra) */
  /* scoreboard */
  uint64_t xpend[4], vpend[4]; /* pending writes */
  uint64_t xmem[4], vmem[4];   /* ... by memory instructions */
  uint64_t oc_free_at;         /* own collector entry free from this cycle */
  uint64_t counted_at;         /* cycle whose reason histogram counts this warp */
  uint64_t span_start;
  unsigned lsu_out;            /* outstanding memory instructions */
  unsigned inflight;           /* dispatched, not completed */
  uint64_t dma_done_at;        /* completion of its last copy (isa2025.md 3.9.6) */
  int oc_op;                   /* its op in the collector (in_oc) */
  uint32_t init_mask;  /* the functional mask it started with (its work-items) */
  uint32_t hw_extra;   /* lanes past its work-items, which the hardware runs while converged */
  uint64_t stale_ready; /* ready time of the group held for stale_pending */
  /* SlowDown register (slowdown_stale_check): the first instruction of the
   * head group once dispatched (slot0_valid); when the group is consumed it
   * stays there, and the next group waits for its registers (stale_pending) */
  tm_regs slot0;
  bool slot0_valid, stale_pending;
  bool branch_lock, at_barrier, ended, in_oc;
  bool exec_ended;             /* its endprg executed (fetch stops) */
  uint8_t reason;              /* stall reason of the current cycle */
  uint8_t span_reason;         /* timeline: current span */
  uint8_t oc_cu;               /* its collector unit (in_oc) */
} tm_warp;

typedef struct tm_wg {
  vt_wg *fw;
  unsigned sm, nwarps, arrived, ended, done_warps;
  uint16_t slot[32]; /* warp slots of its warps */
  uint64_t alloc_at;
  uint32_t lds;
  bool live;
} tm_wg;

/* an I-cache request in flight */
#define TM_FQ 4
typedef struct tm_fetchreq {
  uint64_t at, resp, fill; /* requested, response, line valid (<= at: hit) */
  uint32_t pc, epoch;
  uint16_t warp;
  uint16_t n;              /* instructions in the group from pc (up to 1024) */
} tm_fetchreq;

/* ---- SM ---- */
#define TM_MAX_TC 16   /* mma_units */
#define TM_MAX_DMA 8   /* dma_engines */
#define TM_MAX_DMAQ 64 /* dma_queue_depth */
typedef struct tm_sm {
  tm_warp *warps;      /* warp slots */
  unsigned nwarps_res; /* resident warps */
  tm_wg **wgs;         /* resident workgroups (wg_slots) */
  unsigned nwgs;
  uint32_t lds_used;
  uint64_t sgprs_used, vgprs_used; /* usage (32-bit) x warps may pass 2^32 */
  int *cu;             /* collector units: op index or -1 */
  uint32_t cu_path[2]; /* units holding an X / V instruction (bit per unit, ncu <= 32) */
  uint32_t cu_pending; /* units still reading operands */
  uint32_t cu_lost;    /* units that lost a bank arbitration in the last cycle */
  uint64_t cu_ready[32]; /* issue-valid time of each unit's op (mirrors op->ready) */
  unsigned ncu_used;
  unsigned rr_x, rr_v, rr_cu_x, rr_cu_v, rr_bank;
  tm_unitq uq[TM_U_COUNT];
  uint32_t uq_busy;    /* units with results queued (bit per unit) */
  tm_fetchreq fq[TM_FQ]; /* I-cache requests in flight, in request order */
  unsigned fq_head, fq_n;
  uint32_t fetch_epochs;
  uint64_t sfu_free, lsu_free;
  uint64_t unit_free[TM_U_COUNT]; /* a unit busy with a multi-pass instruction */
  unsigned lsu_mshr_used;
  /* memory system, per SM */
  tm_tlb tlb1;         /* L1 TLB (MMU on) */
  tm_cache l1d, l1i;
  uint64_t l1d_next, l1d_block, smem_next, link_next;
  uint64_t *l1d_mshr;  /* fill time of each miss entry */
  uint8_t *l1d_mshr_sub;
  uint32_t *l1d_mshr_line;
  uint64_t *l1d_wshr;  /* release times */
  uint64_t *l1i_mshr;       /* fill time of each I-cache miss entry */
  uint32_t *l1i_mshr_line;  /* its line + 1; 0 = free */
  uint64_t l1i_next_fill;   /* earliest fill in flight (TM_NEVER: none) */
  uint64_t *c;         /* counters of the current launch */
  uint16_t rhist[TM_ST_COUNT]; /* resident started warps per stall reason, this cycle */
  uint16_t ncounted;
  /* tensor units and DMA engines (tensor.c, dma.c) */
  uint64_t tc_free[TM_MAX_TC];              /* each unit accepts a new MMA from */
  uint64_t dma_q[TM_MAX_DMA][TM_MAX_DMAQ];  /* completion times of queued copies (ring) */
  uint8_t dma_head[TM_MAX_DMA], dma_n[TM_MAX_DMA];
  uint64_t dma_free[TM_MAX_DMA];            /* each engine's last copy completes */
  bool x_issued_now;   /* FIN quirk bookkeeping */
  bool v_scalar_now;
} tm_sm;

struct vt_timing {
  vt_settings cfg;
  tm_iinfo info[VT_INSN_COUNT];
  /* derived per launch */
  unsigned nsm, nslots, ncu, numt, sfu_lanes, smem_banks, lat_tc, lsu_mshr;
  uint32_t lds_per_sm;
  uint64_t sgprs_per_sm, vgprs_per_sm; /* grown to fit one workgroup */
  tm_sm *sms;
  tm_op *ops;
  int op_free;
  unsigned nops;
  tm_wg *wgpool;
  unsigned nwgpool;
  /* shared memory system */
  tm_tlb tlb2;        /* L2 TLB and the walkers' busy-until times (MMU on) */
  uint64_t *ptw_free;
  bool mmu;           /* the current launch translates (tm_tlb_launch) */
  uint16_t asid;
  uint32_t tlb_epoch; /* the device's mapping epoch the TLBs hold */
  tm_cache l2;
  uint64_t l2_next, l2_block, sourced_next, dram_next;
  uint64_t *l2_mshr;
  uint64_t *dram_out; /* completion times of requests in flight (ring) */
  unsigned dram_head;
  /* run state */
  vt_device *dev;
  const vt_launch *launch;
  uint64_t now, next_ev, launch_start;
  bool progress;
  uint64_t executed, budget;
  uint64_t next_wg, total_wg, done_wg;
  uint64_t done_not_before; /* completion reported after the workgroup-end flushes */
  uint64_t cta_free; /* allocator free from */
  unsigned cta_pref;
  int err_rc;
  vt_error *err;
  /* statistics: the device's (vt/counters.h); each SM's row of the current
   * launch is sms[s].c */
  const vt_stats *stats;
  unsigned nlaunch; /* launches run on this model (timeline processes) */
  uint64_t total_cycles; /* of every launch this model ran */
  /* timeline */
  FILE *tl;
  bool tl_first;
  unsigned tl_launch;
};

/* decode.c */
void tm_build_info(vt_timing *t);
/* dyn.c */
void tm_dynamic(const vt_timing *t, const tm_iinfo *info, const vt_insn *in, const vt_warp *w,
                tm_dyn *dy);
/* lsu.c */
void tm_mem_prepare(vt_timing *t, tm_op *op, const vt_warp *w, const vt_device *dev);
uint64_t tm_lsu_issue(vt_timing *t, unsigned sm, tm_op *op, uint64_t now);
/* memsys.c */
int tm_mem_init(vt_timing *t);
void tm_mem_free(vt_timing *t);
/* hint: a PREFIX_MEMORY cachehint whose L1 policy (bits 1:0: 01 evict
 * first, 10 bypass, 11 evict last) applies (lsu_honor_hints), else 0 */
uint64_t tm_l1d_access(vt_timing *t, unsigned sm, uint32_t line, int kind, uint64_t at,
                       uint64_t *accepted, unsigned hint);
uint64_t tm_smem_access(vt_timing *t, unsigned sm, unsigned cost, bool write, uint64_t at,
                        uint64_t *accepted);
/* fetch of 'line': time the line is available (== at on a hit) */
uint64_t tm_l1i_fetch(vt_timing *t, unsigned sm, uint32_t line, uint64_t at, bool *hit);
/* write the I-cache fills that have arrived by 'now' */
void tm_l1i_fills(vt_timing *t, unsigned sm, uint64_t now);
/* a read of 'line' by SM sm reaching the L2 at 'at' (the page walker's
 * PTE reads, DMA engines): the time its data is back */
uint64_t tm_l2_read(vt_timing *t, unsigned sm, uint32_t line, uint64_t at);
/* returns the time the flush has finished (memory writes included) */
uint64_t tm_flush_wg_end(vt_timing *t, unsigned sm, uint64_t at);
enum { TM_RD, TM_WR, TM_AMO };
/* tlb.c: after a launch began, whether it translates (and a TLB flush
 * when the host changed a mapping); the translation of a request at va
 * made at 'at': when it is known, and its physical line in *pline */
void tm_tlb_launch(vt_timing *t);
uint64_t tm_translate(vt_timing *t, unsigned sm, uint64_t va, bool fetch, uint64_t at,
                      uint32_t *pline);
/* tensor.c: MMA registers, hazards, units */
void tm_mma_prepare(vt_timing *t, tm_op *op, const vt_insn *in, unsigned slot);
bool tm_mma_hazard(const tm_warp *w, const vt_insn *in, bool *mem);
void tm_mma_mark(tm_warp *w, const tm_op *op);
bool tm_tc_ready(vt_timing *t, unsigned sm);
uint64_t tm_tc_issue(vt_timing *t, unsigned sm, tm_op *op, uint64_t now);
/* dma.c: engines, queues, completion */
bool tm_dma_room(vt_timing *t, unsigned sm);
void tm_dma_enqueue(vt_timing *t, unsigned sm, tm_warp *w, const vt_insn *in);
void tm_dma_reset(tm_sm *s);
/* frontend.c */
void tm_fetch(vt_timing *t, unsigned sm);
void tm_ibuf_flush(tm_sm *s, tm_warp *w, uint32_t pc);
/* pipeline.c */
int tm_sm_cycle(vt_timing *t, unsigned sm);
void tm_writeback(vt_timing *t, unsigned sm);
/* cta.c */
int tm_cta_cycle(vt_timing *t);
void tm_warp_retire_check(vt_timing *t, unsigned sm, unsigned slot);
/* timeline.c: threads of an SM's process (tids): warp slots from 0,
 * workgroup slots from 1000, tensor units from 2000, DMA engines from 3000 */
#define TM_TL_WG 1000
#define TM_TL_TC 2000
#define TM_TL_DMA 3000
void tm_tl_span(vt_timing *t, unsigned sm, unsigned slot, const char *name, uint64_t start,
                uint64_t end);
void tm_tl_instant(vt_timing *t, unsigned sm, unsigned slot, const char *name, uint64_t at);
void tm_tl_meta(vt_timing *t);
extern const char *const tm_reason_names[TM_ST_COUNT];

/* wake the loop at 'when' (a time-based condition that is not yet true) */
static inline void tm_wake(vt_timing *t, uint64_t when) {
  if (when > t->now && when < t->next_ev) t->next_ev = when;
}
static inline uint64_t tm_max(uint64_t a, uint64_t b) { return a > b ? a : b; }
#define TMC(t, sm, name) ((t)->sms[sm].c[VT_C_##name])
#endif
