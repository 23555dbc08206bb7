/* The address map table `vt help address-map` prints (vt/addrmap.def). */
#include "vt/addrmap.h"

void vt_addrmap_print(FILE *f) {
  fputs("| range | contents |\n| --- | --- |\n", f);
#define VT_REGION(name, base, size, what)                                               \
  fprintf(f, "| 0x%08x-0x%08x | %s |\n", (unsigned)(base),                              \
          (unsigned)((uint64_t)(base) + (size)-1), what);
#include "vt/addrmap.def"
#undef VT_REGION
  fputs("| anything else | unmapped: an access is an error |\n", f);
}
