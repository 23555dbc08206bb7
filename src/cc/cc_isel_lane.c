/* Operations done lane by lane: atomics and printf. */
#include "cc_isel.h"

void select_atomic(isel *s, LLVMValueRef i) {
  (void)i;
  isel_error(s, "atomics are not supported yet");
}

void select_printf(isel *s, LLVMValueRef i) {
  (void)i;
  isel_error(s, "printf is not supported yet");
}
