/* The device address map: VT_ADDR_<NAME>_BASE and VT_ADDR_<NAME>_SIZE for
 * every region of vt/addrmap.def, the one definition of vt's fixed
 * addresses, and the layout facts of the start-up code
 * (formats-and-launch.md 7). */
#ifndef VT_ADDRMAP_H
#define VT_ADDRMAP_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VT_REGION(name, base, size, what)            \
  static const uint32_t VT_ADDR_##name##_BASE = base; \
  static const uint32_t VT_ADDR_##name##_SIZE = size;
#include "vt/addrmap.def"
#undef VT_REGION

/* crt0's scalar stack per warp at CSR_LDS + 1024 * wid (variant C) */
#define VT_STACK_PER_WARP 1024u
/* the Verilog port's crt0 puts warp w's stack at CSR_LDS + w MiB (the
 * official cases/rtl-verilog binaries) */
#define VT_PORT_STACK_STRIDE 0x100000u

/* The address map as a markdown table (`vt help address-map`). */
void vt_addrmap_print(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
