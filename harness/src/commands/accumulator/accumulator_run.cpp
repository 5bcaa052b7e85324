#include "commands/accumulator/accumulator_run.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "bench.h"
#include "commands/accumulator/accumulator_audit.h"
#include "commands/accumulator/planted_defects.h"
#include "nnue/network.h"

namespace stk::harness::accumulator {

namespace {

GameCheckResult run_games(const std::string& plant, const nnue::Network& net,
                          const GameCheckOptions& o) {
  if (plant == "king-refresh") return check_random_games<PlantNoKingRefresh>(net, o);
  if (plant == "index-bit") return check_random_games<PlantIndexBitFlip>(net, o);
  if (plant == "two-dirty") return check_random_games<PlantTwoDirtyOnly>(net, o);
  return check_random_games<nnue::DefaultAccumulatorPolicy>(net, o);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

junit::TestCase make_case(const std::string& suite, const std::string& name) {
  junit::TestCase tc;
  tc.classname = "accumulator." + suite;
  tc.name = name;
  return tc;
}

void fail_if(junit::TestCase& tc, bool failed, const std::string& message,
             const std::string& detail) {
  if (!failed) return;
  tc.outcome = junit::Outcome::Failed;
  tc.message = message;
  tc.detail = detail;
}

using Facts = std::vector<std::pair<std::string, std::string>>;

Facts compare_facts(const CompareResult& r) {
  return {{"positions_compared", std::to_string(r.compared)},
          {"mismatches", std::to_string(r.mismatches)},
          {"skipped", std::to_string(r.skipped)}};
}

// (a) incremental == recompute over random walks, on the net and (fewer walks) the extreme net.
void check_walks(const AccumulatorSettings& s, const CheckedNets& nets, junit::TestSuite& suite,
                 RunTotals& totals) {
  const GameCheckOptions& opt = s.walks;
  auto t0 = std::chrono::steady_clock::now();
  GameCheckResult games = run_games(s.plant, *nets.net, opt);
  GameCheckOptions extreme_opt = opt;
  extreme_opt.games = std::max(1, opt.games / 4);
  GameCheckResult games_x = run_games(s.plant, *nets.extreme, extreme_opt);
  double t_games = seconds_since(t0);
  totals.walk_steps = games.steps_checked;
  totals.extreme_walk_steps = games_x.steps_checked;
  {
    auto tc = make_case("games", "incremental equals recompute after every step");
    tc.time_s = t_games;
    tc.facts = {{"steps_checked", std::to_string(games.steps_checked)},
                {"mismatches", std::to_string(games.mismatches)},
                {"eval_mismatches", std::to_string(games.eval_mismatches)},
                {"perspective_refreshes", std::to_string(games.refreshes)},
                {"perspective_updates", std::to_string(games.updates)},
                {"extreme_net_steps_checked", std::to_string(games_x.steps_checked)},
                {"extreme_net_mismatches",
                 std::to_string(games_x.mismatches + games_x.eval_mismatches)}};
    std::uint64_t bad = games.mismatches + games.eval_mismatches + games_x.mismatches +
                        games_x.eval_mismatches;
    fail_if(tc, bad > 0, fmt::format("{} mismatching steps", bad),
            games.first_failure.empty() ? games_x.first_failure : games.first_failure);
    suite.cases.push_back(tc);
  }
  {
    auto tc = make_case("games", "lazy catch-up over several plies equals recompute");
    tc.facts = {{"lazy_checks", std::to_string(games.lazy_checks + games_x.lazy_checks)},
                {"mismatches", std::to_string(games.lazy_mismatches + games_x.lazy_mismatches)}};
    std::uint64_t bad = games.lazy_mismatches + games_x.lazy_mismatches;
    fail_if(tc, bad > 0, fmt::format("{} mismatching lazy checks", bad),
            games.first_failure.empty() ? games_x.first_failure : games.first_failure);
    suite.cases.push_back(tc);
  }
  {
    auto tc = make_case("games", "coverage of the moves that stress the accumulator");
    tc.facts = games.coverage.facts();
    std::string missing = games.coverage.missing();
    fail_if(tc, !missing.empty(), "never exercised: " + missing,
            "the walks never played: " + missing + " (raise --games or --plies)");
    suite.cases.push_back(tc);
  }
}

// (b) a real search (the bench positions) whose compile-time audit policy compares the live
// accumulators with a recompute at every node.
void check_search(const AccumulatorSettings& s, const CheckedNets& nets, junit::TestSuite& suite) {
  const int search_depth = s.search_depth;
  auto tc = make_case("search",
                      fmt::format("per-node audit during a real search (depth {})", search_depth));
  auto t0 = std::chrono::steady_clock::now();
  AccumulatorAuditResult audit = audit_accumulators_in_search(nets.net, bench_positions(),
                                                              search_depth, 0);
  tc.time_s = seconds_since(t0);
  tc.facts = {{"positions", std::to_string(bench_positions().size())},
              {"depth", std::to_string(search_depth)},
              {"nodes_checked", std::to_string(audit.nodes_checked)},
              {"mismatches", std::to_string(audit.mismatches)}};
  fail_if(tc, audit.mismatches > 0 || audit.nodes_checked == 0,
          fmt::format("{} of {} audited nodes differ from a recompute", audit.mismatches,
                      audit.nodes_checked),
          audit.first_mismatch);
  suite.cases.push_back(tc);
}

// (c) scalar vs AVX2 on sampled positions, with the typical and the extreme net.
void check_simd(const AccumulatorSettings& s, const CheckedNets& nets,
                const std::vector<std::string>& fens, junit::TestSuite& suite) {
  for (const auto* n : {nets.net.get(), nets.extreme.get()}) {
    auto tc = make_case("simd", fmt::format("scalar equals avx2 ({})",
                                            n == nets.net.get() ? "net" : "extreme net"));
    if (!nnue::kHasAvx2) {
      tc.outcome = junit::Outcome::Skipped;
      tc.message = "this build has no AVX2 kernels (built without __AVX2__)";
      suite.cases.push_back(tc);
      continue;
    }
    auto t0 = std::chrono::steady_clock::now();
    Evaluator scalar = [n](const Position& p) {
      return nnue::evaluate_refresh<nnue::Simd::Scalar>(*n, p);
    };
    Evaluator simd = [n](const Position& p) {
      return nnue::evaluate_refresh<nnue::kBestSimd>(*n, p);
    };
    if (s.plant == "no-low-clamp")
      simd = [n](const Position& p) { return eval_planted_no_low_clamp(*n, p); };
    CompareResult r = compare_evaluators(fens, scalar, simd);
    tc.time_s = seconds_since(t0);
    tc.facts = compare_facts(r);
    fail_if(tc, r.mismatches > 0,
            fmt::format("{} of {} positions differ", r.mismatches, r.compared), r.first_failure);
    suite.cases.push_back(tc);
  }
}

// (d) mirror symmetries.
void check_mirrors(const AccumulatorSettings& s, const CheckedNets& nets,
                   const std::vector<std::string>& fens, junit::TestSuite& suite) {
  for (bool horizontal : {false, true}) {
    auto tc = make_case("mirror", horizontal
                                      ? "horizontal mirror (files flipped, no castling rights)"
                                      : "colour mirror (colours swapped, ranks flipped)");
    auto t0 = std::chrono::steady_clock::now();
    const nnue::Network* n = nets.net.get();
    Evaluator eval = [n](const Position& p) {
      return nnue::evaluate_refresh<nnue::kBestSimd>(*n, p);
    };
    if (s.plant == "white-relative")
      eval = [n](const Position& p) { return eval_planted_white_relative(*n, p); };
    if (s.plant == "no-file-mirror")
      eval = [n](const Position& p) { return eval_planted_no_file_mirror(*n, p); };
    CompareResult r = horizontal ? check_horizontal_mirror(fens, eval)
                                 : check_colour_mirror(fens, eval);
    tc.time_s = seconds_since(t0);
    tc.facts = compare_facts(r);
    fail_if(tc, r.mismatches > 0,
            fmt::format("{} of {} positions differ from their mirror", r.mismatches, r.compared),
            r.first_failure);
    if (r.compared == 0 && s.positions > 0)
      fail_if(tc, true, "no position was compared", "every sampled position was skipped");
    suite.cases.push_back(tc);
  }
}

}  // namespace

RunTotals run_checks(const AccumulatorSettings& s, const CheckedNets& nets,
                     junit::TestSuite& suite) {
  RunTotals totals;
  auto t_suite = std::chrono::steady_clock::now();
  check_walks(s, nets, suite, totals);
  check_search(s, nets, suite);
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> fens = sample_positions(s.walks.seed, s.positions);
  totals.sample_time = seconds_since(t0);
  totals.sampled_positions = fens.size();
  check_simd(s, nets, fens, suite);
  check_mirrors(s, nets, fens, suite);
  suite.time_s = seconds_since(t_suite);
  return totals;
}

}  // namespace stk::harness::accumulator
