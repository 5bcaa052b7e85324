#include "stats/sprt.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "stats/constrained_mle.h"
#include "stats/elo.h"
#include "stats/score_distribution.h"

namespace stk::harness::match {

const char* to_string(EloModel m) { return m == EloModel::Normalized ? "normalized" : "logistic"; }

EloModel parse_elo_model(const std::string& s) {
  if (s == "normalized") return EloModel::Normalized;
  if (s == "logistic") return EloModel::Logistic;
  throw std::invalid_argument("Elo model must be 'normalized' or 'logistic', got '" + s + "'");
}

const char* to_string(Verdict v) {
  return v == Verdict::AcceptH1   ? "H1 accepted"
         : v == Verdict::AcceptH0 ? "H0 accepted"
                                  : "continue";
}

std::string SprtParams::problem() const {
  if (!std::isfinite(elo0) || !std::isfinite(elo1)) return "elo0 and elo1 must be finite numbers";
  if (!(elo0 < elo1)) return "elo0 must be below elo1";
  if (!(alpha > 0 && alpha < 1)) return "alpha must be in (0, 1)";
  if (!(beta > 0 && beta < 1)) return "beta must be in (0, 1)";
  if (!(alpha + beta < 1)) return "alpha + beta must be below 1";
  return "";
}

double SprtParams::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtParams::upper_bound() const { return std::log((1 - beta) / alpha); }

Verdict verdict(double value, const SprtParams& p) {
  if (value >= p.upper_bound()) return Verdict::AcceptH1;
  if (value <= p.lower_bound()) return Verdict::AcceptH0;
  return Verdict::Continue;
}

namespace {

// `games_per_sample`: 2 for pentanomial counts (a pair is one sample), 1 for trinomial counts.
double llr_of(const ScoreDistribution& observed, const SprtParams& p, double games_per_sample) {
  if (auto why = p.problem(); !why.empty()) throw std::invalid_argument("SPRT: " + why);
  auto fit = [&](double elo) {
    try {
      if (p.model == EloModel::Logistic) return mle_with_mean(observed, score_from_elo(elo));
      const double scale = std::sqrt(games_per_sample) /
                           kNeloPerT;  // nElo per game -> t-value per sample
      return mle_with_t_value(observed, 0.5, elo * scale);
    } catch (const std::domain_error& e) {
      throw std::domain_error(fmt::format("SPRT bound {} {:g} is out of reach of these counts ({})",
                                          p.model == EloModel::Logistic ? "Elo" : "nElo", elo,
                                          e.what()));
    }
  };
  const ScoreDistribution fit0 = fit(p.elo0), fit1 = fit(p.elo1);
  double sum = 0;
  for (int i = 0; i < observed.k; ++i)
    sum += observed.p[i] * (std::log(fit1.p[i]) - std::log(fit0.p[i]));
  return observed.count * sum;
}

}  // namespace

double llr(const PentanomialCounts& c, const SprtParams& p) {
  return c.pairs() ? llr_of(distribution_of(c), p, 2.0) : 0.0;
}

double llr(const WdlCounts& c, const SprtParams& p) {
  return c.games() ? llr_of(distribution_of(c), p, 1.0) : 0.0;
}

SprtResult sprt(const PentanomialCounts& c, const SprtParams& p) {
  const double value = llr(c, p);
  return {value, p.lower_bound(), p.upper_bound(), verdict(value, p)};
}

SprtResult sprt(const WdlCounts& c, const SprtParams& p) {
  const double value = llr(c, p);
  return {value, p.lower_bound(), p.upper_bound(), verdict(value, p)};
}

}  // namespace stk::harness::match
