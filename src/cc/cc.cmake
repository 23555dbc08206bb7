# The OpenCL C compiler behind `vt cc` (docs/cc.md): libvtcc, built only
# when LLVM 14 is present (Debian: clang-14, llvm-14-dev, libclc-14; the
# `compiler` profile of scripts/install-deps.sh). The rest of vt builds
# without it; its tests then report "skipped".
#   VT_CC=AUTO (default): build it when everything is found; ON: required; OFF: never.
set(VT_CC AUTO CACHE STRING "Build the OpenCL C compiler (vt cc): AUTO, ON or OFF")
set(VT_LLVM_ROOT /usr/lib/llvm-14 CACHE PATH "LLVM 14 installation used by vt cc")
set(VT_CC_ENABLED OFF)
if(NOT VT_CC STREQUAL "OFF")
  find_path(VT_LLVM_INCLUDE llvm-c/Core.h PATHS ${VT_LLVM_ROOT}/include NO_DEFAULT_PATH)
  find_library(VT_LLVM_LIB NAMES LLVM-14 PATHS ${VT_LLVM_ROOT}/lib NO_DEFAULT_PATH)
  find_program(VT_CLANG NAMES clang-14 clang PATHS ${VT_LLVM_ROOT}/bin NO_DEFAULT_PATH)
  find_file(VT_LIBCLC nvptx--.bc PATHS /usr/lib/clc ${VT_LLVM_ROOT}/lib/clc)
  if(VT_LLVM_INCLUDE AND VT_LLVM_LIB AND VT_CLANG)
    set(VT_CC_ENABLED ON)
  elseif(VT_CC STREQUAL "ON")
    message(FATAL_ERROR "VT_CC=ON but LLVM 14 was not found in ${VT_LLVM_ROOT} "
                        "(sh scripts/install-deps.sh compiler)")
  else()
    message(STATUS "vt cc: LLVM 14 not found in ${VT_LLVM_ROOT}; the compiler is not built")
  endif()
endif()

if(VT_CC_ENABLED)
  if(NOT VT_LIBCLC)
    message(WARNING "vt cc: libclc (nvptx--.bc) not found: kernels calling math built-ins will not compile")
    set(VT_LIBCLC "")
  endif()
  set(VT_CC_GEN ${CMAKE_BINARY_DIR}/generated/cc)
  file(MAKE_DIRECTORY ${VT_CC_GEN})
  # the device library written in OpenCL C (work-item functions, ...),
  # compiled by the same clang and linked into every program as bitcode
  set(VT_CC_CLC ${CMAKE_SOURCE_DIR}/src/cc/clc/vtclc.cl)
  add_custom_command(
    OUTPUT ${VT_CC_GEN}/vtclc.bc
    COMMAND ${VT_CLANG} -cc1 -triple spir-unknown-unknown -cl-std=CL1.2 -finclude-default-header
            -emit-llvm-bc -O2 -disable-llvm-passes -o ${VT_CC_GEN}/vtclc.bc ${VT_CC_CLC}
    DEPENDS ${VT_CC_CLC}
    COMMENT "clang: the vt cc device library (src/cc/clc/vtclc.cl)")
  set(VT_CC_EMBEDDED)
  foreach(item "vtclc_bc=${VT_CC_GEN}/vtclc.bc"
               "crt0_s=${CMAKE_SOURCE_DIR}/examples/kernels/crt0.s"
               "vtprintf_s=${CMAKE_SOURCE_DIR}/examples/kernels/vtprintf.s")
    string(REPLACE "=" ";" kv ${item})
    list(GET kv 0 sym)
    list(GET kv 1 file)
    add_custom_command(
      OUTPUT ${VT_CC_GEN}/${sym}.c
      COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${VT_CC_GEN}/${sym}.c -DNAME=vt_cc_${sym}
              -P ${CMAKE_SOURCE_DIR}/src/cc/embed.cmake
      DEPENDS ${file} ${CMAKE_SOURCE_DIR}/src/cc/embed.cmake)
    list(APPEND VT_CC_EMBEDDED ${VT_CC_GEN}/${sym}.c)
  endforeach()

  file(GLOB VT_CC_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/cc/*.c)
  add_library(vtcc_objects OBJECT ${VT_CC_SOURCES} ${VT_CC_EMBEDDED})
  target_include_directories(vtcc_objects PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src)
  target_include_directories(vtcc_objects SYSTEM PRIVATE ${VT_LLVM_INCLUDE})
  target_compile_definitions(vtcc_objects PRIVATE
    VT_CC_CLANG="${VT_CLANG}" VT_CC_LIBCLC="${VT_LIBCLC}")
  add_library(vtcc_static STATIC $<TARGET_OBJECTS:vtcc_objects>)
  add_library(vtcc_shared SHARED $<TARGET_OBJECTS:vtcc_objects>)
  set_target_properties(vtcc_static vtcc_shared PROPERTIES OUTPUT_NAME vtcc)
  set_target_properties(vtcc_shared PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION 0)
  target_link_libraries(vtcc_static PUBLIC vt_static ${VT_LLVM_LIB})
  # libvtcc.so carries the parts of libvt it uses (the assembler, file
  # reading) and exports only vt_cc_* (src/cc/libvtcc.map)
  target_link_libraries(vtcc_shared PRIVATE vt_static)
  target_link_libraries(vtcc_shared PUBLIC ${VT_LLVM_LIB})
  target_link_options(vtcc_shared PRIVATE -Wl,--version-script=${CMAKE_SOURCE_DIR}/src/cc/libvtcc.map)
  set_property(TARGET vtcc_shared APPEND PROPERTY LINK_DEPENDS ${CMAKE_SOURCE_DIR}/src/cc/libvtcc.map)
  foreach(t vtcc_static vtcc_shared)
    target_include_directories(${t} PUBLIC
      $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
  endforeach()
  install(TARGETS vtcc_static vtcc_shared
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
