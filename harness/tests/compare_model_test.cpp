// Independent models of compare's figures and gates (docs/harnesses/compare.md "Gates"): the
// solved-set diff per budget, the equal-depth tree figures, the max-regressions, bench-unchanged
// and min-speed-ratio verdicts. Written from the contract and compared with the code on generated
// solved sets; metamorphic: swapping base and candidate swaps gained and lost, a side compared
// with itself loses nothing (the null control), reordering the positions changes no count.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <string>
#include <vector>

#include "commands/compare/compare_report.h"
#include "commands/compare/compare_result.h"

using namespace stk;
using namespace stk::harness;
using namespace stk::harness::compare;

namespace compare_model {

struct Pos {
  bool base_solved = false, cand_solved = false;
  std::uint64_t base_nodes = 0, cand_nodes = 0;
  // An engine error on a side (the contract: it fails the budget whatever the gate). Rare, so
  // most generated budgets still reach the max-regressions rule.
  bool base_error = false, cand_error = false;
};

rc::Gen<std::vector<Pos>> gen_positions() {
  return rc::gen::resize(14, rc::gen::container<std::vector<Pos>>(rc::gen::exec([] {
                           Pos p;
                           p.base_solved = *rc::gen::arbitrary<bool>();
                           p.cand_solved = *rc::gen::arbitrary<bool>();
                           p.base_nodes = *rc::gen::inRange<std::uint64_t>(1, 5000);
                           p.cand_nodes = *rc::gen::weightedElement<bool>({{2, true}, {1, false}})
                                              ? p.base_nodes
                                              : *rc::gen::inRange<std::uint64_t>(1, 5000);
                           p.base_error = *rc::gen::weightedElement<bool>({{1, true}, {40, false}});
                           p.cand_error = *rc::gen::weightedElement<bool>({{1, true}, {40, false}});
                           return p;
                         })));
}

epd::RunResults side_run(const std::vector<Pos>& ps, bool candidate) {
  epd::RunResults r;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    epd::PositionResult p;
    p.index = int(i);
    p.name = "P" + std::to_string(i);
    p.fen = "fen " + std::to_string(i);
    p.solved = candidate ? ps[i].cand_solved : ps[i].base_solved;
    p.nodes = candidate ? ps[i].cand_nodes : ps[i].base_nodes;
    if (candidate ? ps[i].cand_error : ps[i].base_error) p.error = "engine crashed";
    r.positions.push_back(p);
  }
  return r;
}

std::vector<Pos> swapped(std::vector<Pos> ps) {
  for (Pos& p : ps)
    std::swap(p.base_solved, p.cand_solved), std::swap(p.base_nodes, p.cand_nodes),
        std::swap(p.base_error, p.cand_error);
  return ps;
}

// The contract's diff: lost = solved by the base only, gained = by the candidate only, in order.
struct ModelDiff {
  std::vector<std::string> gained, lost;
  std::uint64_t base_nodes = 0, cand_nodes = 0;
  int mismatches = 0;
  int errors = 0;  // positions with an engine error, counted on each side
};
ModelDiff model_diff(const std::vector<Pos>& ps) {
  ModelDiff d;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const std::string n = "P" + std::to_string(i);
    if (ps[i].base_solved && !ps[i].cand_solved) d.lost.push_back(n);
    if (ps[i].cand_solved && !ps[i].base_solved) d.gained.push_back(n);
    d.base_nodes += ps[i].base_nodes;
    d.cand_nodes += ps[i].cand_nodes;
    d.mismatches += ps[i].base_nodes != ps[i].cand_nodes;
    d.errors += int(ps[i].base_error) + int(ps[i].cand_error);
  }
  return d;
}

CompareResult result_of(const std::vector<Pos>& sn, const std::vector<Pos>& sd) {
  CompareResult r;
  r.config = "a-vs-b";
  r.base.given = "a", r.candidate.given = "b";
  r.base_bench.nodes = 1000, r.candidate_bench.nodes = 1000;
  r.suites.push_back(
      diff_suites({epd::Budget::Kind::Nodes, 100000}, side_run(sn, false), side_run(sn, true)));
  r.suites.push_back(
      diff_suites({epd::Budget::Kind::Depth, 9}, side_run(sd, false), side_run(sd, true)));
  return r;
}

const junit::TestCase& case_named(const junit::TestSuite& s, const std::string& name) {
  for (const auto& c : s.cases)
    if (c.name == name) return c;
  throw std::runtime_error("no testcase " + name);
}

}  // namespace compare_model

// MODEL compare-regression-gate
// checks: harness/src/commands/compare/compare_report.cpp  (lost positions per budget against --max-regressions)
// contract: docs/harnesses/compare.md#gates
// planted: ci/mutants/model-compare-regression-gate.patch  (the gate fails at K lost, not above K)
TEST_CASE(
    "model: compare counts lost and gained positions per budget and fails max-regressions only above K",
    "[model][compare]") {
  using namespace compare_model;
  rc::prop("diff, verdict and figures against the model, swap and self relations", [] {
    const auto sn = *gen_positions(), sd = *gen_positions();
    const int k = *rc::gen::inRange(0, 6);
    const CompareResult r = result_of(sn, sd);
    Gates g;
    g.max_regressions = k;
    const junit::TestSuite v = judge(r, g);
    const ModelDiff msn = model_diff(sn), msd = model_diff(sd);
    RC_ASSERT(r.suites[0].gained == msn.gained);
    RC_ASSERT(r.suites[0].lost == msn.lost);
    RC_ASSERT(r.suites[1].gained == msd.gained);
    RC_ASSERT(r.suites[1].lost == msd.lost);
    RC_ASSERT(r.suites[1].base_nodes == msd.base_nodes);
    RC_ASSERT(r.suites[1].candidate_nodes == msd.cand_nodes);
    RC_ASSERT(r.suites[1].node_mismatches == msd.mismatches);
    const bool fail_sn = msn.errors > 0 || int(msn.lost.size()) > k;
    const bool fail_sd = msd.errors > 0 || int(msd.lost.size()) > k;
    RC_ASSERT((case_named(v, "solved set sn 100000").outcome == junit::Outcome::Failed) == fail_sn);
    RC_ASSERT((case_named(v, "solved set sd 9").outcome == junit::Outcome::Failed) == fail_sd);
    const auto j = to_json(r, v);
    RC_ASSERT(j.at("passed").get<bool>() == (!fail_sn && !fail_sd));
    RC_ASSERT(j.at("suite").at("budgets")[0].at("lost").get<std::vector<std::string>>() ==
              msn.lost);
    RC_ASSERT(j.at("suite").at("budgets")[1].at("base_solved").get<int>() ==
              int(std::count_if(sd.begin(), sd.end(), [](const Pos& p) { return p.base_solved; })));

    // Swapping base and candidate swaps gained and lost.
    const CompareResult s = result_of(swapped(sn), swapped(sd));
    for (int b = 0; b < 2; ++b) {
      RC_ASSERT(s.suites[std::size_t(b)].gained == r.suites[std::size_t(b)].lost);
      RC_ASSERT(s.suites[std::size_t(b)].lost == r.suites[std::size_t(b)].gained);
      RC_ASSERT(s.suites[std::size_t(b)].node_mismatches ==
                r.suites[std::size_t(b)].node_mismatches);
    }
    // The null control: a side against itself loses and gains nothing and passes every gate.
    auto self = sd;
    for (Pos& p : self)
      p.cand_solved = p.base_solved, p.cand_nodes = p.base_nodes, p.base_error = false,
      p.cand_error = false;
    const CompareResult n = result_of(self, self);
    Gates strict;
    strict.max_regressions = 0;
    strict.bench_unchanged = true;
    for (const auto& d : n.suites)
      RC_ASSERT(d.lost.empty() && d.gained.empty() && d.node_mismatches == 0);
    RC_ASSERT(judge(n, strict).all_passed());
    // Reordering the positions changes no count.
    auto rev = sd;
    std::reverse(rev.begin(), rev.end());
    const CompareResult o = result_of(sn, rev);
    RC_ASSERT(o.suites[1].lost.size() == msd.lost.size());
    RC_ASSERT(o.suites[1].gained.size() == msd.gained.size());
    RC_ASSERT(o.suites[1].node_mismatches == msd.mismatches);
  });
  SECTION("both ways: K lost passes, K + 1 lost fails with the figure") {
    std::vector<Pos> two_lost(4), three_lost(4);
    for (int i = 0; i < 4; ++i) {
      two_lost[std::size_t(i)] = {true, i >= 2, 100, 100};
      three_lost[std::size_t(i)] = {true, i >= 3, 100, 100};
    }
    Gates g;
    g.max_regressions = 2;
    const auto keep = judge(result_of(two_lost, two_lost), g);
    CHECK(keep.all_passed());
    const auto broken = judge(result_of(three_lost, two_lost), g);
    const auto& c = case_named(broken, "solved set sn 100000");
    CHECK(c.outcome == junit::Outcome::Failed);
    CHECK(c.message == "gate max-regressions 2: 3 positions lost at sn 100000");
    CHECK(case_named(broken, "solved set sd 9").outcome == junit::Outcome::Passed);
  }
  SECTION("both ways: one engine error on either side fails its budget, none passes") {
    std::vector<Pos> clean(3, Pos{true, true, 100, 100}), one = clean;
    Gates g;
    CHECK(judge(result_of(clean, clean), g).all_passed());
    for (int side = 0; side < 2; ++side) {
      one = clean;
      (side ? one[1].cand_error : one[1].base_error) = true;
      const auto v = judge(result_of(one, clean), g);
      const auto& c = case_named(v, "solved set sn 100000");
      CHECK(c.outcome == junit::Outcome::Failed);
      CHECK(c.message == "1 engine failures at sn 100000 (see the epd reports)");
      CHECK(case_named(v, "solved set sd 9").outcome == junit::Outcome::Passed);
    }
  }
}

// MODEL compare-speed-and-bench-gates
// checks: harness/src/commands/compare/compare_result.cpp  (the per-run speed ratios, their median and range)
// contract: docs/harnesses/compare.md#gates
// planted: ci/mutants/model-compare-speed-and-bench-gates.patch  (the median of an even count is the upper middle)
TEST_CASE(
    "model: compare's speed ratio is the median of the per-run candidate over base ratios and gates at R",
    "[model][compare]") {
  using namespace compare_model;
  rc::prop("ratios, median and range against the model", [] {
    const int runs = *rc::gen::inRange(1, 8);
    SpeedRuns s;
    std::vector<double> ratios;
    for (int i = 0; i < runs; ++i) {
      s.base_nps.push_back(double(*rc::gen::inRange(1000, 3000)));
      s.candidate_nps.push_back(double(*rc::gen::inRange(1000, 3000)));
      ratios.push_back(s.candidate_nps.back() / s.base_nps.back());
    }
    RC_ASSERT(speed_ratios(s) == ratios);
    std::sort(ratios.begin(), ratios.end());
    const double median = runs % 2 ? ratios[std::size_t(runs / 2)]
                                   : (ratios[std::size_t(runs / 2 - 1)] +
                                      ratios[std::size_t(runs / 2)]) /
                                         2;
    const Spread q = spread_of(speed_ratios(s));
    RC_ASSERT(q.median == median);
    RC_ASSERT(q.min == ratios.front());
    RC_ASSERT(q.max == ratios.back());
    CompareResult r = result_of({}, {});
    r.speed = s;
    Gates at, above;
    at.min_speed_ratio = median;
    above.min_speed_ratio = std::nextafter(median, 10.0);
    RC_ASSERT(case_named(judge(r, at), "nodes per second").outcome == junit::Outcome::Passed);
    RC_ASSERT(case_named(judge(r, above), "nodes per second").outcome == junit::Outcome::Failed);
  });
  SECTION(
      "both ways: the bench gate fails on a signature one node apart and passes on equal ones") {
    CompareResult r = result_of({}, {});
    Gates g;
    g.bench_unchanged = true;
    CHECK(case_named(judge(r, g), "bench signature").outcome == junit::Outcome::Passed);
    r.candidate_bench.nodes = 1001;
    const junit::TestSuite v = judge(r, g);
    const auto& c = case_named(v, "bench signature");
    CHECK(c.outcome == junit::Outcome::Failed);
    CHECK(c.message == "gate bench-unchanged: bench signature changed: 1000 -> 1001 nodes");
    CHECK(to_json(r, judge(r, g)).at("bench_signature") == "changed");
  }
  SECTION("both ways: median 1.25 passes min-speed-ratio 1.25 and fails 1.26, by the figure") {
    CompareResult r = result_of({}, {});
    r.speed.base_nps = {100, 100, 100, 100};
    r.speed.candidate_nps = {150, 125, 125, 50};  // ratios 1.5 1.25 1.25 0.5: median 1.25
    Gates g;
    g.min_speed_ratio = 1.25;
    CHECK(case_named(judge(r, g), "nodes per second").outcome == junit::Outcome::Passed);
    g.min_speed_ratio = 1.26;
    const junit::TestSuite v = judge(r, g);
    const auto& c = case_named(v, "nodes per second");
    CHECK(c.outcome == junit::Outcome::Failed);
    CHECK(c.message ==
          "gate min-speed-ratio 1.26: median nodes/s ratio 1.2500 (runs 0.5000..1.5000)");
  }
}
