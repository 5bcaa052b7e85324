// Maximum-likelihood distributions under one constraint: the two fits the generalized SPRT compares.
// Given the observed distribution p^ on fixed outcomes a_i, the distribution p on the same outcomes
// that maximizes sum p^_i log p_i subject to the constraint is, by a Lagrange multiplier x,
//   p_i = p^_i / (1 + x phi_i)   with x the root of   sum p^_i phi_i / (1 + x phi_i) = 0,
// where phi_i is the constraint's linear form. Derivation: M. Van den Bergh,
// https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf (Proposition 1.1, constrained mean) and
// https://www.cantate.be/Fishtest/normalized_elo_practical.pdf (Section 4.1, constrained t-value);
// used by fishtest server/fishtest/stats/LLRcalc.py (MLE_expected, MLE_t_value, secular).
#pragma once

#include "stats/score_distribution.h"

namespace stk::harness::match {

// The root x of sum p_i phi_i / (1 + x phi_i) = 0 on the interval where every 1 + x phi_i > 0 (the
// sum falls strictly from +inf to -inf there, so the root is unique). Needs min phi < 0 < max phi;
// throws std::domain_error otherwise.
double secular_root(const ScoreDistribution& observed, const double* phi);

// The MLE with mean s (a_min < s < a_max): phi_i = a_i - s.
ScoreDistribution mle_with_mean(const ScoreDistribution& observed, double s);

// The MLE with t-value (mean - ref) / sd = t. The constraint is not linear; as in the reference, it is
// linearized around the current fit, phi_i = a_i - ref - t sd (1 + ((mean - a_i) / sd)^2) / 2, and the
// fit repeated from the uniform distribution until no probability moves by more than 1e-10 of itself
// (or the change stops shrinking below 1e-7: the rounding floor). fishtest stops at an absolute 1e-9 or
// after 10 rounds; where that converged the results agree. Throws std::domain_error if it cannot converge.
ScoreDistribution mle_with_t_value(const ScoreDistribution& observed, double ref, double t);

}  // namespace stk::harness::match
