// CTest's own --output-junit does not validate against the project's schema (attributes 'disabled'
// and 'status', no 'errors') and reports a test it could not start as skipped: ctest-junit
// rewrites it through the one JUnit writer, and ci/validate-reports.sh holds every report to the
// schema.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_support.h"
#include "commands/ctest-junit/ctest_junit.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

// What CTest 3.25 writes for a pass, a failure, a missing executable, SKIP_RETURN_CODE and DISABLED.
const char* kCtestXml = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)"
	tests="5"
	failures="1"
	disabled="1"
	skipped="2"
	hostname=""
	time="0"
	timestamp="2026-11-30T21:40:25"
	>
	<testcase name="pass" classname="pass" time="0.00233281" status="run">
		<system-out></system-out>
	</testcase>
	<testcase name="fail" classname="fail" time="0.00141536" status="fail">
		<failure message=""/>
		<system-out>bad &lt;&amp;&gt; stuff
</system-out>
	</testcase>
	<testcase name="notrun" classname="notrun" time="0" status="notrun">
		<skipped message="Unable to find executable"/>
		<system-out>Unable to find executable: /nonexistent</system-out>
	</testcase>
	<testcase name="skip" classname="skip" time="0.00145717" status="notrun">
		<skipped message="SKIP_RETURN_CODE=4"/>
		<system-out></system-out>
	</testcase>
	<testcase name="dis" classname="dis" time="0" status="disabled">
		<system-out>Disabled</system-out>
	</testcase>
</testsuite>)xml";

}  // namespace

TEST_CASE("ctest-junit: CTest's report in the project's JUnit form, outcomes kept honest",
          "[junit][ctest]") {
  auto dir = test::scratch_dir("ctest-junit");
  test::write_file(dir / "raw.xml", kCtestXml);
  CHECK(test::validate_junit((dir / "raw.xml").string()) != "");  // the problem this solves

  junit::TestSuite s = harness::ctest_suite(kCtestXml, "release");
  CHECK(s.name == "ctest.release");
  REQUIRE(s.cases.size() == 5);
  for (const auto& c : s.cases) CHECK(c.classname == "ctest.release");
  CHECK(s.cases[0].outcome == junit::Outcome::Passed);
  CHECK(s.cases[1].outcome == junit::Outcome::Failed);
  CHECK_THAT(s.cases[1].system_out, Contains("bad <&> stuff"));
  CHECK(s.cases[2].outcome == junit::Outcome::Error);  // could not start: not a skip
  CHECK(s.cases[2].message == "CTest could not run it: Unable to find executable");
  CHECK(s.cases[1].message == "failed (see system-out)");
  CHECK(s.cases[3].outcome == junit::Outcome::Skipped);
  CHECK(s.cases[3].message == "SKIP_RETURN_CODE=4");  // a requested skip keeps its own words
  CHECK(s.cases[4].outcome == junit::Outcome::Skipped);
  CHECK(s.cases[4].message == "disabled");

  auto r = test::run_command(test::harness_bin() + " ctest-junit " + (dir / "raw.xml").string() +
                             " " + (dir / "junit" / "ctest-release.xml").string() +
                             " --name release");
  INFO(r.output);
  CHECK(r.exit_code == 1);  // converted; the report records a failure and an error
  CHECK(test::validate_junit((dir / "junit" / "ctest-release.xml").string()) == "");
  // The summary beside OUT's junit folder (reports/junit/X.xml: reports/ctest/LABEL.json), else
  // in OUT's own folder (ctest-junit.md; survived two fresh mutation samples as == -> !=).
  CHECK(std::filesystem::exists(dir / "ctest" / "release.json"));
  CHECK_FALSE(std::filesystem::exists(dir / "junit" / "ctest" / "release.json"));
  auto flat = test::run_command(test::harness_bin() + " ctest-junit " + (dir / "raw.xml").string() +
                                " " + (dir / "flat" / "c.xml").string() + " --name flat");
  CHECK(flat.exit_code == 1);
  CHECK(std::filesystem::exists(dir / "flat" / "ctest" / "flat.json"));
  CHECK_FALSE(std::filesystem::exists(dir / "ctest" / "flat.json"));

  auto bad = test::run_command(test::harness_bin() + " ctest-junit " +
                               (dir / "missing.xml").string() + " " +
                               (dir / "junit" / "ctest-x.xml").string());
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("missing.xml"));
  test::write_file(dir / "other.xml", "<testsuites/>");
  auto other = test::run_command(test::harness_bin() + " ctest-junit " +
                                 (dir / "other.xml").string() + " " +
                                 (dir / "junit" / "ctest-x.xml").string());
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.output, Contains("no <testsuite> root"));
}

TEST_CASE("ci/validate-reports.sh fails on a report that does not validate, naming it",
          "[junit][ci]") {
  auto dir = test::scratch_dir("validate-reports");
  const std::string script = test::source_dir() + "/ci/validate-reports.sh ";
  test::write_file(
      dir / "good.xml",
      "<testsuites><testsuite name=\"x\" tests=\"0\" failures=\"0\" errors=\"0\"/></testsuites>");
  auto ok = test::run_command(script + dir.string());
  INFO(ok.output);
  CHECK(ok.exit_code == 0);
  test::write_file(dir / "ctest-raw.xml", kCtestXml);  // planted: CTest's unconverted report
  auto r = test::run_command(script + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("ctest-raw.xml"));
  auto empty = test::run_command(script + (dir / "none").string());
  CHECK(empty.exit_code == 2);
}
