// libFuzzer entry point of the fhr target; the check is shared with the regression test.
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  stk::fuzz::check_fhr(data, size);
  return 0;
}
