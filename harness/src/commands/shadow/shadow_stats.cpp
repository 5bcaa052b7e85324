#include "commands/shadow/shadow_stats.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/splitmix.h"
#include "stats/wilson.h"

namespace stk::harness::shadow {

Interval wilson(std::uint64_t k, std::uint64_t n, double z) {
  const auto [lo, hi] = stk::harness::wilson(k, n, z);  // the one implementation (stats/wilson.h)
  return {lo, hi};
}

Interval newcombe_difference(std::uint64_t k1, std::uint64_t n1, std::uint64_t k2, std::uint64_t n2,
                             double z) {
  if (n1 == 0 || n2 == 0) return {-1, 1};
  const double p1 = double(k1) / double(n1), p2 = double(k2) / double(n2), d = p1 - p2;
  const Interval a = wilson(k1, n1, z), b = wilson(k2, n2, z);
  return {d - std::sqrt((p1 - a.lo) * (p1 - a.lo) + (b.hi - p2) * (b.hi - p2)),
          d + std::sqrt((a.hi - p1) * (a.hi - p1) + (p2 - b.lo) * (p2 - b.lo))};
}

Interval cluster_bootstrap_difference(const std::vector<ClusterCounts>& clusters,
                                      const BootstrapSettings& b, int* used) {
  if (used) *used = 0;
  if (clusters.empty() || b.resamples <= 0) return {-1, 1};
  SplitMix rng(b.seed);
  std::vector<double> values;
  values.reserve(std::size_t(b.resamples));
  for (int r = 0; r < b.resamples; ++r) {
    ClusterCounts sum;
    for (std::size_t i = 0; i < clusters.size(); ++i) {
      const ClusterCounts& c = clusters[rng.below(clusters.size())];
      sum.k1 += c.k1, sum.n1 += c.n1, sum.k2 += c.k2, sum.n2 += c.n2;
    }
    if (sum.n1 && sum.n2)
      values.push_back(double(sum.k1) / double(sum.n1) - double(sum.k2) / double(sum.n2));
  }
  if (used) *used = int(values.size());
  if (values.size() * 2 < std::size_t(b.resamples)) return {-1, 1};
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const auto lo = std::size_t(std::floor(0.025 * double(n)));
  const auto hi = std::min(n - 1, std::size_t(std::ceil(0.975 * double(n))) - 1);
  return {values[lo], values[hi]};
}

Excess excess_of(const std::vector<ClusterCounts>& clusters, const BootstrapSettings& b) {
  Excess e;
  for (const ClusterCounts& c : clusters) e.k1 += c.k1, e.n1 += c.n1, e.k2 += c.k2, e.n2 += c.n2;
  e.miss_rate = e.n1 ? double(e.k1) / double(e.n1) : 0;
  e.control_rate = e.n2 ? double(e.k2) / double(e.n2) : 0;
  e.excess = e.miss_rate - e.control_rate;
  e.miss_wilson = wilson(e.k1, e.n1);
  e.control_wilson = wilson(e.k2, e.n2);
  e.newcombe = newcombe_difference(e.k1, e.n1, e.k2, e.n2);
  e.bootstrap = e.defined() ? cluster_bootstrap_difference(clusters, b, &e.resamples_used)
                            : Interval{-1, 1};
  return e;
}

std::string excess_text(const Excess& e) {
  if (e.n1 == 0) return "no decisions";
  return fmt::format("{:+.3f}% [{:+.3f}, {:+.3f}]%", 100 * e.excess, 100 * e.bootstrap.lo,
                     100 * e.bootstrap.hi);
}

}  // namespace stk::harness::shadow
