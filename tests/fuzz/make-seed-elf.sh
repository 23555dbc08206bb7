#!/usr/bin/env bash
# Regenerates the ELF seed corpus of fuzz_elf (tests/fuzz/corpus/elf):
# valid.elf, a small ELF32 RISC-V executable built with the GNU riscv64
# toolchain (text with standard and Ventus words, rodata, data, bss, a
# symbol table), and corrupted variants of it, each exercising one
# validation of the reader. Needs riscv64-unknown-elf-as/ld/strip and
# python3 (to patch fields). Usage: make-seed-elf.sh [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-$here/corpus/elf}
prefix=${CROSS:-riscv64-unknown-elf-}
for tool in "${prefix}as" "${prefix}ld" "${prefix}strip" python3; do
  command -v "$tool" >/dev/null || { echo "$0: $tool not found" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

cat >"$tmp/seed.s" <<'ASM'
	.text
	.globl	_start
	.type	_start, @function
_start:
	csrr	t1, 0x800
	li	a0, 5
	la	a1, table
	lw	a2, 4(a1)
	.word	0x0d0efed7	# vsetvli t4, t4, e32, m1, ta, ma
	.word	0x0000a0fb	# vlw12.v v1, 0(v1)
	.word	0x4483030b	# vadd12.vi v6, v6, 1096
	.word	0x02100c5b	# vbeq v1, v0, +24
	.word	0x0480200b	# regext zero, zero, 72
	.word	0xfe102e2b	# vsw.v v1, -4(v0)
	beqz	a0, 1f
	addi	a0, a0, -1
1:	.word	0x0000205b	# join zero, zero, 0
	.word	0x0400c00b	# barrier x0, x0, 1
	.word	0x0000400b	# endprg x0, x0, x0
	.size	_start, .-_start
	.globl	helper
	.type	helper, @function
helper:	ret
	.size	helper, .-helper
	.section .rodata
	.type	table, @object
table:	.word	1, 2, 3, 4
	.size	table, 16
	.data
counter: .word	7
	.bss
	.globl	buffer
buffer:	.zero	32
ASM
"${prefix}as" -march=rv32ima_zicsr -mabi=ilp32 -o "$tmp/seed.o" "$tmp/seed.s"
# -N: no page alignment between sections, which keeps the file small
# (binutils >= 2.39 warns about the resulting RWX segment unless told not to)
rwx=()
if "${prefix}ld" --help 2>/dev/null | grep -e --no-warn-rwx-segments >/dev/null; then
  rwx=(--no-warn-rwx-segments)
fi
"${prefix}ld" -m elf32lriscv -N "${rwx[@]}" -Ttext=0x80000000 -e _start --no-relax \
  -o "$tmp/seed.elf" "$tmp/seed.o"
"${prefix}strip" --strip-debug -R .riscv.attributes -R .comment -o "$out/valid.elf" "$tmp/seed.elf"

python3 - "$out" <<'PY'
import struct, sys, os
out = sys.argv[1]
data = open(os.path.join(out, "valid.elf"), "rb").read()
assert data[:4] == b"\x7fELF" and data[4] == 1, "expected ELF32"
ehdr = struct.unpack_from("<16sHHIIIIIHHHHHH", data, 0)
phoff, shoff, phnum, shnum, shstrndx = ehdr[5], ehdr[6], ehdr[10], ehdr[12], ehdr[13]
def sh(i):  # section header fields
    return struct.unpack_from("<IIIIIIIIII", data, shoff + 40 * i)
names = {}
for i in range(shnum):
    f = sh(i)
    strtab = sh(shstrndx)
    n = data[strtab[4] + f[0]:].split(b"\0", 1)[0].decode()
    names[n] = i
def patch(name, fmt, off, *vals):
    b = bytearray(data)
    struct.pack_into(fmt, b, off, *vals)
    open(os.path.join(out, name), "wb").write(b)
def write(name, b):
    open(os.path.join(out, name), "wb").write(b)
symtab = names[".symtab"]
text = names[".text"]
write("trunc-ident.elf", data[:10])
write("trunc-ehdr.elf", data[:40])
write("trunc-phdrs.elf", data[:phoff + 20])
write("trunc-mid-sections.elf", data[:shoff + 40 * 2 + 12])
write("trunc-before-shdrs.elf", data[:shoff])
patch("bad-class64.elf", "<B", 4, 2)
patch("bad-bigendian.elf", "<B", 5, 2)
patch("bad-machine.elf", "<H", 18, 62)
patch("bad-shoff-past-end.elf", "<I", 32, len(data) + 4096)
patch("bad-shoff-overflow.elf", "<I", 32, 0xfffffff0)
patch("bad-shnum-huge.elf", "<H", 48, 0xffff)
patch("bad-shstrndx.elf", "<H", 50, shnum + 3)
patch("bad-phnum-huge.elf", "<H", 44, 0xffff)
patch("bad-shentsize.elf", "<H", 46, 12)
patch("bad-text-size.elf", "<I", shoff + 40 * text + 20, 0xfffffff0)
patch("bad-text-offset.elf", "<I", shoff + 40 * text + 16, 0xffffff00)
patch("bad-symtab-link.elf", "<I", shoff + 40 * symtab + 24, 0xffff)
patch("bad-symtab-entsize.elf", "<I", shoff + 40 * symtab + 36, 3)
patch("bad-section-name.elf", "<I", shoff + 40 * text, 0x7fffffff)
# symbol name offsets past the string table
f = sh(symtab)
b = bytearray(data)
for k in range(1, f[5] // 16):
    struct.pack_into("<I", b, f[4] + 16 * k, 0xfffff000 + k)
write("bad-symbol-names.elf", b)
# string table without a terminating NUL
strtab_sec = sh(f[6])
b = bytearray(data)
b[strtab_sec[4] + strtab_sec[5] - 1] = ord("x")
write("bad-strtab-unterminated.elf", b)
patch("bad-phdr-filesz.elf", "<I", phoff + 16, 0x7fffffff)
# loading (src/sim/elf_load.c): the PT_LOAD segment's p_paddr (+12) and
# p_memsz (+20); a .bss filling the program window, a 2 GiB segment at 0
# (outside the window; zero-filled page by page before the fix) and a
# segment over the runtime's print window
load = next(i for i in range(phnum) if struct.unpack_from("<I", data, phoff + 32 * i)[0] == 1)
ph = phoff + 32 * load
patch("regress-load-bss-window.elf", "<I", ph + 20, 0x10000000)
b = bytearray(data)
struct.pack_into("<II", b, ph + 8, 0, 0)
struct.pack_into("<I", b, ph + 20, 0x7fffffff)
write("regress-load-huge-memsz.elf", b)
b = bytearray(data)
struct.pack_into("<II", b, ph + 8, 0xa0024000, 0xa0024000)
write("regress-load-print-window.elf", b)
PY
ls -l "$out"
