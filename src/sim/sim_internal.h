/* Internal state of the functional simulator: device, workgroups, warps,
 * the decode cache and the per-step context. */
#ifndef VT_SIM_INTERNAL_H
#define VT_SIM_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>

#include "csr_ids.h"
#include "mem.h"
#include "step.h"
#include "util/bits.h"
#include "util/error.h"
#include "vt/isa.h"
#include "vt/counters.h"
#include "vt/sim.h"
#include "vt/sim_debug.h"

#define VT_MSTATUS_INIT 0x80000600u /* VS dirty, as the reference (formats-and-launch 6.4) */
#define VT_MSTATUS_FS 0x6000u
#define VT_MSTATUS_VS 0x600u /* the vector unit's state: 0 = off */

typedef struct vt_simt_entry {
  uint32_t r_pc, else_pc, else_mask;
} vt_simt_entry;

enum { WARP_RUNNING, WARP_BARRIER, WARP_ENDED };

/* memory records of one instruction: an AMO's read and write, or up to four
 * words per lane of a PREFIX_MEMORY width-128 access (isa2025.md 3.5.3) */
#define VT_TMEM_MAX (4 * VT_MAX_LANES)


/* The per-warp Ventus CSRs tid..rpc (isa.md 4.1) and gds..lds_limit
 * (isa2025.md 2.5), by number (isa_csrs.def, isa_csrs_v2025.def): WCSR(w, PDS)
 * is warp w's CSR_PDS. 0x80d..0x80f are slots no CSR uses (csr.c refuses
 * them). */
#define VT_WARP_CSRS (VT_CSR_LDS_LIMIT - VT_CSR_TID + 1)
#define WCSR(w, name) ((w)->csr[VT_CSR_##name - VT_CSR_TID])

struct vt_wg;

/* per-warp translation cache: page number + 1 (0 = empty) -> host page.
 * The slot mixes the page number's higher bits in, so that the program
 * (0x80000000), the first buffers (0x90000000, 0x90100000, ...) and local
 * memory (0x70000000) do not all land on slot 0. */
#define VT_TLB_SIZE 64
/* registers an instruction may write from its rd on (vtop, warp pooling) */
#define VT_VWRITE_SPAN 32u
static inline unsigned vt_tlb_slot(uint32_t vpn) {
  return (vpn ^ (vpn >> 6) ^ (vpn >> 12)) & (VT_TLB_SIZE - 1);
}
typedef struct vt_tlb_entry {
  uint32_t tag;
  uint16_t lo, hi; /* the bytes [lo, hi) of the page that may be accessed */
  uint8_t *page;
} vt_tlb_entry;
/* With the MMU on, a translated page's tag carries what its PTE says of
 * the access kinds (a page number has at most 27 bits): loads refused,
 * stores refused, fetches allowed. A data lookup ignores the bits of the
 * other kinds, a fetch requires EXEC when the MMU is on; a refused kind
 * misses and walks into its fault. The inline data path (vt_access) only
 * takes tags without any of these bits: with the MMU off that is every
 * entry, with it on every page a kernel may load from and store to but not
 * execute; the rest is looked up out of line (exec.c). */
#define VT_TLB_NOLOAD 0x80000000u
#define VT_TLB_NOSTORE 0x40000000u
#define VT_TLB_EXEC 0x20000000u
static inline bool vt_tlb_hit(uint32_t tag, uint32_t vpn, bool store, bool fetch, uint32_t exec) {
  if (fetch) return (tag & ~(VT_TLB_NOLOAD | VT_TLB_NOSTORE)) == ((vpn + 1) | exec);
  return (tag & ~(VT_TLB_EXEC | (store ? VT_TLB_NOLOAD : VT_TLB_NOSTORE))) == vpn + 1;
}
/* The tag the inline data path compares with vpn + 1: a load also takes
 * VT_TLB_NOSTORE entries, which the MMU-off path makes too while several
 * SMs run an epoch (run.h: global pages read from the shared memory,
 * written to the SM's overlay, overlay.h). */
static inline uint32_t vt_tlb_tag(uint32_t tag, bool store) {
  return store ? tag : tag & ~VT_TLB_NOSTORE;
}
/* the page number + 1 of a tag, without the access-kind bits */
#define VT_TLB_KEY(tag) ((tag) & ~(VT_TLB_NOLOAD | VT_TLB_NOSTORE | VT_TLB_EXEC))

/* named allocations (alloc_map.c), sorted by base */
typedef struct vt_alloc {
  uint32_t base, size;
  char label[64];
} vt_alloc;
typedef struct vt_alloc_map {
  vt_alloc *a;
  size_t n, cap;
  uint32_t gen; /* changes with every update (invalidates the warps' caches) */
} vt_alloc_map;

typedef struct vt_warp {
  uint32_t v[VT_NUM_VREGS][VT_MAX_LANES]; /* v[reg][lane], lane = thread */
  vt_tlb_entry tlb[VT_TLB_SIZE];
  uint64_t tlb_used; /* bit i: tlb[i] may be in use (set at each fill; kept with the entries) */
  uint32_t x[VT_NUM_XREGS];
  uint32_t pc, mask; /* SIMT mask, low numt bits */
  uint32_t npc;      /* the next pc: pc + length, or where the executing instruction jumps */
  /* the page of the last decode-cache hit (exec_step.h, vt_decode_hit):
   * its number + 1 (0: none), the device whose decode cache it is, the
   * translation-cache entry it came from and a copy of it (the memo holds
   * while the entry is unchanged), the page's decode-cache entries */
  uint32_t fm_key;
  struct vt_device *fm_dev;
  const vt_tlb_entry *fm_slot;
  vt_tlb_entry fm_entry;
  const struct vt_dcache_entry *fm_chunk;
  uint32_t lane_limit; /* (1 << numt) - 1 */
  int state;
  unsigned wid;
  struct vt_wg *wg;
  uint32_t csr[VT_WARP_CSRS];
  uint32_t mstatus, mtvec, mepc, mcause, mtval, mscratch;
  uint32_t fflags, frm, vstart, vxrm, vxsat, vl, vtype;
  bool vill;
  uint64_t cycle, instret;
  vt_simt_entry *stack;
  unsigned depth, cap;
  /* one-shot register/immediate extension (isa.md 2.6) */
  uint16_t ext;      /* regext imm12, applies to the next instruction */
  bool ext_valid, ext_armed;
  int32_t exti_hi;   /* regexti bits 11:6 */
  bool exti_valid;
  /* the new-form prefix armed with it (isa2025.md 3.5): VT_PFX_* */
  uint8_t pfx_kind;
  uint8_t pfx_neg, pfx_abs; /* PREFIX/PREFIXI modifier bits */
  bool pfx_pair;            /* PREFIX pair = 1 */
  uint8_t pm_space, pm_width, pm_hint; /* PREFIX_MEMORY fields */
  bool pm_pair;
  /* lr.w/lr.d reservation: the word at resv_addr and the width of the lr
   * (4: .w, 8: .d; isa2025.md C12); listed in vt_device.resv */
  bool resv_valid;
  uint8_t resv_width;
  uint64_t resv_addr; /* a 64-bit virtual address with the MMU on */
  uint32_t tlb_gen; /* dev->mem.global.gen its global entries are valid for */
  bool tlb_local;   /* some entry may translate local memory (warp_get clears those) */
  /* vector registers [0, vtop) may be non-zero: a pooled warp clears only
   * these (VT_VWRITE_SPAN) */
  unsigned vtop;
  bool parked; /* waits for the end of the epoch (run.h) */
  /* memory checking: the allocation of the last access [mc_lo, mc_hi),
   * and the one before it (alloc_map.c swaps them back when it is used) */
  uint64_t mc_lo, mc_hi;
  uint32_t mc_gen;
  uint64_t mc_lo2, mc_hi2;
  uint32_t mc_gen2;
} vt_warp;

typedef struct vt_wg {
  unsigned id, sm;
  uint32_t gid[3];
  unsigned nwarps, ended;
  vt_pages lds; /* the workgroup's private local-memory window */
  uint32_t lds_limit; /* bytes of the window the launch gives it, from VT_LDS_BASE */
  uint32_t lds_top;   /* and below VT_PROGRAM_BASE (pocl's __local arguments) */
  vt_warp **warps;    /* nwarps, in the same block (capwarps of room) */
  unsigned capwarps;
  uint32_t pds_slot;  /* its private area, when pds_bound (pds_slots.c) */
  bool pds_bound;
} vt_wg;

/* The free private areas of a launch with vt_launch.pds_wg_slots
 * (pds_slots.c): a stack of slot numbers. */
typedef struct vt_pds_pool {
  uint32_t *free;
  uint32_t nfree, cap;
  bool limited; /* the launch has pds_wg_slots */
} vt_pds_pool;

/* the instruction at one pc, decoded as it executes without a prefix
 * (in.word: the word it was decoded from; in.d NULL: not an instruction) */
typedef struct vt_dcache_entry {
  vt_insn in;
} vt_dcache_entry;

struct vt_device {
  vt_settings cfg;
  vt_mem mem;
  const vt_launch *launch;
  unsigned numt;
  vt_trace_fn trace;
  void *trace_ctx;
  vt_stats *stats;  /* counters of every launch (vt/counters.h) */
  uint64_t *rows;   /* the current launch's counters, VT_C_COUNT per SM */
  uint64_t *ctr;    /* the row of the SM whose warp executes */
  uint64_t scratch[VT_C_COUNT]; /* ctr outside launches */
  unsigned cur_sm;  /* the SM whose warp executes */
  /* run control (vt_device_set_poll, vt_device_set_warn) */
  vt_poll_fn poll;
  void *poll_ctx;
  vt_warn_fn warn;
  void *warn_ctx;
  char *dump;       /* live warps after an early stop */
  size_t dump_len;
  struct vt_mmu *mmu;   /* virtual memory (setting mmu; mmu_sim.c), NULL when off */
  uint32_t fetch_exec;  /* VT_TLB_EXEC with the MMU on: what a fetch's cache entry needs */
  vt_alloc_map allocs; /* named allocations (memory checking, messages) */
  int cur_lane;        /* the lane whose access runs (messages), -1 none */
  /* decode cache for the program window, 1024 entries per chunk */
  vt_dcache_entry **dcache;
  size_t dcache_chunks;
  /* warps of finished workgroups, reused by new ones (vt_wg_new) */
  vt_warp **warp_pool;
  size_t npool, cappool;
  /* blocks of finished workgroups (vt_wg with its warp array), reused */
  vt_wg **wg_pool;
  size_t nwgpool, capwgpool;
  /* trace scratch */
  vt_trace_write twrites[8];
  vt_trace_mem tmem[VT_TMEM_MAX];
  unsigned ntw, ntm;
  bool rec_mem; /* record memory accesses in tmem without a trace callback (timing) */
  vt_dma_rec dma; /* the last copy (exec_dma.c) */
  /* warps holding an lr.w reservation (stores by other warps break them) */
  vt_warp **resv;
  unsigned nresv, resv_cap;
  vt_pds_pool pds; /* private areas of the running launch (pds_slots.c) */
  /* debugger hooks (sim_debug.c) */
  vt_sim_hooks hooks;
  bool record; /* record register writes and memory accesses: trace or hooks */
  /* the launch running now (run.h), NULL between launches */
  struct vt_run *run;
  /* set in a worker's copy of the device while several SMs run an epoch:
   * the overlay of the SM it runs (overlay.h) */
  struct vt_ovl *ovl;
  /* the host threads (workers.c) */
  struct vt_workers *workers;
  /* setting reference, read at each launch's start (vt_step_begin): every
   * fast path off, the simple exact paths only (docs/run.md) */
  bool reference;
  /* the lane loops' AVX2 variant (exec_fast.c): the host has it and the
   * setting portable_simd is off; fixed at creation */
  bool avx2;
  /* called for each warp as its workgroup is freed (vt_device_set_warp_end) */
  vt_warp_end_fn warp_end;
  void *warp_end_ctx;
};

/* Frees the decode cache (reference mode runs without it). */
void vt_dcache_drop(vt_device *dev);

/* Launch helpers shared by vt_device_run and the timing model (src/timing). */
int vt_launch_check(vt_device *dev, const vt_launch *l, vt_error *err);
vt_wg *vt_wg_new(vt_device *dev, const vt_launch *l, unsigned id, unsigned sm);
/* Barrier bookkeeping after a warp of wg stopped running (barrier,
 * endprg): release the barrier when every warp that has not ended waits;
 * VT_ERR_DEADLOCK when warps wait for ones that ended. */
int vt_wg_barrier_check(vt_wg *wg, vt_error *err);
/* Frees a workgroup; drops its warps' LR reservations from the device. */
void vt_wg_free(vt_device *dev, vt_wg *wg);
void vt_sim_locate_at(vt_error *err, const vt_warp *w, unsigned sm, vt_device *dev, uint32_t pc);
/* LR/SC reservations: set (lr.w), drop (sc.w, endprg), and break the
 * reservations of other warps on the word a store writes. */
int vt_resv_set(vt_device *dev, vt_warp *w, uint64_t addr);
void vt_resv_drop(vt_device *dev, vt_warp *w);
void vt_resv_store(vt_device *dev, const vt_warp *w, uint64_t addr);
/* A warning through the device's warning callback. */
void vt_sim_warn(vt_device *dev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The live-warp dump (vt_device_warp_dump): clear it, then add the warps of
 * a workgroup resident on SM sm. */
void vt_sim_dump_clear(vt_device *dev);
void vt_sim_dump_wg(vt_device *dev, const vt_wg *wg, unsigned sm);
/* memory checking (alloc_map.c): is [addr, addr + size) inside an allocation? */
bool vt_memcheck_slow(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size, bool store,
                      vt_error *err);
/* Is [addr, addr + size) inside one allocation? Then it becomes the warp's
 * cached one; no error either way (the vector fast path, fastmem.h). */
bool vt_memcheck_span(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size);
static inline bool vt_memcheck(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size,
                               bool store, vt_error *err) {
  if (w->mc_gen == dev->allocs.gen && addr >= w->mc_lo && (uint64_t)addr + size <= w->mc_hi)
    return true;
  return vt_memcheck_slow(dev, w, addr, size, store, err);
}
void vt_alloc_map_remove(vt_alloc_map *m, uint32_t base, uint32_t size);
void vt_alloc_map_free(vt_alloc_map *m);
/* Private areas shared by the workgroups (vt_launch.pds_wg_slots): the
 * schedulers call vt_pds_begin when a launch starts, start a workgroup
 * only while vt_pds_available, and vt_pds_bind it after vt_wg_new (it
 * sets the warps' CSR_PDS); vt_wg_free returns the area. */
int vt_pds_begin(vt_device *dev, const vt_launch *l, vt_error *err);
bool vt_pds_available(const vt_device *dev);
void vt_pds_bind(vt_device *dev, const vt_launch *l, vt_wg *wg);
void vt_pds_release(vt_device *dev, vt_wg *wg);
/* The bytes of a workgroup's local-memory window a launch gives it. */
uint32_t vt_launch_local_bytes(const vt_launch *l);

/* Virtual memory (mmu_sim.c): set up and tear down with the device; the
 * translation-cache miss of a global access (walk, fault, fill e); a
 * launch's page table; the memory API on the current address space;
 * side-effect-free reads (error locations), the memory checker's "is it
 * mapped" and zeroing, which work with the MMU on or off. */
int vt_mmu_init(vt_device *dev);
void vt_mmu_destroy(vt_device *dev);
uint8_t *vt_mmu_fill(vt_device *dev, vt_tlb_entry *e, uint64_t va, unsigned size, bool store,
                     bool fetch, vt_error *err);
int vt_mmu_launch(vt_device *dev, const vt_launch *l, vt_error *err);
int vt_mmu_mem_map(vt_device *dev, uint32_t base, uint32_t size, vt_error *err);
int vt_mmu_mem_unmap(vt_device *dev, uint32_t base, uint32_t size, vt_error *err);
int vt_mmu_ensure(vt_device *dev, uint32_t base, uint32_t size, vt_error *err);
int vt_mmu_host_copy(vt_device *dev, uint32_t addr, void *buf, size_t n, bool to_dev,
                     vt_error *err);
const uint8_t *vt_sim_peek(vt_device *dev, const vt_warp *w, uint32_t addr);
/* MMU on: the physical address of addr under the launch's page table
 * (the debugger's view of global memory); false if it is not mapped. */
bool vt_sim_phys_of(vt_device *dev, uint32_t addr, uint32_t *pa);
bool vt_sim_mapped(vt_device *dev, uint32_t addr, uint32_t n);
void vt_sim_zero(vt_device *dev, uint32_t addr, uint32_t n);

/* Should a stop with this status dump the live warps? */
static inline bool vt_sim_dump_wanted(int rc) {
  return rc == VT_ERR_INTERRUPTED || rc == VT_ERR_TIMEOUT || rc == VT_ERR_BUDGET ||
         rc == VT_ERR_DEADLOCK;
}
/* the running launch for sim_debug.c (device.c): resident warps, progress */
size_t vt_sim_resident_warps(const vt_device *dev, vt_warp **out, size_t max);
bool vt_sim_run_progress(const vt_device *dev, vt_run_progress *p);
#endif
