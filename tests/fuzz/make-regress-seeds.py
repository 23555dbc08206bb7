#!/usr/bin/env python3
"""Writes the regress-*.bin seeds of fuzz_testvec and fuzz_sim
(tests/fuzz/corpus/testvec, tests/fuzz/corpus/sim): the inputs that crashed,
hung or ran away before the fixes of issue 10 (docs/fuzzing.md, Findings).
Deterministic; the ELF ones come from make-seed-elf.sh.
Usage: make-regress-seeds.py [CORPUS_DIR]   (default: tests/fuzz/corpus)"""
import os
import struct
import sys

# instruction words (riscv64-unknown-elf-as -march=rv32ima_zicsr; endprg
# from the Ventus encoding, see make-seed-elf.sh)
ENDPRG = 0x0000400B          # endprg x0, x0, x0
NOP = 0x00000013             # addi zero, zero, 0
SUM = [0x90000537,           # lui a0, 0x90000
       0x00000293,           # addi t0, zero, 0
       0x00100313,           # addi t1, zero, 1
       0x06500393,           # addi t2, zero, 101
       0x006282B3,           # loop: add t0, t0, t1
       0x00130313,           # addi t1, t1, 1
       0xFE731CE3,           # bne t1, t2, loop
       0x00552023,           # sw t0, 0(a0)
       ENDPRG]


def jump(offset):
    """auipc t0, 0; addi t0, t0, offset; jalr zero, 0(t0): to pc + offset"""
    return [0x00000297, (offset << 20) | 0x00028293, 0x00028067]


def vector(fields, bufs, data_words, hi=None):
    """.metadata (current layout) + NUL + .data; fields: the 14 header
    values, bufs: (base, size, alloc); hi: {field index: upper half}"""
    u = list(fields) + [b[0] for b in bufs] + [b[1] for b in bufs] + [b[2] for b in bufs]
    meta = ""
    for k, v in enumerate(u):
        meta += "%08x\n%08x\n" % (v & 0xFFFFFFFF, (hi or {}).get(k, v >> 32))
    data = "".join("%08x\n" % w for w in data_words)
    return meta.encode() + b"\0" + data.encode()


def header(start, warps=1, knl=0x90001000, sgpr=64, vgpr=64, nbuf=1):
    # start_pc kernel_id kernel_size[3] wf_size wg_size KNL lds pds sgpr vgpr pds_base N
    return [start, 0, 1, 1, 1, 1, warps, knl, 0x1000, 0, sgpr, vgpr, 0x90002000, nbuf]


def code_and_result(start, code, **kw):
    """the code at 'start' and a 4-byte result buffer at 0x90000000"""
    bufs = [(start, 4 * len(code), 4 * len(code)), (0x90000000, 4, 4)]
    return vector(header(start, nbuf=2, **kw), bufs, code + [0])


def testvec_seeds():
    s = {}
    # a code buffer at 0 of 0xfffffffd bytes and no data: ceil(size / 4)
    # wrapped to 0 lines, and applying it copied 4 GiB from a 1-byte buffer
    s["regress-size-wrap.bin"] = vector(header(0, knl=0x90000000), [(0, 0xFFFFFFFD, 0xFFFFFFFD)], [])
    # the same buffer as the kernel metadata buffer: its entry word was read
    # 4 bytes past the (empty) data
    s["regress-knl-entry-overread.bin"] = vector(header(0, knl=0), [(0, 0xFFFFFFFF, 0xFFFFFFFF)], [])
    # wf_size with an upper half: silently dropped before
    s["regress-upper-half.bin"] = vector(header(0x80000000), [(0x80000000, 4, 4)], [ENDPRG],
                                         hi={5: 1})
    # 2 warps x 0x80000000 scalar registers: 2^32 wrapped to 0 (timing model)
    s["regress-register-usage.bin"] = code_and_result(0x80000000, SUM, warps=2, sgpr=0x80000000)
    # a jump to 0x8000000e (2 mod 4, the end of an 8-byte fetch group):
    # the timing model's fetch made groups of 0 instructions forever
    s["regress-misaligned-jump.bin"] = code_and_result(0x80000000, jump(14) + [ENDPRG] * 3)
    # code ending at 4 GiB: the timing model's last fetch group wrapped
    s["regress-code-at-top.bin"] = code_and_result(0xFFFFFFE0, [NOP] * 7 + [ENDPRG])
    return s


def sim_seeds():
    """4 shape bytes (threads, warps, workgroups, SMs + timing fetch size in
    bits 1-2 of byte 3: 0 preset, 1: 4, 2: 1024, 3: 4096 bytes) + words run
    after the 9-word prologue (first word at 0x80000024)"""
    def words(ws):
        return b"".join(struct.pack("<I", w) for w in ws)
    s = {}
    # 0x80000024 + 10 = 0x8000002e: 6 mod 8, the end of a preset fetch group
    s["regress-misaligned-jump.bin"] = bytes([0, 0, 0, 0]) + words(jump(10) + [ENDPRG])
    # 4-byte fetch groups: any misaligned pc made a group of 0
    s["regress-misaligned-jump-fetch4.bin"] = bytes([0, 0, 0, 2]) + words(jump(14) + [ENDPRG])
    # 1024- and 4096-byte groups: 256 and 1024 instructions wrapped an 8-bit count
    s["regress-fetch-1024.bin"] = bytes([0, 0, 0, 4]) + words(SUM)
    s["regress-fetch-4096.bin"] = bytes([0, 1, 0, 6]) + words(SUM)
    return s


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")
    for sub, seeds in (("testvec", testvec_seeds()), ("sim", sim_seeds())):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
        for name, b in seeds.items():
            with open(os.path.join(root, sub, name), "wb") as f:
                f.write(b)


if __name__ == "__main__":
    main()
