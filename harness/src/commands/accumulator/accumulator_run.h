// The accumulator command's run: the four parts (a) walks, (b) audited search, (c) scalar vs
// AVX2, (d) mirrors, each adding its testcases to the suite in that order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "commands/accumulator/accumulator_settings.h"
#include "report/junit.h"

namespace stk::harness::accumulator {

// What the console summary line reports beside the testcases.
struct RunTotals {
  std::uint64_t walk_steps = 0, extreme_walk_steps = 0;
  std::size_t sampled_positions = 0;
  double sample_time = 0;
};

// Runs every check; the testcases go to `suite` and suite.time_s is set.
RunTotals run_checks(const AccumulatorSettings& s, const CheckedNets& nets,
                     junit::TestSuite& suite);

}  // namespace stk::harness::accumulator
