#include <catch2/catch.hpp>

#include <string>
#include <vector>

// catch_discover_tests registers each name with CTest as a CMake list: a ';' splits one test into
// several CTest tests whose filters match nothing, and those ran nothing yet showed as passed.
// Both test binaries compile this file: the binary's name keeps the two CTest names apart (a
// repeated name is refused by ctest-junit).
TEST_CASE("test names are whole for CTest (no semicolons) in " STK_TEST_BINARY, "[meta]") {
  std::vector<std::string> split;
  for (const Catch::TestCase& t : Catch::getRegistryHub().getTestCaseRegistry().getAllTests())
    if (t.getTestCaseInfo().name.find(';') != std::string::npos)
      split.push_back(t.getTestCaseInfo().name);
  INFO("names with ';': " << Catch::Detail::stringify(split));
  CHECK(split.empty());
}
