// The result model of one comparison; the JUnit, JSON and Markdown writers all read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/compare/compare_measure.h"
#include "commands/compare/compare_side.h"
#include "epd/epd_results.h"

namespace stk::harness::compare {

// The solved sets of both sides at one budget, matched position by position.
struct SuiteDiff {
  epd::Budget budget;
  epd::RunResults base, candidate;
  std::vector<std::string> gained,
      lost;  // position names: solved by the candidate only / base only
  std::uint64_t base_nodes = 0, candidate_nodes = 0;
  int node_mismatches = 0;  // positions whose node counts differ
};
SuiteDiff diff_suites(const epd::Budget& budget, epd::RunResults base, epd::RunResults candidate);

struct Gates {
  bool bench_unchanged = false;        // a speed-only change: bench and equal-depth trees identical
  std::optional<int> max_regressions;  // at most K positions lost at each budget
  std::optional<double> min_speed_ratio;  // median candidate/base nodes/s at least R
};

struct CompareResult {
  std::string config;  // "<base>..<candidate>"
  Side base, candidate;
  BenchSignature base_bench, candidate_bench;
  SpeedRuns speed;
  std::string epd_file;
  int stride = 1;
  std::vector<SuiteDiff> suites;
  nlohmann::json audits;                                        // null without --audits
  std::vector<std::pair<std::string, std::string>> properties;  // inputs as given
  double build_s = 0, measure_s = 0;
};

// Median and range of a sample (0 for an empty one).
struct Spread {
  double median = 0, min = 0, max = 0;
};
Spread spread_of(std::vector<double> v);
// Per-run ratios candidate/base of the speed runs.
std::vector<double> speed_ratios(const SpeedRuns& s);

}  // namespace stk::harness::compare
