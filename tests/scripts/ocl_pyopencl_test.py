"""PyOpenCL through vt's OpenCL platform: a kernel assembled by `vt as`
(examples/kernels/vecadd.s, with its .vt.kernel_args section) is built
from its binary and run on arrays; the result must equal numpy's float32
sum, and the kernel's argument information must be what the directives
say. Then README's PyOpenCL example (the python block of its "OpenCL"
section) runs as it is and must print "vecadd on vt: ok".

Usage: python3 ocl_pyopencl_test.py VT SOURCE_DIR ICD_FILE TMP_ROOT
(exit 77 when pyopencl or numpy cannot be imported)
"""
import os
import subprocess
import sys
import tempfile

vt, src, icd, tmp_root = sys.argv[1:5]
crt0 = os.path.join(src, "examples", "kernels", "crt0.s")
vecadd_s = os.path.join(src, "examples", "kernels", "vecadd.s")
os.environ["OCL_ICD_VENDORS"] = icd
try:
    import numpy as np
    import pyopencl as cl
except ImportError as e:
    print("SKIP: %s (python3-pyopencl: sh scripts/install-deps.sh opencl)" % e)
    sys.exit(77)

os.makedirs(tmp_root, exist_ok=True)
failed = 0


def check(name, cond):
    global failed
    print(("ok   " if cond else "FAIL ") + name)
    failed += 0 if cond else 1


with tempfile.TemporaryDirectory(dir=tmp_root, prefix="ocl_pyopencl.") as tmp:
    elf = os.path.join(tmp, "vecadd.elf")
    subprocess.run([vt, "as", crt0, vecadd_s, "-o", elf], check=True)
    binary = open(elf, "rb").read()

    platform = [p for p in cl.get_platforms() if p.name == "vt"][0]
    ctx = cl.Context(platform.get_devices())
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, ctx.devices, [binary]).build()
    rng = np.random.default_rng(1)
    a = rng.integers(-1000, 1000, 1000).astype(np.float32) / np.float32(8)
    b = rng.integers(-1000, 1000, 1000).astype(np.float32) / np.float32(3)
    mf = cl.mem_flags
    da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    dc = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    prg.vecadd(queue, a.shape, None, da, db, dc)
    c = np.empty_like(a)
    cl.enqueue_copy(queue, c, dc)
    check("vecadd result equals numpy's float32 sum", np.array_equal(c, a + b))

    k = prg.vecadd
    check("num_args is 3", k.num_args == 3)
    ka = cl.kernel_arg_info
    check("argument names A B C",
          [k.get_arg_info(i, ka.NAME) for i in range(3)] == ["A", "B", "C"])
    check("argument types float*",
          [k.get_arg_info(i, ka.TYPE_NAME) for i in range(3)] == ["float*"] * 3)
    check("A is const, C is not",
          k.get_arg_info(0, ka.TYPE_QUALIFIER) == cl.kernel_arg_type_qualifier.CONST
          and k.get_arg_info(2, ka.TYPE_QUALIFIER) == cl.kernel_arg_type_qualifier.NONE)
    check("global address space",
          k.get_arg_info(1, ka.ADDRESS_QUALIFIER) == cl.kernel_arg_address_qualifier.GLOBAL)
    check("device name", ctx.devices[0].name == "Ventus GPGPU (vt simulator)")

    readme = open(os.path.join(src, "README.md")).read()
    section = readme[readme.index("\n## OpenCL\n"):]
    example = section[section.index("```python\n") + 10:section.index("\n```\n")]
    run = subprocess.run([sys.executable, "-c", example], cwd=tmp, capture_output=True,
                         text=True)
    check("README's example prints 'vecadd on vt: ok'",
          run.returncode == 0 and run.stdout == "vecadd on vt: ok\n")
    if run.returncode != 0 or run.stdout != "vecadd on vt: ok\n":
        print(run.stdout, run.stderr)
    check("README's example has 10 lines", example.count("\n") + 1 == 10)

print("%d passed, %d failed" % (9 - failed, failed))
sys.exit(1 if failed else 0)
