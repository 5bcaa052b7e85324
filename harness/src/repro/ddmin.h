// Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing Input",
// 2002): from items 0..n-1 whose whole sequence fails, the shortest subsequence found by removing
// chunks that still fails. The result is 1-minimal while the trial budget lasts: removing any one
// of its items makes the failure go away.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace stk::harness::repro {

// One test of a candidate: the items it kept (ascending) and whether it still failed.
struct DdminTrial {
  std::vector<std::size_t> kept;
  bool failed = false;
};

struct DdminResult {
  std::vector<std::size_t> kept;   // ascending; fails (the whole input when nothing smaller does)
  std::vector<DdminTrial> trials;  // in the order they ran; a candidate is never tested twice
  bool minimal = false;            // 1-minimal; false when max_trials ran out first
};

// `fails(kept)` runs one trial. The whole input is assumed to fail and is not tested again.
DdminResult ddmin(std::size_t n, const std::function<bool(const std::vector<std::size_t>&)>& fails,
                  std::size_t max_trials = 500);

}  // namespace stk::harness::repro
