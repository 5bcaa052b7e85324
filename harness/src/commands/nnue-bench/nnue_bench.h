// stk-harness nnue-bench's verdict, apart from its timings (tested on its own: the sums differ
// only under a defect in the accumulator).
#pragma once

#include <cstdint>

#include "report/junit.h"

namespace stk::harness {

// Refresh and incremental evaluation see the same positions: `tc` fails when the sums of their
// evaluations differ, its detail naming both, refresh first.
void judge_eval_sums(junit::TestCase& tc, std::int64_t refresh_sum, std::int64_t incremental_sum);

}  // namespace stk::harness
