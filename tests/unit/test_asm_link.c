/* Assembler/linker: data directives and alignment bytes, the official
 * layout (checked by reading the produced ELF), linker symbols, symbol
 * table contents, multi-file links and the -Ttext/-e options. */
#include "asm_test_util.h"
#include "check.h"

TEST(data_directives_and_alignment) {
  img im;
  CHECK(st, build1(&im,
                   "  li a0, 1\n"
                   "  .align 3\n"
                   "  li a1, 2\n"
                   "  .byte 1\n"
                   "  .align 2\n"
                   "  nop\n"
                   ".data\n"
                   "d: .byte 1, 2, -1\n"
                   "  .align 2\n"
                   "  .half 0x1234\n"
                   "  .word 0xdeadbeef\n"
                   "  .ascii \"ab\"\n"
                   "  .string \"c\\n\"\n"
                   "  .balign 8, 0xaa\n"
                   "  .word d + 4\n"
                   "  .zero 3\n"
                   "  .p2align 2\n"
                   "  .skip 2, 7\n"
                   "  .short -2\n"
                   "  .asciz \"\\x41\\101\"\n"
                   "  .org 40, 0x11\n"
                   "  .byte 'z'\n"
                   "  .word .-d\n") == 0);
  /* text: li; nop padding to 8; li; .byte 1 + 3 zero bytes; nop */
  CHECK_EQ_U32(st, text_word(&im, 0), 0x00100513u);
  CHECK_EQ_U32(st, text_word(&im, 1), 0x00000013u);
  CHECK_EQ_U32(st, text_word(&im, 2), 0x00200593u);
  CHECK_EQ_U32(st, text_word(&im, 3), 0x00000001u);
  CHECK_EQ_U32(st, text_word(&im, 4), 0x00000013u);
  const Elf32_Shdr *d = section(&im, ".data", NULL);
  CHECK(st, d != NULL);
  if (!d) return;
  static const uint8_t want[] = {
      0x01, 0x02, 0xff, 0x00, 0x34, 0x12, 0xef, 0xbe, 0xad, 0xde, 'a',  'b',  'c',  '\n',
      0x00, 0xaa, 0,    0,    0,    0,    0x00, 0x00, 0x00, 0x00, 0x07, 0x07, 0xfe, 0xff,
      'A',  'A',  0x00, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 'z',  41,
      0,    0,    0};
  CHECK_EQ_U32(st, d->sh_size, sizeof want);
  uint32_t daddr = symval(&im, "d");
  uint8_t w2[sizeof want];
  memcpy(w2, want, sizeof want);
  w2[16] = (uint8_t)(daddr + 4);
  w2[17] = (uint8_t)((daddr + 4) >> 8);
  w2[18] = (uint8_t)((daddr + 4) >> 16);
  w2[19] = (uint8_t)((daddr + 4) >> 24);
  for (size_t i = 0; i < sizeof want && i < d->sh_size; i++) {
    if (sec_data(&im, d)[i] != w2[i]) fprintf(stderr, ".data byte %zu\n", i);
    CHECK_EQ_U32(st, sec_data(&im, d)[i], w2[i]);
  }
  img_free(&im);
}

static const char layout_src[] =
    ".globl _start\n"
    ".text\n"
    "_start: call main\n"
    "  j _start\n"
    ".section .rodata\n"
    "ro: .word 1, 2, 3\n"
    ".data\n"
    "BUFFER_ADDR: .word 0\n"
    "BUFFER_SIZE: .word 0\n"
    ".byte 1\n"
    ".section .sdata,\"aw\",@progbits\n"
    ".p2align 2\n"
    "sd: .word 7\n"
    ".section .sbss,\"aw\",@nobits\n"
    "sb: .zero 4\n"
    ".bss\n"
    ".align 4\n"
    "big: .space 100\n"
    ".text\n"
    ".type main, @function\n"
    "main: ret\n"
    ".size main, .-main\n"
    ".Lend: nop\n";

TEST(official_layout) {
  img im;
  CHECK(st, build1(&im, layout_src) == 0);
  const Elf32_Ehdr *h = ehdr(&im);
  CHECK(st, h && h->e_type == ET_EXEC && h->e_machine == EM_RISCV &&
                h->e_ident[EI_CLASS] == ELFCLASS32 && h->e_ident[EI_DATA] == ELFDATA2LSB);
  if (!h) return;
  CHECK_EQ_U32(st, h->e_entry, 0x80000000u);
  CHECK_EQ_U32(st, h->e_flags, 0);
  const Elf32_Shdr *t = section(&im, ".text", NULL), *th = section(&im, ".tohost", NULL),
                   *ro = section(&im, ".rodata", NULL), *da = section(&im, ".data", NULL),
                   *sd = section(&im, ".sdata", NULL), *sb = section(&im, ".sbss", NULL),
                   *bs = section(&im, ".bss", NULL);
  CHECK(st, t && th && ro && da && sd && sb && bs);
  if (!(t && th && ro && da && sd && sb && bs)) return;
  CHECK_EQ_U32(st, t->sh_addr, 0x80000000u);
  CHECK_EQ_U32(st, t->sh_size, 0x14u);
  CHECK_EQ_U32(st, th->sh_addr, 0x80001000u);
  CHECK_EQ_U32(st, symval(&im, "tohost"), 0x80001000u);
  CHECK_EQ_U32(st, symval(&im, "fromhost"), 0x80001040u);
  CHECK_EQ_U32(st, symbol(&im, "tohost")->st_size, 8);
  CHECK_EQ_U32(st, ro->sh_addr, 0x80002000u);
  CHECK_EQ_U32(st, symval(&im, "ro"), 0x80002000u);
  CHECK_EQ_U32(st, da->sh_addr, 0x80003000u);
  CHECK_EQ_U32(st, symval(&im, "BUFFER_ADDR"), 0x80003000u);
  CHECK_EQ_U32(st, symval(&im, "BUFFER_SIZE"), 0x80003004u);
  CHECK_EQ_U32(st, da->sh_size, 9);
  CHECK_EQ_U32(st, sd->sh_addr, 0x8000300cu); /* .sdata aligned to 4 after 9 bytes */
  CHECK_EQ_U32(st, symval(&im, "__global_pointer$"), 0x8000380cu);
  CHECK_EQ_U32(st, symval(&im, "_edata"), 0x80003010u);
  CHECK_EQ_U32(st, sb->sh_addr, 0x80003010u);
  CHECK_EQ_U32(st, sb->sh_type, SHT_NOBITS);
  CHECK_EQ_U32(st, bs->sh_addr, 0x80003020u); /* .align 4 = 16 bytes */
  CHECK_EQ_U32(st, symval(&im, "big"), 0x80003020u);
  CHECK_EQ_U32(st, symval(&im, "_end"), 0x80003084u);
  /* call main resolves: main at 0x8000000c */
  CHECK_EQ_U32(st, symval(&im, "main"), 0x8000000cu);
  CHECK_EQ_U32(st, text_word(&im, 0), 0x00000097u);
  CHECK_EQ_U32(st, text_word(&im, 1), 0x00c080e7u);
  /* symbols: .L labels are listed, sizes and types recorded */
  CHECK(st, symbol(&im, ".Lend") != NULL);
  CHECK_EQ_U32(st, symbol(&im, "main")->st_size, 4);
  CHECK_EQ_U32(st, ELF32_ST_TYPE(symbol(&im, "main")->st_info), STT_FUNC);
  CHECK_EQ_U32(st, ELF32_ST_BIND(symbol(&im, "_start")->st_info), STB_GLOBAL);
  CHECK_EQ_U32(st, ELF32_ST_BIND(symbol(&im, "main")->st_info), STB_LOCAL);
  unsigned tidx = 0;
  section(&im, ".text", &tidx);
  CHECK_EQ_U32(st, symbol(&im, "main")->st_shndx, tidx);
  /* program headers: text R-X, tohost RW, rodata R, data+bss RW */
  CHECK_EQ_U32(st, h->e_phnum, 4);
  static const uint32_t flags[4] = {PF_R | PF_X, PF_R | PF_W, PF_R, PF_R | PF_W};
  static const uint32_t vaddr[4] = {0x80000000u, 0x80001000u, 0x80002000u, 0x80003000u};
  for (unsigned i = 0; i < 4 && i < h->e_phnum; i++) {
    const Elf32_Phdr *p = phdr(&im, i);
    CHECK_EQ_U32(st, p->p_type, PT_LOAD);
    CHECK_EQ_U32(st, p->p_flags, flags[i]);
    CHECK_EQ_U32(st, p->p_vaddr, vaddr[i]);
    CHECK_EQ_U32(st, p->p_offset % 0x1000, p->p_vaddr % 0x1000);
  }
  const Elf32_Phdr *p3 = phdr(&im, 3);
  CHECK_EQ_U32(st, p3->p_filesz, 0x10u);
  CHECK_EQ_U32(st, p3->p_memsz, 0x84u);
  /* the section symbol table ends with .symtab/.strtab/.shstrtab */
  CHECK(st, section(&im, ".symtab", NULL) && section(&im, ".strtab", NULL) &&
                section(&im, ".shstrtab", NULL));
  img_free(&im);
}

TEST(minimal_program_and_empty_parts) {
  img im;
  CHECK(st, build1(&im, "nop\n") == 0);
  const Elf32_Ehdr *h = ehdr(&im);
  CHECK(st, h != NULL);
  if (!h) return;
  CHECK_EQ_U32(st, h->e_phnum, 2); /* text and tohost only */
  CHECK(st, section(&im, ".rodata", NULL) == NULL);
  CHECK(st, section(&im, ".bss", NULL) == NULL);
  /* data part is empty: _edata = _end = start of the (empty) data page */
  CHECK_EQ_U32(st, symval(&im, "_edata"), 0x80002000u);
  CHECK_EQ_U32(st, symval(&im, "_end"), 0x80002000u);
  CHECK_EQ_U32(st, symval(&im, "__global_pointer$"), 0x80002800u);
  img_free(&im);
}

TEST(input_defines_tohost) {
  img im;
  CHECK(st, build1(&im,
                   "nop\n.section .tohost,\"aw\",@progbits\n.globl tohost\n.align 6\n"
                   "tohost: .dword 0\n.align 6\n.globl fromhost\nfromhost: .dword 0\n") == 0);
  CHECK_EQ_U32(st, symval(&im, "tohost"), 0x80001000u);
  CHECK_EQ_U32(st, symval(&im, "fromhost"), 0x80001040u);
  CHECK_EQ_U32(st, section(&im, ".tohost", NULL)->sh_size, 0x48u);
  img_free(&im);
}

TEST(multi_file_link) {
  /* the file defining _start goes first even when given second */
  const char *files[] = {
      "lib.s",
      ".globl func, counter\n"
      "func: la t0, counter\n"
      "  lw a0, 0(t0)\n"
      "  ret\n"
      ".data\n"
      "counter: .word 5\n"
      ".Llocal: .word 6\n",
      "main.s",
      ".globl _start\n"
      "_start: call func\n"
      "  lw a1, counter\n"
      "1: j 1b\n"
      ".data\n"
      ".Llocal: .word counter\n",
      NULL};
  img im;
  CHECK(st, build_opts(&im, NULL, files) == 0);
  if (!im.p) {
    fprintf(stderr, "%s", im.errors);
    return;
  }
  CHECK_EQ_U32(st, symval(&im, "_start"), 0x80000000u);
  CHECK_EQ_U32(st, symval(&im, "func"), 0x80000014u); /* after main.s: 20 bytes */
  CHECK_EQ_U32(st, ehdr(&im)->e_entry, 0x80000000u);
  CHECK_EQ_U32(st, text_word(&im, 0), 0x00000097u); /* auipc ra, 0 */
  CHECK_EQ_U32(st, text_word(&im, 1), 0x014080e7u); /* jalr ra, 20(ra) */
  /* data: lib.s's .data (first on the command line) then main.s's */
  CHECK_EQ_U32(st, symval(&im, "counter"), 0x80002000u);
  const Elf32_Shdr *d = section(&im, ".data", NULL);
  CHECK_EQ_U32(st, d->sh_size, 12);
  CHECK_EQ_U32(st, word_at(sec_data(&im, d) + 8), 0x80002000u);
  img_free(&im);
}

TEST(options_ttext_and_entry) {
  vt_asm_options o = {0x1000, "go"};
  const char *files[] = {"a.s", "x: nop\n.globl go\ngo: j x\n", NULL};
  img im;
  CHECK(st, build_opts(&im, &o, files) == 0);
  CHECK_EQ_U32(st, ehdr(&im)->e_entry, 0x1004u);
  CHECK_EQ_U32(st, section(&im, ".text", NULL)->sh_addr, 0x1000u);
  CHECK_EQ_U32(st, symval(&im, "tohost"), 0x2000u);
  CHECK_EQ_U32(st, text_word(&im, 1), 0xffdff06fu); /* j -4 */
  img_free(&im);
}

TEST(comments_and_statements) {
  img im;
  CHECK(st, build1(&im,
                   "/* block\n comment */ nop # hash\n"
                   "nop // slashes\n"
                   "addi a0, a0, 1; addi a0, a0, 2 /* inline */ ; nop\n"
                   "a: b: addi a0, a0, ';'\n"
                   ".string \"#not a comment; really\"\n") == 0);
  CHECK_EQ_U32(st, text_word(&im, 0), 0x00000013u);
  CHECK_EQ_U32(st, text_word(&im, 1), 0x00000013u);
  CHECK_EQ_U32(st, text_word(&im, 2), 0x00150513u);
  CHECK_EQ_U32(st, text_word(&im, 3), 0x00250513u);
  CHECK_EQ_U32(st, text_word(&im, 4), 0x00000013u);
  CHECK_EQ_U32(st, text_word(&im, 5), 0x03b50513u);
  CHECK_EQ_U32(st, symval(&im, "a"), symval(&im, "b"));
  CHECK(st, memcmp(sec_data(&im, section(&im, ".text", NULL)) + 24, "#not a comment; really", 23) == 0);
  img_free(&im);
}

TEST(compiler_directives_accepted) {
  img im;
  CHECK(st, build1(&im,
                   "\t.text\n\t.attribute\t4, 16\n\t.attribute 5, \"rv32i2p1_m2p0\"\n"
                   "\t.file\t\"k.cl\"\n\t.option push\n\t.option norelax\n\t.option norvc\n"
                   "\t.option pop\n\t.globl\tk\n\t.p2align\t2\n\t.type\tk,@function\n"
                   "k:\n\t.cfi_startproc\n\taddi sp, sp, 16\n\t.cfi_def_cfa_offset 16\n\tret\n"
                   ".Lfunc_end0:\n\t.size\tk, .Lfunc_end0-k\n\t.cfi_endproc\n"
                   "\t.section\t.rodata.str1.1,\"aMS\",@progbits,1\n.L.str: .asciz \"x\"\n"
                   "\t.section\t\".note.GNU-stack\",\"\",@progbits\n\t.ident\t\"clang\"\n"
                   "\t.addrsig\n\t.comm\tcbuf,64,8\n") == 0);
  CHECK_EQ_U32(st, symbol(&im, "k")->st_size, 8);
  CHECK(st, section(&im, ".rodata", NULL) != NULL);
  CHECK(st, symbol(&im, "cbuf") != NULL && section(&im, ".bss", NULL) != NULL);
  CHECK_EQ_U32(st, symval(&im, "cbuf") % 8, 0);
  img_free(&im);
}

TEST(zero_sized_data) {
  /* fuzzer find: zero-length fills in a section without data yet */
  img im;
  CHECK(st, build1(&im, ".section .rodata\n.zero 0\n.space !7\n.ascii \"\"\n.balign 1\n.text\nnop\n") == 0);
  CHECK(st, section(&im, ".rodata", NULL) == NULL);
  img_free(&im);
}

RUN_TESTS(T(zero_sized_data), T(data_directives_and_alignment), T(official_layout), T(minimal_program_and_empty_parts),
          T(input_defines_tohost), T(multi_file_link), T(options_ttext_and_entry),
          T(comments_and_statements), T(compiler_directives_accepted))
