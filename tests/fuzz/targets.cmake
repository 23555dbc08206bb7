# Which fuzz targets can be built in this tree. Included by tests/fuzz/
# CMakeLists.txt (libFuzzer build) and tests/CMakeLists.txt (corpus replay
# under CTest). The assembler and the ELF reader are developed on other
# branches: their targets are enabled as soon as the sources exist (the
# globs use CONFIGURE_DEPENDS, so a rebuild re-checks).
#
# Sets VT_FUZZ_TARGETS (names), VT_FUZZ_SKIPPED ("name: reason" entries) and
# VT_FUZZ_DEFS_<name> (extra compile definitions).
set(VT_FUZZ_DIR ${CMAKE_SOURCE_DIR}/tests/fuzz)
file(GLOB _vt_fuzz_asm_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/asm/*.c)
set(_vt_fuzz_have_asm FALSE)
set(_vt_fuzz_have_elf FALSE)
if(_vt_fuzz_asm_srcs)
  set(_vt_fuzz_have_asm TRUE)
endif()
if(EXISTS ${CMAKE_SOURCE_DIR}/src/elf/elf_read.c)
  set(_vt_fuzz_have_elf TRUE)
endif()

set(VT_FUZZ_TARGETS fuzz_decode fuzz_testvec fuzz_sim fuzz_report fuzz_gdb)
set(VT_FUZZ_DEFS_fuzz_gdb)
set(VT_FUZZ_DEFS_fuzz_testvec)
set(VT_FUZZ_DEFS_fuzz_sim)
set(VT_FUZZ_DEFS_fuzz_report)
set(VT_FUZZ_SKIPPED)
set(VT_FUZZ_DEFS_fuzz_decode)
set(VT_FUZZ_DEFS_fuzz_asm)
set(VT_FUZZ_DEFS_fuzz_elf)
if(_vt_fuzz_have_asm)
  list(APPEND VT_FUZZ_TARGETS fuzz_asm)
  if(_vt_fuzz_have_elf)
    # a successfully linked image must also parse with the ELF reader
    set(VT_FUZZ_DEFS_fuzz_asm VT_FUZZ_HAVE_ELF=1)
  endif()
else()
  list(APPEND VT_FUZZ_SKIPPED "fuzz_asm: no src/asm/*.c (assembler not merged yet)")
endif()
if(_vt_fuzz_have_elf)
  list(APPEND VT_FUZZ_TARGETS fuzz_elf)
else()
  list(APPEND VT_FUZZ_SKIPPED "fuzz_elf: no src/elf/elf_read.c (ELF reader not merged yet)")
endif()
