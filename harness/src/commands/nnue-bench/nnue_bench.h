// stk-harness nnue-bench's verdict, apart from its timings (tested on its own: the sums differ
// only under a defect in the accumulator).
#pragma once

#include <cstdint>
#include <vector>

#include "report/junit.h"

namespace stk::harness {

// Refresh and incremental evaluation see the same positions: `tc` fails when the sums of their
// evaluations differ, its detail naming both, refresh first.
void judge_eval_sums(junit::TestCase& tc, std::int64_t refresh_sum, std::int64_t incremental_sum);

// forward() alone runs `evaluations` times over the accumulators of the first positions in turn:
// the sum refresh's evaluations of those positions give, taken in the same turn (wrapping).
std::int64_t cycled_sum(const std::vector<std::int64_t>& evals, std::uint64_t evaluations);

// A `tc` still passing fails when forward() on refreshed accumulators summed otherwise than
// refresh's evaluations of the same positions, its detail naming both, refresh first.
void judge_forward_sum(junit::TestCase& tc, std::int64_t refresh_cycle_sum,
                       std::int64_t forward_sum);

}  // namespace stk::harness
