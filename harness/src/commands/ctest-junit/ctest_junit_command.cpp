// stk-harness ctest-junit IN OUT [--name LABEL]: rewrites CTest's --output-junit file IN as the
// project's JUnit report OUT (ci/test.sh), so that every file under reports/junit validates.
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_owed_reports.h"
#include "commands/ctest-junit/ctest_junit.h"
#include "io/input_file.h"
#include "report/run_report.h"

namespace stk::harness {

namespace {

// OUT, and the summaries beside the reports tree it lies in: OUT_ROOT/ctest/LABEL.{json,md}, where
// OUT_ROOT is the folder above OUT's "junit" folder (reports/junit/ctest-release.xml: reports/),
// else OUT's own folder.
report::ReportPaths ctest_report_paths(const std::string& out_path, const std::string& label) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(out_path).parent_path();
  if (dir.filename() == "junit") dir = dir.parent_path();
  report::ReportPaths paths = report::report_paths(dir.empty() ? "." : dir.string(), "ctest",
                                                   label);
  paths.junit = out_path;
  return paths;
}

}  // namespace

int run_ctest_junit(int argc, char** argv) {
  CLI::App app{
      "Rewrites CTest's --output-junit report in the project's JUnit form (suite and class ctest.LABEL);\n"
      "a test CTest could not start is an <error>, not a skip. Summaries: ctest/LABEL.{json,md} beside\n"
      "the junit folder OUT lies in.",
      "stk-harness ctest-junit"};
  std::string in_path, out_path, label = "default";
  app.add_option("CTEST_JUNIT", in_path, "CTest's --output-junit file")->required();
  app.add_option("OUT", out_path, "the JUnit report to write")->required();
  app.add_option("--name", label, "suite label")->capture_default_str();
  auto declare_given = [&] {
    if (const std::string out = given_value(app, "OUT", ""); !out.empty())
      declare_report(out, "ctest." + given_value(app, "--name", "default"));
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    declare_report(out_path, "ctest." + label);
    const std::string xml = io::read_input_file(in_path);  // a device or FIFO refused by name
    report::RunReport run{"ctest", label};
    try {
      run.suites.push_back(ctest_suite(xml, label));
    } catch (const InputError& e) {
      throw InputError(in_path + ": " + e.what());
    }
    run.figures["source"] = in_path;
    report::write_run_report(run, ctest_report_paths(out_path, label));
    std::cout << "ctest-junit: " << run.tests() << " tests, " << run.count(junit::Outcome::Failed)
              << " failed, " << run.count(junit::Outcome::Error) << " errors, "
              << run.count(junit::Outcome::Skipped) << " skipped: " << out_path << "\n";
    return report::exit_status(run);
  } catch (...) {
    return input_failure("stk-harness ctest-junit", app.help().c_str());
  }
}

}  // namespace stk::harness
