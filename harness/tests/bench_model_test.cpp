// An independent model of stk-harness bench (docs/harnesses/bench.md "Verdict"): the signature is the
// node count the engine's own `stk bench D` prints, and the run passes exactly when the golden
// file's depth and nodes both equal the run's. Verdicts both ways by one node on either side.
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.h"

using namespace stk;

namespace bench_model {

struct BenchRun {
  test::RunResult result;
  nlohmann::json json;
  std::string junit;
};

BenchRun bench(const std::filesystem::path& dir, const std::string& golden, int depth) {
  test::write_file(dir / "golden.txt", golden);
  std::filesystem::remove_all(dir / "out");
  BenchRun r;
  r.result = test::run_command(
      test::harness_bin() + " bench --golden '" + (dir / "golden.txt").string() + "' --depth " +
      std::to_string(depth) + " --config m --out-dir '" + (dir / "out").string() + "'");
  r.json = nlohmann::json::parse(test::read_file(dir / "out/bench/m.json"));
  r.junit = test::read_file(dir / "out/junit/bench-m.xml");
  return r;
}

}  // namespace bench_model

// MODEL bench-signature-verdict
// checks: harness/src/commands/bench/bench_harness.cpp  (the node-count signature and its match against golden/bench.txt)
// contract: docs/harnesses/bench.md#verdict
// planted: ci/mutants/model-bench-signature-verdict.patch  (a signature above the golden count accepted)
TEST_CASE(
    "model: bench passes exactly when the golden depth and node count equal the engine's own bench",
    "[model][bench]") {
  using namespace bench_model;
  const auto dir = test::scratch_dir("bench-model");
  // The independent source of the signature: the engine's own `stk bench D` "Nodes searched" line.
  const int depth = 3;
  const auto engine = test::run_command(test::engine_bin() + " bench " + std::to_string(depth));
  std::smatch m;
  REQUIRE(std::regex_search(engine.output, m, std::regex(R"(Nodes searched\s*:\s*(\d+))")));
  const std::uint64_t nodes = std::stoull(m[1]);
  auto golden = [](int d, std::uint64_t n) {
    return "# model\ndepth " + std::to_string(d) + "\nnodes " + std::to_string(n) + "\n";
  };

  SECTION("equal depth and nodes: passed, exit 0, the figures say so") {
    const BenchRun r = bench(dir, golden(depth, nodes), depth);
    CHECK(r.result.exit_code == 0);
    CHECK(r.json.at("report").at("passed") == true);
    CHECK(r.json.at("report").at("failures") == 0);
    CHECK(r.json.at("nodes") == nodes);
    CHECK(r.json.at("expected_nodes") == nodes);
    CHECK(r.json.at("depth") == depth);
    CHECK(r.json.at("passed") == true);
  }
  SECTION("one node more or fewer in the golden file: failed, exit 1, the figure named") {
    for (const std::uint64_t expected : {nodes - 1, nodes + 1}) {
      const BenchRun r = bench(dir, golden(depth, expected), depth);
      CHECK(r.result.exit_code == 1);
      CHECK(r.json.at("report").at("passed") == false);
      CHECK(r.json.at("report").at("failures") == 1);
      CHECK(r.json.at("passed") == false);
      CHECK(r.json.at("nodes") == nodes);
      CHECK(r.json.at("expected_nodes") == expected);
      CHECK_THAT(r.junit, Catch::Matchers::Contains("bench signature changed: expected " +
                                                    std::to_string(expected) + " nodes, got " +
                                                    std::to_string(nodes)));
    }
  }
  SECTION("the golden count of another depth: failed even when the count is this depth's") {
    const BenchRun r = bench(dir, golden(depth + 1, nodes), depth);
    CHECK(r.result.exit_code == 1);
    CHECK(r.json.at("passed") == false);
    CHECK_THAT(r.junit, Catch::Matchers::Contains("golden signature is for depth 4, ran depth 3"));
  }
}
