// Independent models of the two speed measurements' figures (docs/harnesses/perft-speed.md and
// search-speed.md "Figures"): perft-speed's per-position and whole-run nodes/s ratios (median and
// range over the repeats) and its one gate, equal node counts, met and broken by one node; and
// search-speed's nodes/s and ratio from the totals it records. The references are scripts whose
// answers the tests choose (perft counts from chessprogramming.org "Perft Results").
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.h"

using namespace stk;

namespace speed_model {

// `text` with every `key` replaced by `value`.
std::string with(std::string text, const std::string& key, const std::string& value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at))
    text.replace(at, key.size(), value);
  return text;
}

// A UCI engine answering "go perft D" for the startpos and kiwipete with the published counts
// plus `delta` on kiwipete, after a short pause (so its time is not 0).
const char* kPerftReference = R"SH(#!/bin/sh
pos=""
while read -r line; do
  case "$line" in
    uci) echo "id name modelperft"; echo "uciok" ;;
    isready) echo "readyok" ;;
    position*) pos="$line" ;;
    "go perft "*)
      d="${line#go perft }"
      case "$pos" in
        *r3k2r*) set -- 48 2039 97862; extra=@DELTA@ ;;
        *) set -- 20 400 8902; extra=0 ;;
      esac
      eval n=\${$d}
      sleep 0.01
      echo "Nodes searched: $((n + extra))" ;;
    quit) exit 0 ;;
  esac
done
)SH";

// A UCI engine answering "go nodes N" with two info lines, the last one saying @NODES@ nodes.
const char* kSearchReference = R"SH(#!/bin/sh
while read -r line; do
  case "$line" in
    uci) echo "id name modelsearch"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      sleep 0.01
      echo "info depth 1 seldepth 1 nodes 3 nps 300 score cp 10 pv e2e4"
      echo "info depth 2 seldepth 2 nodes @NODES@ nps 1000 score cp 12 pv e2e4"
      echo "bestmove e2e4" ;;
    quit) exit 0 ;;
  esac
done
)SH";

std::string script(const std::filesystem::path& path, const std::string& text) {
  test::write_file(path, text);
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path.string();
}

std::string perft_reference(const std::filesystem::path& dir, int delta) {
  return script(dir / ("perft-ref" + std::to_string(delta + 5) + ".sh"),
                with(kPerftReference, "@DELTA@", std::to_string(delta)));
}

std::string search_reference(const std::filesystem::path& dir, std::uint64_t nodes) {
  return script(dir / "search-ref.sh", with(kSearchReference, "@NODES@", std::to_string(nodes)));
}

nlohmann::json read_report(const std::filesystem::path& p) {
  return nlohmann::json::parse(test::read_file(p));
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b)); }

}  // namespace speed_model

// MODEL perft-speed-ratios
// checks: harness/src/commands/perft-speed/perft_speed.cpp  (the nodes/s ratios, their median and range, the equal-count gate)
// contract: docs/harnesses/perft-speed.md#figures
// planted: ci/mutants/model-perft-speed-ratios.patch  (the per-repeat ratio inverted: stk seconds over the reference's)
TEST_CASE(
    "model: perft-speed's ratio is reference seconds over stk seconds per repeat with the middle as median and equal counts as its gate",
    "[model][perft-speed]") {
  using namespace speed_model;
  const auto dir = test::scratch_dir("perft-speed-model");
  auto run = [&](int delta, int repeat) {
    std::filesystem::remove_all(dir / "out");
    const auto r = test::run_command(
        test::harness_bin() + " perft-speed --reference '" + perft_reference(dir, delta) +
        "' --repeat " + std::to_string(repeat) + " --max-depth 3 --config m --out-dir '" +
        (dir / "out").string() + "'");
    return std::make_pair(r, read_report(dir / "out/perft-speed/m.json"));
  };
  SECTION("one repeat: each ratio and the whole run's from the recorded seconds") {
    const auto [r, j] = run(0, 1);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(j.at("report").at("passed") == true);
    double ref_sum = 0, stk_sum = 0;
    REQUIRE(j.at("positions").size() == 2);
    for (const auto& p : j.at("positions")) {
      const double stk_s = p.at("stk_seconds").at("median"),
                   ref_s = p.at("reference_seconds").at("median");
      // Equal node counts: the nodes/s ratio stk/reference is the seconds ratio reference/stk.
      CHECK(close(p.at("nps_ratio").at("median"), ref_s / stk_s));
      CHECK(p.at("nps_ratio").at("min") == p.at("nps_ratio").at("median"));
      CHECK(p.at("nodes") == p.at("reference_nodes"));
      ref_sum += ref_s, stk_sum += stk_s;
    }
    CHECK(j.at("positions")[0].at("nodes") == 8902);
    CHECK(j.at("positions")[1].at("nodes") == 97862);
    CHECK(close(j.at("nps_ratio").at("median"), ref_sum / stk_sum));
  }
  SECTION("two repeats: the median of two is their mean") {
    const auto [r, j] = run(0, 2);
    INFO(r.output);
    for (const auto& q : {j.at("positions")[0].at("nps_ratio"),
                          j.at("positions")[1].at("nps_ratio"), j.at("nps_ratio")}) {
      const double lo = q.at("min"), hi = q.at("max"), med = q.at("median");
      CHECK(lo <= hi);
      CHECK(close(med, (lo + hi) / 2));
    }
  }
  SECTION("both ways: one node more or fewer in the reference's count fails, naming both counts") {
    for (int delta : {-1, 1}) {
      const auto [r, j] = run(delta, 1);
      CHECK(r.exit_code == 1);
      CHECK(j.at("report").at("failures") == 1);
      CHECK(j.at("positions")[1].at("reference_nodes") == 97862 + delta);
      CHECK_THAT(test::read_file(dir / "out/junit/perft-speed-m.xml"),
                 Catch::Matchers::Contains("stk counts 97862 nodes, the reference " +
                                           std::to_string(97862 + delta)));
    }
  }
}

// MODEL search-speed-ratio
// checks: harness/src/commands/search-speed/search_speed.cpp  (both engines' nodes/s and their ratio)
// contract: docs/harnesses/search-speed.md#figures
// planted: ci/mutants/model-search-speed-ratio.patch  (the reference's nodes divided by stk's time)
TEST_CASE(
    "model: search-speed's ratio is stk nodes per second over the reference's from each engine's own totals",
    "[model][search-speed]") {
  using namespace speed_model;
  const auto dir = test::scratch_dir("search-speed-model");
  const std::uint64_t per_position = 4321;
  const auto r = test::run_command(
      test::harness_bin() + " search-speed --reference '" + search_reference(dir, per_position) +
      "' --nodes 1000 --config m --out-dir '" + (dir / "out").string() + "'");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_report(dir / "out/search-speed/m.json");
  const auto& stk = j.at("stk");
  const auto& ref = j.at("reference_run");
  // The reference's nodes: the last "info ... nodes N" before bestmove, summed over the 20 bench
  // positions.
  CHECK(ref.at("nodes") == 20 * per_position);
  const double a = double(stk.at("nodes")) / double(stk.at("time_s"));
  const double b = double(ref.at("nodes")) / double(ref.at("time_s"));
  CHECK(stk.at("nodes_per_second") == std::llround(a));
  CHECK(ref.at("nodes_per_second") == std::llround(b));
  CHECK(close(j.at("speed_ratio"), a / b));
  CHECK(j.at("nodes_per_position") == 1000);
  CHECK(j.at("report").at("tests") == 1);
  CHECK(j.at("report").at("passed") == true);
}
