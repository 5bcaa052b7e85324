// Independent models of the EPD harness's scoring (docs/harnesses/epd.md "Scoring"): the solved
// verdict of bm/am, the first solved depth, the comparison with a baseline and the run's verdict
// and totals. Written from the contract, compared with the code on generated suites and answers;
// metamorphic: reordering a suite reorders its results only, two halves of a suite add up to the
// whole, a run compared with itself has no regression, swapping run and baseline swaps
// regressions and new solves.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli_support.h"
#include "epd/epd_report.h"
#include "epd/epd_results.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "positions/epd_suite.h"

using namespace stk;
using namespace stk::harness::epd;

namespace epd_model {

// A middlegame position with many legal moves (30+): the bm/am sets are drawn from them.
const char* kFen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -";

std::vector<Move> legal_moves() {
  Position pos;
  pos.set(std::string(kFen) + " 0 1");
  std::vector<Move> out;
  for (const ExtMove& e : MoveList(pos)) out.push_back(e.move);
  return out;
}

std::string san(Move m) {
  Position pos;
  pos.set(std::string(kFen) + " 0 1");
  return to_san(pos, m);
}

// The contract: solved iff the move is one of bm (when bm is given) and none of am (when am is).
bool model_solved(const std::set<int>& bm, const std::set<int>& am, int best) {
  return (bm.empty() || bm.count(best)) && (am.empty() || !am.count(best));
}

EpdPosition make_position(const std::vector<Move>& moves, const std::set<int>& bm,
                          const std::set<int>& am) {
  std::string line = kFen;
  if (!bm.empty()) {
    line += " bm";
    for (int i : bm) line += " " + san(moves[std::size_t(i)]);
    line += ";";
  }
  if (!am.empty()) {
    line += " am";
    for (int i : am) line += " " + san(moves[std::size_t(i)]);
    line += ";";
  }
  line += " id \"model.1\";";
  return parse_epd_line(line, "model.epd", 1);
}

// A judged position with only the fields the run-level contract reads.
PositionResult result(const std::string& name, bool solved, std::uint64_t nodes, bool error) {
  PositionResult p;
  p.name = name;
  p.fen = "fen of " + name;
  p.bm = {"e4"};
  p.solved = solved && !error;
  p.nodes = nodes;
  p.depth = 5;
  if (error) p.error = "the engine failed";
  return p;
}

RunResults run_of(const std::vector<PositionResult>& ps, int min_solved = -1) {
  RunResults r;
  r.meta.config = "model";
  r.meta.suite = "model";
  r.meta.epd_file = "model.epd";
  r.meta.engine = "model engine";
  r.meta.budget = {Budget::Kind::Depth, 5};
  r.meta.min_solved = min_solved;
  r.meta.selected = int(ps.size());
  r.positions = ps;
  for (std::size_t i = 0; i < r.positions.size(); ++i) {
    r.positions[i].index = int(i);
    r.positions[i].line = int(i) + 1;
  }
  return r;
}

// Positions with unique names p0, p1, ... and drawn solved/error/nodes.
rc::Gen<std::vector<PositionResult>> gen_positions(int max_n) {
  return rc::gen::exec([max_n] {
    const int n = *rc::gen::inRange(0, max_n + 1);
    std::vector<PositionResult> ps;
    for (int i = 0; i < n; ++i)
      ps.push_back(result("p" + std::to_string(i), *rc::gen::arbitrary<bool>(),
                          *rc::gen::inRange<std::uint64_t>(0, 1000000),
                          *rc::gen::weightedElement<bool>({{5, false}, {1, true}})));
    return ps;
  });
}

// The contract's comparison: in the run's order, regressions = solved in the baseline and not now,
// new solves = the reverse, not_in_baseline = names the baseline lacks.
Comparison model_compare(const std::vector<PositionResult>& run,
                         const std::vector<PositionResult>& base) {
  std::map<std::string, bool> solved;
  for (const auto& b : base) solved[b.name] = b.solved;
  Comparison c;
  for (const auto& p : run) {
    auto it = solved.find(p.name);
    if (it == solved.end()) c.not_in_baseline.push_back(p.name);
    else if (it->second && !p.solved) c.regressions.push_back(p.name);
    else if (!it->second && p.solved) c.new_solves.push_back(p.name);
  }
  return c;
}

struct Totals {
  int positions = 0, solved = 0, errors = 0;
  std::uint64_t nodes = 0;
};
Totals model_totals(const std::vector<PositionResult>& ps) {
  Totals t;
  for (const auto& p : ps)
    t.positions++, t.solved += p.solved, t.errors += !p.error.empty(), t.nodes += p.nodes;
  return t;
}

}  // namespace epd_model

// MODEL epd-solved-verdict
// checks: harness/src/epd/epd_results.cpp  (a position's solved verdict under bm and am, and its first solved depth)
// contract: docs/harnesses/epd.md#scoring
// planted: ci/mutants/model-epd-solved-verdict.patch  (first solved depth one iteration too early)
TEST_CASE(
    "model: a position is solved by a bm move that is no am move from the first depth of the solving streak",
    "[model][epd]") {
  using namespace epd_model;
  const std::vector<Move> moves = legal_moves();
  REQUIRE(moves.size() >= 20);
  const int n = int(moves.size());
  rc::prop("bm, am or both, any best move and any iterations", [&] {
    const auto kind = *rc::gen::inRange(0, 3);  // 0 bm only, 1 am only, 2 both
    std::set<int> bm, am;
    if (kind != 1)
      bm = *rc::gen::nonEmpty(rc::gen::container<std::set<int>>(rc::gen::inRange(0, n)));
    if (kind != 0)
      am = *rc::gen::nonEmpty(rc::gen::container<std::set<int>>(rc::gen::inRange(0, n)));
    if (kind == 2)
      for (int b : bm) am.erase(b);
    RC_PRE(!bm.empty() || !am.empty());
    // The best move is drawn from bm, am or anywhere, so each verdict is reached.
    const int best = *rc::gen::oneOf(bm.empty() ? rc::gen::inRange(0, n) : rc::gen::elementOf(bm),
                                     am.empty() ? rc::gen::inRange(0, n) : rc::gen::elementOf(am),
                                     rc::gen::inRange(0, n));
    const EpdPosition p = make_position(moves, bm, am);

    SearchOutcome o;
    o.best = moves[std::size_t(best)];
    o.best_text = to_uci(o.best);
    o.pv = {o.best};
    // Iterations at depths 1..k, each choosing a move (or none: an empty pv).
    const int k = *rc::gen::inRange(0, 8);
    std::vector<int> chosen;  // -1: empty pv
    for (int d = 1; d <= k; ++d) {
      const int c = *rc::gen::oneOf(rc::gen::just(best), rc::gen::just(-1), rc::gen::inRange(0, n));
      chosen.push_back(c);
      IterationInfo it;
      it.depth = d;
      if (c >= 0) it.pv = {moves[std::size_t(c)]};
      o.iterations.push_back(it);
    }
    o.depth = k;
    const PositionResult r = judge(p, o);
    const bool solved = model_solved(bm, am, best);
    RC_ASSERT(r.solved == solved);
    RC_ASSERT(r.error.empty());
    // The first depth from which every iteration through the last chose a solving move.
    int first = 0;
    if (solved)
      for (int d = k; d >= 1 && chosen[std::size_t(d - 1)] >= 0 &&
                      model_solved(bm, am, chosen[std::size_t(d - 1)]);
           --d)
        first = d;
    RC_ASSERT(r.first_solved_depth == first);
  });
  SECTION("both ways: the same move solves under bm and fails once it is also named by am") {
    const EpdPosition keep = make_position(moves, {3}, {4});
    const EpdPosition broken = make_position(moves, {3, 4}, {3});
    SearchOutcome o;
    o.best = moves[3];
    o.best_text = to_uci(o.best);
    CHECK(judge(keep, o).solved);
    CHECK_FALSE(judge(broken, o).solved);
  }
}

// MODEL epd-baseline-comparison
// checks: harness/src/epd/epd_results.cpp  (regressions, new solves and positions missing from the baseline)
// contract: docs/harnesses/epd.md#scoring
// planted: ci/mutants/model-epd-baseline-comparison.patch  (a position unsolved in both counted as a new solve)
TEST_CASE(
    "model: the baseline comparison lists regressions and new solves by name in the run's order",
    "[model][epd]") {
  using namespace epd_model;
  rc::prop("against the model, with reorder, self and swap relations", [] {
    const auto run_ps = *gen_positions(12);
    auto base_ps = run_ps;
    for (auto& b : base_ps) b.solved = *rc::gen::arbitrary<bool>();
    // The baseline may lack some positions.
    const auto drop = *rc::gen::container<std::vector<bool>>(base_ps.size(),
                                                             rc::gen::weightedElement<bool>(
                                                                 {{4, false}, {1, true}}));
    std::vector<PositionResult> kept;
    for (std::size_t i = 0; i < base_ps.size(); ++i)
      if (!drop[i]) kept.push_back(base_ps[i]);
    const RunResults run = run_of(run_ps), base = run_of(kept);
    const Comparison c = stk::harness::epd::compare(run, base, "base.json");
    const Comparison m = model_compare(run_ps, kept);
    RC_ASSERT(c.regressions == m.regressions);
    RC_ASSERT(c.new_solves == m.new_solves);
    RC_ASSERT(c.not_in_baseline == m.not_in_baseline);

    // Reordering the run reorders the lists only.
    auto shuffled = run_ps;
    std::reverse(shuffled.begin(), shuffled.end());
    const Comparison r = stk::harness::epd::compare(run_of(shuffled), base, "base.json");
    auto sorted = [](std::vector<std::string> v) { return std::sort(v.begin(), v.end()), v; };
    RC_ASSERT(sorted(r.regressions) == sorted(c.regressions));
    RC_ASSERT(sorted(r.new_solves) == sorted(c.new_solves));
    RC_ASSERT(sorted(r.not_in_baseline) == sorted(c.not_in_baseline));

    // The null control: a run against itself.
    const Comparison self = stk::harness::epd::compare(run, run, "self.json");
    RC_ASSERT(self.regressions.empty());
    RC_ASSERT(self.new_solves.empty());
    RC_ASSERT(self.not_in_baseline.empty());

    // Swapping run and baseline (same positions) swaps regressions and new solves.
    const RunResults full_base = run_of(base_ps);
    const Comparison ab = stk::harness::epd::compare(run, full_base, "b"),
                     ba = stk::harness::epd::compare(full_base, run, "a");
    RC_ASSERT(ab.regressions == ba.new_solves);
    RC_ASSERT(ab.new_solves == ba.regressions);
  });
}

// MODEL epd-results-round-trip
// checks: harness/src/epd/epd_results.cpp  (a results file reads back as it was written)
// contract: docs/harnesses/epd.md#reading-a-results-file-back
// planted: ci/mutants/epd-results-budget-kind-not-read.patch  (an sn baseline read back as sd)
TEST_CASE("model: a results file read back and written again is the file written", "[model][epd]") {
  using namespace epd_model;
  const auto dir = test::scratch_dir("epd-model-round-trip");
  rc::prop("generated runs, every run field drawn", [&] {
    RunResults run = run_of(*gen_positions(6), *rc::gen::element(-1, 0, 3));
    RunMeta& m = run.meta;
    m.config = *rc::gen::element<std::string>("c", "ecm-quick");
    m.engine = *rc::gen::element<std::string>("stk (in-process)", "/usr/games/stockfish");
    if (*rc::gen::arbitrary<bool>()) m.engine_settings = {{"Hash", "16"}, {"Threads", "1"}};
    m.budget = *rc::gen::arbitrary<bool>()
                   ? Budget{Budget::Kind::Depth, *rc::gen::inRange<std::uint64_t>(1, 121)}
                   : Budget{Budget::Kind::Nodes, *rc::gen::inRange<std::uint64_t>(1, 1000000)};
    m.stride = *rc::gen::inRange(1, 100);
    m.shard = *rc::gen::element<std::string>("1/1", "2/3");
    m.git_revision = *rc::gen::element<std::string>("abc123", "abc123-dirty", "");
    if (*rc::gen::arbitrary<bool>())
      m.bench_signature = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
    m.baseline_file = *rc::gen::element<std::string>("", "golden/epd/ecm-quick.json");
    const auto path = dir / "run.json";
    const report::Json written = to_json(run, std::nullopt, false);
    test::write_file(path, written.dump(2));
    const RunResults read = read_results(path.string());
    RC_ASSERT(read.meta.budget.kind == m.budget.kind);
    RC_ASSERT(to_json(read, std::nullopt, false) == written);
  });
}

// MODEL epd-run-verdict
// checks: harness/src/epd/epd_report.cpp  (the run's exit status, min-solved gate and summary totals)
// contract: docs/harnesses/epd.md#scoring
// planted: ci/mutants/model-epd-run-verdict.patch  (min-solved met only above the bar, not at it)
TEST_CASE(
    "model: an epd run fails on a regression or an engine error or fewer solved than min-solved and totals its positions",
    "[model][epd]") {
  using namespace epd_model;
  const auto dir = test::scratch_dir("epd-model-verdict");
  const std::string out = (dir / "reports").string();
  auto summary = [&](const std::string& stem) {
    return report::read_json_file(out + "/epd/" + stem + ".json");
  };
  rc::prop("exit status and summary against the model, halves adding up to the whole", [&] {
    const auto ps = *gen_positions(10);
    const Totals t = model_totals(ps);
    // min-solved absent, or at the solved count or one either side of it.
    const int min_solved = *rc::gen::element(-1, std::max(0, t.solved - 1), t.solved, t.solved + 1);
    RunResults run = run_of(ps, min_solved);
    std::vector<PositionResult> base_ps = ps;
    for (auto& b : base_ps)
      b.solved = b.solved || *rc::gen::weightedElement<bool>({{3, false}, {1, true}});
    const bool with_base = *rc::gen::arbitrary<bool>();
    const RunResults base = run_of(base_ps);
    if (with_base) run.meta.baseline_file = "base.json";
    const Comparison m = model_compare(ps, base_ps);
    const bool fails = t.errors > 0 || (with_base && !m.regressions.empty()) ||
                       (min_solved >= 0 && t.solved < min_solved);
    const auto s = to_json(run, std::nullopt, false).at("summary");
    RC_ASSERT(s.at("positions").get<int>() == t.positions);
    RC_ASSERT(s.at("solved").get<int>() == t.solved);
    RC_ASSERT(s.at("errors").get<int>() == t.errors);
    RC_ASSERT(s.at("total_nodes").get<std::uint64_t>() == t.nodes);

    // Two halves (any cut) add up to the whole; a reordered run has the same totals.
    const std::size_t cut = *rc::gen::inRange<std::size_t>(0, ps.size() + 1);
    const auto sa = to_json(run_of({ps.begin(), ps.begin() + long(cut)}), std::nullopt, false)
                        .at("summary"),
               sb = to_json(run_of({ps.begin() + long(cut), ps.end()}), std::nullopt, false)
                        .at("summary");
    for (const char* key : {"positions", "solved", "errors", "total_nodes"})
      RC_ASSERT(sa.at(key).get<std::uint64_t>() + sb.at(key).get<std::uint64_t>() ==
                s.at(key).get<std::uint64_t>());
    auto rev = ps;
    std::reverse(rev.begin(), rev.end());
    RunResults reordered = run_of(rev, min_solved);
    reordered.meta.baseline_file = run.meta.baseline_file;
    const auto sr = to_json(reordered, std::nullopt, false).at("summary");
    for (const char* key : {"positions", "solved", "errors", "total_nodes"})
      RC_ASSERT(sr.at(key) == s.at(key));

    // The verdict as published (files written: one case in five, to keep the test short).
    if (*rc::gen::weightedElement<bool>({{4, false}, {1, true}})) {
      const Published pub = publish(run, with_base ? &base : nullptr, {}, out, "whole");
      RC_ASSERT(pub.exit_code == (fails ? 1 : 0));
      const auto j = summary("whole");
      RC_ASSERT(j.at("report").at("passed").get<bool>() == !fails);
      RC_ASSERT(j.at("summary") == s);
      // The printed summary and the page count the engine errors as the JSON does.
      RC_ASSERT(pub.summary.find(", " + std::to_string(t.errors) + " engine errors") !=
                std::string::npos);
      RC_ASSERT(test::read_file(out + "/epd/whole.md")
                    .find("engine errors: " + std::to_string(t.errors) + "\n") !=
                std::string::npos);
      const Published pr = publish(reordered, with_base ? &base : nullptr, {}, out, "reordered");
      RC_ASSERT(pr.exit_code == pub.exit_code);
    }
  });
  SECTION("both ways: min-solved at the solved count passes, one above fails, by the figure") {
    std::vector<PositionResult> ps = {result("a", true, 10, false), result("b", true, 20, false),
                                      result("c", false, 30, false)};
    const Published met = publish(run_of(ps, 2), nullptr, {}, out, "min-met");
    CHECK(met.exit_code == 0);
    CHECK_THAT(met.summary, Catch::Matchers::Contains("min-solved 2: met"));
    CHECK(summary("min-met").at("summary").at("solved").get<int>() == 2);
    const Published missed = publish(run_of(ps, 3), nullptr, {}, out, "min-missed");
    CHECK(missed.exit_code == 1);
    CHECK_THAT(missed.summary, Catch::Matchers::Contains("min-solved 3: MISSED"));
    CHECK(summary("min-missed").at("report").at("failures").get<int>() == 1);
  }
  SECTION("both ways: one regression fails, the same solved set passes") {
    std::vector<PositionResult> now = {result("a", true, 1, false), result("b", false, 1, false)};
    std::vector<PositionResult> same = now, more = now;
    more[1].solved = true;
    RunResults run = run_of(now);
    run.meta.baseline_file = "base.json";
    const RunResults base_same = run_of(same), base_more = run_of(more);
    const Published keep = publish(run, &base_same, {}, out, "reg-keep");
    CHECK(keep.exit_code == 0);
    CHECK_THAT(keep.summary, Catch::Matchers::Contains("0 regressions"));
    const Published broken = publish(run, &base_more, {}, out, "reg-broken");
    CHECK(broken.exit_code == 1);
    CHECK_THAT(broken.summary, Catch::Matchers::Contains("1 regressions (b)"));
    CHECK(summary("reg-broken").at("comparison").at("regressions") ==
          nlohmann::ordered_json::array({"b"}));
  }
}
