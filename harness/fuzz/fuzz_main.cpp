// libFuzzer entry point, compiled once per target with STK_FUZZ_CHECK naming its check
// (fuzz_checks.h): the checks are shared with the regression test, so a crash input replays
// in the normal build. A CheckFailure escapes as an uncaught exception, which libFuzzer reports
// as a crash ("deadly signal") and saves the input.
#include "fuzz_checks.h"
#include "position.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  stk::init_engine();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  stk::fuzz::STK_FUZZ_CHECK(data, size);
  return 0;
}
