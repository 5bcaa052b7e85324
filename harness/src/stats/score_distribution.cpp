#include "stats/score_distribution.h"

#include <cmath>

namespace stk::harness::match {

namespace {

constexpr double kRegularizer = 1e-3;  // fishtest LLRcalc.regularize

template <std::size_t K>
ScoreDistribution from_counts(const std::array<std::uint64_t, K>& n) {
  ScoreDistribution d;
  d.k = int(K);
  for (std::size_t i = 0; i < K; ++i) d.count += n[i] ? double(n[i]) : kRegularizer;
  for (std::size_t i = 0; i < K; ++i) {
    d.a[i] = double(i) / double(K - 1);
    d.p[i] = (n[i] ? double(n[i]) : kRegularizer) / d.count;
  }
  return d;
}

// E[(X - mean)^m]
double central_moment(const ScoreDistribution& d, int m) {
  const double mu = d.mean();
  double s = 0;
  for (int i = 0; i < d.k; ++i) s += d.p[i] * std::pow(d.a[i] - mu, m);
  return s;
}

}  // namespace

double ScoreDistribution::mean() const {
  double s = 0;
  for (int i = 0; i < k; ++i) s += p[i] * a[i];
  return s;
}

double ScoreDistribution::variance() const { return central_moment(*this, 2); }
double ScoreDistribution::skewness() const {
  return central_moment(*this, 3) / std::pow(variance(), 1.5);
}
double ScoreDistribution::excess_kurtosis() const {
  const double v = variance();
  return central_moment(*this, 4) / (v * v) - 3.0;
}

ScoreDistribution distribution_of(const PentanomialCounts& c) { return from_counts(c.n); }

ScoreDistribution distribution_of(const WdlCounts& c) {
  return from_counts(std::array<std::uint64_t, 3>{c.losses, c.draws, c.wins});
}

}  // namespace stk::harness::match
