#!/bin/sh
# clinfo (Debian's, not built with sanitizers) lists vt's OpenCL platform
# through the ICD loader without errors, with the values the default
# device configuration gives (docs/driver.md: 2 SMs, 8 warp slots of up to
# 32 threads, 128 KiB of local memory; buffers in [0x90000000, 2^32)), and
# follows the configuration (VT_SMS=4, VT_WARP_SLOTS=4 VT_THREADS=16). A
# bad configuration gives no device and a message naming the variable.
# With vt's compiler (COMPILER = Yes) the device reports a compiler, a
# linker and the full profile; without it (No), none and the embedded one.
# Usage: ocl_clinfo_test.sh ICD_FILE TMP_ROOT Yes|No   (exit 77: clinfo missing)
set -eu
ICD=$1
mkdir -p "$2"
COMPILER=$3
if [ "$COMPILER" = Yes ]; then PROFILE=FULL_PROFILE; else PROFILE=EMBEDDED_PROFILE; fi
if ! command -v clinfo >/dev/null 2>&1; then
  echo "SKIP: clinfo is not installed (sh scripts/install-deps.sh opencl)"
  exit 77
fi
T=$(mktemp -d "$2/ocl_clinfo.XXXXXX")
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
# has FILE 'field' 'value': a line "  field   value" (clinfo's layout)
has() {
  if grep -Eq "^ *$2 +$3\$" "$1"; then ok "$2: $3"; else fail "$2: expected '$3'"; grep -E "^ +$2" "$1" || true; fi
}
unset VT_CONFIG VT_SMS VT_WARP_SLOTS VT_THREADS VT_LDS_BYTES VT_TIMING
export OCL_ICD_VENDORS="$ICD"

if clinfo >"$T/out" 2>"$T/err"; then ok clinfo_exits_0; else fail clinfo_exits_0; fi
# clinfo prints failed queries as "Invalid ...", "<error: ...>", "Unknown ..."
grep -v 'Error Correction support' "$T/out" | grep -Ei 'error|invalid|unknown|unsupported' \
  >"$T/bad_lines" || true
if [ -s "$T/err" ] || [ -s "$T/bad_lines" ]; then
  fail no_errors_printed
  cat "$T/err" "$T/bad_lines"
else ok no_errors_printed; fi
has "$T/out" 'Number of platforms' '1'
has "$T/out" 'Platform Name' 'vt'
has "$T/out" 'Platform Vendor' 'the vt project'
has "$T/out" 'Platform Version' 'OpenCL 1.2 vt 0.1.0'
has "$T/out" 'Platform Extensions' 'cl_khr_icd'
has "$T/out" 'Device Name' 'Ventus GPGPU \(vt simulator\)'
has "$T/out" 'Device Vendor' 'THU-DSP-LAB'
has "$T/out" 'Device Version' 'OpenCL 1.2 vt 0.1.0'
has "$T/out" 'Device Type' 'GPU'
has "$T/out" 'Compiler Available' "$COMPILER"
has "$T/out" 'Linker Available' "$COMPILER"
has "$T/out" 'Platform Profile' "$PROFILE"
has "$T/out" 'Device Profile' "$PROFILE"
has "$T/out" 'Max compute units' '2'
has "$T/out" 'Max work group size' '256'
has "$T/out" 'Max work item sizes' '256x256x256'
# 128 KiB - 8 warp stacks of 1 KiB = 120 KiB
has "$T/out" 'Local memory size' '122880 \(120KiB\)'
# 2^32 - 0x90000000 bytes
has "$T/out" 'Global memory size' '1879048192 \(1.75GiB\)'
# cl_khr_fp64 when vt cc is there to compile double
FP64=''
if [ "$COMPILER" = Yes ]; then FP64=' cl_khr_fp64'; fi
has "$T/out" 'Device Extensions' \
  "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics$FP64"

VT_SMS=4 clinfo >"$T/sms" 2>&1 || true
has "$T/sms" 'Max compute units' '4'
VT_WARP_SLOTS=4 VT_THREADS=16 clinfo >"$T/fixed" 2>&1 || true
has "$T/fixed" 'Max work group size' '64'
# 128 KiB - 4 warp stacks
has "$T/fixed" 'Local memory size' '126976 \(124KiB\)'

VT_SMS=zero clinfo >"$T/bad" 2>&1 || true
if grep -q 'VT_SMS' "$T/bad" && grep -Eq 'Number of devices +0' "$T/bad"; then
  ok bad_configuration_reported
else fail bad_configuration_reported; cat "$T/bad"; fi

echo "$passed passed, $failed failed"
if [ "$failed" -eq 0 ]; then rm -rf "$T"; else echo "temporary files kept in $T"; fi
[ "$failed" -eq 0 ]
