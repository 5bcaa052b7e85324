// Independent model of nnue-bench's verdict (docs/harnesses/nnue-bench.md, "What it proves"):
// generated pairs of evaluation sums, equal or apart by every kind of margin.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "commands/nnue-bench/nnue_bench.h"
#include "report/junit.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace nnue_bench_model_test {

namespace junit = stk::junit;

// MODEL nnue-bench-eval-sums
// checks: harness/src/commands/nnue-bench/nnue_bench.cpp  (refresh vs incremental evaluation sums)
// contract: docs/harnesses/nnue-bench.md#what-it-proves
// planted: ci/mutants/model-nnue-bench-eval-sums.patch  (the sums compared as 32-bit integers)
TEST_CASE("nnue-bench fails exactly when the two evaluation sums differ and names both",
          "[model][nnue-bench]") {
  rc::prop("generated sums, equal or apart by 1, 2^32 or anything", [] {
    const auto refresh = *rc::gen::arbitrary<std::int64_t>();
    const std::int64_t delta = *rc::gen::elementOf(
        std::vector<std::int64_t>{0, 0, 1, -1, std::int64_t(1) << 32, -(std::int64_t(1) << 32),
                                  *rc::gen::arbitrary<std::int32_t>()});
    const std::int64_t incremental = std::int64_t(std::uint64_t(refresh) +
                                                  std::uint64_t(delta));  // wraps like the sums do
    junit::TestCase tc;
    stk::harness::judge_eval_sums(tc, refresh, incremental);
    if (refresh == incremental) {
      RC_ASSERT(tc.outcome == junit::Outcome::Passed);
    } else {
      RC_ASSERT(tc.outcome == junit::Outcome::Failed);
      RC_ASSERT(tc.message == "refresh and incremental evaluations differ");
      RC_ASSERT(tc.detail == "sum of evals: refresh " + std::to_string(refresh) + ", incremental " +
                                 std::to_string(incremental));
    }
  });
  junit::TestCase same, apart;
  stk::harness::judge_eval_sums(same, 123456789012, 123456789012);
  stk::harness::judge_eval_sums(apart, 123456789012, 123456789013);
  CHECK(same.outcome == junit::Outcome::Passed);
  CHECK(apart.outcome == junit::Outcome::Failed);
  junit::TestCase wrapped;
  stk::harness::judge_eval_sums(wrapped, 5, 5 + (std::int64_t(1) << 32));
  CHECK(wrapped.outcome == junit::Outcome::Failed);
}

// MODEL nnue-bench-forward-sum
// checks: harness/src/commands/nnue-bench/nnue_bench.cpp  (the forward-only pass judged by refresh's evaluations of its cycle)
// contract: docs/harnesses/nnue-bench.md#what-it-proves
// planted: ci/mutants/nnue-bench-forward-cycle-head-off.patch  (one evaluation too many in the last round)
TEST_CASE("nnue-bench's forward-only sum is refresh's evaluations taken in its cycle",
          "[model][nnue-bench]") {
  rc::prop("generated evaluations and counts: the cycle summed one evaluation at a time", [] {
    const auto evals = *rc::gen::container<std::vector<std::int64_t>>(
        rc::gen::inRange<std::int64_t>(-30000, 30001));
    const auto evaluations = *rc::gen::inRange<std::uint64_t>(0, 5000);
    std::uint64_t want = 0;
    for (std::uint64_t k = 0; !evals.empty() && k < evaluations; ++k)
      want += std::uint64_t(evals[k % evals.size()]);
    RC_ASSERT(stk::harness::cycled_sum(evals, evaluations) ==
              std::int64_t(evals.empty() ? 0 : want));
    const std::int64_t forward = std::int64_t(want) +
                                 *rc::gen::elementOf(std::vector<std::int64_t>{0, 0, 1, -1});
    junit::TestCase tc;
    stk::harness::judge_forward_sum(tc, std::int64_t(want), forward);
    if (forward == std::int64_t(want)) {
      RC_ASSERT(tc.outcome == junit::Outcome::Passed);
    } else {
      RC_ASSERT(tc.outcome == junit::Outcome::Failed);
      RC_ASSERT(tc.message == "forward-only and refresh evaluations differ");
      RC_ASSERT(tc.detail == "sum of evals over the forward-only cycle: refresh " +
                                 std::to_string(std::int64_t(want)) + ", forward-only " +
                                 std::to_string(forward));
    }
  });
  // A testcase already failed on refresh vs incremental keeps that first reason.
  junit::TestCase both;
  stk::harness::judge_eval_sums(both, 1, 2);
  stk::harness::judge_forward_sum(both, 1, 3);
  CHECK(both.message == "refresh and incremental evaluations differ");
  // The cycle past one round: 2 rounds of {5, -7} and the first of the third.
  CHECK(stk::harness::cycled_sum({5, -7}, 5) == 5 - 7 + 5 - 7 + 5);
}

}  // namespace nnue_bench_model_test
