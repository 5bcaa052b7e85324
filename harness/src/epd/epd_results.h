// The EPD harness's results: one record per position plus the run's settings, written as
// JSON (which is also the baseline format) and read back for baselines and shard merging.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "epd/engine_driver.h"
#include "positions/epd_suite.h"
#include "report/run_report.h"

namespace stk::harness::epd {

// The values a run can have: the command line's ranges, and what a results file read back may
// hold (docs/input-rules.md), so that a file states no run the command could not make.
inline constexpr std::uint64_t kMaxSearchDepth = 120;
inline constexpr std::uint64_t kMaxSearchNodes = std::uint64_t(1) << 40;
inline constexpr int kMaxStride = 1000000;
inline constexpr int kMaxMinSolved = 1000000;

struct PositionResult {
  int index = 0;  // ordinal of the position in its EPD file
  int line = 0;
  std::string name;  // id, or "line N"
  std::string fen;
  std::vector<std::string> bm, am;  // SAN as written in the suite
  std::string best_uci, best_san;   // best_san is "" when the engine's move was not legal
  bool solved = false;
  std::string score;  // "cp 31" / "mate 2"
  int depth = 0;
  std::uint64_t nodes = 0;
  double time_s = 0;
  std::vector<std::string> pv_san;
  // The first depth from which every iteration through the last one chose a solving move;
  // 0 when unsolved or the engine reported no iterations.
  int first_solved_depth = 0;
  std::string error;  // why the engine's answer could not be judged, "" normally
};

struct RunMeta {
  std::string config;
  std::string suite;     // EPD file stem, e.g. "ECM"
  std::string epd_file;  // as given
  std::string engine;    // engine name
  std::vector<std::pair<std::string, std::string>> engine_settings;
  Budget budget;
  int stride = 1;    // positions i with i % stride == 0 were selected
  int selected = 0;  // positions selected before sharding
  std::string shard = "1/1";
  std::string git_revision;
  std::optional<std::uint64_t> bench_signature;
  std::string baseline_file;  // "" when none
  int min_solved = -1;        // -1 when not given
};

struct RunResults {
  RunMeta meta;
  std::vector<PositionResult> positions;  // ascending index
  int solved() const;
};

// Two runs of one suite position by position (epd-compare): solved by both, by each alone.
struct SolveOverlap {
  int both = 0;
  int only_first = 0;
  int only_second = 0;
};
// Throws InputError when the runs do not hold the same number of positions.
SolveOverlap solve_overlap(const RunResults& first, const RunResults& second);

// Judges one engine answer for `p`.
PositionResult judge(const EpdPosition& p, const SearchOutcome& o);

// Comparison with a baseline (positions of `run` only, matched by name).
struct Comparison {
  std::vector<std::string> regressions;  // solved in the baseline, not now
  std::vector<std::string> new_solves;   // not solved in the baseline, solved now
  std::vector<std::string> not_in_baseline;
};
// Throws InputError when the baseline cannot be compared: other budget, or a position whose
// FEN differs from the suite's.
Comparison compare(const RunResults& run, const RunResults& baseline,
                   const std::string& baseline_path);

// The results as JSON: the baseline format (docs/report-schema.md, "epd"); `mask_times`
// writes every time as 0, as golden baselines keep them.
report::Json to_json(const RunResults& r, const std::optional<Comparison>& cmp, bool mask_times);
// Reads a results file: a baseline, or a run's summary (the same keys after the "report" envelope).
// Throws InputError naming `path` and the byte offset of a syntax error or the member that is wrong.
RunResults read_results(const std::string& path);

}  // namespace stk::harness::epd
