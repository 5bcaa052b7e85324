#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "cli_support.h"
#include "report/run_report.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

// The (N, COUNT) pairs of a per-position listing, in the order listed.
std::vector<std::pair<std::string, std::string>> bench_listed_counts(const std::string& text,
                                                                     const char* pattern) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::regex line(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator();
       ++it)
    out.emplace_back((*it)[1], (*it)[2]);
  return out;
}

}  // namespace

TEST_CASE("bench harness fails a changed signature and rejects a malformed golden file",
          "[bench][harness]") {
  auto dir = test::scratch_dir("bench");
  // Planted defect: a golden signature one node off, as a search change would leave it.
  test::write_file(dir / "bench.txt", "depth 4\nnodes 1\n");
  auto r = test::run_command(test::harness_bin() + " bench --golden " +
                             (dir / "bench.txt").string() + " --out-dir " + dir.string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("bench signature changed: expected 1 nodes"));
  CHECK(test::validate_junit((dir / "junit" / "bench-default.xml").string()) == "");
  // Its per-position listing is the engine's own (`stk bench 4 --positions`), numbered alike.
  const auto engine = test::run_command(test::engine_bin() + " bench 4 --positions");
  REQUIRE(engine.exit_code == 0);
  const auto listed = bench_listed_counts(engine.output, "Position (\\d+) : (\\d+)");
  CHECK(listed.size() > 1);
  CHECK(bench_listed_counts(test::read_file(dir / "junit" / "bench-default.xml"),
                            "position +(\\d+): (\\d+)") == listed);

  test::write_file(dir / "bad.txt", "depth 4\nnodes many\n");
  auto bad = test::run_command(test::harness_bin() + " bench --golden " +
                               (dir / "bad.txt").string() + " --out-dir " + dir.string());
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("bad.txt:2: expected 'depth N' or 'nodes N'"));
  // A negative count is malformed too (planted: the bound v < 0 made v < -1, passed).
  test::write_file(dir / "negative.txt", "depth 4\nnodes -1\n");
  auto negative = test::run_command(test::harness_bin() + " bench --golden " +
                                    (dir / "negative.txt").string() + " --out-dir " + dir.string());
  CHECK(negative.exit_code == 2);
  CHECK_THAT(negative.output, Contains("negative.txt:2: expected 'depth N' or 'nodes N', got "
                                       "'nodes -1'"));
}

// Keys beside the two the format has (a letter short or more, the last letter one lower or
// higher, another case): each refused naming its line, before any search (the closing draw:
// `key > "depth"` let every key sorting before it set the node count).
TEST_CASE("bench's golden file refuses every key but depth and nodes by its line",
          "[bench][harness]") {
  auto dir = test::scratch_dir("bench-keys");
  for (const char* key : {"a", "dept", "deptg", "depti", "depthx", "Depth", "node", "noder",
                          "nodet", "nodesx", "NODES", "z"}) {
    INFO(key);
    test::write_file(dir / "keys.txt", std::string("depth 4\nnodes 1\n") + key + " 5\n");
    auto r = test::run_command(test::harness_bin() + " bench --golden " +
                               (dir / "keys.txt").string() + " --out-dir " + dir.string());
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("keys.txt:3: expected 'depth N' or 'nodes N', got '" +
                                  std::string(key) + " 5'"));
  }
}

TEST_CASE("bench --depth takes 1 to 64, the golden file is read before any search",
          "[bench][harness]") {
  // Depth 64 is accepted (the run stops at the missing golden file, before searching); 0 and 65
  // are usage errors naming --depth (planted: the range's 64 made 63, passed).
  auto dir = test::scratch_dir("bench-depth");
  const std::string h = test::harness_bin() + " bench --out-dir " + dir.string() + " --golden " +
                        (dir / "missing.txt").string() + " --depth ";
  auto top = test::run_command(h + "64");
  INFO(top.output);
  CHECK(top.exit_code == 2);
  CHECK_THAT(top.output, Contains("missing.txt: cannot open file"));
  CHECK(top.output.find("--depth") == std::string::npos);
  for (const char* bad : {"0", "65"}) {
    auto r = test::run_command(h + bad);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains(std::string("--depth: Value ") + bad + " not in range 1 to 64"));
  }
}

TEST_CASE("bench harness passes on the committed signature", "[bench][harness]") {
  auto dir = test::scratch_dir("bench-ok");
  auto r = test::run_command(test::harness_bin() + " bench --golden " + test::source_dir() +
                             "/golden/bench.txt --out-dir " + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(test::validate_junit((dir / "junit" / "bench-default.xml").string()) == "");
}

TEST_CASE("search-speed measures both engines, and refuses a reference without node counts",
          "[bench][harness][uci]") {
  STK_SKIP_WITHOUT_STOCKFISH();
  const std::string sf = stk::test::kStockfish;
  auto dir = test::scratch_dir("search-speed");
  const std::string cmd = test::harness_bin() + " search-speed --nodes 1000 --out-dir " +
                          dir.string() + " --reference ";
  auto r = test::run_command(cmd + sf + " --config t");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(test::validate_junit((dir / "junit" / "search-speed-t.xml").string()) == "");
  const report::Json j = report::read_json_file((dir / "search-speed" / "t.json").string());
  const report::Json &ours = j.at("stk"), &theirs = j.at("reference_run");
  CHECK(ours.at("nodes").get<double>() > 0);
  CHECK(theirs.at("nodes").get<double>() > 0);
  const double a = ours.at("nodes").get<double>() / ours.at("time_s").get<double>();
  const double b = theirs.at("nodes").get<double>() / theirs.at("time_s").get<double>();
  CHECK(j.at("speed_ratio").get<double>() == Approx(a / b).epsilon(1e-9));

  // A reference whose info lines carry no node count: no ratio can be made (planted: the count
  // left at its initial value, 0 or 2^64-1, and a ratio of inf or 0 reported as a measurement).
  const auto blind = dir / "no-nodes.sh";
  test::write_file(blind, "#!/bin/sh\n" + sf + " | sed -u 's/ nodes [0-9]*//g'\n");
  std::filesystem::permissions(blind, std::filesystem::perms::owner_all);
  auto bad = test::run_command(cmd + blind.string() + " --config blind");
  INFO(bad.output);
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("no 'info ... nodes N' line before bestmove"));
  CHECK(test::validate_junit((dir / "junit" / "search-speed-blind.xml").string()) == "");
  CHECK_THAT(test::read_file(dir / "junit" / "search-speed-blind.xml"), Contains("<error"));
}
