// Independent model of ctest-junit's mapping (docs/harnesses/ctest-junit.md, "The mapping"):
// CTest reports generated with every status and message kind, each testcase's outcome predicted.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli_support.h"
#include "rc_support.h"
#include "commands/ctest-junit/ctest_junit.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace ctest_junit_model_test {

using namespace stk::harness;
namespace junit = stk::junit;

namespace {

struct GenCase {
  std::string name, status, message;  // message: the <failure>/<skipped> message, "" for none
  std::optional<int> time_ms;         // the time attribute; none: CTest wrote no time
};

junit::Outcome model_outcome(const GenCase& c) {
  if (c.status == "run") return junit::Outcome::Passed;
  if (c.status == "fail") return junit::Outcome::Failed;
  if (c.status == "disabled") return junit::Outcome::Skipped;
  if (c.status == "notrun") {
    for (const char* asked : {"SKIP_RETURN_CODE", "SKIP_REGULAR_EXPRESSION", "Disabled"})
      if (c.message.rfind(asked, 0) == 0) return junit::Outcome::Skipped;
    return junit::Outcome::Error;
  }
  return junit::Outcome::Error;
}

std::string model_message(const GenCase& c) {
  switch (model_outcome(c)) {
    case junit::Outcome::Passed: return "";
    case junit::Outcome::Failed: return c.message.empty() ? "failed (see system-out)" : c.message;
    case junit::Outcome::Skipped: return c.status == "disabled" ? "disabled" : c.message;
    case junit::Outcome::Error:
      return c.status == "notrun" ? "CTest could not run it: " + c.message
                                  : "unknown CTest status '" + c.status + "'";
  }
  return "";
}

std::string seconds_attr(std::optional<int> ms) {
  return ms ? " time=\"" + std::to_string(*ms / 1000) + "." +
                  std::to_string(1000 + *ms % 1000).substr(1) + "\""
            : "";
}

std::string ctest_xml(const std::vector<GenCase>& cases, std::optional<int> suite_ms = 3000) {
  std::string x =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"Linux-c++\" tests=\"" +
      std::to_string(cases.size()) +
      "\" failures=\"0\" disabled=\"0\" skipped=\"0\" hostname=\"h\"" + seconds_attr(suite_ms) +
      " timestamp=\"2026-12-03T04:00:00\">\n";
  for (const auto& c : cases) {
    x += "  <testcase name=\"" + c.name + "\" classname=\"" + c.name + "\"" +
         seconds_attr(c.time_ms) + " status=\"" + c.status + "\">";
    if (c.status == "fail" && !c.message.empty()) x += "<failure message=\"" + c.message + "\"/>";
    if (c.status == "disabled") x += "<skipped message=\"Disabled\"/>";
    if (c.status == "notrun") x += "<skipped message=\"" + c.message + "\"/>";
    x += "<system-out>out of " + c.name + "</system-out></testcase>\n";
  }
  return x + "</testsuite>\n";
}

// A time in milliseconds, or none (CTest wrote no time attribute).
rc::Gen<std::optional<int>> maybe_ms(int max) {
  return rc::gen::weightedOneOf<std::optional<int>>(
      {{1, rc::gen::just(std::optional<int>())},
       {3, rc::gen::map(rc::gen::inRange(0, max), [](int v) { return std::optional<int>(v); })}});
}

rc::Gen<GenCase> gen_case() {
  return rc::gen::build<GenCase>(
      rc::gen::set(&GenCase::name, rc::gen::map(rc::gen::inRange(0, 1000),
                                                [](int i) { return "test " + std::to_string(i); })),
      // Unknown statuses of any spelling, on either side of the known ones in byte order.
      rc::gen::set(
          &GenCase::status,
          rc::gen::weightedOneOf<std::string>(
              {{6, rc::gen::elementOf(std::vector<std::string>{"run", "fail", "disabled", "notrun",
                                                               "notrun", "notrun"})},
               {1, rc::gen::container<std::string>(rc::gen::inRange('a', char('z' + 1)))}})),
      rc::gen::set(&GenCase::time_ms, maybe_ms(100000)),
      rc::gen::set(&GenCase::message,
                   rc::gen::elementOf(std::vector<std::string>{
                       "", "SKIP_RETURN_CODE=77", "SKIP_REGULAR_EXPRESSION_MATCHED", "Disabled",
                       "Unable to find executable: /x/y", "Fixture dependency failed", "Failed",
                       "Skipped SKIP_RETURN_CODE"})));
}

}  // namespace

// MODEL ctest-junit-outcomes
// checks: harness/src/commands/ctest-junit/ctest_junit.cpp  (each CTest testcase's outcome and message)
// contract: docs/harnesses/ctest-junit.md#the-mapping
// planted: ci/mutants/model-ctest-junit-outcomes.patch  (a SKIP_REGULAR_EXPRESSION skip made an error)
TEST_CASE("ctest-junit maps every generated CTest testcase as the documented mapping says",
          "[model][ctest-junit]") {
  rc::prop("generated CTest reports", [] {
    const auto cases = *rc::gen::container<std::vector<GenCase>>(gen_case());
    const auto label = *rc::gen::elementOf(std::vector<std::string>{"release", "asan"});
    const auto suite_ms = *maybe_ms(1000000);
    const auto suite = ctest_suite(ctest_xml(cases, suite_ms), label);
    RC_ASSERT(suite.name == "ctest." + label);
    // CTest's time, or its longest testcase's when CTest wrote none or less.
    double longest = 0;
    for (const GenCase& c : cases)
      longest = std::max(longest, c.time_ms ? *c.time_ms / 1000.0 : 0.0);
    RC_ASSERT(suite.time_s == std::max(suite_ms ? *suite_ms / 1000.0 : 0.0, longest));
    RC_ASSERT(suite.cases.size() == cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto& got = suite.cases[i];
      RC_ASSERT(got.name == cases[i].name);
      RC_ASSERT(got.classname == "ctest." + label);
      RC_ASSERT(got.outcome == model_outcome(cases[i]));
      RC_ASSERT(got.message == model_message(cases[i]));
      RC_ASSERT(got.time_s == (cases[i].time_ms ? *cases[i].time_ms / 1000.0 : 0.0));
      RC_ASSERT(got.system_out == "out of " + cases[i].name);
    }
  });
  // Both ways: a requested skip stays skipped; a test CTest could not start is an error.
  CHECK(
      ctest_suite(ctest_xml({{"a", "notrun", "SKIP_RETURN_CODE=4", 500}}), "x").cases[0].outcome ==
      junit::Outcome::Skipped);
  CHECK(ctest_suite(ctest_xml({{"a", "notrun", "Unable to find executable: a", 500}}), "x")
            .cases[0]
            .outcome == junit::Outcome::Error);
  CHECK_THROWS_AS(ctest_suite("<testsuites/>", "x"), InputError);
  CHECK_THROWS_AS(ctest_suite("not xml <", "x"), InputError);
}

// MODEL ctest-junit-run-line
// checks: harness/src/commands/ctest-junit/ctest_junit_command.cpp  (the printed counts and the exit status of a conversion)
// contract: docs/harnesses/ctest-junit.md#the-run
// planted: ci/mutants/ctest-junit-line-errors-as-failed.patch  (errors printed as the failed count)
TEST_CASE("ctest-junit prints the counts of the mapped testcases and exits by them",
          "[model][ctest-junit]") {
  const auto dir = stk::test::scratch_dir("ctest-junit-run-line");
  int run = 0;
  rc::prop("generated CTest reports, converted by the command", [&] {
    const auto cases = *stk::test::length_between<std::vector<GenCase>>(0, 8, gen_case());
    std::map<junit::Outcome, int> n;
    for (const GenCase& c : cases) ++n[model_outcome(c)];
    const auto raw = dir / ("raw" + std::to_string(run) + ".xml");
    const auto out = dir / "junit" / ("ctest-" + std::to_string(run++) + ".xml");
    stk::test::write_file(raw, ctest_xml(cases, std::nullopt));
    const auto r = stk::test::run_command(stk::test::harness_bin() + " ctest-junit " +
                                          raw.string() + " " + out.string() + " --name x");
    const std::string line =
        fmt::format("ctest-junit: {} tests, {} failed, {} errors, {} skipped: {}\n", cases.size(),
                    n[junit::Outcome::Failed], n[junit::Outcome::Error], n[junit::Outcome::Skipped],
                    out.string());
    RC_ASSERT(r.output == line);
    RC_ASSERT(r.exit_code == (n[junit::Outcome::Failed] + n[junit::Outcome::Error] ? 1 : 0));
  });
}

}  // namespace ctest_junit_model_test
