// Independent models of the epd and epd-compare commands (docs/harnesses/epd.md "Selection",
// docs/harnesses/epd-compare.md "Figures"): which positions a run takes (--stride, --shard), that
// its shards add up to the whole run, that a reordered suite gives the same results per position
// and the same totals, that a run against its own results has no regression (the null control),
// the min-solved gate met and missed by one; and epd-compare's overlap figures from its two reports.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.h"

using namespace stk;

namespace epd_command_model {

// The first `n` lines of ECM (positions with bm and id).
std::vector<std::string> ecm_lines(std::size_t n) {
  const std::string text = test::read_file(test::shared_dir() + "/suites/ECM.epd");
  std::vector<std::string> out;
  std::size_t at = 0;
  while (out.size() < n && at < text.size()) {
    const std::size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

struct Epd {
  test::RunResult result;
  nlohmann::json json;
};

Epd run_epd(const std::filesystem::path& dir, const std::string& suite, const std::string& config,
            const std::string& extra) {
  const auto file = dir / (config + ".epd");
  test::write_file(file, suite);
  Epd e;
  e.result = test::run_command(test::harness_bin() + " epd --epd '" + file.string() +
                               "' --depth 3 --quiet --config " + config + " --out-dir '" +
                               (dir / "out").string() + "' " + extra);
  const std::string stem = config + (extra.find("--shard") != std::string::npos
                                         ? "-shard" + extra.substr(extra.find("--shard") + 8, 1)
                                         : "");
  e.json = nlohmann::json::parse(test::read_file(dir / "out/epd" / (stem + ".json")));
  return e;
}

// What a position's result must not depend on: everything but its place and times.
nlohmann::json comparable(nlohmann::json p) {
  p.erase("index");
  p.erase("line");
  p.erase("time_s");
  return p;
}

std::map<std::string, nlohmann::json> by_id(const nlohmann::json& run) {
  std::map<std::string, nlohmann::json> m;
  for (const auto& p : run.at("positions")) m[p.at("id")] = comparable(p);
  return m;
}

}  // namespace epd_command_model

// MODEL epd-command-selection
// checks: harness/src/commands/epd/epd_command.cpp  (the positions a run takes by --stride and --shard, and its verdict)
// contract: docs/harnesses/epd.md#selection
// planted: ci/mutants/model-epd-command-selection.patch  (a shard chosen by the file index instead of the selected ordinal)
TEST_CASE(
    "model: epd takes every stride-th position and its shards add up to the whole run and order changes nothing but order",
    "[model][epd]") {
  using namespace epd_command_model;
  const auto dir = test::scratch_dir("epd-command-model");
  const auto lines = ecm_lines(10);
  REQUIRE(lines.size() == 10);
  std::mt19937 rng(7);
  for (int round = 0; round < 2; ++round) {
    const int stride = 1 + round;  // 1, then 2
    const int shards = 2 + round;  // 2, then 3
    const Epd whole = run_epd(dir, joined(lines), "whole", "--stride " + std::to_string(stride));
    REQUIRE(whole.result.exit_code == 0);
    // Selection: index % stride == 0, in file order.
    std::vector<int> selected;
    for (int i = 0; i < int(lines.size()); ++i)
      if (i % stride == 0) selected.push_back(i);
    CHECK(whole.json.at("selected") == selected.size());
    REQUIRE(whole.json.at("positions").size() == selected.size());
    for (std::size_t j = 0; j < selected.size(); ++j)
      CHECK(whole.json.at("positions")[j].at("index") == selected[j]);
    // Shards: the selected positions j with j % N == K - 1; together the whole run.
    std::map<std::string, nlohmann::json> merged;
    std::uint64_t solved = 0, nodes = 0, count = 0;
    for (int k = 1; k <= shards; ++k) {
      const Epd part = run_epd(dir, joined(lines), "whole",
                               "--stride " + std::to_string(stride) + " --shard " +
                                   std::to_string(k) + "/" + std::to_string(shards));
      std::vector<int> expect;
      for (std::size_t j = 0; j < selected.size(); ++j)
        if (int(j % std::size_t(shards)) == k - 1) expect.push_back(selected[j]);
      REQUIRE(part.json.at("positions").size() == expect.size());
      for (std::size_t j = 0; j < expect.size(); ++j)
        CHECK(part.json.at("positions")[j].at("index") == expect[j]);
      for (const auto& [id, p] : by_id(part.json)) merged[id] = p;
      solved += part.json.at("summary").at("solved").get<std::uint64_t>();
      nodes += part.json.at("summary").at("total_nodes").get<std::uint64_t>();
      count += part.json.at("summary").at("positions").get<std::uint64_t>();
    }
    CHECK(merged == by_id(whole.json));
    CHECK(solved == whole.json.at("summary").at("solved"));
    CHECK(nodes == whole.json.at("summary").at("total_nodes"));
    CHECK(count == whole.json.at("summary").at("positions"));

    // A reordered suite: the same results per position, the same totals.
    auto shuffled = lines;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    const Epd reordered = run_epd(dir, joined(shuffled), "reordered", "");
    const Epd all = run_epd(dir, joined(lines), "all", "");
    CHECK(by_id(reordered.json) == by_id(all.json));
    for (const char* key : {"positions", "solved", "errors", "total_nodes"})
      CHECK(reordered.json.at("summary").at(key) == all.json.at("summary").at(key));
  }
}

// MODEL epd-command-gates
// checks: harness/src/commands/epd/epd_command.cpp  (the baseline and min-solved gates as the command applies them)
// contract: docs/harnesses/epd.md#scoring
// planted: ci/mutants/model-epd-command-gates.patch  (the baseline handed to the report only with --update-golden: no comparison)
TEST_CASE(
    "model: epd against its own results has no regression and min-solved is met at the solved count and missed one above",
    "[model][epd]") {
  using namespace epd_command_model;
  const auto dir = test::scratch_dir("epd-command-gates-model");
  const std::string suite = joined(ecm_lines(6));
  const Epd first = run_epd(dir, suite, "first", "");
  REQUIRE(first.result.exit_code == 0);
  const int solved = first.json.at("summary").at("solved");
  // The null control: the run's own results as its baseline.
  const Epd self = run_epd(dir, suite, "self",
                           "--baseline '" + (dir / "out/epd/first.json").string() + "'");
  CHECK(self.result.exit_code == 0);
  CHECK(self.json.at("comparison").at("regressions").empty());
  CHECK(self.json.at("comparison").at("new_solves").empty());
  CHECK(self.json.at("comparison").at("not_in_baseline").empty());
  // min-solved both ways.
  const Epd met = run_epd(dir, suite, "met", "--min-solved " + std::to_string(solved));
  CHECK(met.result.exit_code == 0);
  CHECK(met.json.at("min_solved") == solved);
  CHECK(met.json.at("report").at("failures") == 0);
  const Epd missed = run_epd(dir, suite, "missed", "--min-solved " + std::to_string(solved + 1));
  CHECK(missed.result.exit_code == 1);
  CHECK(missed.json.at("min_solved") == solved + 1);
  CHECK(missed.json.at("report").at("failures") == 1);
  CHECK_THAT(test::read_file(dir / "out/junit/epd-missed.xml"),
             Catch::Matchers::Contains(std::to_string(solved) +
                                       " solved, fewer than the required " +
                                       std::to_string(solved + 1)));
}

// MODEL epd-compare-overlap
// checks: harness/src/commands/epd-compare/epd_compare_command.cpp  (both sides' solved counts and their overlap)
// contract: docs/harnesses/epd-compare.md#figures
// planted: ci/mutants/model-epd-compare-overlap.patch  (the reference column shows stk's solved count)
// also caught (fresh sample at 46fcea3, by hand): the total-time row's format emptied
TEST_CASE(
    "model: epd-compare's solved counts and overlap equal those of its two reports and an engine against itself differs nowhere",
    "[model][epd-compare]") {
  using namespace epd_command_model;
  const auto dir = test::scratch_dir("epd-compare-model");
  // ECM's first six and three short tactics, two of which only a deeper search finds.
  test::write_file(
      dir / "suite.epd",
      joined(ecm_lines(6)) +
          "6k1/3r1ppp/8/1R6/8/8/3Q1PPP/6K1 w - - bm Rb8+; id \"m2.rook\";\n"
          "r3r1k1/p4ppp/2pp1b2/8/q2n1P2/2BQ3P/PPP3P1/1K1R2NR b - - bm Re3; id \"ecm.361\";\n"
          "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"m1.backrank\";\n");
  // A weaker reference: stk searching every position to depth 1 only.
  const auto weak = dir / "weak.sh";
  test::write_file(weak,
                   "#!/bin/sh\nsed -u 's/^go .*/go depth 1/' | '" + test::engine_bin() + "'\n");
  std::filesystem::permissions(weak, std::filesystem::perms::owner_all);
  auto run = [&](const std::string& reference, const std::string& config) {
    const auto r = test::run_command(
        test::harness_bin() + " epd-compare --epd '" + (dir / "suite.epd").string() +
        "' --depth 6 --quiet --reference '" + reference + "' --config " + config + " --out-dir '" +
        (dir / "out").string() + "'");
    const auto a = nlohmann::json::parse(test::read_file(dir / "out/epd" / (config + "-stk.json")));
    const auto b = nlohmann::json::parse(
        test::read_file(dir / "out/epd" / (config + "-reference.json")));
    int both = 0, only_a = 0, only_b = 0;
    REQUIRE(a.at("positions").size() == b.at("positions").size());
    for (std::size_t i = 0; i < a.at("positions").size(); ++i) {
      const bool x = a.at("positions")[i].at("solved"), y = b.at("positions")[i].at("solved");
      both += x && y, only_a += x && !y, only_b += y && !x;
    }
    const int n = int(a.at("positions").size());
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Matchers::Contains("solved by both: " + std::to_string(both)));
    const auto row = [](const std::string& what, const std::string& x, const std::string& y) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "%-14s %28s %28s", what.c_str(), x.c_str(), y.c_str());
      return std::string(buf);
    };
    CHECK_THAT(r.output,
               Catch::Matchers::Contains(row(
                   "solved",
                   std::to_string(int(a.at("summary").at("solved"))) + " / " + std::to_string(n),
                   std::to_string(int(b.at("summary").at("solved"))) + " / " + std::to_string(n))));
    CHECK_THAT(r.output, Catch::Matchers::Contains(
                             row("solved alone", std::to_string(only_a), std::to_string(only_b))));
    // "total nodes": each side's sum over the positions of its report; "total time" its seconds
    // to one decimal (their sum is not re-added here: the report rounds each position's time).
    const auto nodes = [](const nlohmann::json& j) {
      std::uint64_t sum = 0;
      for (const auto& p : j.at("positions")) sum += p.at("nodes").get<std::uint64_t>();
      return std::to_string(sum);
    };
    CHECK_THAT(r.output, Catch::Matchers::Contains(row("total nodes", nodes(a), nodes(b))));
    CHECK_THAT(r.output,
               Catch::Matchers::Matches(
                   "[\\s\\S]*\ntotal time +[0-9]+\\.[0-9] s +[0-9]+\\.[0-9] s\n[\\s\\S]*"));
    return std::make_tuple(both, only_a, only_b);
  };
  SECTION("the null control: the in-process engine against itself") {
    const auto [both, only_a, only_b] = run("inprocess", "self");
    CHECK(only_a == 0);
    CHECK(only_b == 0);
    (void)both;
  }
  SECTION("a weaker reference: the counts differ and the figures follow the reports") {
    const auto [both, only_a, only_b] = run(weak.string(), "weak");
    CHECK(only_a > only_b);
    (void)both;
  }
}
