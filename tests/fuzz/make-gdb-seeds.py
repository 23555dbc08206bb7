#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_gdb (tests/fuzz/corpus/gdb): what GDB sends
in a session (connection queries, registers, memory, breakpoints, stepping
through the divergent branch, threads, monitor commands, the target
description, detach, kill) and malformed input (bad checksums, garbage,
cut-off and oversized packets, bad arguments). Deterministic; run it from
anywhere after changing it."""
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "gdb")


def pkt(data):
    return b"$" + data + b"#%02x" % (sum(data) & 0xFF)


def seq(*packets):
    return b"+".join(pkt(p.encode() if isinstance(p, str) else p) for p in packets) + b"+"


def hexs(text):
    return text.encode().hex()


SEEDS = {
    "connect.bin": seq("qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+", "vMustReplyEmpty",
                       "QStartNoAckMode", "Hgp0.0", "qXfer:features:read:target.xml:0,ffb",
                       "qXfer:features:read:target.xml:ffb,ffb", "qTStatus", "?", "qfThreadInfo",
                       "qsThreadInfo", "qAttached", "qC", "g", "qOffsets", "qSymbol::"),
    "registers.bin": seq("g", "p20", "p5", "P5=78563412", "p5", "pf55", "p1195", "p1197", "p1298",
                         "p1294", "P1195=01000000", "G" + "00" * 132, "p0", "P0=01000000", "pffff"),
    "memory.bin": seq("m80000000,40", "m80000000,0", "M90000000,4:efbeadde", "m90000000,4",
                      "m70000000,10", "M70000010,2:abcd", "m10,4", "m80000000,2000",
                      "X90000000,0:", "mffffffff,2"),
    "step.bin": seq("?", "Z0,80000018,4", "vCont;c", "z0,80000018,4", "s", "s", "vCont;s:1;c",
                    "Hc2", "s", "vCont;s:3", "c80000000", "g", "c"),
    "threads.bin": seq("qfThreadInfo", "qThreadExtraInfo,1", "qThreadExtraInfo,4", "T3", "T9",
                       "Hg3", "g", "Hg0", "Hc-1", "Hg-1", "vCont?", "Z0,8000002c,4", "c",
                       "qfThreadInfo", "c"),
    "monitor.bin": seq("qRcmd," + hexs("simt"), "qRcmd," + hexs("lane 3"), "qRcmd," + hexs("lane"),
                       "qRcmd," + hexs("warp"), "qRcmd," + hexs("warps"),
                       "qRcmd," + hexs("barriers"), "qRcmd," + hexs("info registers"),
                       "qRcmd," + hexs("x/8wx 0x80000000"), "qRcmd," + hexs("continue"),
                       "qRcmd," + hexs("quit"), "qRcmd," + hexs("print/f v1"),
                       "qRcmd," + hexs("set x5 = 3"), "qRcmd," + hexs("help"), "qRcmd,zz",
                       "qRcmd,123"),
    "watch.bin": seq("Z2,90000000,4", "c", "c", "z2,90000000,4", "Z2,90000000,0", "Z3,0,4",
                     "Z1,8000002c,4", "c", "D"),
    "kill.bin": seq("?", "s", "k", "g"),
    "malformed.bin": b"garbage+-\x03$g#00$g#zz$qC$qC#b4$#00" + pkt(b"m" * 17000) + pkt(b"")
                     + b"$" + b"}" * 40 + b"#" + pkt(b"Z0,zz,4") + pkt(b"Hx1") + pkt(b"czz")
                     + pkt(b"vCont;x") + pkt(b"P5") + pkt(b"p") + b"$unterminated",
}

os.makedirs(OUT, exist_ok=True)
for name, data in sorted(SEEDS.items()):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
