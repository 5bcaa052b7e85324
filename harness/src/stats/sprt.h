// The generalized sequential probability ratio test (GSPRT) of fishtest and OpenBench, by Michel Van
// den Bergh: H0 "elo = elo0" against H1 "elo = elo1", the nuisance parameters (draw ratio, opening
// correlation) estimated from the data. The log-likelihood ratio of the counts is
//   LLR = N * sum_i p^_i (log p1_i - log p0_i)
// where p^ is the observed (regularized) distribution of N samples and p0, p1 the maximum-likelihood
// distributions constrained to elo0 and elo1 (match/constrained_mle.h). Wald's stopping bounds:
// accept H0 when LLR <= ln(beta / (1 - alpha)), accept H1 when LLR >= ln((1 - beta) / alpha).
//
// Elo models (fishtest server/fishtest/stats/LLRcalc.py: LLR_normalized, LLR_logistic):
//   normalized (fishtest's default): the bounds are nElo; the constraint is the t-value
//     (mean - 1/2) / sd = nelo / (800 / ln 10) per game, times sqrt(2) for a game pair;
//   logistic: the bounds are Elo; the constraint is the mean score 1 / (1 + 10^(-elo / 400)).
// Pentanomial counts are the test proper (a pair is one sample); the trinomial version (a game is
// one sample) assumes independent games and is offered for reference only.
#pragma once

#include <string>

#include "stats/pentanomial.h"

namespace stk::harness::match {

enum class EloModel { Normalized, Logistic };
const char* to_string(EloModel m);
EloModel parse_elo_model(const std::string& s);  // "normalized" | "logistic"; std::invalid_argument

struct SprtParams {
  double elo0 = 0, elo1 = 2;
  double alpha = 0.05, beta = 0.05;
  EloModel model = EloModel::Normalized;

  // "" when usable, else what is wrong (elo0 >= elo1, alpha or beta outside (0,1), alpha + beta >= 1,
  // a non-finite bound).
  std::string problem() const;
  double lower_bound() const;  // ln(beta / (1 - alpha)): at or below it, H0 is accepted
  double upper_bound() const;  // ln((1 - beta) / alpha): at or above it, H1 is accepted
  bool operator==(const SprtParams&) const = default;
};

enum class Verdict { Continue, AcceptH0, AcceptH1 };
const char* to_string(Verdict v);  // "continue", "H0 accepted", "H1 accepted"

struct SprtResult {
  double llr = 0, lower = 0, upper = 0;
  Verdict verdict = Verdict::Continue;
};

// The LLR of the counts (0 when empty). Throws std::invalid_argument on bad parameters and
// std::domain_error when a bound is outside what the observed outcomes can express.
double llr(const PentanomialCounts& c, const SprtParams& p);
double llr(const WdlCounts& c, const SprtParams& p);  // trinomial, for reference

Verdict verdict(double llr, const SprtParams& p);
SprtResult sprt(const PentanomialCounts& c, const SprtParams& p);
SprtResult sprt(const WdlCounts& c, const SprtParams& p);

}  // namespace stk::harness::match
