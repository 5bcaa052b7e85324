// libFuzzer entry point of the netfile target; the check is shared with the regression test.
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  stk::fuzz::check_netfile(data, size);
  return 0;
}
