// Intervals for the shadow audit's rates and for the excess of a miss rate over its control rate.
// Decisions inside one root position are correlated (one search's tree), so the gates use a
// cluster bootstrap over root positions; Newcombe's interval (independent decisions) is reported
// beside it as a check.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stk::harness::shadow {

struct Interval {
  double lo = 0, hi = 0;
};

// Wilson score interval for k of n (z = 1.96: 95%); [0, 1] when n is 0.
Interval wilson(std::uint64_t k, std::uint64_t n, double z = 1.96);

// Newcombe's hybrid score interval for p1 - p2 = k1/n1 - k2/n2 from the two Wilson intervals
// (Newcombe 1998, method 10; independent samples). [-1, 1] when either n is 0.
Interval newcombe_difference(std::uint64_t k1, std::uint64_t n1, std::uint64_t k2, std::uint64_t n2,
                             double z = 1.96);

// One root position's counts in a cell or band: misses k1 of n1 decisions, control hits k2 of n2.
struct ClusterCounts {
  std::uint64_t k1 = 0, n1 = 0, k2 = 0, n2 = 0;
};

struct BootstrapSettings {
  std::uint64_t seed = 1;
  int resamples = 2000;
};

// Percentile interval (2.5%, 97.5%) of k1/n1 - k2/n2 over resamples of the clusters drawn with
// replacement (SplitMix64 from `seed`: the same seed gives the same interval). Resamples where
// either rate is undefined are left out; `used` says how many remained ([-1, 1] if under half).
Interval cluster_bootstrap_difference(const std::vector<ClusterCounts>& clusters,
                                      const BootstrapSettings& b, int* used = nullptr);

// Miss rate, control rate and their excess with both intervals, over the given clusters.
struct Excess {
  std::uint64_t k1 = 0, n1 = 0, k2 = 0, n2 = 0;
  double miss_rate = 0, control_rate = 0, excess = 0;
  Interval miss_wilson, control_wilson, newcombe, bootstrap;
  int resamples_used = 0;
  bool defined() const { return n1 > 0 && n2 > 0; }
};
Excess excess_of(const std::vector<ClusterCounts>& clusters, const BootstrapSettings& b);
// "+1.250% [+0.310, +2.190]%": the excess and its bootstrap interval as the report's tables show
// them; "no decisions" for a band where the mechanism never fired (n1 = 0).
std::string excess_text(const Excess& e);

}  // namespace stk::harness::shadow
