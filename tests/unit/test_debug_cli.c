/* vt debug driven by scripts (-x FILE and standard input): every command of
 * the debugger with its output checked, on examples/kernels/divergent.s
 * (8 work-items in = 1..8 on 2 warps of 4 lanes; odd lanes compute 3x + 1,
 * even ones x / 2, so out = 4 1 10 2 16 3 22 4) and on small kernels that
 * fault, deadlock or loop. Expected addresses come from GNU nm and the
 * instruction count of the source; register and memory values are worked
 * out by hand from the kernel and the ISA's SIMT rules (isa.md 2.1, 2.2):
 * a divergent vbeq runs the taken (even) lanes first when the two sides
 * are equally large, and the join pops them back in. */
#include <signal.h>
#include <unistd.h>

#include "debug_test_util.h"

static uint32_t S; /* the address of divergent */

static bool setup(check_state *st) {
  if (!dt_have_nm()) {
    printf("note: %s not found; addresses are not checked\n", NM);
  }
  if (dt_setup_divergent() != 0) {
    st->failed_checks++;
    fprintf(stderr, "cannot assemble divergent.s\n");
    return false;
  }
  S = dt_nm("divergent.elf", "divergent");
  if (!S) S = 0x800000b4; /* what the start-up code's 45 instructions give */
  return true;
}

/* the location line of a stop of warp G of WG 0 at S + off */
static const char *where(unsigned g, uint32_t mask, uint32_t off, unsigned line) {
  return dt_fmt("warp %u (SM 0, WG 0, warp %u), mask %08x, at 0x%08x <divergent%s>, "
                "divergent.s:%u", g, g, mask, S + off, off ? dt_fmt("+0x%x", off) : "", line);
}

TEST(start_help_and_errors) {
  if (!setup(st)) return;
  char *out, *err;
  int rc = dt_debug(DT_DIVERGENT, "help\nhelp break\nhelp nosuch\nfrobnicate\ninfo\n# a comment\n\n"
                    "print nosuchsym\nbreak nosuch.s:3\nwarp 9\nstep 0\nprint/q x1\nquit\n",
                    &out, &err);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "Launch 1 (kernel 'divergent'): 1 x 1 x 1 workgroup(s) of 2 warp(s) x 4 thread(s); "
      "stopped before the first instruction.",
      "warp 0 (SM 0, WG 0, warp 0), mask 0000000f, at 0x80000000 <_start>, crt0.s:10",
      "10\t    la      gp, __global_pointer$",
      "=> 0x80000000 <_start>:  ...",
      "(vt) help",
      "Commands (a unique prefix or the short form in brackets also works):",
      "  break [b]              ...", "  tbreak [tb]            ...", "  watch                  ...",
      "  delete [d]             ...", "  info [i]               ...", "  step [s]               ...",
      "  stepi [si]             ...", "  next [n]               ...", "  continue [c]           ...",
      "  finish [fin]           ...", "  run-to-barrier [rb]    ...", "  warp [w]               ...",
      "  wg                     ...", "  sm                     ...", "  print [p]              ...",
      "  set                    ...", "  x                      ...", "  disassemble [disas]    ...",
      "  trace                  ...", "  stats                  ...", "  help [h]               ...",
      "  quit [q]               ...",
      "(vt) help break",
      "break LOCATION [if warp=N wg=N sm=N]",
      "(vt) help nosuch", "error: no command 'nosuch'",
      "(vt) frobnicate", "error: unknown command 'frobnicate' (help lists the commands)",
      "(vt) info", "error: info what? (breakpoints, warps, simt, barriers, registers)",
      "(vt) # a comment", "(vt) ",
      "(vt) print nosuchsym", "error: no symbol 'nosuchsym'",
      "(vt) break nosuch.s:3", "error: no code for nosuch.s:3 in the line tables",
      "(vt) warp 9", "error: no warp 9 is resident (info warps lists them)",
      "(vt) step 0", "error: expected a positive count, not '0'",
      "(vt) print/q x1", "error: bad format '/q' (x, d, u or f)",
      "(vt) quit", NULL};
  dt_expect_lines(st, out, lines);
  CHECK(st, err && !*err);
  free(out);
  free(err);
}

TEST(breakpoints) {
  if (!setup(st)) return;
  char *out;
  char script[1024];
  snprintf(script, sizeof script,
           "break divergent\ntbreak divergent.s:26 if warp=1\nbreak 0x%08x if wg=0 sm=0\n"
           "b divergent.s:23\ninfo breakpoints\ncontinue\ncontinue\ndelete 1\ncontinue\n"
           "info breakpoints\ndelete 3 7\ndelete\ninfo breakpoints\nbreak divergent if bogus=1\n"
           "quit\n", S + 0x58);
  int rc = dt_debug(DT_DIVERGENT, script, &out, NULL);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "(vt) break divergent",
      dt_fmt("Breakpoint 1 at 0x%08x <divergent>: divergent.s:9", S),
      "(vt) tbreak divergent.s:26 if warp=1",
      dt_fmt("Temporary breakpoint 2 at 0x%08x <divergent+0x40>: divergent.s:26", S + 0x40),
      dt_fmt("(vt) break 0x%08x if wg=0 sm=0", S + 0x58),
      dt_fmt("Breakpoint 3 at 0x%08x <divergent+0x58>: divergent.s:34", S + 0x58),
      /* line 23 is a label: the next line with code */
      "(vt) b divergent.s:23", "(line 23 has no code; using line 24)",
      dt_fmt("Breakpoint 4 at 0x%08x <divergent+0x38>: divergent.s:24", S + 0x38),
      "(vt) info breakpoints",
      "Num  Type        Disp  Address     Hits  What",
      dt_fmt("1    breakpoint  keep  0x%08x  0     divergent", S),
      dt_fmt("2    breakpoint  del   0x%08x  0     divergent.s:26 if warp=1", S + 0x40),
      dt_fmt("3    breakpoint  keep  0x%08x  0     0x%08x if wg=0 sm=0", S + 0x58, S + 0x58),
      dt_fmt("4    breakpoint  keep  0x%08x  0     divergent.s:23", S + 0x38),
      /* warp 0 reaches divergent first, warp 1 right after it (round robin) */
      "(vt) continue", dt_fmt("Breakpoint 1, %s", where(0, 0xf, 0, 9)),
      "9\t    csrr    t0, CSR_KNL",
      dt_fmt("=> 0x%08x <divergent>:  803022f3  csrr t0, knl", S),
      "(vt) continue", dt_fmt("Breakpoint 1, %s", where(1, 0xf, 0, 9)),
      "(vt) delete 1",
      /* both warps pass line 24; warp 0 first */
      "(vt) continue", dt_fmt("Breakpoint 4, %s", where(0, 0xf, 0x38, 24)),
      "(vt) info breakpoints",
      dt_fmt("2    breakpoint  del   0x%08x  0     divergent.s:26 if warp=1", S + 0x40),
      dt_fmt("4    breakpoint  keep  0x%08x  1     divergent.s:23", S + 0x38),
      "(vt) delete 3 7", "error: no breakpoint number 7",
      "(vt) delete", "Deleted every breakpoint and watchpoint.",
      "(vt) info breakpoints", "No breakpoints or watchpoints.",
      "(vt) break divergent if bogus=1",
      "error: bad condition 'bogus=1' (expected warp=N, wg=N or sm=N)", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

TEST(temporary_and_conditional_breakpoints) {
  if (!setup(st)) return;
  char *out;
  /* warp 0 runs first, so without the condition it would stop first */
  int rc = dt_debug(DT_DIVERGENT, "tbreak divergent.s:26 if warp=1\ncontinue\ninfo breakpoints\n"
                    "quit\n", &out, NULL);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "(vt) continue", dt_fmt("Temporary breakpoint 1, %s", where(1, 0xf, 0x40, 26)),
      "26\t    vbeq    v3, v4, .Leven           # even lanes take the branch",
      dt_fmt("=> 0x%08x <divergent+0x40>:  ...", S + 0x40),
      "(vt) info breakpoints", "No breakpoints or watchpoints.", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

TEST(stepping_through_divergence) {
  if (!setup(st)) return;
  char *out;
  int rc = dt_debug(DT_DIVERGENT,
                    "break divergent.s:26 if warp=0\ncontinue\nprint v2\nprint/d v3\ninfo simt\n"
                    "step\ninfo simt\nprint mask\nstepi 2\ninfo simt\nprint/d v5\nnext\n"
                    "info simt\nprint/d v5\nquit\n", &out, NULL);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "(vt) continue", dt_fmt("Breakpoint 1, %s", where(0, 0xf, 0x40, 26)),
      "(vt) print v2", "v2[0] = 0x00000001", "v2[1] = 0x00000002", "v2[2] = 0x00000003",
      "v2[3] = 0x00000004",
      "(vt) print/d v3", "v3[0] = 1", "v3[1] = 0", "v3[2] = 1", "v3[3] = 0",
      "(vt) info simt", "warp 0 (SM 0, WG 0, warp 0): mask 0000000f, SIMT stack depth 0",
      /* vbeq: lanes 1 and 3 are even and take the branch first */
      "(vt) step", where(0, 0xa, 0x54, 32),
      "(vt) info simt", "warp 0 (SM 0, WG 0, warp 0): mask 0000000a, SIMT stack depth 2",
      dt_fmt("  #0   (top) reconvergence pc 0x%08x, else pc 0x%08x, else mask 00000005",
             S + 0x58, S + 0x44),
      dt_fmt("  #1         reconvergence pc 0x%08x, else pc 0x%08x, else mask 0000000f",
             S + 0x58, S + 0x58),
      "(vt) print mask", "mask = 0x0000000a",
      /* vsra, then the join pops the odd lanes' entry */
      "(vt) stepi 2", where(0, 0x5, 0x44, 27),
      "(vt) info simt", "warp 0 (SM 0, WG 0, warp 0): mask 00000005, SIMT stack depth 1",
      dt_fmt("  #0   (top) reconvergence pc 0x%08x, else pc 0x%08x, else mask 0000000f",
             S + 0x58, S + 0x58),
      "(vt) print/d v5", "v5[0] = 0", "v5[1] = 1   (inactive)", "v5[2] = 0",
      "v5[3] = 2   (inactive)",
      /* li is neither a branch nor a call: next = step */
      "(vt) next", where(0, 0x5, 0x48, 28),
      "(vt) info simt", "warp 0 (SM 0, WG 0, warp 0): mask 00000005, SIMT stack depth 1",
      "(vt) print/d v5", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

TEST(next_over_a_divergent_region_and_a_call) {
  if (!setup(st)) return;
  char *out;
  int rc = dt_debug(DT_DIVERGENT,
                    "break divergent.s:26 if warp=0\ncontinue\nnext\ninfo simt\nprint/d v5\n"
                    "delete 1\ncontinue\nquit\n", &out, NULL);
  CHECK(st, rc == 0);
  /* crt0.s:43: 34 one-instruction lines and 4 la pairs before it */
  uint32_t jalr = 0x80000098u;
  const char *lines[] = {
      "(vt) continue", dt_fmt("Breakpoint 1, %s", where(0, 0xf, 0x40, 26)),
      /* over both sides: back at depth 0 at the join, all lanes on */
      "(vt) next", where(0, 0xf, 0x58, 34),
      "(vt) info simt", "warp 0 (SM 0, WG 0, warp 0): mask 0000000f, SIMT stack depth 0",
      "(vt) print/d v5", "v5[0] = 4", "v5[1] = 1", "v5[2] = 10", "v5[3] = 2",
      "(vt) delete 1", "(vt) continue", "The program ended (status 0).", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
  /* next over the call of the kernel: from crt0's jalr to the endprg after it */
  rc = dt_debug(DT_DIVERGENT, "break crt0.s:43 if warp=1\ncontinue\nnext\nquit\n", &out, NULL);
  CHECK(st, rc == 0);
  const char *call[] = {
      "(vt) continue",
      dt_fmt("Breakpoint 1, warp 1 (SM 0, WG 0, warp 1), mask 0000000f, at 0x%08x <_start+0x%x>, "
             "crt0.s:43", jalr, jalr - 0x80000000u),
      "43\t    jalr    t1", "(vt) next",
      dt_fmt("warp 1 (SM 0, WG 0, warp 1), mask 0000000f, at 0x%08x <_start+0x%x>, crt0.s:44",
             jalr + 4, jalr + 4 - 0x80000000u),
      "44\t    endprg  x0, x0, x0", NULL};
  dt_expect_lines(st, out, call);
  free(out);
}

TEST(barriers_finish_and_the_end) {
  if (!setup(st)) return;
  char *out;
  int rc = dt_debug(DT_DIVERGENT,
                    "break divergent.s:38 if warp=0\ncontinue\nprint *(a0+4)\ndelete\n"
                    "run-to-barrier\ninfo barriers\nwarp 1\nrun-to-barrier\ninfo barriers\n"
                    "finish\ninfo warps\ncontinue\ncontinue\ninfo warps\nprint x1\nquit\n",
                    &out, NULL);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "(vt) continue", dt_fmt("Breakpoint 1, %s", where(0, 0xf, 0x68, 38)),
      "(vt) run-to-barrier", "Warp 0 reached a barrier (waiting).",
      "(vt) info barriers",
      "workgroup 0 (SM 0): 1 of 2 warps wait at a barrier (warps 0); running: 1; ended: none",
      "(vt) warp 1", where(1, 0xf, 0x68, 38),
      "(vt) run-to-barrier", "Warp 1 reached a barrier (the last to arrive: released).",
      "(vt) info barriers",
      "workgroup 0 (SM 0): 0 of 2 warps wait at a barrier; running: 0 1; ended: none",
      "(vt) finish", "Workgroup 0 finished.", "...", "(the warp has ended)",
      "(vt) info warps", "  Warp  SM  WG    W   State       SIMT  Mask      PC",
      "  0     0   0     0   ended       0     0000000f  ...",
      "* 1     0   0     1   ended       0     0000000f  ...",
      "Workgroups: 1 resident, 0 done, 0 waiting (1 in launch 1)",
      "(vt) continue", "The program ended (status 0).",
      "(vt) continue", "error: the program is not running",
      "(vt) info warps", "No warps: the program is not running.",
      "(vt) print x1", "error: no warp is selected (the program is not running)", NULL};
  dt_expect_lines(st, out, lines);
  /* the out buffer after the end: the hand-computed Collatz steps */
  const char *p = out ? strstr(out, "(vt) print *(a0+4)\n0x") : NULL;
  CHECK(st, p != NULL);
  if (p) {
    unsigned long addr = strtoul(p + strlen("(vt) print *(a0+4)\n"), NULL, 16);
    char script[256];
    snprintf(script, sizeof script, "continue\nx/8wd 0x%lx\nx/2xw 0x%lx\nquit\n", addr, addr + 8);
    free(out);
    rc = dt_debug(DT_DIVERGENT, script, &out, NULL);
    CHECK(st, rc == 0);
    const char *end[] = {"The program ended (status 0).",
                         dt_fmt("(vt) x/8wd 0x%lx", addr), dt_fmt("0x%08lx: 4 1 10 2", addr),
                         dt_fmt("0x%08lx: 16 3 22 4", addr + 16),
                         dt_fmt("0x%08lx: 0x0000000a 0x00000002", addr + 8), NULL};
    dt_expect_lines(st, out, end);
  }
  free(out);
}

TEST(watchpoints) {
  if (!setup(st)) return;
  char *out;
  int rc = dt_debug(DT_DIVERGENT,
                    "break divergent\ncontinue\ndelete\nprint *(a0+4)\nwatch *(a0+4):32\n"
                    "info breakpoints\ncontinue\ncontinue\ninfo breakpoints\ncontinue\nquit\n",
                    &out, NULL);
  CHECK(st, rc == 0);
  const char *p = out ? strstr(out, "(vt) print *(a0+4)\n0x") : NULL;
  CHECK(st, p != NULL);
  unsigned long o = p ? strtoul(p + strlen("(vt) print *(a0+4)\n"), NULL, 16) : 0;
  const char *lines[] = {
      "(vt) watch *(a0+4):32", dt_fmt("Watchpoint 2: 0x%08lx (32 bytes)", o),
      "(vt) info breakpoints",
      dt_fmt("2    watchpoint  keep  0x%08lx  0     *(a0+4) (32 bytes)", o),
      /* each warp's vsw12.v writes its 4 lanes; the stop is after it */
      "(vt) continue",
      dt_fmt("Watchpoint 2: warp 0 (SM 0, WG 0, warp 0) at pc 0x%08x wrote:", S + 0x64),
      dt_fmt("  lane 0: 4 bytes at 0x%08lx = 0x00000004", o),
      dt_fmt("  lane 1: 4 bytes at 0x%08lx = 0x00000001", o + 4),
      dt_fmt("  lane 2: 4 bytes at 0x%08lx = 0x0000000a", o + 8),
      dt_fmt("  lane 3: 4 bytes at 0x%08lx = 0x00000002", o + 12), where(0, 0xf, 0x68, 38),
      "(vt) continue",
      dt_fmt("Watchpoint 2: warp 1 (SM 0, WG 0, warp 1) at pc 0x%08x wrote:", S + 0x64),
      dt_fmt("  lane 0: 4 bytes at 0x%08lx = 0x00000010", o + 16),
      dt_fmt("  lane 1: 4 bytes at 0x%08lx = 0x00000003", o + 20),
      dt_fmt("  lane 2: 4 bytes at 0x%08lx = 0x00000016", o + 24),
      dt_fmt("  lane 3: 4 bytes at 0x%08lx = 0x00000004", o + 28),
      "(vt) info breakpoints", dt_fmt("2    watchpoint  keep  0x%08lx  2     ...", o),
      "(vt) continue", "The program ended (status 0).", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
  /* a narrower watchpoint with a condition: lane 2 of warp 1 only */
  char script[256];
  snprintf(script, sizeof script, "watch 0x%lx:4 if warp=1\ncontinue\ncontinue\nquit\n", o + 24);
  rc = dt_debug(DT_DIVERGENT, script, &out, NULL);
  CHECK(st, rc == 0);
  const char *narrow[] = {
      dt_fmt("Watchpoint 1: warp 1 (SM 0, WG 0, warp 1) at pc 0x%08x wrote:", S + 0x64),
      dt_fmt("  lane 2: 4 bytes at 0x%08lx = 0x00000016", o + 24), "...",
      "(vt) continue", "The program ended (status 0).", NULL};
  dt_expect_lines(st, out, narrow);
  free(out);
}

TEST(print_and_set) {
  if (!setup(st)) return;
  char *out;
  int rc = dt_debug(DT_DIVERGENT,
                    "break divergent\ncontinue\ncontinue\nprint csr mhartid\nwarp 0\n"
                    "print csr mhartid\nwarp 1\nprint csr numt\nprint csr numw\nprint csr tid\n"
                    "print csr 0x805\nprint csr bogus\nset x5 = 7\nprint x5\nset t0 = -2\n"
                    "print/d t0\nprint/u $t0\nprint x0\nset x0 = 5\nprint x0\nset v7[1] = 1.5\n"
                    "print/f v7[1]\nprint v7[1]\nset v7 = 9\nprint/d v7\nprint v7[4]\n"
                    "set csr mscratch = 0x1234\nprint csr mscratch\nset csr vlenb = 1\n"
                    "print pc\nprint mask\nprint divergent+8\nprint/d 6-2+1\nset mask = 1\n"
                    "set v3[9] = 1\nset x5 7\nset pc = divergent+4\nprint pc\nquit\n",
                    &out, NULL);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "(vt) print csr mhartid", "mhartid (0xf14) = 0x00000001",
      "(vt) warp 0", where(0, 0xf, 4, 10),
      "(vt) print csr mhartid", "mhartid (0xf14) = 0x00000000",
      "(vt) warp 1", where(1, 0xf, 0, 9),
      "(vt) print csr numt", "numt (0x802) = 0x00000004",
      "(vt) print csr numw", "numw (0x801) = 0x00000002",
      "(vt) print csr tid", "tid (0x800) = 0x00000004",
      "(vt) print csr 0x805", "wid (0x805) = 0x00000001",
      "(vt) print csr bogus", "error: unknown CSR 'bogus'",
      "(vt) set x5 = 7", "(vt) print x5", "x5 (t0) = 0x00000007",
      "(vt) set t0 = -2", "(vt) print/d t0", "x5 (t0) = -2",
      "(vt) print/u $t0", "x5 (t0) = 4294967294",
      "(vt) print x0", "x0 (zero) = 0x00000000",
      "(vt) set x0 = 5", "(x0 is always 0)", "(vt) print x0", "x0 (zero) = 0x00000000",
      "(vt) set v7[1] = 1.5", "(vt) print/f v7[1]", "v7[1] = 1.5",
      "(vt) print v7[1]", "v7[1] = 0x3fc00000",
      "(vt) set v7 = 9", "(vt) print/d v7", "v7[0] = 9", "v7[1] = 9", "v7[2] = 9", "v7[3] = 9",
      "(vt) print v7[4]", "v7[4] = 0x00000000   (no such lane)",
      "(vt) set csr mscratch = 0x1234", "(vt) print csr mscratch",
      "mscratch (0x340) = 0x00001234",
      "(vt) set csr vlenb = 1", "error: CSR 0xc22 cannot be written",
      "(vt) print pc", dt_fmt("pc = 0x%08x", S),
      "(vt) print mask", "mask = 0x0000000f",
      "(vt) print divergent+8", dt_fmt("0x%08x", S + 8),
      "(vt) print/d 6-2+1", "5",
      "(vt) set mask = 1", "error: the SIMT mask cannot be set",
      "(vt) set v3[9] = 1", "error: the warp has 4 lanes",
      "(vt) set x5 7", "error: expected '=' and a value",
      "(vt) set pc = divergent+4", "(vt) print pc", dt_fmt("pc = 0x%08x", S + 4), NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

TEST(memory_spaces) {
  if (!setup(st)) return;
  char *out;
  int rc = dt_debug(DT_DIVERGENT,
                    "break divergent\ncontinue\nset **(a0+4) = 0x04030201\nx/4xb *(a0+4)\n"
                    "x/2xh *(a0+4)\nx/1dw *(a0+4)\nset **(a0+4) = -5\nx/1dw *(a0+4)\n"
                    "x/2db *(a0+4)\nset *lds:0x10 = 0x55\nx/1wx lds:0x10\nx/1wx 0x70000010\n"
                    "set *priv:1:8 = 0xabcd\nx/1wx priv:1:8\nx/1wx priv:2:8\nx/1wx priv:9:8\n"
                    "x/1wx 0x10\nx/2i divergent+0x58\nx/2q divergent\nx/1fb divergent\n"
                    "set *0x10 = 1\nquit\n", &out, NULL);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "(vt) x/4xb *(a0+4)", "...: 0x01 0x02 0x03 0x04",
      "(vt) x/2xh *(a0+4)", "...: 0x0201 0x0403",
      "(vt) x/1dw *(a0+4)", "...: 67305985",
      "(vt) x/1dw *(a0+4)", "...: -5",
      "(vt) x/2db *(a0+4)", "...: -5 -1",
      "(vt) x/1wx lds:0x10", "lds:0x00000010: 0x00000055",
      /* the warp sees its workgroup's local memory at 0x70000000 */
      "(vt) x/1wx 0x70000010", "0x70000010: 0x00000055",
      "(vt) x/1wx priv:1:8", "priv:1:0x00000008: 0x0000abcd",
      "(vt) x/1wx priv:2:8", "priv:2:0x00000008: 0x00000000",
      "(vt) x/1wx priv:9:8", "error: cannot access private memory at 0x00000008",
      "(vt) x/1wx 0x10", "0x00000010:", "error: cannot access memory at 0x00000010",
      "(vt) x/2i divergent+0x58",
      dt_fmt("   0x%08x <divergent+0x58>:  0000205b  join zero, zero, 0", S + 0x58),
      dt_fmt("   0x%08x <divergent+0x5c>:  ...", S + 0x5c),
      "(vt) x/2q divergent", "error: bad format '/2q' (x/NFU: N a count, F one of x d u f i, "
                             "U one of b h w; f needs w)",
      "(vt) x/1fb divergent", "error: bad format '/1fb' ...",
      "(vt) set *0x10 = 1", "error: cannot access memory at 0x00000010", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

TEST(disassemble_and_registers) {
  if (!setup(st)) return;
  char *out;
  char script[256];
  snprintf(script, sizeof script, "break divergent\ncontinue\ndisassemble\ndisassemble 0x%08x\n"
           "info registers\nquit\n", S + 0x40);
  int rc = dt_debug(DT_DIVERGENT, script, &out, NULL);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "(vt) disassemble", dt_fmt("Dump of 0x%08x .. 0x%08x:", S, S + 0x70),
      dt_fmt("=> 0x%08x <divergent>:  803022f3  csrr t0, knl", S),
      dt_fmt("   0x%08x <divergent+0x4>:  0182a303  lw t1, 24(t0)", S + 4),
      dt_fmt("   0x%08x <divergent+0x58>:  0000205b  join zero, zero, 0", S + 0x58),
      dt_fmt("   0x%08x <divergent+0x6c>:  00008067  ret", S + 0x6c),
      dt_fmt("(vt) disassemble 0x%08x", S + 0x40),
      dt_fmt("Dump of 0x%08x .. 0x%08x:", S + 0x40, S + 0x68),
      dt_fmt("   0x%08x <divergent+0x40>:  ...", S + 0x40),
      dt_fmt("   0x%08x <divergent+0x64>:  ...", S + 0x64),
      "(vt) info registers",
      "x0  zero 0x00000000   x1  ra   ...",
      dt_fmt("pc       0x%08x   mask     0000000f", S), NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

TEST(selection) {
  if (!setup(st)) return;
  char *out;
  /* 2 workgroups; 2 warp slots per SM put workgroup 1 on SM 1 */
  int rc = dt_debug("-q divergent.elf --global 16 --local 8 --threads 4 --warp-slots 2 "
                    "--arg in:in.bin --arg out:64",
                    "info warps\nsm 1\nwarp\nwg 0\nwarp 3\nsm 2\nwg 5\nwarp x\nquit\n", &out, NULL);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "(vt) info warps",
      "* 0     0   0     0   running     0     0000000f  0x80000000 <_start>  ...",
      "  1     0   0     1   running     0     0000000f  0x80000000 <_start>  ...",
      "  2     1   1     0   running     0     0000000f  0x80000000 <_start>  ...",
      "  3     1   1     1   running     0     0000000f  0x80000000 <_start>  ...",
      "Workgroups: 2 resident, 0 done, 0 waiting (2 in launch 1)",
      "(vt) sm 1", "warp 2 (SM 1, WG 1, warp 0), mask 0000000f, at 0x80000000 <_start>, crt0.s:10",
      "(vt) warp", "warp 2 (SM 1, WG 1, warp 0), ...",
      "(vt) wg 0", "warp 0 (SM 0, WG 0, warp 0), ...",
      "(vt) warp 3", "warp 3 (SM 1, WG 1, warp 1), ...",
      "(vt) sm 2", "error: no SM 2 is resident (info warps lists them)",
      "(vt) wg 5", "error: no workgroup 5 is resident (info warps lists them)",
      "(vt) warp x", "error: expected a number", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

TEST(trace_and_stats) {
  if (!setup(st)) return;
  char *out;
  int rc = dt_debug(DT_DIVERGENT,
                    "break divergent\ncontinue\ndelete\ntrace on t.txt\nstepi 2\ntrace off\n"
                    "trace on s.txt spike\nstepi\ntrace off\ntrace on\ntrace on x.txt bogus\n"
                    "stats\nquit\n", &out, NULL);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "(vt) trace on t.txt", "Tracing to t.txt (text format).", "(vt) stepi 2", "...",
      "(vt) trace off", "Tracing off.", "(vt) trace on s.txt spike",
      "Tracing to s.txt (spike format).", "(vt) trace on",
      "error: trace on FILE [text|spike], or trace off", "(vt) trace on x.txt bogus",
      "error: trace on FILE [text|spike], or trace off", "(vt) stats",
      "counter                    unit                        total ...",
      "warps                      warps                           2 ...", NULL};
  dt_expect_lines(st, out, lines);
  /* warp 0 and warp 1 each ran divergent's first two instructions, in turn */
  char *t = dt_slurp("t.txt");
  const char *trace[] = {dt_fmt("S0 WG0 W0 %08x 803022f3 csrr t0, knl ...", S),
                         dt_fmt("S0 WG0 W1 %08x 803022f3 csrr t0, knl ...", S),
                         dt_fmt("S0 WG0 W0 %08x 0182a303 lw t1, 24(t0) ...", S + 4),
                         dt_fmt("S0 WG0 W1 %08x 0182a303 lw t1, 24(t0) ...", S + 4), NULL};
  dt_expect_lines(st, t, trace);
  unsigned nlines = 0;
  for (const char *c = t; c && *c; c++) nlines += *c == '\n';
  CHECK_EQ_U32(st, nlines, 4);
  free(t);
  /* spike format: local size x (8, KNL word 6) loaded by each warp */
  char *s = dt_slurp("s.txt");
  const char *spike[] = {dt_fmt("core   0: 3 0x%08x (0x808023f3) x7  0x00000000", S + 8),
                         dt_fmt("core   1: 3 0x%08x (0x808023f3) x7  0x00000000", S + 8), NULL};
  dt_expect_lines(st, s, spike);
  free(s);
  free(out);
}

/* a small kernel written here, assembled with crt0.s */
static bool kernel(check_state *st, const char *name, const char *text) {
  char file[64];
  snprintf(file, sizeof file, "%s.s", name);
  dt_spit(file, text);
  if (dt_copy(VT_SOURCE_DIR "/examples/kernels/crt0.s", "crt0.s") != 0 || dt_assemble(name) != 0) {
    st->failed_checks++;
    fprintf(stderr, "cannot assemble %s\n", file);
    return false;
  }
  return true;
}

TEST(faults_stop_at_the_faulting_instruction) {
  if (!kernel(st, "fault", "    .text\n    .globl fault\nfault:\n    li t0, 0x12345678\n"
                           "    addi t1, t0, 4\n    lw t2, 0(t0)\n    ret\n"))
    return;
  uint32_t f = dt_nm("fault.elf", "fault");
  if (!f) f = 0x800000b4;
  char *out, *err;
  int rc = dt_debug("-q fault.elf --global 4", "continue\ninfo warps\nprint t0\nstep\nquit\n",
                    &out, &err);
  CHECK(st, rc == 1);
  /* li 0x12345678 is lui + addi: the lw is the fourth instruction */
  const char *lines[] = {
      "(vt) continue",
      dt_fmt("The launch fails: SM 0, workgroup 0, warp 0, pc 0x%08x (0x0002a383 lw t2, 0(t0)): "
             "load of unmapped address 0x12345678", f + 12),
      dt_fmt("warp 0 (SM 0, WG 0, warp 0), mask 0000000f, at 0x%08x <fault+0xc>, fault.s:6", f + 12),
      "6\t    lw t2, 0(t0)", "(vt) info warps",
      dt_fmt("* 0     0   0     0   running     0     0000000f  0x%08x <fault+0xc>  lw t2, 0(t0)",
             f + 12),
      "(vt) print t0", "x5 (t0) = 0x12345678",
      "(vt) step", "The launch failed; it ends now.", "The program ended (failed).", "(vt) quit",
      NULL};
  dt_expect_lines(st, out, lines);
  CHECK(st, err && strstr(err, "load of unmapped address 0x12345678"));
  free(out);
  free(err);
}

TEST(illegal_instruction_and_budget) {
  if (!kernel(st, "bad", "    .text\n    .globl bad\nbad:\n    nop\n    .word 0\n    ret\n")) return;
  uint32_t b = dt_nm("bad.elf", "bad");
  if (!b) b = 0x800000b4;
  char *out;
  int rc = dt_debug("-q bad.elf --global 4", "continue\nquit\n", &out, NULL);
  CHECK(st, rc == 1);
  const char *lines[] = {
      dt_fmt("The launch fails: SM 0, workgroup 0, warp 0, pc 0x%08x (0x00000000 ...", b + 4),
      dt_fmt("warp 0 (SM 0, WG 0, warp 0), mask 0000000f, at 0x%08x <bad+0x4>...", b + 4),
      NULL};
  dt_expect_lines(st, out, lines);
  CHECK(st, out && strstr(out, "): illegal instruction\n"));
  free(out);
  /* 20 instructions for 2 warps in turn: warp 0 stops before its 11th,
   * crt0.s:20 (mul) at 0x80000028 */
  rc = dt_debug("-q bad.elf --global 8 --local 8 --threads 4 --max-insns 20", "continue\nquit\n",
                &out, NULL);
  CHECK(st, rc == 1);
  const char *budget[] = {
      "The launch fails: SM 0, workgroup 0, warp 0, pc 0x80000028 (0x03c30333 mul t1, t1, t3): "
      "instruction budget of 20 warp instructions exhausted (--max-insns)",
      "warp 0 (SM 0, WG 0, warp 0), mask 0000000f, at 0x80000028 <_start+0x28>, crt0.s:20", NULL};
  dt_expect_lines(st, out, budget);
  free(out);
}

TEST(deadlock) {
  /* warp 1 ends without reaching the barrier warp 0 waits at */
  if (!kernel(st, "dead", "    .text\n    .globl dead\ndead:\n    csrr t0, CSR_WID\n"
                          "    bnez t0, 1f\n    barrier x0, x0, 1\n1:  ret\n"))
    return;
  uint32_t k = dt_nm("dead.elf", "dead");
  if (!k) k = 0x800000b4;
  char *out;
  int rc = dt_debug("-q dead.elf --global 8 --local 8 --threads 4", "continue\ninfo barriers\n"
                    "quit\n", &out, NULL);
  CHECK(st, rc == 1);
  /* the barrier is the third instruction; warp 0 waits past it */
  const char *lines[] = {
      dt_fmt("The launch fails: SM 0, workgroup 0, warp 0, pc 0x%08x (0x0400c00b ...", k + 8),
      dt_fmt("warp 0 (SM 0, WG 0, warp 0), mask 0000000f, at 0x%08x <dead+0xc>, dead.s:7", k + 12),
      "(vt) info barriers",
      "workgroup 0 (SM 0): 1 of 2 warps wait at a barrier (warps 0); running: none; ended: 1",
      NULL};
  dt_expect_lines(st, out, lines);
  CHECK(st, out && strstr(out, "): barrier deadlock: 1 warp(s) wait at a barrier that 1 ended "
                               "warp(s) will never reach\n"));
  free(out);
}

TEST(interrupt_with_ctrl_c) {
  if (!kernel(st, "spin", "    .text\n    .globl spin\nspin:\n1:  j 1b\n")) return;
  /* standard input: a pipe; the first continue runs until SIGINT */
  int fds[2];
  CHECK(st, pipe(fds) == 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    FILE *o = freopen("spin.out", "w", stdout), *e = freopen("spin.err", "w", stderr);
    (void)o;
    (void)e;
    dup2(fds[0], 0);
    close(fds[0]);
    close(fds[1]);
    execl(VT_BINARY, "vt", "debug", "-q", "spin.elf", "--global", "4", (char *)NULL);
    _exit(127);
  }
  close(fds[0]);
  const char first[] = "continue\n", rest[] = "info warps\nquit\n";
  CHECK(st, write(fds[1], first, sizeof first - 1) == (ssize_t)(sizeof first - 1));
  dt_sleep_ms(500);
  kill(pid, SIGINT);
  dt_sleep_ms(200);
  CHECK(st, write(fds[1], rest, sizeof rest - 1) == (ssize_t)(sizeof rest - 1));
  close(fds[1]);
  int status = 0;
  CHECK(st, waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  char *out = dt_slurp("spin.out");
  const char *lines[] = {"(vt) continue", "Interrupted.", "warp 0 (SM 0, WG 0, warp 0), ...",
                         "(vt) info warps", "* 0     0   0     0   running     0     0000000f  ...",
                         "(vt) quit", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

TEST(commands_on_standard_input_and_the_summary) {
  if (!setup(st)) return;
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "printf 'break divergent\\ncontinue\\nquit\\n' | '%s' debug divergent.elf --global 8 "
           "--local 8 --threads 4 --arg in:in.bin --arg out:32 >std.out 2>std.err", VT_BINARY);
  CHECK(st, dt_sh(cmd) == 0);
  char *out = dt_slurp("std.out"), *err = dt_slurp("std.err");
  const char *lines[] = {"(vt) break divergent", "(vt) continue", "Breakpoint 1, ...", "(vt) quit",
                         "Debugger: 1 launch, 2 stops (1 start, 1 breakpoint); the program did "
                         "not end (quit).", NULL};
  dt_expect_lines(st, out, lines);
  CHECK(st, err && strstr(err, "vt debug: 1 launch(es), 1 workgroup(s), "));
  free(out);
  free(err);
  /* the end of the commands quits, before the end of the program */
  snprintf(cmd, sizeof cmd, "'%s' debug -q divergent.elf --global 8 --local 8 --threads 4 "
           "--arg in:in.bin --arg out:32 </dev/null >eof.out 2>&1", VT_BINARY);
  CHECK(st, dt_sh(cmd) == 0);
  out = dt_slurp("eof.out");
  CHECK(st, out && strstr(out, "stopped before the first instruction") && !strstr(out, "(vt)"));
  free(out);
  /* running to the end then quitting: the summary says so */
  snprintf(cmd, sizeof cmd, "printf 'continue\\n' | '%s' debug divergent.elf --global 8 --local 8 "
           "--threads 4 --arg in:in.bin --arg out:32 --save saved >end.out 2>/dev/null", VT_BINARY);
  CHECK(st, dt_sh(cmd) == 0);
  out = dt_slurp("end.out");
  const char *end[] = {"The program ended (status 0).",
                       "Debugger: 1 launch, 1 stop (1 start); the program ended normally.", NULL};
  dt_expect_lines(st, out, end);
  free(out);
  /* --save wrote the results */
  char *saved = dt_slurp("saved/arg1.bin");
  static const uint8_t want[32] = {4, 0, 0, 0, 1, 0, 0, 0, 10, 0, 0, 0, 2, 0, 0, 0,
                                   16, 0, 0, 0, 3, 0, 0, 0, 22, 0, 0, 0, 4, 0, 0, 0};
  CHECK(st, saved && !memcmp(saved, want, 32));
  free(saved);
}

TEST(options) {
  if (!setup(st)) return;
  char *out, *err;
  CHECK(st, dt_debug("--timing divergent.elf --global 8", "quit\n", &out, &err) == 2);
  CHECK(st, err && strstr(err, "vt debug: the debugger runs the functional model (no --timing)"));
  free(out);
  free(err);
  CHECK(st, dt_debug("--bogus divergent.elf", "quit\n", &out, &err) == 2);
  CHECK(st, err && strstr(err, "vt debug: unknown option --bogus (vt help debug lists them)"));
  free(out);
  free(err);
  CHECK(st, dt_debug("divergent.elf", "quit\n", &out, &err) == 2);
  CHECK(st, err && strstr(err, "an ELF program needs one file, --global"));
  free(out);
  free(err);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "'%s' debug -x nosuch.txt divergent.elf --global 8 2>x.err", VT_BINARY);
  CHECK(st, dt_sh(cmd) == 2);
  err = dt_slurp("x.err");
  CHECK(st, err && strstr(err, "vt debug: nosuch.txt: cannot read"));
  free(err);
  snprintf(cmd, sizeof cmd, "'%s' help debug >h.out", VT_BINARY);
  CHECK(st, dt_sh(cmd) == 0);
  out = dt_slurp("h.out");
  CHECK(st, out && strstr(out, "usage: vt debug") && strstr(out, "--gdb [HOST:]PORT") &&
                strstr(out, "--trace-format X"));
  free(out);
}

/* official test vectors (T_CASES): a sequence of launches under the debugger */
TEST(test_vectors) {
  char *out;
  const char *dir = VT_SHARED_DIR "/cases/gaussian";
  char args[1024];
  snprintf(args, sizeof args, "-q %s/Fan1_0.metadata %s/Fan2_0.metadata", dir, dir);
  int rc = dt_debug(args, "info warps\nbreak 0x80000000 if warp=0\ncontinue\ninfo breakpoints\n"
                    "delete\ncontinue\nx/4wx 0x90002010\nquit\n", &out, NULL);
  CHECK(st, rc == 0);
  /* Fan1: 1 workgroup of 1 warp x 4 threads; Fan2: 1 of 4 x 4 (cases/README.md) */
  const char *lines[] = {
      "Launch 1 (Fan1_0): 1 x 1 x 1 workgroup(s) of 1 warp(s) x 4 thread(s); stopped before the "
      "first instruction.",
      "(vt) info warps", "* 0     0   0     0   running     0     0000000f  0x80000000  ...",
      "(vt) continue", "[launch 2 (Fan2_0) begins]",
      "Breakpoint 1, warp 0 (SM 0, WG 0, warp 0), mask 0000000f, at 0x80000000", "...",
      "(vt) info breakpoints", "1    breakpoint  keep  0x80000000  1     0x80000000 if warp=0",
      "(vt) continue", "The program ended (status 0).",
      /* m (0x90002000) after Fan1_0: m[4] = 0.5, and m[5..7] are never written
       * (the final values of cases/README.md) */
      "(vt) x/4wx 0x90002010", "0x90002010: 0x3f000000 0x00000000 0x00000000 0x00000000", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      T(start_help_and_errors),
      T(breakpoints),
      T(temporary_and_conditional_breakpoints),
      T(stepping_through_divergence),
      T(next_over_a_divergent_region_and_a_call),
      T(barriers_finish_and_the_end),
      T(watchpoints),
      T(print_and_set),
      T(memory_spaces),
      T(disassemble_and_registers),
      T(selection),
      T(trace_and_stats),
      T(faults_stop_at_the_faulting_instruction),
      T(illegal_instruction_and_budget),
      T(deadlock),
      T(interrupt_with_ctrl_c),
      T(commands_on_standard_input_and_the_summary),
      T(options),
      T_CASES(test_vectors),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
