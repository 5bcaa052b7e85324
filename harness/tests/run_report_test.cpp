#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "cli_support.h"
#include "cli/cli.h"
#include "report/run_report.h"

using namespace stk;

namespace {

report::RunReport sample_run() {
  report::RunReport run{"demo", "quick"};
  junit::TestSuite& s = run.suites.emplace_back();
  s.name = "demo.quick";
  s.cases.push_back({"demo.a", "passes", 0.0, junit::Outcome::Passed, "", "", "", {}});
  s.cases.push_back(
      {"demo.a", "fails", 0.0, junit::Outcome::Failed, "expected 1, got 2", "", "", {}});
  s.cases.push_back({"demo.a", "skipped", 0.0, junit::Outcome::Skipped, "no net", "", "", {}});
  run.figures["nodes"] = 1595000;
  run.figures["ratio"] = 0.5;
  run.plots = {"hist.png"};
  run.markdown = "| a | b |\n|---|---|\n";
  return run;
}

}  // namespace

TEST_CASE("report paths follow one layout for every harness", "[report]") {
  auto p = report::report_paths("out", "shadow", "quick");
  CHECK(p.junit == "out/junit/shadow-quick.xml");
  CHECK(p.json == "out/shadow/quick.json");
  CHECK(p.markdown == "out/shadow/quick.md");
  CHECK(report::junit_path("r", "perft", "full") == "r/junit/perft-full.xml");
}

TEST_CASE("one writer: the JSON envelope and the Markdown carry the JUnit counts", "[report]") {
  auto dir = test::scratch_dir("run-report");
  report::RunReport run = sample_run();
  report::write_run_report(run, dir.string());
  const std::string junit = (dir / "junit/demo-quick.xml").string();
  CHECK(test::validate_junit(junit) == "");
  report::Json j = report::read_json_file((dir / "demo/quick.json").string());
  const report::Json& e = j.at("report");
  CHECK(e.at("schema") == report::kSchema);
  CHECK(e.at("harness") == "demo");
  CHECK(e.at("config") == "quick");
  CHECK(e.at("junit") == "../junit/demo-quick.xml");  // relative to the summary, as a link resolves
  CHECK(e.at("tests") == 3);
  CHECK(e.at("failures") == 1);
  CHECK(e.at("errors") == 0);
  CHECK(e.at("skipped") == 1);
  CHECK(e.at("passed") == false);
  CHECK(j.at("nodes") == 1595000);
  CHECK(j.at("ratio") == 0.5);
  CHECK(j.begin().key() == "report");  // envelope first, then the figures in the order set
  const std::string md = test::read_file((dir / "demo/quick.md").string());
  CHECK(md.find("**FAILED**: 3 tests, 1 failures, 0 errors, 1 skipped") != std::string::npos);
  CHECK(md.find("`demo.a` / `fails`: expected 1, got 2") != std::string::npos);
  CHECK(md.find("| a | b |") != std::string::npos);
  CHECK(md.find("![hist.png](hist.png)") != std::string::npos);
  // Deterministic: the same run writes the same bytes.
  CHECK(report::to_json_text(run, "x.xml") == report::to_json_text(run, "x.xml"));
}

TEST_CASE("the writer refuses a figure named like the envelope and a duplicate testcase",
          "[report]") {
  auto dir = test::scratch_dir("run-report-bad");
  report::RunReport run = sample_run();
  run.figures["report"] = 1;
  CHECK_THROWS_AS(report::to_json_text(run, "x.xml"), harness::InputError);
  report::RunReport dup = sample_run();
  dup.figures.erase("report");
  dup.suites[0].cases.push_back(dup.suites[0].cases[0]);
  CHECK_THROWS_WITH(report::write_run_report(dup, dir.string()), Catch::Contains("passes"));
}

TEST_CASE("a malformed JSON file is named with the byte offset", "[report]") {
  auto dir = test::scratch_dir("run-report-json");
  auto p = dir / "bad.json";
  test::write_file(p, "{\"nodes\": 1,\n \"x\": }");
  CHECK_THROWS_WITH(report::read_json_file(p.string()), Catch::Contains(p.string() + ": byte 20"));
  CHECK_THROWS_WITH(report::read_json_file((dir / "missing.json").string()),
                    Catch::Contains("cannot open"));
  CHECK(report::parse_json_text("{\"a\": [1, 2]}", "<string>").at("a").size() == 2);
}
