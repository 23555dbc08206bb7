"""PyOpenCL through vt's OpenCL platform: a kernel assembled by `vt as`
(examples/kernels/vecadd.s, with its .vt.kernel_args section) is built
from its binary and run on arrays; the result must equal numpy's float32
sum, and the kernel's argument information must be what the directives
say. When vt has its compiler (the device reports one), a reduction with a
__local argument and barriers (examples/opencl/kernels/reduce.cl) is built
from source and checked against numpy, with the argument information the
compiler gives, and a build error must carry clang's diagnostic. Then
README's PyOpenCL example (the python block of its "OpenCL" section) runs
as it is (with the compiler; from the binary otherwise) and must print
"vecadd on vt: ok".

Usage: python3 ocl_pyopencl_test.py VT SOURCE_DIR ICD_FILE TMP_ROOT
(exit 77 when pyopencl or numpy cannot be imported)
"""
import os
import shutil
import subprocess
import sys
import tempfile

vt, src, icd, tmp_root = sys.argv[1:5]
crt0 = os.path.join(src, "examples", "kernels", "crt0.s")
vecadd_s = os.path.join(src, "examples", "kernels", "vecadd.s")
cl_dir = os.path.join(src, "examples", "opencl", "kernels")
os.environ["OCL_ICD_VENDORS"] = icd
try:
    import numpy as np
    import pyopencl as cl
except ImportError as e:
    print("SKIP: %s (python3-pyopencl: sh scripts/install-deps.sh opencl)" % e)
    sys.exit(77)

os.makedirs(tmp_root, exist_ok=True)
failed = 0
passed = 0


def check(name, cond):
    global failed, passed
    print(("ok   " if cond else "FAIL ") + name)
    failed += 0 if cond else 1
    passed += 1 if cond else 0


def from_source(ctx, queue):
    """A reduction from OpenCL C: partial sums of 128-item workgroups."""
    prg = cl.Program(ctx, open(os.path.join(cl_dir, "reduce.cl")).read()).build()
    rng = np.random.default_rng(2)
    x = rng.integers(-100000, 100000, 4096).astype(np.int32)
    mf = cl.mem_flags
    dx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    dp = cl.Buffer(ctx, mf.WRITE_ONLY, 32 * 4)
    prg.reduce(queue, (4096,), (128,), dx, dp, cl.LocalMemory(2 * 128 * 4))
    part = np.empty(32, dtype=np.int32)
    cl.enqueue_copy(queue, part, dp)
    check("reduce from source equals numpy's sums",
          np.array_equal(part, x.reshape(32, 128).sum(axis=1, dtype=np.int32)))
    k = prg.reduce
    ka = cl.kernel_arg_info
    check("compiled argument names in partial scratch",
          [k.get_arg_info(i, ka.NAME) for i in range(3)] == ["in", "partial", "scratch"])
    check("scratch is __local",
          k.get_arg_info(2, ka.ADDRESS_QUALIFIER) == cl.kernel_arg_address_qualifier.LOCAL)
    try:
        cl.Program(ctx, "kernel void k(global int *a) {\n  a[0] = nope;\n}\n").build()
        check("a build error raises", False)
    except cl.RuntimeError as e:
        check("a build error carries clang's diagnostic",
              "BUILD_PROGRAM_FAILURE" in str(e)
              and "program.cl:2:10: error: use of undeclared identifier 'nope'" in str(e))


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
    compiler = bool(ctx.devices[0].compiler_available)
    if compiler:
        from_source(ctx, queue)
    else:
        print("(no compiler: vt was built without LLVM 14; source builds not tried)")

    readme = open(os.path.join(src, "README.md")).read()
    section = readme[readme.index("\n## OpenCL\n"):]
    example = section[section.index("```python\n") + 10:section.index("\n```\n")]
    shutil.copy(os.path.join(cl_dir, "vecadd.cl"), tmp)
    if not compiler:  # the example's alternative: the binary from vt as
        line = [x for x in example.split("\n") if "cl.Program(" in x][0]
        example = example.replace(
            line, 'prg = cl.Program(ctx, ctx.devices, [open("vecadd.elf", "rb").read()]).build()')
    run = subprocess.run([sys.executable, "-c", example], cwd=tmp, capture_output=True,
                         text=True)
    check("README's example prints 'vecadd on vt: ok'",
          run.returncode == 0 and run.stdout == "vecadd on vt: ok\n")
    if run.returncode != 0 or run.stdout != "vecadd on vt: ok\n":
        print(run.stdout, run.stderr)
    check("README's example has 10 lines", example.count("\n") + 1 == 10)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
