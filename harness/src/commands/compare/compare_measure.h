// What compare measures on each side: the bench signature, nodes/s in alternating runs, and the
// EPD harness's results at equal nodes and at equal depth.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commands/compare/compare_side.h"
#include "epd/engine_driver.h"
#include "epd/epd_results.h"

namespace stk::harness::compare {

struct BenchSignature {
  std::optional<std::uint64_t> nodes;  // the "Nodes searched" line; none when n/a
  std::string note;                    // why it is n/a
};

// `<engine> bench` (its "Nodes searched" line), for an stk side and for an engine path alike (stk's
// own binary given as a path keeps its signature). n/a with UCI options (bench cannot apply them)
// and for an engine path that prints no such line. Throws InputError when an stk side's bench fails.
BenchSignature bench_signature(const Side& side);

struct SpeedRuns {
  std::vector<double> base_nps, candidate_nps;  // one per run, in run order
  std::uint64_t nodes_per_position = 0;
  int positions = 0;
};

// Alternating runs base, candidate, base, candidate, ...: each run searches the bench positions
// with fresh state to `nodes` each through UCI (options applied) and counts nodes / wall time.
SpeedRuns speed_runs(const Side& base, const Side& candidate, int runs, std::uint64_t nodes);

// The EPD harness (`<harness> epd --engine ...`, this stk-harness's path taken at start, so a
// rebuild meanwhile is harmless) on one side's engine; its reports go under `out_dir` as <config>.
// Throws InputError when it cannot run (exit 2).
epd::RunResults run_suite(const std::string& harness, const Side& side, const std::string& epd_file,
                          int stride, const epd::Budget& budget, const std::string& out_dir,
                          const std::string& config);

}  // namespace stk::harness::compare
