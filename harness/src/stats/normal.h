// The standard normal law, for confidence intervals and LOS (fishtest's stat_util.Phi / Phi_inv,
// there from scipy.stats.norm).
#pragma once

namespace stk::harness::match {

// P(Z <= x)
double normal_cdf(double x);
// x with P(Z <= x) = p, 0 < p < 1; accurate to a few ulps (Newton from 0, monotone; as many
// steps as the far tail needs).
double normal_quantile(double p);

}  // namespace stk::harness::match
