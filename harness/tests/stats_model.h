// Independent models of the match statistics, written from docs/match-results.md (sections 2 and 3)
// and the published definitions it cites (fishtest LLRcalc / stat_util, the Wilson interval), not
// from harness/src/stats. Shared by the *_model_test.cpp files; every root is found by plain
// bisection and every quantile by inverting std::erfc, so no numerical method is shared with the
// code under test (which uses Newton/Halley iterations and rational approximations).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace stk::model {

inline constexpr double kLn10 = 2.302585092994045684;
inline constexpr double kNeloPerT = 800.0 / kLn10;

// Phi(x) = P(Z <= x).
inline double phi_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Phi^-1(p) by bisection on Phi (monotone), to the last bit.
inline double phi_quantile(double p) {
  double lo = -40, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    (phi_cdf(mid) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// Logistic Elo of a score, clamped to [0.001, 0.999] (fishtest stat_util.elo).
inline double elo(double s) {
  s = std::clamp(s, 0.001, 0.999);
  return -400.0 * std::log10(1.0 / s - 1.0);
}
inline double score_of_elo(double e) { return 1.0 / (1.0 + std::pow(10.0, -e / 400.0)); }

// An observed law on fixed outcomes after fishtest's regularization (a zero count is 0.001).
struct Law {
  std::vector<double> a;  // outcomes on the per-game scale
  std::vector<double> p;  // probabilities
  double n = 0;           // regularized sample count
  double games_per_sample = 1;

  double mean() const {
    double m = 0;
    for (std::size_t k = 0; k < a.size(); ++k) m += p[k] * a[k];
    return m;
  }
  double central(int order) const {
    const double m = mean();
    double s = 0;
    for (std::size_t k = 0; k < a.size(); ++k) s += p[k] * std::pow(a[k] - m, order);
    return s;
  }
  double var() const { return central(2); }
  double skew() const { return central(3) / std::pow(var(), 1.5); }
  double exkurt() const { return central(4) / (var() * var()) - 3.0; }
};

inline Law law_of(const std::vector<std::uint64_t>& counts, double games_per_sample) {
  Law l;
  l.games_per_sample = games_per_sample;
  const std::size_t k = counts.size();
  for (std::size_t i = 0; i < k; ++i) {
    l.a.push_back(double(i) / double(k - 1));
    const double c = counts[i] == 0 ? 1e-3 : double(counts[i]);
    l.p.push_back(c);
    l.n += c;
  }
  for (double& x : l.p) x /= l.n;
  return l;
}
inline Law penta_law(const std::array<std::uint64_t, 5>& n) {
  return law_of({n.begin(), n.end()}, 2);
}
// W/D/L counts: outcomes loss 0, draw 1/2, win 1.
inline Law wdl_law(std::uint64_t w, std::uint64_t d, std::uint64_t l) {
  return law_of({l, d, w}, 1);
}

struct Estimate {
  double score, variance, elo, lower, upper, error, los, nelo, nelo_error;
};

inline Estimate estimate(const Law& l, double confidence = 0.95) {
  Estimate e{};
  const double z = phi_quantile(1 - (1 - confidence) / 2);
  e.score = l.mean();
  e.variance = l.var();
  const double se = std::sqrt(e.variance / l.n);
  e.elo = elo(e.score);
  e.lower = elo(e.score - z * se);
  e.upper = elo(e.score + z * se);
  e.error = (e.upper - e.lower) / 2;
  e.los = phi_cdf((e.score - 0.5) / se);
  const double t = (e.score - 0.5) / std::sqrt(e.variance);
  const double g = l.games_per_sample;
  e.nelo = kNeloPerT * t / std::sqrt(g);
  const double var_t = std::max(1 - t * l.skew() + t * t * (l.exkurt() + 2) / 4, 0.0);
  e.nelo_error = kNeloPerT / std::sqrt(g) * z * std::sqrt(var_t / l.n);
  return e;
}

// The root x of sum p_k phi_k / (1 + x phi_k) = 0 where every 1 + x phi_k > 0, by bisection.
inline double secular_root(const std::vector<double>& p, const std::vector<double>& phi) {
  const double mx = *std::max_element(phi.begin(), phi.end());
  const double mn = *std::min_element(phi.begin(), phi.end());
  if (!(mn < 0 && mx > 0)) throw std::domain_error("constraint not expressible");
  double lo = -1.0 / mx, hi = -1.0 / mn;  // f(lo+) = +inf, f(hi-) = -inf
  auto f = [&](double x) {
    double s = 0;
    for (std::size_t k = 0; k < p.size(); ++k) s += p[k] * phi[k] / (1 + x * phi[k]);
    return s;
  };
  for (int i = 0; i < 400; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (f(mid) > 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

inline std::vector<double> tilt(const std::vector<double>& p, const std::vector<double>& phi) {
  const double x = secular_root(p, phi);
  std::vector<double> q(p.size());
  double sum = 0;
  for (std::size_t k = 0; k < p.size(); ++k) sum += q[k] = p[k] / (1 + x * phi[k]);
  for (double& v : q) v /= sum;  // sum is 1 at the root; removes the bisection's last rounding
  return q;
}

// The MLE of the observed law with mean s (phi_k = a_k - s).
inline std::vector<double> mle_mean(const Law& l, double s) {
  std::vector<double> phi(l.a.size());
  for (std::size_t k = 0; k < phi.size(); ++k) phi[k] = l.a[k] - s;
  return tilt(l.p, phi);
}

// The MLE with t-value (mean - ref) / sd = t: the linearized constraint refitted from the uniform
// law until no probability moves by 1e-13.
inline std::vector<double> mle_t(const Law& l, double ref, double t) {
  const std::size_t k = l.a.size();
  std::vector<double> q(k, 1.0 / double(k));
  for (int round = 0; round < 10000; ++round) {
    double mu = 0, var = 0;
    for (std::size_t i = 0; i < k; ++i) mu += q[i] * l.a[i];
    for (std::size_t i = 0; i < k; ++i) var += q[i] * (l.a[i] - mu) * (l.a[i] - mu);
    const double sd = std::sqrt(var);
    std::vector<double> phi(k);
    for (std::size_t i = 0; i < k; ++i) {
      const double z = (mu - l.a[i]) / sd;
      phi[i] = l.a[i] - ref - t * sd * (1 + z * z) / 2;
    }
    auto next = tilt(l.p, phi);
    double moved = 0;
    for (std::size_t i = 0; i < k; ++i) moved = std::max(moved, std::abs(next[i] - q[i]));
    q = next;
    if (moved < 1e-13) return q;
  }
  return q;
}

enum class Unit { Normalized, Logistic };

inline std::vector<double> fit(const Law& l, double elo_bound, Unit unit) {
  if (unit == Unit::Logistic) return mle_mean(l, score_of_elo(elo_bound));
  const double t = elo_bound * std::sqrt(l.games_per_sample) / kNeloPerT;
  return mle_t(l, 0.5, t);
}

inline double llr(const Law& l, double elo0, double elo1, Unit unit) {
  const auto p0 = fit(l, elo0, unit), p1 = fit(l, elo1, unit);
  double s = 0;
  for (std::size_t k = 0; k < l.p.size(); ++k) s += l.p[k] * (std::log(p1[k]) - std::log(p0[k]));
  return l.n * s;
}

inline double lower_bound(double alpha, double beta) { return std::log(beta / (1 - alpha)); }
inline double upper_bound(double alpha, double beta) { return std::log((1 - beta) / alpha); }

// -1: H0 accepted, +1: H1 accepted, 0: continue.
inline int decide(double llr, double alpha, double beta) {
  if (llr >= upper_bound(alpha, beta)) return 1;
  if (llr <= lower_bound(alpha, beta)) return -1;
  return 0;
}

// The Wilson score interval as the two roots q of (p - q)^2 = z^2 q (1 - q) / n, a quadratic in q
// solved by its textbook formula (with the stable-root identity), clipped to [0, 1].
inline std::pair<double, double> wilson(std::uint64_t k, std::uint64_t n, double z) {
  if (n == 0) return {0, 1};
  const double p = double(k) / double(n), nn = double(n), z2 = z * z;
  // (1 + z2/n) q^2 - (2p + z2/n) q + p^2 = 0
  const double A = 1 + z2 / nn, B = -(2 * p + z2 / nn), C = p * p;
  const double disc = std::max(B * B - 4 * A * C, 0.0);
  const double r = -0.5 * (B - std::sqrt(disc));  // B < 0: no cancellation
  double hi = r / A, lo = r > 0 ? C / r : 0.0;
  if (lo > hi) std::swap(lo, hi);
  return {std::max(0.0, lo), std::min(1.0, hi)};
}

}  // namespace stk::model
