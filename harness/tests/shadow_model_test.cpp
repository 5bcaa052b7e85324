// Independent models of the shadow audit's figures and gates (docs/harnesses/shadow.md "Rates,
// intervals and gates"): miss rate, control rate, their excess, the Wilson and Newcombe
// intervals, the cluster bootstrap's range, the band sums and the excess/control/sensitivity
// verdicts. Written from the contract; the null control (controls that equal the misses) has no
// excess and an interval [0, 0]; each gate is met and broken by the smallest margin.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "commands/shadow/shadow_gates.h"
#include "commands/shadow/shadow_stats.h"
#include "rc_support.h"

using namespace stk::harness::shadow;

namespace shadow_model {

// Wilson score interval, z = 1.96 (Wilson 1927), [0, 1] for n = 0.
Interval model_wilson(double k, double n, double z = 1.96) {
  if (n == 0) return {0, 1};
  const double p = k / n, z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

rc::Gen<std::vector<ClusterCounts>> gen_clusters() {
  return stk::test::length_between<std::vector<ClusterCounts>>(
      1, 12, rc::gen::exec([] {
        ClusterCounts c;
        c.n1 = *rc::gen::inRange<std::uint64_t>(0, 200);
        c.k1 = c.n1 ? *rc::gen::inRange<std::uint64_t>(0, c.n1 + 1) : 0;
        c.n2 = *rc::gen::inRange<std::uint64_t>(0, 200);
        c.k2 = c.n2 ? *rc::gen::inRange<std::uint64_t>(0, c.n2 + 1) : 0;
        return c;
      }));
}

const BootstrapSettings kFew{1, 200};

}  // namespace shadow_model

// MODEL shadow-excess-rates
// checks: harness/src/commands/shadow/shadow_stats.cpp  (miss rate, control rate, excess and their intervals)
// contract: docs/harnesses/shadow.md#rates-intervals-and-gates
// planted: ci/mutants/model-shadow-excess-rates.patch  (the control rate divided by the decisions, not the controls)
TEST_CASE(
    "model: the shadow excess is the pooled miss rate minus the pooled control rate with Wilson and Newcombe intervals",
    "[model][shadow]") {
  using namespace shadow_model;
  rc::prop("pooled rates, intervals and the bootstrap's range", [] {
    const auto cs = *gen_clusters();
    double k1 = 0, n1 = 0, k2 = 0, n2 = 0;
    for (const auto& c : cs)
      k1 += double(c.k1), n1 += double(c.n1), k2 += double(c.k2), n2 += double(c.n2);
    const Excess e = excess_of(cs, kFew);
    RC_ASSERT(e.k1 == std::uint64_t(k1) && e.n1 == std::uint64_t(n1));
    RC_ASSERT(e.k2 == std::uint64_t(k2) && e.n2 == std::uint64_t(n2));
    const double miss = n1 ? k1 / n1 : 0, control = n2 ? k2 / n2 : 0;
    RC_ASSERT(std::abs(e.miss_rate - miss) < 1e-12);
    RC_ASSERT(std::abs(e.control_rate - control) < 1e-12);
    RC_ASSERT(std::abs(e.excess - (miss - control)) < 1e-12);
    const Interval wm = model_wilson(k1, n1), wc = model_wilson(k2, n2);
    RC_ASSERT(std::abs(e.miss_wilson.lo - wm.lo) < 1e-9 &&
              std::abs(e.miss_wilson.hi - wm.hi) < 1e-9);
    RC_ASSERT(std::abs(e.control_wilson.lo - wc.lo) < 1e-9 &&
              std::abs(e.control_wilson.hi - wc.hi) < 1e-9);
    if (n1 > 0 && n2 > 0) {
      // Newcombe (1998) method 10 from the two Wilson intervals.
      const double d = miss - control;
      const double lo = d - std::sqrt((miss - wm.lo) * (miss - wm.lo) +
                                      (wc.hi - control) * (wc.hi - control));
      const double hi = d + std::sqrt((wm.hi - miss) * (wm.hi - miss) +
                                      (control - wc.lo) * (control - wc.lo));
      RC_ASSERT(std::abs(e.newcombe.lo - lo) < 1e-9 && std::abs(e.newcombe.hi - hi) < 1e-9);
      // Every resample pools some clusters: its rates lie between the clusters' extreme rates.
      double r1lo = 1, r1hi = 0, r2lo = 1, r2hi = 0;
      for (const auto& c : cs) {
        if (c.n1)
          r1lo = std::min(r1lo, double(c.k1) / double(c.n1)),
          r1hi = std::max(r1hi, double(c.k1) / double(c.n1));
        if (c.n2)
          r2lo = std::min(r2lo, double(c.k2) / double(c.n2)),
          r2hi = std::max(r2hi, double(c.k2) / double(c.n2));
      }
      if (e.resamples_used * 2 >= kFew.resamples) {
        RC_ASSERT(e.bootstrap.lo <= e.bootstrap.hi);
        RC_ASSERT(e.bootstrap.lo >= r1lo - r2hi - 1e-12);
        RC_ASSERT(e.bootstrap.hi <= r1hi - r2lo + 1e-12);
      } else {
        RC_ASSERT(e.bootstrap.lo == -1 && e.bootstrap.hi == 1);
      }
    } else {
      RC_ASSERT(!e.defined());
    }
  });
  rc::prop("the null control: controls equal to the misses give excess 0 and [0, 0]", [] {
    auto cs = *gen_clusters();
    for (auto& c : cs) c.k2 = c.k1, c.n2 = c.n1;
    const Excess e = excess_of(cs, kFew);
    RC_PRE(e.n1 > 0);
    RC_ASSERT(e.excess == 0.0);
    RC_ASSERT(e.bootstrap.lo == 0.0 || (e.resamples_used * 2 < kFew.resamples));
    if (e.resamples_used * 2 >= kFew.resamples) RC_ASSERT(e.bootstrap.hi == 0.0);
    RC_ASSERT(std::abs(e.newcombe.lo + e.newcombe.hi) < 1e-12);  // symmetric about 0
  });
}

// MODEL shadow-gates
// checks: harness/src/commands/shadow/shadow_gates.cpp  (the band sums and the excess, control and sensitivity verdicts)
// contract: docs/harnesses/shadow.md#rates-intervals-and-gates
// planted: ci/mutants/model-shadow-gates.patch  (the excess gate fails at a bound equal to the threshold)
TEST_CASE(
    "model: the shadow gates fail only when the bound passes the threshold and sum a band over its depths",
    "[model][shadow]") {
  using namespace shadow_model;
  rc::prop("band clusters sum the mechanism's cells and its control population's", [] {
    const int positions = *rc::gen::inRange(1, 4);
    std::vector<Counts> per(static_cast<std::size_t>(positions));
    const auto m = static_cast<Mechanism>(*rc::gen::inRange(0, int(stk::search::kMechanismCount)));
    const int lo = *rc::gen::inRange(0, 10), hi = *rc::gen::inRange(lo, 12);
    std::vector<ClusterCounts> expect(static_cast<std::size_t>(positions));
    for (int p = 0; p < positions; ++p)
      for (int d = 0; d < 14; ++d) {
        auto& cell = per[std::size_t(p)].decisions[int(m)][std::size_t(d)];
        cell.audited = *rc::gen::inRange<std::uint64_t>(0, 50);
        cell.misses = *rc::gen::inRange<std::uint64_t>(0, cell.audited + 1);
        // Another mechanism's cells must not count.
        per[std::size_t(p)]
            .decisions[(int(m) + 1) % int(stk::search::kMechanismCount)][std::size_t(d)]
            .audited = 7;
        auto& ctl = per[std::size_t(p)].controls[int(control_of(m))][std::size_t(d)];
        ctl.audited = *rc::gen::inRange<std::uint64_t>(0, 50);
        ctl.hits = *rc::gen::inRange<std::uint64_t>(0, ctl.audited + 1);
        if (d >= lo && d <= hi) {
          auto& x = expect[std::size_t(p)];
          x.k1 += cell.misses, x.n1 += cell.audited, x.k2 += ctl.hits, x.n2 += ctl.audited;
        }
      }
    const auto got = band_clusters(per, m, lo, hi);
    RC_ASSERT(got.size() == expect.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      RC_ASSERT(got[i].k1 == expect[i].k1 && got[i].n1 == expect[i].n1);
      RC_ASSERT(got[i].k2 == expect[i].k2 && got[i].n2 == expect[i].n2);
    }
  });
  rc::prop("verdicts both ways at the bound, on identical clusters (a one-point bootstrap)", [] {
    ClusterCounts c;
    c.n1 = *rc::gen::inRange<std::uint64_t>(1, 300);
    c.k1 = *rc::gen::inRange<std::uint64_t>(0, c.n1 + 1);
    c.n2 = *rc::gen::inRange<std::uint64_t>(1, 300);
    c.k2 = *rc::gen::inRange<std::uint64_t>(0, c.n2 + 1);
    const std::vector<ClusterCounts> cs(std::size_t(*rc::gen::inRange(1, 6)), c);
    const Excess e = excess_of(cs, kFew);
    const double d = double(c.k1) / double(c.n1) - double(c.k2) / double(c.n2);
    RC_ASSERT(e.bootstrap.lo == d && e.bootstrap.hi == d);
    RC_ASSERT(!excess_gate_fails(e, d));                       // bound == threshold: kept
    RC_ASSERT(excess_gate_fails(e, std::nextafter(d, -2.0)));  // just below: broken
    const double wlo =
        model_wilson(double(c.k2) * double(cs.size()), double(c.n2) * double(cs.size())).lo;
    RC_ASSERT(std::abs(e.control_wilson.lo - wlo) < 1e-9);
    RC_ASSERT(!control_gate_fails(e, e.control_wilson.lo));
    RC_ASSERT(control_gate_fails(e, std::nextafter(e.control_wilson.lo, -1.0)) ==
              (e.control_wilson.lo > std::nextafter(e.control_wilson.lo, -1.0)));
    RC_ASSERT(sensitivity_gate_fails(e) == !(d > 0));
  });
  SECTION("decisions without a control fail the excess and control gates, no decisions pass them") {
    Excess no_control = excess_of({{3, 100, 0, 0}}, kFew);
    CHECK(excess_gate_fails(no_control, 1.0));
    CHECK(control_gate_fails(no_control, 1.0));
    CHECK(sensitivity_gate_fails(no_control));
    Excess nothing = excess_of({{0, 0, 0, 0}}, kFew);
    CHECK_FALSE(excess_gate_fails(nothing, 0.0));
    CHECK_FALSE(control_gate_fails(nothing, 0.0));
    CHECK(excess_text(nothing) == "no decisions");
  }
}
