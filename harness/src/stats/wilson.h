// The one Wilson score interval of the harnesses (shadow's gates and sprt-sim's error rates call
// it; the Python reference has its own in stktrain.calibration, tested against the same
// hand-computed values).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace stk::harness {

// Wilson score interval of k successes in n trials (z = 1.96: 95%); [0, 1] when n == 0.
// Unlike the normal approximation it stays inside [0, 1] and is honest at k = 0 or k = n.
inline std::pair<double, double> wilson(std::uint64_t k, std::uint64_t n, double z = 1.96) {
  if (n == 0) return {0, 1};
  const double p = double(k) / double(n), nn = double(n);
  const double den = 1 + z * z / nn, centre = (p + z * z / (2 * nn)) / den;
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / den;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

}  // namespace stk::harness
