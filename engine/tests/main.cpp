#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "position.h"

int main(int argc, char** argv) {
  stk::init_engine();
  return Catch::Session().run(argc, argv);
}
