#include "stats/normal.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace stk::harness::match {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("normal_quantile: p must be in (0, 1)");
  // Newton from 0 converges monotonically: Phi - p is concave above 0 and convex below, so every
  // tangent step lands between the previous iterate and the root, never past it.
  const double inv_sqrt_2pi = 1.0 / std::sqrt(2.0 * M_PI);
  double x = 0;
  for (int i = 0; i < 200; ++i) {
    const double step = (normal_cdf(x) - p) / (inv_sqrt_2pi * std::exp(-0.5 * x * x));
    x -= step;
    if (std::abs(step) <= 4 * std::numeric_limits<double>::epsilon() * (1 + std::abs(x))) break;
  }
  return x;
}

}  // namespace stk::harness::match
