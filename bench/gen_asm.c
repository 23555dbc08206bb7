/* Generates a large assembly file with a representative instruction mix for
 * the `vt as` benchmark (bench/run.sh):
 *
 *   gen_asm [-n LINES] [--gnu] > file.s
 *
 * The mix is ALU and immediate operations, loads/stores with offsets,
 * branches to local labels (back and forward), li/la/call pseudos, CSR
 * reads, RVV vector instructions, Ventus custom instructions (vlw12.v,
 * vsw12.v, vadd12.vi, vbeq/vbne, join, setrpc, regext, barrier, endprg),
 * directives (.text/.data/.word/.p2align/.globl/.type/.size) and comments.
 * Output is deterministic. --gnu writes the Ventus custom instructions as
 * .word with the mnemonic in a comment, so that GNU as (riscv64-unknown-
 * elf-as -march=rv32imv_zicsr) accepts the file too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 0x12345678u;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static unsigned pick(unsigned n) { return next() % n; }

static const char *const xr[] = {"a0", "a1", "a2", "a3", "a4", "a5", "t0", "t1",
                                 "t2", "s0", "s1", "s2", "t3", "t4", "ra", "gp"};
#define X() xr[pick(16)]
#define V() pick(32)

static long lines;
static int gnu;
static unsigned label_no, func_no, data_no;

static void out(const char *s) {
  fputs(s, stdout);
  fputc('\n', stdout);
  lines++;
}

/* A Ventus custom instruction: text, or .word + comment with --gnu. */
static void ventus(const char *text, uint32_t word) {
  if (gnu)
    printf("\t.word\t0x%08x\t# %s\n", word, text);
  else
    printf("\t%s\n", text);
  lines++;
}

static void insn(void) {
  char b[128];
  unsigned k = pick(100);
  unsigned v1 = V(), v2 = V(), v3 = V();
  if (k < 22) { /* ALU */
    static const char *const ops[] = {"add", "sub", "and", "or", "xor", "sll", "srl", "sra", "slt",
                                      "sltu", "mul", "mulh", "div", "rem"};
    printf("\t%s\t%s, %s, %s\n", ops[pick(14)], X(), X(), X());
    lines++;
  } else if (k < 34) { /* immediates */
    static const char *const ops[] = {"addi", "andi", "ori", "xori", "slti", "sltiu"};
    printf("\t%s\t%s, %s, %d\n", ops[pick(6)], X(), X(), (int)pick(4096) - 2048);
    lines++;
    if (k < 26) {
      printf("\tslli\t%s, %s, %u\n", X(), X(), pick(32));
      lines++;
    }
  } else if (k < 46) { /* loads/stores with offsets */
    static const char *const ld[] = {"lw", "lh", "lhu", "lb", "lbu"};
    static const char *const st[] = {"sw", "sh", "sb"};
    if (k & 1)
      printf("\t%s\t%s, %d(%s)\n", ld[pick(5)], X(), (int)pick(512) * 4 - 1024, X());
    else
      printf("\t%s\t%s, %d(%s)\n", st[pick(3)], X(), (int)pick(512) * 4 - 1024, X());
    lines++;
  } else if (k < 54) { /* branches to labels */
    static const char *const br[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
    unsigned target = label_no + (pick(2) ? 1 : 0); /* next or previous label */
    if (target == 0) target = 1;
    if (pick(4) == 0)
      printf("\tbnez\t%s, .L%u\n", X(), target);
    else
      printf("\t%s\t%s, %s, .L%u\n", br[pick(6)], X(), X(), target);
    lines++;
  } else if (k < 60) { /* pseudos */
    switch (pick(5)) {
    case 0: printf("\tli\t%s, %d\n", X(), (int)pick(2000) - 1000); break;
    case 1: printf("\tli\t%s, 0x%x\n", X(), next()); break;
    case 2: printf("\tla\t%s, data%u\n", X(), pick(data_no + 1)); break;
    case 3: printf("\tmv\t%s, %s\n", X(), X()); break;
    default: printf("\tcall\tf%u\n", func_no > 0 ? pick(func_no) : 0); break;
    }
    lines++;
  } else if (k < 63) { /* CSRs */
    static const char *const csrs[] = {"0x800", "0x801", "0x802", "0x803", "0x804", "0x805",
                                       "0x806", "0x807"};
    printf("\tcsrr\t%s, %s\n", X(), csrs[pick(8)]);
    lines++;
  } else if (k < 78) { /* RVV */
    switch (pick(6)) {
    case 0: sprintf(b, "\tvadd.vv\tv%u, v%u, v%u", v1, v2, v3); break;
    case 1: sprintf(b, "\tvmul.vx\tv%u, v%u, %s", v1, v2, X()); break;
    case 2: sprintf(b, "\tvadd.vi\tv%u, v%u, %d", v1, v2, (int)pick(32) - 16); break;
    case 3: sprintf(b, "\tvmv.v.x\tv%u, %s", v1, X()); break;
    case 4: sprintf(b, "\tvsll.vi\tv%u, v%u, %u, v0.t", v1, v2, pick(32)); break;
    default: sprintf(b, "\tvsetvli\t%s, %s, e32, m1, ta, ma", X(), X()); break;
    }
    out(b);
  } else if (k < 96) { /* Ventus custom */
    int imm = (int)pick(2048) - 1024;
    unsigned rs = 10 + pick(6);
    switch (pick(8)) {
    case 0:
      sprintf(b, "vlw12.v\tv%u, %d(v%u)", v1, imm, v2);
      ventus(b, ((uint32_t)imm << 20) | (v2 << 15) | (2u << 12) | (v1 << 7) | 0x7bu);
      break;
    case 1:
      sprintf(b, "vsw12.v\tv%u, %d(v%u)", v1, imm & ~3, v2);
      ventus(b, (((uint32_t)(imm & ~3) >> 5) << 25) | (v1 << 20) | (v2 << 15) | (6u << 12) |
                    (((uint32_t)(imm & ~3) & 31) << 7) | 0x7bu);
      break;
    case 2:
      sprintf(b, "vadd12.vi\tv%u, v%u, %d", v1, v2, imm);
      ventus(b, ((uint32_t)imm << 20) | (v2 << 15) | (v1 << 7) | 0x0bu);
      break;
    case 3: {
      /* vbeq/vbne to the next label: the offset is only known to the
       * assembler, so --gnu uses a fixed small forward offset */
      unsigned f3 = pick(2);
      sprintf(b, "%s\tv%u, v%u, .L%u", f3 ? "vbne" : "vbeq", v1, v2, label_no + 1);
      ventus(b, (0u << 25) | (v2 << 20) | (v1 << 15) | (f3 << 12) | (8u << 7) | 0x5bu);
      break;
    }
    case 4:
      ventus("join\tzero, zero, 0", 0x0000205bu);
      break;
    case 5: {
      uint32_t ext = pick(4096);
      sprintf(b, "regext\tzero, zero, %u", ext);
      ventus(b, 0x0000200bu | (ext << 20));
      break;
    }
    case 6:
      sprintf(b, "setrpc\tzero, %s, %d", xr[rs - 10], imm);
      ventus(b, ((uint32_t)imm << 20) | (rs << 15) | 0x305bu);
      break;
    default:
      ventus("barrier\tx0, x0, 1", 0x0400c00bu);
      break;
    }
  } else { /* comments and blank lines */
    if (k & 1)
      out("\t# a comment line between instructions");
    else {
      printf("\taddi\t%s, %s, 1\t# trailing comment\n", X(), X());
      lines++;
    }
  }
}

int main(int argc, char **argv) {
  long target = 200000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      target = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--gnu"))
      gnu = 1;
    else {
      fprintf(stderr, "usage: gen_asm [-n LINES] [--gnu] > out.s\n");
      return 2;
    }
  }
  out("# generated by bench/gen_asm.c: representative mix for the vt as benchmark");
  out("\t.data");
  out("data0:\t.word\t0, 1, 2, 3");
  out("\t.text");
  out("\t.globl\t_start");
  out("_start:");
  out("\tcall\tf0");
  ventus("endprg\tx0, x0, x0", 0x0000400bu);
  while (lines < target - 24) {
    /* a function of 40..200 lines with a label every ~12 lines */
    unsigned f = func_no;
    printf("\t.p2align\t2\n\t.globl\tf%u\n\t.type\tf%u, @function\nf%u:\n", f, f, f);
    lines += 4;
    func_no++;
    unsigned n = 40 + pick(160);
    long room = target - lines - 16; /* header, trailer, data block */
    if ((long)n > room) n = room > 1 ? (unsigned)room : 1;
    for (unsigned i = 0; i < n; i++) {
      if (i % 12 == 0) {
        printf(".L%u:\n", ++label_no);
        lines++;
      }
      insn();
    }
    printf(".L%u:\n\tret\n.Lfunc_end%u:\n\t.size\tf%u, .Lfunc_end%u-f%u\n", ++label_no, f, f, f,
           f);
    lines += 4;
    if (f % 8 == 7) { /* some data now and then */
      printf("\t.data\n\t.p2align\t2\ndata%u:\n\t.word\t%u, %u, data0\n\t.half\t1, 2\n\t.byte\t3, 4\n"
             "\t.text\n",
             ++data_no, next(), next());
      lines += 7;
    }
  }
  while (lines < target) out("\tnop");
  return 0;
}
