// stk-harness ctest-junit IN OUT [--name LABEL]: rewrites CTest's --output-junit file IN as the
// project's JUnit report OUT (ci/test.sh), so that every file under reports/junit validates.
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "common/cli.h"
#include "ctest_junit/ctest_junit.h"

namespace stk::harness {

namespace {

constexpr const char* kUsage =
    "usage: stk-harness ctest-junit CTEST_JUNIT.xml OUT.xml [--name LABEL]\n"
    "  rewrites CTest's --output-junit report in the project's JUnit form (suite and class\n"
    "  ctest.LABEL, default 'default'); a test CTest could not start is an <error>, not a skip\n";

}  // namespace

int run_ctest_junit(int argc, char** argv) {
  try {
    Args args(argc, argv, {"name"}, {"help"});
    if (args.has("help")) return std::cout << kUsage, 0;
    if (args.positional().size() != 2) throw UsageError("expected CTEST_JUNIT.xml and OUT.xml");
    const std::string in_path = args.positional()[0], out_path = args.positional()[1];
    const std::string label = args.get("name", "default");
    declare_report(out_path, "ctest." + label);
    std::ifstream in(in_path, std::ios::binary);
    if (!in) throw InputError(in_path + ": cannot open file");
    std::stringstream xml;
    xml << in.rdbuf();
    junit::TestSuite suite;
    try {
      suite = ctest_suite(xml.str(), label);
    } catch (const InputError& e) {
      throw InputError(in_path + ": " + e.what());
    }
    std::string err;
    if (!junit::write_report(out_path, {suite}, &err)) throw InputError(err);
    std::cout << "ctest-junit: " << suite.cases.size() << " tests, " << suite.count(junit::Outcome::Failed)
              << " failed, " << suite.count(junit::Outcome::Error) << " errors, "
              << suite.count(junit::Outcome::Skipped) << " skipped: " << out_path << "\n";
    return suite.all_passed() ? 0 : 1;
  } catch (...) {
    return input_failure("stk-harness ctest-junit", kUsage);
  }
}

}  // namespace stk::harness
