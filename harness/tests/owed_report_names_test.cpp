// Which report a failing run owes, held against each command's own --help (docs/reports.md, "Exit
// status and report files"): a run that exits 2 on input replaces the report at the name --config
// gives, else at the default its --help documents; an option that does not parse still replaces
// the report a given --config (or a fixed default) names; and no run touches a report of any
// other name. The expected names come from the help text through a small reader of its notation
// (`=VALUE`, `(default 'x')`, `(default <suite>-<sd|sn><N>)`), not from the code that computes
// them, and every command that has --config and --out-dir must have a case here. Each case runs
// with and without --out-dir (then in a scratch folder, the reports under the default folder that
// the help documents).
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cli_support.h"

using Catch::Matchers::Contains;

namespace {

const char* kStalePass =
    "<?xml version=\"1.0\"?>\n<testsuites tests=\"1\" failures=\"0\" errors=\"0\"><testsuite "
    "name=\"stale\" tests=\"1\" failures=\"0\" errors=\"0\"><testcase classname=\"stale.x\" "
    "name=\"passed long ago\"/></testsuite></testsuites>\n";

// The command's `option` entry of its --help: its line and the lines that continue it.
std::string option_help(const std::string& command, const std::string& option) {
  std::istringstream help(
      stk::test::run_command(stk::test::harness_bin() + " " + command + " --help").output);
  std::string line, entry;
  bool in_entry = false;
  while (std::getline(help, line)) {
    const auto first = line.find_first_not_of(' ');
    const bool option_line = first != std::string::npos && line[first] == '-';
    if (option_line)
      in_entry = line.compare(first, option.size(), option) == 0 &&
                 (line.size() == first + option.size() || line[first + option.size()] == ' ');
    if (in_entry) entry += line + " ";
  }
  return entry;
}

std::string config_help(const std::string& command) { return option_help(command, "--config"); }

// The reports folder a run writes to when --out-dir is not given, as its --help documents it.
std::string documented_out_dir(const std::string& command) {
  const std::string help = option_help(command, "--out-dir");
  std::smatch m;
  if (std::regex_search(help, m, std::regex("--out-dir TEXT=(\\S+)"))) return m[1];
  REQUIRE(std::regex_search(help, m, std::regex("\\(default '([^']+)'\\)")));
  return m[1];
}

bool has_option(const std::string& command, const std::string& option) {
  const auto help =
      stk::test::run_command(stk::test::harness_bin() + " " + command + " --help").output;
  return std::regex_search(help, std::regex("(^|\\n) +" + option + "[ =]"));
}

// The commands `stk-harness --help` lists for which `wanted` holds.
std::set<std::string> commands_where(const std::function<bool(const std::string&)>& wanted) {
  std::istringstream list(stk::test::run_command(stk::test::harness_bin() + " --help").output);
  std::set<std::string> found;
  for (std::string line; std::getline(list, line);) {
    std::smatch m;
    if (std::regex_match(line, m, std::regex("  ([a-z-]+)\t.*")) && wanted(m[1]))
      found.insert(m[1]);
  }
  return found;
}

// A scratch folder holding an EPD no search can use and a file that is no net.
std::filesystem::path scratch_with_bad_inputs(const std::string& name) {
  auto dir = stk::test::scratch_dir(name);
  stk::test::write_file(dir / "bad.epd", "8/8/8/8/8/8/8/8 w - - bm e4;\n");
  stk::test::write_file(dir / "bad.nnue", "not a net");
  return dir;
}

struct DefaultName {
  std::string name;
  bool fixed = false;  // a constant, not computed from other options
};

// The default report name the --config help documents, its placeholders filled from `given`
// (`<suite>` = "bad", ...). A qualifier after a comma ("with -shardKofN") applies only when the
// run gives the option it names (here `shard`, K/N with N > 1).
DefaultName documented_default(const std::string& help,
                               const std::map<std::string, std::string>& given) {
  std::smatch m;
  if (std::regex_search(help, m, std::regex("--config TEXT=(\\S+)"))) return {m[1], true};
  REQUIRE(std::regex_search(help, m, std::regex("\\(default:? ([^)]*)\\)")));
  std::string text = m[1];
  if (std::regex_search(text, m, std::regex("'([^']+)'"))) return {m[1], true};
  std::string qualifier;
  if (const auto comma = text.find(", "); comma != std::string::npos)
    qualifier = text.substr(comma + 2), text = text.substr(0, comma);
  for (const auto& [key, value] : given)
    for (std::size_t at; (at = text.find("<" + key + ">")) != std::string::npos;)
      text.replace(at, key.size() + 2, value);
  REQUIRE(text.find('<') == std::string::npos);  // a placeholder this test does not know
  if (given.count("shard") && std::regex_search(qualifier, m, std::regex("-shardKofN"))) {
    const std::string shard = given.at("shard");
    const auto slash = shard.find('/');
    if (shard.substr(slash + 1) != "1")
      text += "-shard" + shard.substr(0, slash) + "of" + shard.substr(slash + 1);
  }
  return {text, false};
}

struct Case {
  std::string command;
  std::string failing_input;                 // parses, then fails on input: exit 2
  std::map<std::string, std::string> given;  // the help's placeholders as this input fills them
  std::string prefix;                        // of the JUnit file: <prefix>-<config>...
  std::vector<std::string> suffixes{""};     // ... <suffix>.xml, one report each
};

std::set<std::string> junit_files(const std::filesystem::path& dir) {
  std::set<std::string> names;
  if (std::filesystem::exists(dir / "junit"))
    for (const auto& f : std::filesystem::directory_iterator(dir / "junit"))
      names.insert(f.path().filename().string());
  return names;
}

// A command whose report is named by a path: `--junit P` (given) or a positional `OUT` that its
// help calls "the JUnit report to write".
struct PathCase {
  std::string command;
  std::string failing_input;  // parses, then fails on input: exit 2
  std::string option;         // "--junit", or "" for the positional OUT
};

bool names_report_by_positional(const std::string& command) {
  const auto help =
      stk::test::run_command(stk::test::harness_bin() + " " + command + " --help").output;
  return std::regex_search(help,
                           std::regex("\\n +[A-Z_]+ TEXT REQUIRED +the JUnit report to write"));
}

}  // namespace

// MODEL owed-report-paths
// checks: harness/src/commands/ctest-junit/ctest_junit_command.cpp  (and each command with --junit: the report a failing run owes at that path)
// contract: docs/reports.md#exit-status-and-report-files
// planted: ci/mutants/ctest-junit-owed-report-lost.patch  (ctest-junit's input failure leaves OUT as it was)
TEST_CASE("a failing run replaces the report at the path it was given, no other",
          "[junit][harness]") {
  const auto dir = scratch_with_bad_inputs("owed-report-paths");
  const std::string d = dir.string();
  const std::vector<PathCase> cases = {
      {"perft", "--epd " + d + "/bad.epd", "--junit"},
      {"checknet", d + "/bad.nnue", "--junit"},
      {"accumulator", "--net " + d + "/bad.nnue", "--junit"},
      {"nnue-bench", "--positions 0", "--junit"},
      {"ctest-junit", d + "/missing.xml", ""},
  };

  SECTION("every command with --junit or a JUnit OUT has a case") {
    std::set<std::string> covered;
    for (const PathCase& c : cases) covered.insert(c.command);
    CHECK(commands_where([](const std::string& c) {
            return has_option(c, "--junit") || names_report_by_positional(c);
          }) == covered);
  }

  SECTION("exit 2 replaces exactly the report at that path") {
    int run_index = 0;
    for (const PathCase& c : cases)
      for (const bool parse_error : {false, true}) {
        const auto out = dir / ("run" + std::to_string(run_index++));
        const auto report = out / "junit" / "given-report.xml";
        std::filesystem::create_directories(report.parent_path());
        stk::test::write_file(report, kStalePass);
        const std::string command = stk::test::harness_bin() + " " + c.command + " " +
                                    c.failing_input + (parse_error ? " --no-such-option" : "") +
                                    " " + (c.option.empty() ? "" : c.option + " ") +
                                    report.string();
        const auto run = stk::test::run_command(command);
        INFO(command << "\n" << run.output);
        CHECK(run.exit_code == 2);
        CHECK((run.output.find("not expected") != std::string::npos) == parse_error);
        CHECK(junit_files(out) == std::set<std::string>{"given-report.xml"});
        const std::string xml = stk::test::read_file(report);
        CHECK_THAT(xml, !Contains("passed long ago"));
        CHECK_THAT(xml, Contains("<error message="));
        CHECK(stk::test::validate_junit(report.string()) == "");
      }
  }
}

// MODEL owed-report-names
// checks: harness/src/cli/cli_app.cpp  (the report a failing run owes, named by its options or the documented default)
// contract: docs/reports.md#exit-status-and-report-files
// planted: ci/mutants/model-owed-report-names.patch  (a usage error declares the default name, ignoring a given --config)
TEST_CASE("a failing run replaces the report its --config or documented default names, no other",
          "[junit][harness]") {
  const auto dir = scratch_with_bad_inputs("owed-report-names");
  const std::string d = dir.string();
  const std::string bad = d + "/bad.epd", missing = d + "/missing.epd";
  const std::map<std::string, std::string> sd1{{"suite", "bad"},
                                               {"epd stem", "bad"},
                                               {"sd|sn", "sd"},
                                               {"N", "1"}};
  const std::map<std::string, std::string> sn5{{"suite", "bad"},
                                               {"epd stem", "bad"},
                                               {"sd|sn", "sn"},
                                               {"N", "5"}};
  const std::vector<Case> cases = {
      {"perft", "--epd " + bad, {}, "perft"},
      {"accumulator", "--net " + d + "/bad.nnue", {}, "accumulator"},
      {"nnue-bench", "--positions 0", {}, "nnue-bench"},
      {"bench", "--golden " + d + "/missing.txt", {}, "bench"},
      {"search-speed", "--reference /nonexistent", {}, "search-speed"},
      {"perft-speed", "--reference /nonexistent", {}, "perft-speed"},
      {"epd", "--depth 1 --epd " + bad, sd1, "epd"},
      {"epd", "--nodes 5 --epd " + bad, sn5, "epd"},
      {"epd-compare",
       "--nodes 5 --reference inprocess --epd " + bad,
       sn5,
       "epd",
       {"-stk", "-reference"}},
      {"shadow", "--depth 1 --epd " + bad, sd1, "shadow"},
      {"shadow", "--nodes 5 --epd " + bad, sn5, "shadow"},
      {"datagen", "--seed 7 --openings " + missing, {{"S", "7"}}, "datagen"},
      {"datagen",
       "--seed 7 --shard 2/3 --openings " + missing,
       {{"S", "7"}, {"shard", "2/3"}},
       "datagen"},
      {"fhcollect", "--depth 1 --out " + d + "/x.fhr --positions " + missing, {}, "fhcollect"},
      {"uci-check", "--engine /nonexistent", {}, "uci-check"},
      {"match",
       "--engine cmd=/nonexistent --engine cmd=/nonexistent2 --nodes 100 --openings " + missing,
       {},
       "match"},
      {"compare",
       "--base missing-a --candidate missing-b --epd " + bad,
       {{"base", "missing-a"}, {"candidate", "missing-b"}},
       "compare"},
      {"bench-diff",
       "missing-a missing-b",
       {{"base", "missing-a"}, {"candidate", "missing-b"}},
       "bench-diff"},
  };

  SECTION("every command with --config and --out-dir has a case") {
    std::set<std::string> covered;
    for (const Case& c : cases) covered.insert(c.command);
    CHECK(commands_where([](const std::string& c) {
            return has_option(c, "--config") && has_option(c, "--out-dir");
          }) == covered);
  }

  SECTION("exit 2 replaces exactly the owed reports") {
    int run_index = 0;
    for (const Case& c : cases) {
      const DefaultName fallback = documented_default(config_help(c.command), c.given);
      const std::string default_out_dir = documented_out_dir(c.command);
      for (const bool config_given : {true, false})
        for (const bool parse_error : {false, true})
          for (const bool out_dir_given : {true, false}) {
            const std::string config = config_given ? "given" : fallback.name;
            // A computed default is owed only once the options it is computed from have parsed.
            const bool owed = config_given || fallback.fixed || !parse_error;
            // Without --out-dir the run starts in `here`, and its reports folder is the default.
            const auto here = dir / ("run" + std::to_string(run_index++));
            const auto out = out_dir_given ? here : here / default_out_dir;
            std::filesystem::create_directories(out / "junit");  // the stale report is there
            std::set<std::string> expected;
            for (const std::string& suffix : c.suffixes) {
              expected.insert(c.prefix + "-" + config + suffix + ".xml");
              stk::test::write_file(out / "junit" / *expected.rbegin(), kStalePass);
            }
            const std::string command = "cd '" + here.string() + "' && " +
                                        stk::test::harness_bin() + " " + c.command + " " +
                                        c.failing_input + (config_given ? " --config given" : "") +
                                        (parse_error ? " --no-such-option" : "") +
                                        (out_dir_given ? " --out-dir " + out.string() : "");
            const auto run = stk::test::run_command(command);
            INFO(command << "\n" << run.output);
            CHECK(run.exit_code == 2);
            // The case fails where it says it does: on input after parsing, or in parsing.
            CHECK((run.output.find("not expected") != std::string::npos) == parse_error);
            for (const std::string& name : junit_files(out)) {
              INFO(name);
              CHECK(expected.count(name) == 1);  // no report of another name
              const std::string xml = stk::test::read_file(out / "junit" / name);
              if (!owed && xml.find("passed long ago") != std::string::npos) continue;
              CHECK_THAT(xml, !Contains("passed long ago"));
              CHECK_THAT(xml, Contains("<error message="));
              CHECK(stk::test::validate_junit((out / "junit" / name).string()) == "");
            }
            if (owed)
              for (const std::string& name : expected) CHECK(junit_files(out).count(name) == 1);
          }
    }
  }
}
