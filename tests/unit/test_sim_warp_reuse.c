/* Warps start with every register zero, also when the simulator reuses the
 * warp structure of a finished workgroup (it clears only the vector
 * registers an executed instruction could have written): each workgroup
 * reads v50, v200 (reached through regext) and x20 before writing them, on
 * a device with one warp slot, so every workgroup reuses the previous one's
 * warp; and a second launch on the same device reads them again. */
#include "check.h"
#include "simprog.h"

/* out[3 wgid + k] = v50[0], v200[0], x20; then v50 = 7, v200 = 9, x20 = 5 */
static void build(prog *p) {
  vsetup(p);
  E(p, VT_INSN_CSRRS, T0, CSR_ADDR_WGID, ZERO); /* csrr t0, wgid */
  E(p, VT_INSN_ADDI, T1, ZERO, 12);
  E(p, VT_INSN_MUL, T0, T0, T1);
  li(p, T1, OUT_BASE);
  E(p, VT_INSN_ADD, T0, T0, T1);
  E(p, VT_INSN_REGEXT, 1u << 6); /* vs2 (bits 8:6) += 1 << 5: v18 -> v50 (isa.md 2.6) */
  E(p, VT_INSN_VMV_X_S, T2, 18);
  E(p, VT_INSN_SW, T2, 0, T0);
  E(p, VT_INSN_REGEXT, 6u << 6); /* v8 -> v200 */
  E(p, VT_INSN_VMV_X_S, T2, 8);
  E(p, VT_INSN_SW, T2, 4, T0);
  E(p, VT_INSN_SW, 20, 8, T0);
  E(p, VT_INSN_REGEXT, 1u); /* vd (bits 2:0) += 1 << 5: v18 -> v50 */
  E(p, VT_INSN_VMV_V_I, 18, 7);
  E(p, VT_INSN_REGEXT, 6u); /* v8 -> v200 */
  E(p, VT_INSN_VMV_V_I, 8, 9);
  E(p, VT_INSN_ADDI, 20, ZERO, 5);
  p->w[p->n++] = WORD_ENDPRG;
}

TEST(reused_warps_start_zero) {
  vt_settings s;
  vt_settings_default(&s);
  s.sms = 1;
  s.warp_slots = 1;
  vt_device *dev = vt_device_new(&s);
  prog p = {0};
  build(&p);
  CHECK(st, dev && load_prog(dev, &p) == VT_OK);
  if (!dev) return;
  vt_launch l = simple_launch(4, 1);
  l.num_wg[0] = 8;
  for (int launch = 0; launch < 2; launch++) {
    vt_error err;
    CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &err), VT_OK);
    for (unsigned i = 0; i < 3 * 8; i++) CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 4 * i), 0);
  }
  vt_device_free(dev);
}

RUN_TESTS(T(reused_warps_start_zero))
