// The subcommands migrated to CLI11 and the one report model: --help exits 0, an unknown option
// or a bad value exits 2 naming the option, and a summary's envelope counts equal its JUnit file's.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.h"
#include "cli/cli.h"
#include "commands/nnue-bench/nnue_bench.h"
#include "report/run_report.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

// Occurrences of an element in JUnit XML, counted the way a CI system reads them.
int count_elements(const std::string& xml, const std::string& tag) {
  int n = 0;
  for (std::size_t p = xml.find("<" + tag); p != std::string::npos;
       p = xml.find("<" + tag, p + 1)) {
    const char next = p + tag.size() + 1 < xml.size() ? xml[p + tag.size() + 1] : '\0';
    n += next == ' ' || next == '>' || next == '/';
  }
  return n;
}

// The envelope of `json_path` states the same counts as the JUnit file it names.
void check_envelope_matches_junit(const std::filesystem::path& json_path,
                                  const std::filesystem::path& junit_path) {
  INFO(json_path.string());
  const report::Json j = report::read_json_file(json_path.string());
  REQUIRE(j.contains("report"));
  const report::Json& e = j.at("report");
  const std::string xml = test::read_file(junit_path);
  REQUIRE(!xml.empty());
  CHECK(e.at("schema") == report::kSchema);
  CHECK(e.at("tests") == count_elements(xml, "testcase"));
  CHECK(e.at("failures") == count_elements(xml, "failure"));
  CHECK(e.at("errors") == count_elements(xml, "error"));
  CHECK(e.at("skipped") == count_elements(xml, "skipped"));
  CHECK(e.at("passed") == (count_elements(xml, "failure") + count_elements(xml, "error") == 0));
  CHECK((json_path.parent_path() / e.at("junit").get<std::string>()).lexically_normal() ==
        junit_path.lexically_normal());
  CHECK(test::validate_junit(junit_path.string()) == "");
}

struct Migrated {
  std::string command;  // subcommand and its required arguments (CLI11 names a missing one first)
  std::string bad_option;  // an option given a value it refuses
  std::string bad_value;
};

}  // namespace

TEST_CASE("migrated subcommands: help exits 0 and a bad option or value exits 2 naming it",
          "[report][cli]") {
  const std::vector<Migrated> cases = {
      {"shadow", "--depth", "deep"},
      {"shadow", "--max-control", "2"},
      {"accumulator", "--games", "many"},
      {"accumulator", "--plant", "nosuch"},
      {"nnue-bench", "--seed", "-1"},
      {"checknet", "--junit", ""},  // needs a value
      {"makenet --hidden 128 x.nnue", "--seed", "-5"},
      {"search-speed", "--nodes", "10"},
      {"uci-check", "--seed", "x"},
      {"compare --base a --candidate b", "--stride", "0"},
      {"match-merge", "--out-dir", ""},
      {"sprt-sim", "--runs", "0"},
      {"bench", "--depth", "0"},
  };
  for (const Migrated& c : cases) {
    const std::string h = test::harness_bin() + " " + c.command;
    INFO(c.command << " " << c.bad_option << " " << c.bad_value);
    auto help = test::run_command(h + " --help");
    CHECK(help.exit_code == 0);
    CHECK_THAT(help.output, Contains("--out-dir") || Contains("--junit") || Contains("--seed"));
    auto unknown = test::run_command(h + " --no-such-option 1");
    CHECK(unknown.exit_code == 2);
    CHECK_THAT(unknown.output, Contains("--no-such-option"));
    auto bad = test::run_command(h + " " + c.bad_option +
                                 (c.bad_value.empty() ? "" : " '" + c.bad_value + "'"));
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.output, Contains(c.bad_option));
  }
}

TEST_CASE("accumulator and nnue-bench summaries: envelope counts equal the JUnit counts",
          "[report][accumulator]") {
  auto dir = test::scratch_dir("report-envelope");
  const std::string h = test::harness_bin(), out = " --out-dir " + dir.string();
  // A planted defect (a king move without refresh) makes failures, so the counts are not all zero.
  auto acc = test::run_command(h +
                               " accumulator --config planted --games 2 --plies 60 --positions 20 "
                               "--search-depth 2 --plant king-refresh" +
                               out);
  INFO(acc.output);
  CHECK(acc.exit_code == 1);
  check_envelope_matches_junit(dir / "accumulator/planted.json",
                               dir / "junit/accumulator-planted.xml");
  const report::Json j = report::read_json_file((dir / "accumulator/planted.json").string());
  CHECK(j.at("report").at("failures").get<int>() > 0);
  CHECK(j.at("checks")
            .at(0)
            .at("steps_checked")
            .is_number());  // the review page reads the counts as numbers

  auto bench = test::run_command(h + " nnue-bench --config t --positions 500" + out);
  INFO(bench.output);
  CHECK(bench.exit_code == 0);
  check_envelope_matches_junit(dir / "nnue-bench/t.json", dir / "junit/nnue-bench-t.xml");
  CHECK(report::read_json_file((dir / "nnue-bench/t.json").string()).at("results").size() >= 2);
}

// The accumulator's lazy catch-up gate passes on the engine and fails on a king move without
// refresh, and the summary records its seed (the mutation campaign: the gate inverted to
// `bad == 0`, and the seed figure removed, survived every test).
TEST_CASE("accumulator: the lazy catch-up gate fails only on a defect and the seed is recorded",
          "[report][accumulator]") {
  auto dir = test::scratch_dir("accumulator-lazy");
  const std::string h = test::harness_bin(), out = " --out-dir " + dir.string();
  auto lazy_failed = [&](const std::string& config) {
    const std::string xml = test::read_file(dir / ("junit/accumulator-" + config + ".xml"));
    const auto at = xml.find("name=\"lazy catch-up over several plies equals recompute\"");
    REQUIRE(at != std::string::npos);
    return xml.substr(at, xml.find("</testcase>", at) - at).find("<failure") != std::string::npos;
  };
  auto clean = test::run_command(h + " accumulator --config clean --seed 7" + out);
  INFO(clean.output);
  CHECK(clean.exit_code == 0);
  CHECK_FALSE(lazy_failed("clean"));
  CHECK(report::read_json_file((dir / "accumulator/clean.json").string()).at("seed") == 7);
  auto king = test::run_command(h + " accumulator --config king --plant king-refresh" + out);
  CHECK(king.exit_code == 1);
  CHECK(lazy_failed("king"));
}

TEST_CASE("checknet with a JUnit path writes its summaries where the review page looks",
          "[report][checknet]") {
  auto dir = test::scratch_dir("report-checknet");
  const std::string net = test::source_dir() + "/golden/nets/stk-h128-seed1.nnue";
  auto r = test::run_command(test::harness_bin() + " checknet " + net + " --manifest " +
                             test::source_dir() + "/golden/nets/manifest.json --junit " +
                             (dir / "junit/checknet-golden-t.xml").string());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  check_envelope_matches_junit(dir / "checknet/golden-t.json", dir / "junit/checknet-golden-t.xml");
  CHECK_THAT(test::read_file(dir / "junit/checknet-golden-t.xml"), Contains("checknet.golden-t"));
}

TEST_CASE("nnue-bench fails when refresh and incremental sums differ, naming both in order",
          "[report][accumulator]") {
  junit::TestCase same;
  harness::judge_eval_sums(same, 42, 42);
  CHECK(same.outcome == junit::Outcome::Passed);
  CHECK(same.detail.empty());
  // The sums differ only under an accumulator defect: the verdict is checked on its own
  // (planted: the two sums swapped in the detail).
  junit::TestCase differ;
  harness::judge_eval_sums(differ, 41, -7);
  CHECK(differ.outcome == junit::Outcome::Failed);
  CHECK(differ.message == "refresh and incremental evaluations differ");
  CHECK(differ.detail == "sum of evals: refresh 41, incremental -7");
}

TEST_CASE("sprt-sim prints the figures its JSON holds, the same for one seed",
          "[report][stats][simulation]") {
  // The text and --json are two views of one seeded simulation: every count and pair figure of
  // the text equals the JSON's (planted: the median's quantile 0.5 made 0, and p[2] printed as p[0], both passed).
  const std::string cmd = test::harness_bin() + " sprt-sim --runs 40 --seed 3";
  const auto text = test::run_command(cmd), json = test::run_command(cmd + " --json");
  INFO(text.output);
  REQUIRE(text.exit_code == json.exit_code);
  const report::Json j = report::Json::parse(json.output);
  const std::regex truth_block(
      "truth (elo[01]) = [^(]*\\(Elo (-?[0-9.]+), nElo (-?[0-9.]+); ptnml p = ([0-9. ]+)\\):\\n"
      "  [^\\n]* ([0-9]+) of ([0-9]+) = ([0-9.]+)%  Wilson 95% "
      "\\[([0-9.]+)%, ([0-9.]+)%\\][^\\n]*\\n  H0 accepted ([0-9]+), H1 accepted ([0-9]+), "
      "undecided ([0-9]+); pairs per test: mean ([0-9]+), median ([0-9]+), 90% ([0-9]+), max "
      "([0-9]+)\\n");
  int blocks = 0;
  for (auto it = std::sregex_iterator(text.output.begin(), text.output.end(), truth_block);
       it != std::sregex_iterator(); ++it, ++blocks) {
    const std::smatch& m = *it;
    const report::Json& t = j.at(m[1].str());
    INFO(m[0].str() << t.dump());
    auto num = [&](int i) { return std::stod(m[i].str()); };
    const bool at0 = m[1] == "elo0";
    CHECK(num(2) == Approx(t.at("elo").get<double>()).margin(0.0005));
    CHECK(num(3) == Approx(t.at("nelo").get<double>()).margin(0.0005));
    std::istringstream ptnml(m[4].str());
    for (const auto& p : t.at("pentanomial_p")) {
      double shown = -1;
      ptnml >> shown;
      CHECK(shown == Approx(p.get<double>()).margin(0.00005));
    }
    CHECK(num(5) == t.at(at0 ? "accepted_h1" : "accepted_h0").get<double>());
    CHECK(num(6) == 40);
    CHECK(num(7) == Approx(100 * t.at("error_rate").get<double>()).margin(0.005));
    CHECK(num(8) == Approx(100 * t.at("error_wilson95")[0].get<double>()).margin(0.005));
    CHECK(num(9) == Approx(100 * t.at("error_wilson95")[1].get<double>()).margin(0.005));
    CHECK(num(10) == t.at("accepted_h0").get<double>());
    CHECK(num(11) == t.at("accepted_h1").get<double>());
    CHECK(num(12) == t.at("undecided").get<double>());
    CHECK(num(13) == Approx(t.at("mean_pairs").get<double>()).margin(0.5));
    CHECK(num(14) == t.at("median_pairs").get<double>());
    CHECK(num(15) == t.at("p90_pairs").get<double>());
    CHECK(num(16) == t.at("max_pairs").get<double>());
    CHECK(t.at("median_pairs").get<double>() <= t.at("p90_pairs").get<double>());
    CHECK(t.at("p90_pairs").get<double>() <= t.at("max_pairs").get<double>());
  }
  CHECK(blocks == 2);
}
