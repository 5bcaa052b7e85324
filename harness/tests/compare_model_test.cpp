// Independent models of compare's figures and gates (docs/harnesses/compare.md "Gates"): the
// solved-set diff per budget, the equal-depth tree figures, the max-regressions, bench-unchanged
// and min-speed-ratio verdicts. Written from the contract and compared with the code on generated
// solved sets; metamorphic: swapping base and candidate swaps gained and lost, a side compared
// with itself loses nothing (the null control), reordering the positions changes no count.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "commands/compare/compare_report.h"
#include "commands/compare/compare_result.h"
#include "rc_support.h"

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
  return stk::test::up_to<std::vector<Pos>>(
      14, rc::gen::exec([] {
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
      }));
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

namespace compare_model {

// One testcase as the contract (compare.md "Testcases") describes it.
struct Case {
  std::string classname, name;
  junit::Outcome outcome = junit::Outcome::Passed;
  std::string message, detail;  // message of a speed case: after "gate min-speed-ratio R: "
  std::vector<std::pair<std::string, std::string>> facts;
};

Case named(std::string classname, std::string name) {
  Case c;
  c.classname = std::move(classname), c.name = std::move(name);
  return c;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out.empty() ? "-" : out;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Generated {
  CompareResult r;
  Gates g;
  std::vector<std::vector<Pos>> budgets;  // the positions of each budget, in run order
};

Generated gen_report() {
  Generated x;
  CompareResult& r = x.r;
  r.config = "a-vs-b";
  for (BenchSignature* b : {&r.base_bench, &r.candidate_bench}) {
    if (*rc::gen::inRange(0, 4)) b->nodes = *rc::gen::inRange<std::uint64_t>(999, 1002);
    else b->note = *rc::gen::element<std::string>("UCI options given", "no Nodes searched line");
  }
  const int budgets = *rc::gen::inRange(1, 4);
  for (int i = 0; i < budgets; ++i) {
    const auto kind = *rc::gen::element(epd::Budget::Kind::Depth, epd::Budget::Kind::Nodes);
    const std::uint64_t value = *rc::gen::inRange<std::uint64_t>(1, 20) * 1000;
    x.budgets.push_back(*gen_positions());
    r.suites.push_back(diff_suites({kind, value}, side_run(x.budgets.back(), false),
                                   side_run(x.budgets.back(), true)));
  }
  const int runs = *rc::gen::inRange(0, 5);
  for (int i = 0; i < runs; ++i) {
    r.speed.base_nps.push_back(*rc::gen::inRange(50, 200) * 1000.0);
    r.speed.candidate_nps.push_back(*rc::gen::inRange(50, 200) * 1000.0);
  }
  if (*rc::gen::arbitrary<bool>()) {
    nlohmann::json cases = nlohmann::json::array();
    const int n = *rc::gen::inRange(0, 4);
    for (int i = 0; i < n; ++i) {
      nlohmann::json c = {{"name", "audit " + std::to_string(i)},
                          {"facts", nlohmann::json::object()}};
      for (const char* k : {"zeta", "alpha", "mid"})
        if (*rc::gen::arbitrary<bool>()) c["facts"][k] = std::to_string(*rc::gen::inRange(0, 99));
      if (*rc::gen::inRange(0, 3) == 0) c["skipped"] = "the base has no fhcollect";
      cases.push_back(c);
    }
    r.audits = {{"cases", cases}, {"rows", nlohmann::json::array()}};
  }
  x.g.bench_unchanged = *rc::gen::arbitrary<bool>();
  if (*rc::gen::arbitrary<bool>()) x.g.max_regressions = *rc::gen::inRange(0, 4);
  if (*rc::gen::arbitrary<bool>()) x.g.min_speed_ratio = *rc::gen::inRange(2, 7) / 4.0;
  return x;
}

std::vector<Case> expected_cases(const Generated& x) {
  const CompareResult& r = x.r;
  std::vector<Case> out;
  auto text = [](const BenchSignature& b) {
    return b.nodes ? std::to_string(*b.nodes) : std::string("n/a");
  };
  const bool both = r.base_bench.nodes && r.candidate_bench.nodes;
  const std::string change = !both ? "n/a"
                                   : (*r.base_bench.nodes == *r.candidate_bench.nodes ? "unchanged"
                                                                                      : "changed");
  Case bench = named("compare.bench", "bench signature");
  bench.facts = {{"base_nodes", text(r.base_bench)},
                 {"candidate_nodes", text(r.candidate_bench)},
                 {"signature", change}};
  if (!r.base_bench.note.empty()) bench.facts.emplace_back("base_note", r.base_bench.note);
  if (!r.candidate_bench.note.empty())
    bench.facts.emplace_back("candidate_note", r.candidate_bench.note);
  if (x.g.bench_unchanged && change == "changed") {
    bench.outcome = junit::Outcome::Failed;
    bench.message = "gate bench-unchanged: bench signature changed: " +
                    std::to_string(*r.base_bench.nodes) + " -> " +
                    std::to_string(*r.candidate_bench.nodes) + " nodes";
    bench.detail = bench.message +
                   "\nA speed-only change must leave the search's node counts bit-identical.";
  }
  out.push_back(bench);
  for (std::size_t b = 0; b < x.budgets.size(); ++b) {
    if (r.suites[b].budget.kind != epd::Budget::Kind::Depth) continue;
    const std::string label = "sd " + std::to_string(r.suites[b].budget.value);
    const ModelDiff d = model_diff(x.budgets[b]);
    Case t = named("compare.tree", "tree size " + label);
    t.facts = {{"base_nodes", std::to_string(d.base_nodes)},
               {"candidate_nodes", std::to_string(d.cand_nodes)},
               {"ratio", fixed(d.base_nodes ? double(d.cand_nodes) / double(d.base_nodes) : 0, 4)},
               {"positions_with_other_node_counts", std::to_string(d.mismatches)}};
    if (x.g.bench_unchanged && d.mismatches) {
      t.outcome = junit::Outcome::Failed;
      t.message = "gate bench-unchanged: " + std::to_string(d.mismatches) + " of " +
                  std::to_string(x.budgets[b].size()) +
                  " positions searched other node counts at " + label + " (" +
                  std::to_string(d.base_nodes) + " -> " + std::to_string(d.cand_nodes) + " nodes)";
      t.detail = t.message + "\n";
      for (std::size_t i = 0; i < x.budgets[b].size(); ++i)
        if (x.budgets[b][i].base_nodes != x.budgets[b][i].cand_nodes)
          t.detail += "P" + std::to_string(i) + ": " + std::to_string(x.budgets[b][i].base_nodes) +
                      " -> " + std::to_string(x.budgets[b][i].cand_nodes) + "\n";
    }
    out.push_back(t);
  }
  Case speed = named("compare.speed", "nodes per second");
  if (r.speed.base_nps.empty()) {
    speed.outcome = junit::Outcome::Skipped, speed.message = "--speed-runs 0";
  } else {
    std::vector<double> ratios;
    for (std::size_t i = 0; i < r.speed.base_nps.size(); ++i)
      ratios.push_back(r.speed.candidate_nps[i] / r.speed.base_nps[i]);
    const double m = median_of(ratios);
    const std::string range = fixed(*std::min_element(ratios.begin(), ratios.end()), 4) + ".." +
                              fixed(*std::max_element(ratios.begin(), ratios.end()), 4);
    speed.facts = {{"runs", std::to_string(ratios.size())},
                   {"base_nps_median", fixed(median_of(r.speed.base_nps), 0)},
                   {"candidate_nps_median", fixed(median_of(r.speed.candidate_nps), 0)},
                   {"ratio_median", fixed(m, 4)},
                   {"ratio_range", range}};
    if (x.g.min_speed_ratio && m < *x.g.min_speed_ratio) {
      speed.outcome = junit::Outcome::Failed;
      speed.message = "median nodes/s ratio " + fixed(m, 4) + " (runs " + range + ")";
    }
  }
  out.push_back(speed);
  for (std::size_t b = 0; b < x.budgets.size(); ++b) {
    const std::string label = r.suites[b].budget.label();
    const ModelDiff d = model_diff(x.budgets[b]);
    Case s = named("compare.suite", "solved set " + label);
    int base_solved = 0, cand_solved = 0;
    for (const Pos& p : x.budgets[b]) base_solved += p.base_solved, cand_solved += p.cand_solved;
    s.facts = {{"positions", std::to_string(x.budgets[b].size())},
               {"base_solved", std::to_string(base_solved)},
               {"candidate_solved", std::to_string(cand_solved)},
               {"gained", joined(d.gained)},
               {"lost", joined(d.lost)}};
    if (d.errors) {
      s.outcome = junit::Outcome::Failed;
      s.message = std::to_string(d.errors) + " engine failures at " + label +
                  " (see the epd reports)";
    } else if (x.g.max_regressions && int(d.lost.size()) > *x.g.max_regressions) {
      s.outcome = junit::Outcome::Failed;
      s.message = "gate max-regressions " + std::to_string(*x.g.max_regressions) + ": " +
                  std::to_string(d.lost.size()) + " positions lost at " + label;
      s.detail = s.message + ": " + joined(d.lost) + "\ngained: " + joined(d.gained);
    }
    out.push_back(s);
  }
  if (!r.audits.is_null())
    for (const auto& c : r.audits.at("cases")) {
      Case a = named("compare.audits", c.at("name").get<std::string>());
      std::map<std::string, std::string> keyed;  // key order
      for (const auto& [k, v] : c.at("facts").items()) keyed[k] = v.get<std::string>();
      a.facts.assign(keyed.begin(), keyed.end());
      if (c.contains("skipped"))
        a.outcome = junit::Outcome::Skipped, a.message = c.at("skipped").get<std::string>();
      out.push_back(a);
    }
  return out;
}

}  // namespace compare_model

// MODEL compare-report-cases
// checks: harness/src/commands/compare/compare_report.cpp  (every testcase of the report: order, names, facts, outcomes, messages, details)
// contract: docs/harnesses/compare.md#testcases
// planted: ci/mutants/model-compare-report-cases.patch  (a tree-size testcase for node budgets too)
TEST_CASE("model: compare's report holds each measurement as the documented testcase",
          "[model][compare]") {
  using namespace compare_model;
  rc::prop("generated results and gates", [] {
    const Generated x = gen_report();
    const junit::TestSuite v = judge(x.r, x.g);
    const std::vector<Case> want = expected_cases(x);
    RC_ASSERT(v.cases.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      const junit::TestCase& got = v.cases[i];
      RC_ASSERT(got.classname == want[i].classname);
      RC_ASSERT(got.name == want[i].name);
      RC_ASSERT(got.outcome == want[i].outcome);
      RC_ASSERT(got.facts == want[i].facts);
      RC_ASSERT(got.detail == want[i].detail);
      if (got.classname == "compare.speed" && got.outcome == junit::Outcome::Failed) {
        RC_ASSERT(got.message.starts_with("gate min-speed-ratio "));
        RC_ASSERT(got.message.substr(got.message.find(": ") + 2) == want[i].message);
      } else {
        RC_ASSERT(got.message == want[i].message);
      }
    }
  });
}
