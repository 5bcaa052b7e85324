// The report contract of run_command (report_contract.h) shown failing on each inconsistency it
// names, against a stand-in "stk-harness" script that writes the reports a case gives and exits as
// told: a check that cannot fail would pass every harness run unexamined.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "cli_support.h"

namespace fs = std::filesystem;
using stk::test::RunContract;

namespace {

std::string junit_xml(int failures, int errors, const std::string& suite = "perft.t") {
  std::string cases;
  for (int i = 0; i < failures; ++i)
    cases += "<testcase classname=\"perft.c\" name=\"f" + std::to_string(i) +
             "\" time=\"0\"><failure message=\"m\">d</failure></testcase>";
  for (int i = 0; i < errors; ++i)
    cases += "<testcase classname=\"perft.c\" name=\"e" + std::to_string(i) +
             "\" time=\"0\"><error message=\"m\">d</error></testcase>";
  cases += "<testcase classname=\"perft.c\" name=\"ok\" time=\"0\"/>";
  const int tests = failures + errors + 1;
  return "<?xml version=\"1.0\"?><testsuites tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
         "\"><testsuite name=\"" + suite + "\" tests=\"" + std::to_string(tests) +
         "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
         "\" skipped=\"0\" time=\"0\">" + cases + "</testsuite></testsuites>";
}

std::string envelope(int tests, int failures, bool passed, const std::string& junit_link) {
  return "{\"report\": {\"schema\": \"stk-report/1\", \"harness\": \"perft\", \"config\": \"t\", "
         "\"junit\": \"" +
         junit_link + "\", \"tests\": " + std::to_string(tests) +
         ", \"failures\": " + std::to_string(failures) +
         ", \"errors\": 0, \"skipped\": 0, "
         "\"passed\": " +
         (passed ? "true" : "false") + ", \"plots\": []}}";
}

// A folder with a stand-in stk-harness that copies `staged/` over `out/` (a new inode per file,
// as the writers' rename does) and exits with `code`.
struct Stage {
  fs::path root = stk::test::scratch_dir("report-contract");
  fs::path out = root / "out";
  fs::path staged = root / "staged";
  fs::path bin = root / "stk-harness";

  Stage() {
    fs::create_directories(staged / "junit");
    fs::create_directories(staged / "perft");
    stk::test::write_file(bin, "#!/bin/sh\nmkdir -p '" + out.string() + "' && cp -r '" +
                                   staged.string() + "/.' '" + out.string() +
                                   "/'\nexit \"$CODE\"\n");
    fs::permissions(bin, fs::perms::owner_all);
  }
  void stage(const std::string& rel, const std::string& text) {
    stk::test::write_file(staged / rel, text);
  }
  // What the contract says of `args` run with exit `code`.
  std::string run(int code, const std::string& args) {
    const std::string command = "CODE=" + std::to_string(code) + " '" + bin.string() + "' " + args;
    RunContract contract(command);
    const int status = std::system(command.c_str());
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == code);
    return contract.violation(code);
  }
  std::string out_dir() const { return "--out-dir '" + out.string() + "'"; }
};

}  // namespace

TEST_CASE("report contract: the exit status agrees with the testcases, both ways",
          "[report][contract]") {
  Stage s;
  s.stage("junit/perft-t.xml", junit_xml(1, 0));
  CHECK(s.run(0, s.out_dir()).starts_with("exit 0 but"));
  CHECK(s.run(1, s.out_dir()).empty());
  s.stage("junit/perft-t.xml", junit_xml(0, 1));
  CHECK(s.run(1, s.out_dir()).empty());  // an engine error is a failed run
  CHECK(s.run(0, s.out_dir()).starts_with("exit 0 but"));
  s.stage("junit/perft-t.xml", junit_xml(0, 0));
  CHECK(s.run(0, s.out_dir()).empty());
  CHECK(s.run(1, s.out_dir()).starts_with("exit 1 but no report"));
  CHECK(s.run(2, s.out_dir()).empty());  // input and write failures: their own tests judge
}

TEST_CASE("report contract: only the run's own reports count, a named one must be written",
          "[report][contract]") {
  Stage s;
  // A failing report of an earlier run stays beside this run's passing one.
  fs::create_directories(s.out / "junit");
  stk::test::write_file(s.out / "junit" / "perft-old.xml", junit_xml(1, 0, "perft.old"));
  s.stage("junit/perft-t.xml", junit_xml(0, 0));
  CHECK(s.run(0, s.out_dir()).empty());
  // --junit names a file the run must write; a stale one is not this run's.
  const std::string named = "--junit '" + (s.out / "junit" / "perft-x.xml").string() + "'";
  stk::test::write_file(s.out / "junit" / "perft-x.xml", junit_xml(0, 0, "perft.x"));
  CHECK(s.run(0, named).starts_with("exit 0 but it did not write its report"));
  s.stage("junit/perft-x.xml", junit_xml(1, 0, "perft.x"));
  CHECK(s.run(1, "--junit=" + (s.out / "junit" / "perft-x.xml").string()).empty());
}

TEST_CASE("report contract: counts as the testcases make them, an envelope that agrees",
          "[report][contract]") {
  Stage s;
  std::string lying = junit_xml(1, 0);
  const std::string stated = "failures=\"1\" errors=\"0\" skipped";
  lying.replace(lying.find(stated), stated.size(), "failures=\"0\" errors=\"0\" skipped");
  s.stage("junit/perft-t.xml", lying);
  CHECK(s.run(1, s.out_dir()).find("its testcases count") != std::string::npos);

  s.stage("junit/perft-t.xml", junit_xml(1, 0));
  s.stage("perft/t.json", envelope(2, 1, false, "../junit/perft-t.xml"));
  CHECK(s.run(1, s.out_dir()).empty());
  s.stage("perft/t.json", envelope(2, 0, false, "../junit/perft-t.xml"));
  CHECK(s.run(1, s.out_dir()).find("the envelope states") != std::string::npos);
  s.stage("perft/t.json", envelope(2, 1, true, "../junit/perft-t.xml"));
  CHECK(s.run(1, s.out_dir()).find("passed is not false") != std::string::npos);
  s.stage("perft/t.json", envelope(2, 1, false, "../junit/perft-u.xml"));
  CHECK(s.run(1, s.out_dir()).find("does not lead to") != std::string::npos);
  s.stage("perft/t.json", envelope(2, 1, false, "../junit/perft-t.xml"));
  s.stage("junit/perft-t.xml", junit_xml(1, 0, "bench.t"));
  CHECK(s.run(1, s.out_dir()).find("is not named for harness 'perft'") != std::string::npos);
}

TEST_CASE("report contract: testcases named for the harness, once each, inputs as given",
          "[report][contract]") {
  Stage s;
  auto with = [](std::string xml, const std::string& from, const std::string& to) {
    xml.replace(xml.find(from), from.size(), to);
    return xml;
  };
  s.stage("perft/t.json", envelope(2, 1, false, "../junit/perft-t.xml"));
  s.stage("junit/perft-t.xml", with(junit_xml(1, 0), "classname=\"perft.c\" name=\"ok\"",
                                    "classname=\"bench.c\" name=\"ok\""));
  CHECK(s.run(1, s.out_dir()).find("has classname 'bench.c', not 'perft.<...>'") !=
        std::string::npos);
  s.stage("junit/perft-t.xml", with(junit_xml(1, 0), "name=\"ok\"", "name=\"\""));
  CHECK(s.run(1, s.out_dir()).find("a testcase without a name") != std::string::npos);
  s.stage("junit/perft-t.xml", with(junit_xml(1, 0), "name=\"ok\"", "name=\"f0\""));
  CHECK(s.run(1, s.out_dir()).find("two testcases 'f0'") != std::string::npos);

  // input.<name> holds a value the command gave; options it did not give are not judged.
  const std::string props =
      "<properties><property name=\"input.depth\" value=\"5\"/>"
      "<property name=\"input.quiet\" value=\"true\"/>"
      "<property name=\"input.state\" value=\"derived\"/></properties>";
  s.stage("junit/perft-t.xml", with(junit_xml(1, 0), "<testcase ", props + "<testcase "));
  CHECK(s.run(1, s.out_dir() + " --depth 5 --quiet").empty());
  CHECK(s.run(1, s.out_dir() + " --depth=5").empty());
  CHECK(s.run(1, s.out_dir() + " --depth 6 --quiet").find("'input.depth' is '5'") !=
        std::string::npos);
  CHECK(s.run(1, s.out_dir() + " --depth=4").find("'input.depth' is '5'") != std::string::npos);
  CHECK(s.run(1, s.out_dir() + " --depth 5 --quiet --state x").find("'input.state'") !=
        std::string::npos);
}
