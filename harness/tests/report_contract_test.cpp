// The report contract of run_command (report_contract.h) shown failing on each inconsistency it
// names, against a stand-in "stk-harness" script that writes the reports a case gives and exits as
// told: a check that cannot fail would pass every harness run unexamined.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli_support.h"

namespace fs = std::filesystem;
using stk::test::RunContract;

namespace {

std::string junit_xml(int failures, int errors, const std::string& suite = "standin.t") {
  std::string cases;
  for (int i = 0; i < failures; ++i)
    cases += "<testcase classname=\"standin.c\" name=\"f" + std::to_string(i) +
             "\" time=\"0\"><failure message=\"m\">d</failure></testcase>";
  for (int i = 0; i < errors; ++i)
    cases += "<testcase classname=\"standin.c\" name=\"e" + std::to_string(i) +
             "\" time=\"0\"><error message=\"m\">d</error></testcase>";
  cases += "<testcase classname=\"standin.c\" name=\"ok\" time=\"0\"/>";
  const int tests = failures + errors + 1;
  return "<?xml version=\"1.0\"?><testsuites tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
         "\"><testsuite name=\"" + suite + "\" tests=\"" + std::to_string(tests) +
         "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
         "\" skipped=\"0\" time=\"0\">" + cases + "</testsuite></testsuites>";
}

std::string envelope(int tests, int failures, bool passed, const std::string& junit_link) {
  return "{\"report\": {\"schema\": \"stk-report/1\", \"harness\": \"standin\", \"config\": \"t\", "
         "\"junit\": \"" +
         junit_link + "\", \"tests\": " + std::to_string(tests) +
         ", \"failures\": " + std::to_string(failures) +
         ", \"errors\": 0, \"skipped\": 0, "
         "\"passed\": " +
         (passed ? "true" : "false") + ", \"plots\": []}}";
}

// A folder with a stand-in stk-harness that copies `staged/` over `out/` (a new inode per file,
// as the writers' rename does) and exits with `code`. One folder per test case: CTest runs them
// side by side.
struct Stage {
  fs::path root;
  fs::path out = root / "out";
  fs::path staged = root / "staged";
  fs::path bin = root / "stk-harness";

  explicit Stage(const std::string& name)
      : root(stk::test::scratch_dir("report-contract-" + name)) {
    fs::create_directories(staged / "junit");
    fs::create_directories(staged / "standin");
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
  // What the contract says of a run (exit 1, `before` the --out-dir) that writes `text` at `rel`.
  std::string run_with(const std::string& rel, const std::string& text,
                       const std::string& before = "") {
    stage(rel, text);
    return run(1, before + out_dir());
  }
};

}  // namespace

TEST_CASE("report contract: the exit status agrees with the testcases, both ways",
          "[report][contract]") {
  Stage s{"exit"};
  s.stage("junit/standin-t.xml", junit_xml(1, 0));
  CHECK(s.run(0, s.out_dir()).starts_with("exit 0 but"));
  CHECK(s.run(1, s.out_dir()).empty());
  s.stage("junit/standin-t.xml", junit_xml(0, 1));
  CHECK(s.run(1, s.out_dir()).empty());  // an engine error is a failed run
  CHECK(s.run(0, s.out_dir()).starts_with("exit 0 but"));
  s.stage("junit/standin-t.xml", junit_xml(0, 0));
  CHECK(s.run(0, s.out_dir()).empty());
  CHECK(s.run(1, s.out_dir()).starts_with("exit 1 but no report"));
  CHECK(s.run(2, s.out_dir()).empty());  // input and write failures: their own tests judge
}

TEST_CASE("report contract: only the run's own reports count, a named one must be written",
          "[report][contract]") {
  Stage s{"own"};
  // A failing report of an earlier run stays beside this run's passing one.
  fs::create_directories(s.out / "junit");
  stk::test::write_file(s.out / "junit" / "standin-old.xml", junit_xml(1, 0, "standin.old"));
  s.stage("junit/standin-t.xml", junit_xml(0, 0));
  CHECK(s.run(0, s.out_dir()).empty());
  // --junit names a file the run must write; a stale one is not this run's.
  const std::string named = "--junit '" + (s.out / "junit" / "standin-x.xml").string() + "'";
  stk::test::write_file(s.out / "junit" / "standin-x.xml", junit_xml(0, 0, "standin.x"));
  CHECK(s.run(0, named).starts_with("exit 0 but it did not write its report"));
  s.stage("junit/standin-x.xml", junit_xml(1, 0, "standin.x"));
  CHECK(s.run(1, "--junit=" + (s.out / "junit" / "standin-x.xml").string()).empty());
}

TEST_CASE("report contract: counts as the testcases make them, an envelope that agrees",
          "[report][contract]") {
  Stage s{"counts"};
  std::string lying = junit_xml(1, 0);
  const std::string stated = "failures=\"1\" errors=\"0\" skipped";
  lying.replace(lying.find(stated), stated.size(), "failures=\"0\" errors=\"0\" skipped");
  s.stage("junit/standin-t.xml", lying);
  CHECK(s.run(1, s.out_dir()).find("its testcases count") != std::string::npos);

  s.stage("junit/standin-t.xml", junit_xml(1, 0));
  s.stage("standin/t.json", envelope(2, 1, false, "../junit/standin-t.xml"));
  CHECK(s.run(1, s.out_dir()).empty());
  s.stage("standin/t.json", envelope(2, 0, false, "../junit/standin-t.xml"));
  CHECK(s.run(1, s.out_dir()).find("the envelope states") != std::string::npos);
  s.stage("standin/t.json", envelope(2, 1, true, "../junit/standin-t.xml"));
  CHECK(s.run(1, s.out_dir()).find("passed is not false") != std::string::npos);
  s.stage("standin/t.json", envelope(2, 1, false, "../junit/standin-u.xml"));
  CHECK(s.run(1, s.out_dir()).find("does not lead to") != std::string::npos);
  s.stage("standin/t.json", envelope(2, 1, false, "../junit/standin-t.xml"));
  s.stage("junit/standin-t.xml", junit_xml(1, 0, "bench.t"));
  CHECK(s.run(1, s.out_dir()).find("is not named for harness 'standin'") != std::string::npos);
}

TEST_CASE("report contract: testcases named for the harness, once each, inputs as given",
          "[report][contract]") {
  Stage s{"names"};
  auto with = [](std::string xml, const std::string& from, const std::string& to) {
    xml.replace(xml.find(from), from.size(), to);
    return xml;
  };
  s.stage("standin/t.json", envelope(2, 1, false, "../junit/standin-t.xml"));
  s.stage("junit/standin-t.xml", with(junit_xml(1, 0), "classname=\"standin.c\" name=\"ok\"",
                                      "classname=\"bench.c\" name=\"ok\""));
  CHECK(s.run(1, s.out_dir()).find("has classname 'bench.c', not 'standin.<...>'") !=
        std::string::npos);
  s.stage("junit/standin-t.xml", with(junit_xml(1, 0), "name=\"ok\"", "name=\"\""));
  CHECK(s.run(1, s.out_dir()).find("a testcase without a name") != std::string::npos);
  s.stage("junit/standin-t.xml", with(junit_xml(1, 0), "name=\"ok\"", "name=\"f0\""));
  CHECK(s.run(1, s.out_dir()).find("two testcases 'f0'") != std::string::npos);

  // input.<name> holds a value the command gave; options it did not give are not judged.
  const std::string props =
      "<properties><property name=\"input.depth\" value=\"5\"/>"
      "<property name=\"input.quiet\" value=\"true\"/>"
      "<property name=\"input.state\" value=\"derived\"/></properties>";
  s.stage("junit/standin-t.xml", with(junit_xml(1, 0), "<testcase ", props + "<testcase "));
  CHECK(s.run(1, s.out_dir() + " --depth 5 --quiet").empty());
  CHECK(s.run(1, s.out_dir() + " --depth=5").empty());
  CHECK(s.run(1, s.out_dir() + " --depth 6 --quiet").find("'input.depth' is '5'") !=
        std::string::npos);
  CHECK(s.run(1, s.out_dir() + " --depth=4").find("'input.depth' is '5'") != std::string::npos);
  CHECK(s.run(1, s.out_dir() + " --depth 5 --quiet --state x").find("'input.state'") !=
        std::string::npos);
}

TEST_CASE("report contract: every property and JSON key has a name, both ways",
          "[report][contract]") {
  Stage s{"keys"};
  const std::string junit = "junit/standin-t.xml";
  auto named = [](const std::string& name) {
    std::string xml = junit_xml(1, 0);
    xml.replace(xml.find("<testcase "), 10,
                "<properties><property name=\"" + name + "\" value=\"3\"/></properties><testcase ");
    return xml;
  };
  // Kept by the smallest margin: one character, a space inside (a UCI option's name).
  for (const char* name : {"g", "engine.Use NNUE"}) CHECK(s.run_with(junit, named(name)).empty());
  // Broken by the smallest margin: empty, a space at an end, a tab inside, DEL.
  for (const char* name : {"", " g", "g ", "a\tb", "a\x7f"}) {
    INFO("property name '" << name << "'");
    CHECK(s.run_with(junit, named(name)).find("a suite property named") != std::string::npos);
  }
  // The summary's keys, at any depth: inside an object of a list of the figures.
  s.stage(junit, junit_xml(1, 0));
  auto with_figure = [](const std::string& key) {
    std::string env = envelope(2, 1, false, "../junit/standin-t.xml");
    return env.substr(0, env.size() - 1) + ", \"rows\": [{\"" + key + "\": 1}]}";
  };
  const std::string json = "standin/t.json";
  CHECK(s.run_with(json, with_figure("n")).empty());
  CHECK(s.run_with(json, with_figure("")).find("key '' at /rows/0") != std::string::npos);
  CHECK(s.run_with(json, with_figure("n ")).find("key 'n ' at /rows/0") != std::string::npos);
}

TEST_CASE("report contract: a testcase takes no negative time and no more than its run",
          "[report][contract]") {
  Stage s{"times"};
  const std::string junit = "junit/standin-t.xml";
  auto timed = [](const std::string& seconds) {  // the suite's time too: its only timed testcase
    std::string xml = junit_xml(1, 0);
    const std::string ok = "name=\"ok\" time=\"0\"", suite = "skipped=\"0\" time=\"0\"";
    xml.replace(xml.find(ok), ok.size(), "name=\"ok\" time=\"" + seconds + "\"");
    xml.replace(xml.find(suite), suite.size(), "skipped=\"0\" time=\"" + seconds + "\"");
    return xml;
  };
  CHECK(s.run_with(junit, timed("0")).empty());
  CHECK(s.run_with(junit, timed("-0.001")).find("testcase 'ok' took -0.001 s") !=
        std::string::npos);
  // The stand-in runs in well under a minute: 60 s is longer than the run.
  CHECK(s.run_with(junit, timed("60")).find("testcase 'ok' took 60 s") != std::string::npos);
  // A command carrying other runs' times (merge) may report more than it took, never less than 0.
  CHECK(s.run_with(junit, timed("60"), "merge ").empty());
  CHECK(s.run_with(junit, timed("-0.001"), "merge ").find("took -0.001 s") != std::string::npos);
}

TEST_CASE("report contract: a suite takes no less than its longest testcase, both ways",
          "[report][contract]") {
  Stage s{"suite-times"};
  const std::string junit = "junit/standin-t.xml";
  auto timed = [](const std::string& suite_s, const std::string& case_s) {
    std::string xml = junit_xml(1, 0);
    const std::string ok = "name=\"ok\" time=\"0\"", suite = "skipped=\"0\" time=\"0\"";
    xml.replace(xml.find(ok), ok.size(), "name=\"ok\" time=\"" + case_s + "\"");
    xml.replace(xml.find(suite), suite.size(), "skipped=\"0\" time=\"" + suite_s + "\"");
    return xml;
  };
  // Times of a few ms: the stand-in's whole run takes longer (the run's bound is checked below).
  CHECK(s.run_with(junit, timed("0.002", "0.002")).empty());
  CHECK(s.run_with(junit, timed("0.003", "0.002")).empty());
  // A suite time never set (0) under a testcase that took time: the defect this rule is for.
  CHECK(s.run_with(junit, timed("0", "0.002")).find("suite 'standin.t' took 0 s, less than") !=
        std::string::npos);
  CHECK(s.run_with(junit, timed("0.001", "0.002")).find("less than its longest testcase") !=
        std::string::npos);
  CHECK(s.run_with(junit, timed("-0.001", "0")).find("suite 'standin.t' took -0.001 s") !=
        std::string::npos);
  CHECK(s.run_with(junit, timed("60", "0")).find("suite 'standin.t' took 60 s") !=
        std::string::npos);
  // A command carrying other runs' times keeps the order of suite and testcase.
  CHECK(s.run_with(junit, timed("60", "0"), "merge ").empty());
  CHECK(s.run_with(junit, timed("59", "60"), "merge ").find("less than") != std::string::npos);
}

TEST_CASE("report contract: suite properties are the harness's documented ones, both ways",
          "[report][contract]") {
  Stage s{"properties"};
  const std::string junit = "junit/standin-t.xml";
  auto suite_with = [](const std::string& suite, const std::vector<std::string>& names) {
    std::string props = "<properties>";
    for (const std::string& n : names) props += "<property name=\"" + n + "\" value=\"v\"/>";
    std::string xml = junit_xml(1, 0, suite);
    xml.replace(xml.find("<testcase "), 10, props + "</properties><testcase ");
    return xml;
  };
  const std::vector<std::string> build = {"git_revision", "build_type", "cpu_features",
                                          "harness_version"};
  auto with = [&](std::vector<std::string> names) {
    names.insert(names.end(), build.begin(), build.end());
    return names;
  };
  // checknet's row: fnv1a64 and sha256 always, inputs as given.
  CHECK(s.run_with(junit, suite_with("checknet.t", with({"fnv1a64", "sha256"}))).empty());
  CHECK(s.run_with(junit, suite_with("checknet.t", with({"fnv1a64", "sha256", "input.FILE"})))
            .empty());
  // A name and value swapped, a name renamed, a name lost, the build properties lost.
  CHECK(s.run_with(junit, suite_with("checknet.t", with({"fnv1a64", "sha256", "v"})))
            .find("suite property 'v' (value 'v') is not one of checknet's") != std::string::npos);
  CHECK(
      s.run_with(junit, suite_with("checknet.t", with({"fnv1a64", "sha-256"}))).find("'sha-256'") !=
      std::string::npos);
  CHECK(s.run_with(junit, suite_with("checknet.t", with({"fnv1a64"})))
            .find("no suite property 'sha256' (checknet's)") != std::string::npos);
  CHECK(s.run_with(junit, suite_with("checknet.t", {"fnv1a64", "sha256", "git_revision",
                                                    "build_type", "cpu_features"}))
            .find("no suite property 'harness_version'") != std::string::npos);
  // ctest's suite is CTest's run: no build properties owed.
  CHECK(s.run_with(junit, suite_with("ctest.t", {"ctest_timestamp"})).empty());
  // Numbered names run 1, 2, ... (compare's input.argv<K>).
  const std::vector<std::string> compare = {"base", "candidate"};
  auto compare_with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), compare.begin(), compare.end());
    return suite_with("compare.t", with(extra));
  };
  CHECK(s.run_with(junit, compare_with({"input.argv1", "input.argv2"})).empty());
  CHECK(s.run_with(junit, compare_with({"input.argv0", "input.argv1"}))
            .find("'input.argv0' where 'input.argv<K>' number 1 comes") != std::string::npos);
  CHECK(s.run_with(junit, compare_with({"input.argv1", "input.argv3"}))
            .find("'input.argv3' where 'input.argv<K>' number 2 comes") != std::string::npos);
}

TEST_CASE("report contract: every interval runs low end first, both ways", "[report][contract]") {
  Stage s{"intervals"};
  const std::string junit = "junit/standin-t.xml";
  auto with_fact = [](const std::string& interval) {
    std::string xml = junit_xml(1, 0);
    const std::string ok = "name=\"ok\" time=\"0\"/>";
    xml.replace(xml.find(ok), ok.size(),
                "name=\"ok\" time=\"0\"><system-out>ci_95: " + interval +
                    "\n</system-out></testcase>");
    return xml;
  };
  // Kept: equal ends, negative to positive, percent signs. Broken by the smallest margin.
  for (const char* kept : {"[0.5, 0.5]", "[-1.25, 3]", "[40.0%, 40.1%]"})
    CHECK(s.run_with(junit, with_fact(kept)).empty());
  for (const char* reversed : {"[0.50001, 0.5]", "[3, -1.25]", "[40.1%, 40.0%]"}) {
    INFO(reversed);
    CHECK(s.run_with(junit, with_fact(reversed)).find("has its ends reversed") !=
          std::string::npos);
  }
  // The summary: lo/hi at any depth, and its Markdown page.
  s.stage(junit, junit_xml(1, 0));
  auto with_bounds = [](double lo, double hi) {
    std::string env = envelope(2, 1, false, "../junit/standin-t.xml");
    return env.substr(0, env.size() - 1) + ", \"rows\": [{\"ci\": {\"lo\": " + std::to_string(lo) +
           ", \"hi\": " + std::to_string(hi) + "}}]}";
  };
  const std::string json = "standin/t.json";
  CHECK(s.run_with(json, with_bounds(0.25, 0.25)).empty());
  CHECK(s.run_with(json, with_bounds(0.26, 0.25)).find("/rows/0/ci has lo") != std::string::npos);
  // min <= median <= max, bare or of one X, each pair by the smallest margin.
  auto with_range = [](const std::string& fields) {
    std::string env = envelope(2, 1, false, "../junit/standin-t.xml");
    return env.substr(0, env.size() - 1) + ", \"speed\": {" + fields + "}}";
  };
  for (const char* kept :
       {R"("ratio_min": 0.9, "ratio_median": 0.9, "ratio_max": 0.9)",
        R"("min": 1, "median": 2, "max": 3)", R"("depth_min": 2, "depth_max": 2)"})
    CHECK(s.run_with(json, with_range(kept)).empty());
  for (const char* broken : {R"("ratio_min": 0.91, "ratio_median": 0.9, "ratio_max": 1.1)",
                             R"("ratio_min": 0.8, "ratio_median": 1.11, "ratio_max": 1.1)",
                             R"("ratio_min": 1.2, "ratio_max": 1.1)", R"("min": 3, "max": 2)",
                             R"("median": 3, "max": 2)"}) {
    INFO(broken);
    CHECK(s.run_with(json, with_range(broken)).find("/speed has") != std::string::npos);
  }
  s.stage(json, with_bounds(0.1, 0.2));
  CHECK(s.run_with("standin/t.md", "excess [0.1, 0.2]\n").empty());
  CHECK(s.run_with("standin/t.md", "excess [0.2, 0.1]\n").find("t.md: interval [0.2, 0.1]") !=
        std::string::npos);
}

TEST_CASE("run contract: a run that ends by itself ends its last printed line",
          "[report][contract]") {
  const fs::path root = stk::test::scratch_dir("run-contract-newline");
  const fs::path bin = root / "stk-harness";
  auto standin = [&](const std::string& printf_format) {
    stk::test::write_file(bin, "#!/bin/sh\nprintf '" + printf_format + "'\nexit 0\n");
    fs::permissions(bin, fs::perms::owner_all);
    return stk::test::run_command("'" + bin.string() + "'");
  };
  CHECK(standin("done\\n").output == "done\n");
  CHECK(standin("").output.empty());  // nothing printed: nothing to end
  CHECK_THROWS_WITH(standin("report: x.xml"),
                    Catch::Contains("the last line printed has no newline"));
  CHECK_THROWS_WITH(standin("a\\nb"), Catch::Contains("the last line printed has no newline"));
}

TEST_CASE("report contract: a failure says why and no figure reads nan or inf, both ways",
          "[report][contract]") {
  auto failing_case = [](const std::string& message_attr, const std::string& text) {
    return "<?xml version=\"1.0\"?><testsuites tests=\"1\" failures=\"1\" errors=\"0\"><testsuite "
           "name=\"standin.t\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0\">"
           "<testcase classname=\"standin.c\" name=\"f\" time=\"0\"><failure" +
           message_attr + ">" + text + "</failure></testcase></testsuite></testsuites>";
  };
  SECTION("a failure with a message and finite figures keeps the contract") {
    Stage s("explained");
    CHECK(s.run_with("junit/standin-t.xml",
                     failing_case(" message=\"ratio 0.44\"", "go infinite")) == "");
  }
  SECTION("a failure without a message, or with a blank one, breaks it") {
    Stage s("unexplained");
    CHECK_THAT(s.run_with("junit/standin-t.xml", failing_case("", "d")),
               Catch::Contains("has a <failure> without a message"));
    Stage b("blank");
    CHECK_THAT(b.run_with("junit/standin-t.xml", failing_case(" message=\" \"", "d")),
               Catch::Contains("has a <failure> without a message"));
  }
  SECTION("a figure written as nan or inf breaks it") {
    for (const char* text : {"pairs ratio inf", "mean -nan cp", "rate nan"}) {
      Stage s(std::string("nonfinite-") + std::to_string(std::string(text).size()));
      CHECK_THAT(s.run_with("junit/standin-t.xml", failing_case(" message=\"m\"", text)),
                 Catch::Contains("a figure printed as nan or inf"));
    }
  }
  CHECK(stk::test::non_finite_figure("information, go infinite, 1.0.nan, Inference").empty());
  CHECK_FALSE(stk::test::non_finite_figure("ratio inf\n").empty());
}

TEST_CASE("contract: a reason in a library exception's words is found, the project's are not",
          "[contract]") {
  using stk::test::library_exception_text;
  for (const char* text :
       {"stk-harness perft: stoull\n", "ran\nstk-harness epd: stoi",
        "stk-harness x: basic_string::substr: __pos",
        "stk-harness bench: vector::_M_range_check: __n (which is 3)\n", "stk-harness a: map::at\n",
        "stk-harness a: _Map_base::at\n", "stk-harness a: std::bad_alloc\n",
        "stk-harness fhgen: bad optional access\n",
        "stk-harness review: [json.exception.type_error.302] type must be number\n"})
    CHECK_FALSE(library_exception_text(text).empty());
  for (const char* text :
       {"stk-harness perft: golden/x.epd:3: malformed depth field 'D5 abc'\n",
        "stoi: the word alone on a line is no reason given\n", "stk-harness a: stoichiometry\n",
        "stk-harness a: bad optional accessor\n", "a: stoi\n",
        "stk-harness checknet: m.json: not JSON: [json.exception.parse_error.101] at line 1\n"})
    CHECK(library_exception_text(text).empty());
}
