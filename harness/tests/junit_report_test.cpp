#include <catch2/catch.hpp>

#include "cli_support.h"
#include "report/junit.h"

using namespace stk;

TEST_CASE("JUnit reports validate against the schema in every outcome", "[junit]") {
  junit::TestSuite s;
  s.name = "demo.quick";
  s.property("input.epd", "a \"quoted\" <path> & more");
  junit::add_build_properties(s);
  s.cases.push_back({"demo.a", "passes", 0.001, junit::Outcome::Passed, "", "", "", {{"k", "v"}}});
  s.cases.push_back({"demo.a",
                     "fails",
                     0.5,
                     junit::Outcome::Failed,
                     "expected 1, got 2",
                     "detail <&>",
                     "log",
                     {}});
  s.cases.push_back({"demo.a", "errors", 0, junit::Outcome::Error, "could not run", "", "", {}});
  s.cases.push_back(
      {"demo.a", "skipped", 0, junit::Outcome::Skipped, "needs a net file", "", "", {}});
  s.time_s = 1.25;
  auto dir = test::scratch_dir("junit");
  std::string path = (dir / "sub" / "demo.xml").string();
  std::string err;
  REQUIRE(junit::write_report(path, {s}, &err));
  CHECK(test::validate_junit(path) == "");
  std::string xml = junit::to_xml({s});
  CHECK(xml.find("tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\"") != std::string::npos);
  CHECK(xml.find("&lt;path&gt;") != std::string::npos);
  CHECK(junit::to_xml({s}) == xml);  // deterministic
}

TEST_CASE("the schema check itself rejects a malformed report", "[junit]") {
  // Planted defect for the validator: a testsuite without its required 'tests' attribute.
  auto dir = test::scratch_dir("junit-bad");
  auto p = dir / "bad.xml";
  test::write_file(p,
                   "<testsuites><testsuite name=\"x\" failures=\"0\" errors=\"0\"/></testsuites>");
  CHECK(test::validate_junit(p.string()) != "");
}

TEST_CASE("time is written as a plain decimal", "[junit]") {
  CHECK(junit::format_time(0) == "0.000");
  CHECK(junit::format_time(1e-9) == "0.000");
  CHECK(junit::format_time(12345.6789) == "12345.679");
  CHECK(junit::format_time(-1) == "0.000");
}
