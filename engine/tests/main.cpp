#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include "position.h"

int main(int argc, char** argv) {
  stk::init_engine();
  // RapidCheck reads RC_PARAMS at its first property: without one, the build's fixed seed
  // (CMake STK_RC_SEED), so that a property draws the same cases on every run; a failure prints
  // the seed it ran with. RC_PARAMS set by hand draws other cases.
  ::setenv("RC_PARAMS", "seed=" STK_RC_SEED, /*overwrite=*/0);
  return Catch::Session().run(argc, argv);
}
