// The pre-merge gate's statistics against published values (fishtest, OpenBench, fastchess), by
// RapidCheck properties, and by simulation at known truth.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cmath>

#include "stats/constrained_mle.h"
#include "stats/elo.h"
#include "stats/normal.h"
#include "stats/sprt.h"
#include "stats/sprt_simulation.h"

using namespace stk::harness::match;

namespace {

PentanomialCounts ptnml(std::uint64_t ll, std::uint64_t ld, std::uint64_t dd, std::uint64_t dw,
                        std::uint64_t ww) {
  return PentanomialCounts{{ll, ld, dd, dw, ww}};
}

SprtParams normalized(double e0, double e1) { return {e0, e1, 0.05, 0.05, EloModel::Normalized}; }
SprtParams logistic(double e0, double e1) { return {e0, e1, 0.05, 0.05, EloModel::Logistic}; }

// A value printed to 2 decimals: ours must round to it.
constexpr double kTwoDecimals = 0.005 + 1e-9;

}  // namespace

// fastchess app/tests/sprt_test.cpp (https://github.com/Disservin/fastchess, commit 0cbac4988fbac5bbe90716a4c36737c00c238bc5).
// Its Stats(ll, ld, wl, dd, wd, ww) pentanomial constructor keeps WL and DD apart; here they are one
// class (DD+WL). Its trinomial constructor is Stats(wins, losses, draws).
TEST_CASE("SPRT LLR equals fastchess's published values", "[stats][published]") {
  SECTION("pentanomial, normalized") {
    CHECK(llr(ptnml(365, 16618, 36029 + 200, 16974, 390), normalized(0, 2)) ==
          Approx(2.25).margin(kTwoDecimals));
    CHECK(llr(ptnml(127, 4883, 10311 + 401, 5150, 104), normalized(-1.75, 0.25)) ==
          Approx(3.01).margin(kTwoDecimals));
  }
  SECTION("pentanomial, logistic") {
    CHECK(llr(ptnml(223, 9863, 20279 + 1000, 10037, 246), logistic(0.5, 2.5)) ==
          Approx(-3.07).margin(kTwoDecimals));
    CHECK(llr(ptnml(871, 26175, 55003 + 980, 26678, 821), logistic(0, 2)) ==
          Approx(-4.98).margin(kTwoDecimals));
  }
  SECTION("trinomial (reference only)") {
    CHECK(llr(WdlCounts{36433, 68692, 36027}, normalized(0, 2)) ==
          Approx(0.92).margin(kTwoDecimals));
    CHECK(llr(WdlCounts{10871, 20431, 10650}, normalized(-1.75, 0.25)) ==
          Approx(2.30).margin(kTwoDecimals));
    CHECK(llr(WdlCounts{21404, 40708, 21184}, logistic(0.5, 2.5)) ==
          Approx(-1.57).margin(kTwoDecimals));
    CHECK(llr(WdlCounts{57433, 106593, 57030}, logistic(0, 2)) ==
          Approx(-2.59).margin(kTwoDecimals));
  }
}

// fastchess's other two cases are degenerate (only WW pairs; only draws). There its values (2.94, 2.97)
// come from its own root-finder tolerances: for only draws the observed distribution has mean exactly
// 1/2, so it IS the H0 fit (nElo 0) and the LLR = -N * KL(observed || H1 fit) cannot be positive.
// fishtest's algorithm (emulated by stkref.sprt, which converges in 3 to 6 rounds here) gives ours.
TEST_CASE("SPRT on degenerate counts follows from the definition", "[stats]") {
  CHECK(llr(WdlCounts{0, 16700, 0}, normalized(0, 5)) <= 0);
  CHECK(llr(WdlCounts{0, 16700, 0}, normalized(0, 5)) == Approx(-3.4505).margin(1e-4));
  CHECK(llr(ptnml(0, 0, 0, 0, 104), normalized(0, 5)) == Approx(2.0950).margin(1e-4));
  CHECK(llr(ptnml(0, 0, 0, 0, 0), normalized(0, 5)) == 0);
}

// fastchess app/tests/elo_test.cpp (commit 2f5e88819ee01f879ed3078208092099f04cfba3): Elo +- error,
// nElo and LOS. (Its nElo error is z * 800/ln10 / sqrt(games), ignoring that the sd is estimated;
// fishtest's delta-method interval, ours, is checked against fishtest below.)
TEST_CASE("Elo, nElo and LOS equal fastchess's published values", "[stats][published]") {
  SECTION("trinomial") {
    const EloEstimate a = estimate(WdlCounts{76, 123, 89});
    CHECK(a.nelo == Approx(-20.76).margin(kTwoDecimals));
    CHECK(100 * a.los == Approx(15.53).margin(kTwoDecimals));
    const EloEstimate b = estimate(WdlCounts{136, 111, 96});
    CHECK(b.nelo == Approx(49.77).margin(kTwoDecimals));
    CHECK(b.elo == Approx(40.70).margin(kTwoDecimals));
    CHECK(b.elo_error == Approx(30.43).margin(kTwoDecimals));
    CHECK(100 * b.los == Approx(99.60).margin(kTwoDecimals));
    // No draws: fishtest (and we) count them as 0.001, fastchess as 0: 0.007 nElo apart.
    CHECK(estimate(WdlCounts{34, 0, 356}).nelo == Approx(-508.44).margin(0.01));
  }
  SECTION("pentanomial") {
    const EloEstimate a = estimate(ptnml(34, 54, 31 + 32, 64, 75));
    CHECK(a.nelo == Approx(57.94).margin(kTwoDecimals));
    CHECK(a.elo == Approx(55.58).margin(kTwoDecimals));
    CHECK(a.elo_error == Approx(27.65).margin(kTwoDecimals));
    CHECK(100 * a.los == Approx(100.00).margin(kTwoDecimals));
    const EloEstimate b = estimate(ptnml(332, 433, 457 + 41, 333, 334));
    CHECK(b.nelo == Approx(-9.17).margin(kTwoDecimals));
    CHECK(b.elo == Approx(-8.64).margin(kTwoDecimals));
    CHECK(b.elo_error == Approx(10.33).margin(kTwoDecimals));
    CHECK(100 * b.los == Approx(5.05).margin(kTwoDecimals));
    const EloEstimate c = estimate(ptnml(7895, 8757, 5485 + 200, 568, 9999));
    CHECK(c.nelo == Approx(-19.01).margin(kTwoDecimals));
    CHECK(c.elo == Approx(-21.04).margin(kTwoDecimals));
    CHECK(c.elo_error == Approx(2.95).margin(kTwoDecimals));
  }
}

// fishtest as published in Stockfish's commit messages (tests.stockfishchess.org pages quoted there).
TEST_CASE("statistics equal fishtest's published results", "[stats][published]") {
  SECTION("fixed-games test: Elo, LOS, nElo, PairsRatio") {
    // https://github.com/official-stockfish/Stockfish/commit/5c0388310731ba4bf7989210cb69be67b53bb43d, test
    // https://tests.stockfishchess.org/tests/view/65cb6aed1d8e83c78bfd0802: "Elo: -1.46 ± 1.8 (95%) LOS: 5.5%
    // Total: 40000 W: 10267 L: 10435 D: 19298 Ptnml(0-2): 200, 4860, 10023, 4742, 175 nElo: -2.77 ± 3.4 (95%)
    // PairsRatio: 0.97"
    const PentanomialCounts c = ptnml(200, 4860, 10023, 4742, 175);
    const EloEstimate e = estimate(c);
    CHECK(e.elo == Approx(-1.46).margin(kTwoDecimals));
    CHECK(e.elo_error == Approx(1.8).margin(0.05));
    CHECK(100 * e.los == Approx(5.5).margin(0.05));
    CHECK(e.nelo == Approx(-2.77).margin(kTwoDecimals));
    CHECK(e.nelo_error == Approx(3.4).margin(0.05));
    CHECK(pairs_ratio(c) == Approx(0.97).margin(kTwoDecimals));
    CHECK(c.games() == 10267 + 10435 + 19298);
  }
  SECTION("SPRT LLR at termination (normalized bounds)") {
    // Same commit: VVLTC https://tests.stockfishchess.org/tests/view/65c8a8fc1d8e83c78bfcd163
    // "LLR: 2.94 (-2.94,2.94) <0.00,2.00> Total: 20826 ... Ptnml(0-2): 1, 1941, 6275, 2194, 2" and
    // https://tests.stockfishchess.org/tests/view/65cadc2d1d8e83c78bfcfdaf "LLR: 2.94 <0.50,2.50> ... 1, 1586, 5422, 1845, 1".
    CHECK(llr(ptnml(1, 1941, 6275, 2194, 2), normalized(0, 2)) ==
          Approx(2.94).margin(kTwoDecimals));
    CHECK(llr(ptnml(1, 1586, 5422, 1845, 1), normalized(0.5, 2.5)) ==
          Approx(2.94).margin(kTwoDecimals));
    // https://github.com/official-stockfish/Stockfish/commit/e551964ef63e4e4af4bb6132538b98fad4a51afe:
    // STC https://tests.stockfishchess.org/tests/view/64997934dc7002ce609d01e3 "LLR: 2.98 <0.00,2.00>
    // Ptnml(0-2): 310, 13250, 33553, 13686, 305"; LTC .../649a1c5ddc7002ce609d0bff "LLR: 2.94 <0.50,2.50>
    // Ptnml(0-2): 54, 13691, 44552, 14197, 52".
    CHECK(llr(ptnml(310, 13250, 33553, 13686, 305), normalized(0, 2)) ==
          Approx(2.98).margin(kTwoDecimals));
    CHECK(llr(ptnml(54, 13691, 44552, 14197, 52), normalized(0.5, 2.5)) ==
          Approx(2.94).margin(kTwoDecimals));
    // Wald's bounds as printed: (-2.94, 2.94) for alpha = beta = 0.05.
    CHECK(normalized(0, 2).lower_bound() == Approx(-2.94).margin(kTwoDecimals));
    CHECK(normalized(0, 2).upper_bound() == Approx(2.94).margin(kTwoDecimals));
  }
}

// OpenBench (OpenBench/stats.py: PentanomialSPRT in nElo, Elo from the pentanomial interval) as posted in
// https://github.com/official-clockwork/Clockwork/pull/364 (ob.cwchess.org tests 1190-1192), and the nElo
// of https://github.com/codedeliveryservice/Reckless/wiki/Progress-Tracking (2025-12-06 STC).
TEST_CASE("statistics equal OpenBench's published results", "[stats][published]") {
  struct Case {
    PentanomialCounts c;
    double llr, elo, error;
  };
  // "Elo | 2.95 +- 2.18 (95%) ... LLR | 2.96 (-2.94, 2.94) [0.00, 3.00] ... Penta | [398, 4112, 7672, 4336, 430]" etc.
  const Case cases[] = {{ptnml(398, 4112, 7672, 4336, 430), 2.96, 2.95, 2.18},
                        {ptnml(56, 1144, 2546, 1310, 77), 2.95, 7.04, 3.62},
                        {ptnml(5, 295, 1145, 466, 2), 2.98, 14.99, 4.97}};
  for (const Case& k : cases) {
    CHECK(llr(k.c, normalized(0, 3)) == Approx(k.llr).margin(kTwoDecimals));
    const EloEstimate e = estimate(k.c);
    CHECK(e.elo == Approx(k.elo).margin(kTwoDecimals));
    // OpenBench's "+-" is one side of the (slightly asymmetric) interval; ours is the half width.
    CHECK(e.elo_error == Approx(k.error).margin(0.01));
  }
  // "Elo: 30.09 ± 2.56 nElo: 56.71 ± 4.80 Ptnml: 59, 1751, 4800, 3267, 169" (OpenBench's nElo interval is
  // fastchess's simple one, not fishtest's delta method, so only the point values are compared).
  const EloEstimate r = estimate(ptnml(59, 1751, 4800, 3267, 169));
  CHECK(r.elo == Approx(30.09).margin(kTwoDecimals));
  CHECK(r.elo_error == Approx(2.56).margin(kTwoDecimals));
  CHECK(r.nelo == Approx(56.71).margin(kTwoDecimals));
}

TEST_CASE("Elo curve, normal law and bounds", "[stats]") {
  CHECK(elo_from_score(0.5) == 0);
  CHECK(elo_from_score(score_from_elo(100)) == Approx(100).margin(1e-9));
  CHECK(score_from_elo(400) == Approx(10.0 / 11.0));  // +400 Elo: odds 10:1
  CHECK(elo_from_score(0.75) == Approx(190.848501887865).margin(1e-9));
  CHECK(elo_from_score(1.0) == elo_from_score(0.999));  // fishtest's clamp
  CHECK(normal_quantile(0.975) == Approx(1.959963984540054).epsilon(1e-14));
  CHECK(normal_quantile(0.5) == 0);
  CHECK(normal_quantile(1e-10) == Approx(-6.361340902404056).epsilon(1e-12));
  CHECK(normal_cdf(normal_quantile(0.3)) == Approx(0.3).epsilon(1e-14));
  const SprtParams p{0, 2, 0.05, 0.10, EloModel::Normalized};
  CHECK(p.lower_bound() == Approx(std::log(0.10 / 0.95)));
  CHECK(p.upper_bound() == Approx(std::log(0.90 / 0.05)));
  CHECK(verdict(p.upper_bound(), p) == Verdict::AcceptH1);
  CHECK(verdict(p.lower_bound(), p) == Verdict::AcceptH0);
  CHECK(verdict(0, p) == Verdict::Continue);
  CHECK(SprtParams{2, 1}.problem() == "elo0 must be below elo1");
  CHECK(SprtParams{0, 1, 0, 0.05}.problem() == "alpha must be in (0, 1)");
  CHECK(SprtParams{0, 1, 0.5, 0.5}.problem() == "alpha + beta must be below 1");
  CHECK_THROWS_AS(llr(ptnml(1, 2, 3, 4, 5), SprtParams{2, 1}), std::invalid_argument);
}

// Early in a test the counts are few and lopsided: the t-value fit works near a pole of p / (1 + x phi)
// and its last digits jitter. Every small count vector must give a finite LLR (the first case was found
// by `stk-harness sprt-sim --elo0 -3 --elo1 1 --runs 2000 --seed 3`, run 929 after 19 pairs; the value
// is stkref.sprt's).
TEST_CASE("the SPRT gives a finite LLR for every small count vector", "[stats]") {
  CHECK(llr(ptnml(0, 0, 6, 12, 1), normalized(-3, 1)) == Approx(0.18893587468817089).epsilon(1e-8));
  const SprtParams bounds[] = {normalized(-3, 1), normalized(0, 2), normalized(-1.75, 0.25),
                               normalized(0, 5),  logistic(-3, 1),  logistic(0, 5)};
  int checked = 0;
  for (std::uint64_t i = 0; i < 5 * 5 * 5 * 5 * 5; ++i) {
    const PentanomialCounts c = ptnml(i % 5, i / 5 % 5, i / 25 % 5, i / 125 % 5, i / 625 % 5);
    for (const SprtParams& p : bounds) {
      INFO(c.n[0] << "," << c.n[1] << "," << c.n[2] << "," << c.n[3] << "," << c.n[4] << " on "
                  << to_string(p.model) << " [" << p.elo0 << ", " << p.elo1 << "]");
      double value = std::nan("");
      REQUIRE_NOTHROW(value = llr(c, p));
      REQUIRE(std::isfinite(value));
      ++checked;
    }
  }
  CHECK(checked == 3125 * 6);
}

TEST_CASE("the constrained fits satisfy their constraints", "[stats]") {
  const ScoreDistribution d = distribution_of(ptnml(310, 13250, 33553, 13686, 305));
  const ScoreDistribution m = mle_with_mean(d, 0.49);
  double total = 0;
  for (int i = 0; i < 5; ++i) total += m.p[i];
  CHECK(total == Approx(1).epsilon(1e-12));
  CHECK(m.mean() == Approx(0.49).epsilon(1e-12));
  const ScoreDistribution t = mle_with_t_value(d, 0.5, 0.03);
  CHECK((t.mean() - 0.5) / std::sqrt(t.variance()) == Approx(0.03).epsilon(1e-9));
}

namespace {

const auto gen_counts = [] {
  return rc::gen::map(
      rc::gen::container<std::vector<std::uint64_t>>(5, rc::gen::inRange<std::uint64_t>(0, 3000)),
      [](const std::vector<std::uint64_t>& v) {
        PentanomialCounts c{{v[0], v[1], v[2], v[3], v[4]}};
        if (c.pairs() == 0) c.n[2] = 1;
        return c;
      });
};

bool near(double a, double b, double tol = 1e-9) {
  return std::abs(a - b) <= tol * (1 + std::abs(a) + std::abs(b));
}

}  // namespace

TEST_CASE("properties of the match statistics", "[stats][property]") {
  rc::prop("swapping the engines mirrors the counts and negates Elo and nElo", [] {
    const PentanomialCounts c = *gen_counts();
    const PentanomialCounts m = c.mirrored();
    RC_ASSERT(m.n[0] == c.n[4] && m.n[1] == c.n[3] && m.n[2] == c.n[2] && m.n[3] == c.n[1] &&
              m.n[4] == c.n[0]);
    RC_ASSERT(m.mirrored() == c);
    const EloEstimate a = estimate(c), b = estimate(m);
    RC_ASSERT(near(a.elo, -b.elo));
    RC_ASSERT(near(a.nelo, -b.nelo));
    RC_ASSERT(near(a.elo_lower, -b.elo_upper));
    RC_ASSERT(near(a.los, 1 - b.los));
    RC_ASSERT(near(a.nelo_error, b.nelo_error));
  });
  rc::prop("swapping the engines negates the LLR of the mirrored hypotheses", [] {
    const PentanomialCounts c = *gen_counts();
    const double e0 = *rc::gen::inRange(-10, 10), width = *rc::gen::inRange(1, 10);
    const EloModel model = *rc::gen::element(EloModel::Normalized, EloModel::Logistic);
    const SprtParams p{e0, e0 + width, 0.05, 0.10, model};
    const SprtParams q{-(e0 + width), -e0, 0.10, 0.05,
                       model};  // H0 and H1 trade places, so do alpha and beta
    const double l = llr(c, p), lm = llr(c.mirrored(), q);
    RC_ASSERT(near(l, -lm, 1e-7));
    const Verdict v = verdict(l, p), vm = verdict(lm, q);
    RC_ASSERT((v == Verdict::AcceptH1) == (vm == Verdict::AcceptH0));
    RC_ASSERT((v == Verdict::AcceptH0) == (vm == Verdict::AcceptH1));
  });
  rc::prop("adding counts is associative and commutative; so are the statistics of the sum", [] {
    const PentanomialCounts a = *gen_counts(), b = *gen_counts(), c = *gen_counts();
    RC_ASSERT((a + b) + c == a + (b + c));
    RC_ASSERT(a + b == b + a);
    RC_ASSERT((a + b).pairs() == a.pairs() + b.pairs());
    RC_ASSERT(estimate(a + b).elo == estimate(b + a).elo);
    const MatchCounts x{{a.n[0], a.n[1], a.n[2]}, a}, y{{b.n[3], b.n[4], b.n[0]}, b};
    RC_ASSERT((x + y).mirrored() == x.mirrored() + y.mirrored());
  });
  rc::prop("each interval contains its point estimate", [] {
    const PentanomialCounts c = *gen_counts();
    const EloEstimate e = estimate(c);
    RC_ASSERT(e.elo_lower <= e.elo && e.elo <= e.elo_upper);
    RC_ASSERT(e.nelo_error >= 0);
    const WdlCounts w{c.n[4], c.n[2], c.n[0] + 1};
    const EloEstimate t = estimate(w);
    RC_ASSERT(t.elo_lower <= t.elo && t.elo <= t.elo_upper);
  });
  // LOS is a monotone function of the Elo estimate at a fixed spread (same variance and sample size,
  // as for a result and its mirror), agrees with its sign, and grows more decisive with replication.
  // (Adding one won pair can lower it in near-degenerate samples, because the sd is estimated too.)
  rc::prop("LOS is monotone in Elo at a fixed spread", [] {
    const PentanomialCounts c = *gen_counts();
    const EloEstimate a = estimate(c), b = estimate(c.mirrored());
    RC_ASSERT((a.elo > b.elo) == (a.los > b.los) || near(a.elo, b.elo));
    RC_ASSERT((a.los > 0.5) == (a.elo > 0) || near(a.elo, 0, 1e-12));
    const PentanomialCounts twice = c + c + c + c;
    RC_ASSERT(std::abs(estimate(twice).los - 0.5) >= std::abs(a.los - 0.5) - 1e-12);
  });
}

// The SPRT's operating characteristics at known truth: at elo0 it may accept H1 at most alpha of the
// time, at elo1 accept H0 at most beta of the time (Wald's bounds promise this up to overshoot). A
// small, fast version; `stk-harness sprt-sim` runs the large one (docs/harnesses/sprt-sim.md).
TEST_CASE("SPRT error rates at elo0 and elo1 stay within alpha and beta (simulation)",
          "[stats][simulation]") {
  const int runs = 400;
  const std::uint64_t seed = 20240601;
  for (EloModel model : {EloModel::Normalized, EloModel::Logistic}) {
    const SprtParams p{0, model == EloModel::Normalized ? 25.0 : 15.0, 0.05, 0.05, model};
    INFO("model " << to_string(model) << ", bounds [" << p.elo0 << ", " << p.elo1 << "], " << runs
                  << " runs, seed " << seed);
    const PentanomialModel at0 = model_at(p.elo0, model, 0.6, 60),
                           at1 = model_at(p.elo1, model, 0.6, 60);
    CHECK(at0.strength(model) == Approx(p.elo0).margin(1e-9));
    CHECK(at1.strength(model) == Approx(p.elo1).margin(1e-9));
    const SimulationReport r0 = simulate_sprt(at0, p, runs, seed, 200000);
    const SimulationReport r1 = simulate_sprt(at1, p, runs, seed + 1, 200000);
    const RateInterval fp = wilson_interval(std::uint64_t(r0.accepted_h1), runs);
    const RateInterval fn = wilson_interval(std::uint64_t(r1.accepted_h0), runs);
    INFO("false positives " << r0.accepted_h1 << "/" << runs << " Wilson [" << fp.lower << ", "
                            << fp.upper << "], false negatives " << r1.accepted_h0 << "/" << runs
                            << " [" << fn.lower << ", " << fn.upper << "], mean pairs "
                            << r0.mean_pairs() << " / " << r1.mean_pairs());
    CHECK(r0.undecided + r1.undecided == 0);
    CHECK(fp.lower <= p.alpha);
    CHECK(fn.lower <= p.beta);
    // And the test has power: it mostly decides for the truth.
    CHECK(r0.accepted_h0 > runs * 3 / 4);
    CHECK(r1.accepted_h1 > runs * 3 / 4);
  }
}

TEST_CASE("the simulation's pentanomial model", "[stats]") {
  const PentanomialModel m = pentanomial_model(0, 0.6, 60);
  double total = 0;
  for (double q : m.p) total += q;
  CHECK(total == Approx(1).epsilon(1e-12));
  CHECK(m.score() == Approx(0.5).margin(1e-12));
  CHECK(m.p[0] == Approx(m.p[4]).epsilon(1e-12));     // symmetric at Elo 0
  CHECK(m.p[2] > pentanomial_model(0, 0.6, 0).p[2]);  // colour bias: more WL pairs
  CHECK_THROWS_AS(pentanomial_model(0, 0.99, 200),
                  std::invalid_argument);  // negative win probability
  CHECK(draw_pair(m, 0.0) == 0);
  CHECK(draw_pair(m, 0.999999999) == 4);
  const RateInterval w = wilson_interval(5, 100);
  CHECK(w.rate == 0.05);
  CHECK(w.lower == Approx(0.02154).margin(1e-4));
  CHECK(w.upper == Approx(0.11175).margin(1e-4));
}
