// stk-harness nnue-bench: evaluations per second of the NNUE, full refresh vs incremental
// update + forward, H=128 and H=1024 synthetic nets, scalar and AVX2 kernels.
// Incremental timing replays a recorded random walk (make_move, push, evaluate / unmake, pop), the
// access pattern of a search; a replay without NNUE work gives the make/unmake baseline.
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "positions/random_games.h"
#include "nets/synthetic_net.h"
#include "commands.h"
#include "commands/nnue-bench/nnue_bench.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "nnue/accumulator.h"
#include "report/junit.h"
#include "report/run_report.h"

namespace stk::harness {

void judge_eval_sums(junit::TestCase& tc, std::int64_t refresh_sum, std::int64_t incremental_sum) {
  if (refresh_sum == incremental_sum) return;
  tc.outcome = junit::Outcome::Failed;
  tc.message = "refresh and incremental evaluations differ";
  tc.detail = fmt::format("sum of evals: refresh {}, incremental {}", refresh_sum, incremental_sum);
}

std::int64_t cycled_sum(const std::vector<std::int64_t>& evals, std::uint64_t evaluations) {
  if (evals.empty()) return 0;
  std::uint64_t one_cycle = 0, head = 0;  // sums wrap as the measured ones do
  for (std::size_t i = 0; i < evals.size(); ++i) {
    one_cycle += std::uint64_t(evals[i]);
    if (i < evaluations % evals.size()) head += std::uint64_t(evals[i]);
  }
  return std::int64_t(one_cycle * (evaluations / evals.size()) + head);
}

void judge_forward_sum(junit::TestCase& tc, std::int64_t refresh_cycle_sum,
                       std::int64_t forward_sum) {
  if (tc.outcome != junit::Outcome::Passed || refresh_cycle_sum == forward_sum) return;
  tc.outcome = junit::Outcome::Failed;
  tc.message = "forward-only and refresh evaluations differ";
  tc.detail = fmt::format("sum of evals over the forward-only cycle: refresh {}, forward-only {}",
                          refresh_cycle_sum, forward_sum);
}

namespace {

struct Step {
  WalkOp op;
  Move move;
};
struct Trace {
  std::string fen;
  std::vector<Step> steps;
};

std::vector<Trace> record_walks(std::uint64_t seed, int evaluations) {
  std::vector<Trace> traces;
  SplitMix rng(seed);
  WalkOptions opt;
  opt.plies = 400;
  opt.special_percent =
      0;  // uniform moves: the stressing-move bias would inflate king-move refreshes
  WalkCoverage cov;
  int evals = 0;
  for (std::size_t g = 0; evals < evaluations; ++g) {
    Trace t;
    t.fen = walk_start_fens()[g % walk_start_fens().size()];
    // Past the cut-off a make is dropped, and so is the unmake that undoes it (the walk is LIFO):
    // recording that unmake would take the replay above its root.
    std::vector<bool> recorded;
    random_walk(
        t.fen, rng, opt,
        [&](WalkOp op, const Position& pos) {
          const bool make = op == WalkOp::Make || op == WalkOp::MakeNull;
          if (make) recorded.push_back(evals < evaluations);
          const bool keep = recorded.back();
          if (!make) recorded.pop_back();
          if (!keep) return;
          t.steps.push_back({op, op == WalkOp::Make ? pos.last_move() : Move::none()});
          evals += make;
        },
        cov);
    traces.push_back(std::move(t));
  }
  return traces;
}

// Replays the traces; with NNUE, every make is followed by evaluate() (update + forward).
// Returns {seconds, evaluations, checksum of the evals (keeps the work observable)}.
template <bool kNnue, nnue::Simd S>
std::tuple<double, std::uint64_t, std::int64_t> replay(const std::vector<Trace>& traces,
                                                       const nnue::Network& net) {
  auto stack = std::make_unique<nnue::BasicAccumulatorStack<nnue::DefaultAccumulatorPolicy, S>>();
  std::uint64_t evals = 0;
  std::int64_t sum = 0;
  std::vector<Position> roots(traces.size());
  for (std::size_t i = 0; i < traces.size(); ++i) roots[i].set(traces[i].fen, true);
  auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < traces.size(); ++i) {
    Position& pos = roots[i];
    if constexpr (kNnue) {
      stack->reset(pos, net);
      // The root is evaluated as a search would, but it is not one of the measured positions that
      // refresh_all evaluates: its eval stays out of the sum the two must agree on.
      (void)stack->evaluate(pos);
    }
    // Operations past a cut-off walk are only unmakes; the root position is restored at the end.
    std::vector<bool> nulls;
    for (const Step& s : traces[i].steps) {
      switch (s.op) {
        case WalkOp::Make:
        case WalkOp::MakeNull:
          if (s.op == WalkOp::Make) pos.make_move(s.move);
          else pos.make_null();
          ++evals;
          if constexpr (kNnue) {
            stack->push(pos.state().dirty);
            sum += stack->evaluate(pos).eval;
          } else {
            sum += pos.key() & 1;
          }
          break;
        case WalkOp::Unmake:
        case WalkOp::UnmakeNull:
          if (s.op == WalkOp::Unmake) pos.unmake_move();
          else pos.unmake_null();
          if constexpr (kNnue) stack->pop();
          break;
      }
    }
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), evals, sum};
}

template <nnue::Simd S>
std::pair<double, std::int64_t> refresh_all(const std::vector<Position>& positions,
                                            const nnue::Network& net) {
  std::int64_t sum = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (const Position& p : positions) sum += nnue::evaluate_refresh<S>(net, p).eval;
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), sum};
}

// forward_only cycles over the accumulators of the first kForwardCycle positions.
constexpr std::size_t kForwardCycle = 1024;

// What forward_only must sum: refresh's evaluations of its cycle, taken untimed.
template <nnue::Simd S>
std::int64_t forward_only_expected(const std::vector<Position>& positions, const nnue::Network& net,
                                   std::size_t evaluations) {
  std::vector<std::int64_t> evals;
  for (std::size_t i = 0; i < std::min(positions.size(), kForwardCycle); ++i)
    evals.push_back(nnue::evaluate_refresh<S>(net, positions[i]).eval);
  return cycled_sum(evals, evaluations);
}

// forward() alone on precomputed accumulators (the part neither refresh nor update avoids).
template <nnue::Simd S>
std::pair<double, std::int64_t> forward_only(const std::vector<Position>& positions,
                                             const nnue::Network& net, std::size_t evaluations) {
  const std::size_t distinct = std::min(positions.size(), kForwardCycle);
  struct Acc {
    alignas(64) std::int16_t acc[2][nnue::kMaxHidden];
    alignas(32) std::int32_t psqt[2][nnue::kNumOutputBuckets];
    Color us;
    int bucket;
  };
  std::vector<Acc> accs(distinct);
  for (std::size_t i = 0; i < distinct; ++i) {
    for (Color c : {WHITE, BLACK}) {
      int f[nnue::kMaxActive];
      int n = nnue::append_active_features(positions[i], c, f);
      net.transformer().refresh<S>(f, n, accs[i].acc[c], accs[i].psqt[c]);
    }
    accs[i].us = positions[i].side_to_move();
    accs[i].bucket = nnue::output_bucket(positions[i]);
  }
  std::int64_t sum = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < evaluations; ++k) {
    const Acc& a = accs[k % distinct];
    sum += net.forward<S>(a.acc[a.us], a.acc[~a.us], a.psqt[a.us], a.psqt[~a.us], a.bucket).eval;
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), sum};
}

// Hook for the comparison with a real search: when the search exists, run the bench positions at
// a fixed depth in-process and return its nodes/s (and stockfish's through uci_client); until
// then it reports nothing and the benchmark says so.
std::optional<double> search_nodes_per_second() { return std::nullopt; }

// The positions the incremental replay evaluates (after each make), the first n of them.
std::vector<Position> evaluated_positions(const std::vector<Trace>& traces, int n) {
  std::vector<Position> positions;
  for (const Trace& t : traces) {  // the positions the incremental replay evaluates
    Position p;
    p.set(t.fen, true);
    for (const Step& s : t.steps) {
      if (s.op == WalkOp::Make) p.make_move(s.move);
      else if (s.op == WalkOp::MakeNull) p.make_null();
      else if (s.op == WalkOp::Unmake) p.unmake_move();
      else p.unmake_null();
      if ((s.op == WalkOp::Make || s.op == WalkOp::MakeNull) && int(positions.size()) < n) {
        Position copy;
        copy.set(p.fen());
        positions.push_back(std::move(copy));
      }
    }
  }
  return positions;
}

// One net and kernel set measured: seconds and eval sums of refresh, incremental and forward-only.
struct KernelTiming {
  double rs, is, fs;
  std::int64_t rsum, isum, fsum;
  std::uint64_t ievals;
  std::int64_t fsum_expected;  // refresh's evaluations of the forward-only cycle, summed as it runs
};

KernelTiming time_kernels(nnue::Simd s, const std::vector<Position>& positions,
                          const std::vector<Trace>& traces, const nnue::Network& net) {
  KernelTiming k;
  if (s == nnue::Simd::Scalar) {
    std::tie(k.rs, k.rsum) = refresh_all<nnue::Simd::Scalar>(positions, net);
    std::tie(k.is, k.ievals, k.isum) = replay<true, nnue::Simd::Scalar>(traces, net);
    std::tie(k.fs, k.fsum) = forward_only<nnue::Simd::Scalar>(positions, net, positions.size());
    k.fsum_expected = forward_only_expected<nnue::Simd::Scalar>(positions, net, positions.size());
  } else {
    std::tie(k.rs, k.rsum) = refresh_all<nnue::kBestSimd>(positions, net);
    std::tie(k.is, k.ievals, k.isum) = replay<true, nnue::kBestSimd>(traces, net);
    std::tie(k.fs, k.fsum) = forward_only<nnue::kBestSimd>(positions, net, positions.size());
    k.fsum_expected = forward_only_expected<nnue::kBestSimd>(positions, net, positions.size());
  }
  return k;
}

// One measurement reported: a table row, an entry of the figures' results, a testcase that fails
// when refresh and incremental disagree. `base_s` is the make/unmake replay's own time.
void report_kernels(report::RunReport& run, std::ostringstream& table, int hidden,
                    const char* kname, const KernelTiming& k, std::size_t positions,
                    double base_s) {
  const auto& [rs, is, fs, rsum, isum, fsum, ievals, fsum_expected] = k;
  // The replay's own make/unmake time (the baseline run) is taken out of the incremental rate.
  double refresh_rate = double(positions) / rs,
         inc_rate = double(ievals) / std::max(is - base_s, 1e-9), fwd_rate = double(positions) / fs;
  // The incremental replay includes make/unmake; the baseline rate is printed separately.
  table << fmt::format("{:<8} {:<7} {:>16.0f} {:>22.0f} {:>8.1f}x {:>18.0f}\n", hidden, kname,
                       refresh_rate, inc_rate, inc_rate / refresh_rate, fwd_rate);
  run.figures["results"].push_back({{"hidden", hidden},
                                    {"kernels", kname},
                                    {"refresh_evals_per_s", std::llround(refresh_rate)},
                                    {"incremental_evals_per_s", std::llround(inc_rate)},
                                    {"forward_only_per_s", std::llround(fwd_rate)},
                                    {"refresh_eval_sum", rsum},
                                    {"incremental_eval_sum", isum},
                                    {"forward_only_eval_sum", fsum}});
  junit::TestCase tc;
  tc.classname = "nnue-bench.h" + std::to_string(hidden);
  tc.name = kname;
  tc.time_s = rs + is;
  tc.facts = {{"refresh_evals_per_s", fmt::format("{:.0f}", refresh_rate)},
              {"incremental_evals_per_s", fmt::format("{:.0f}", inc_rate)},
              {"forward_only_per_s", fmt::format("{:.0f}", fwd_rate)},
              {"refresh_eval_sum", std::to_string(rsum)},
              {"forward_only_eval_sum", std::to_string(fsum)},
              {"incremental_eval_sum", std::to_string(isum)}};
  judge_eval_sums(tc, rsum, isum);
  judge_forward_sum(tc, fsum_expected, fsum);
  run.suites.front().cases.push_back(tc);
}

}  // namespace

int run_nnue_bench(int argc, char** argv) {
  CLI::App app{
      "NNUE evaluations per second: full refresh vs incremental update + forward, H=128 and H=1024\n"
      "synthetic nets, scalar and AVX2 kernels; fails when refresh and incremental evaluations differ.\n"
      "Report: reports/junit/nnue-bench-CONFIG.xml, reports/nnue-bench/CONFIG.{json,md}.",
      "stk-harness nnue-bench"};
  int n = 100000;
  std::uint64_t seed = 1;
  std::string config = "default", junit_file, out_dir = "reports";
  app.add_option("--positions", n, "evaluations per measurement (1..100000000)")
      ->capture_default_str();
  app.add_option("--seed", seed, "walk seed")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 62));
  app.add_option("--config", config, "report name")->capture_default_str();
  app.add_option("--junit", junit_file,
                 "JUnit file (default <out-dir>/junit/nnue-bench-<config>.xml)");
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  if (auto status = parse_cli_or_report(app, argc, argv,
                                        declare_given_junit(app, "nnue-bench", "default")))
    return *status;
  try {
    report::ReportPaths paths = report::report_paths(out_dir, "nnue-bench", config);
    if (!junit_file.empty()) paths.junit = junit_file;
    declare_report(paths, "nnue-bench." + config);
    // Checked once the report is owed: a run asked for nothing leaves an error report, not an old one.
    if (n < 1 || n > 100000000)
      throw UsageError(fmt::format("--positions must be in 1..100000000, got {}", n));
    const auto t_run = std::chrono::steady_clock::now();  // the suite's time: its whole run
    std::vector<Trace> traces = record_walks(seed, n);
    const std::vector<Position> positions = evaluated_positions(traces, n);

    report::RunReport run{"nnue-bench", config};
    junit::TestSuite& suite = run.suites.emplace_back();
    suite.name = "nnue-bench." + config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("seed", std::to_string(seed));
    suite.property("evaluations_per_measurement", std::to_string(n));
    suite.property("net_seed", std::to_string(kDefaultNetSeed));
    junit::add_build_properties(suite);

    std::ostringstream table;
    table << fmt::format("{:<8} {:<7} {:>16} {:>22} {:>9} {:>18}\n", "hidden", "kernels",
                         "refresh evals/s", "incremental evals/s*", "speedup", "forward-only /s");
    run.figures["harness"] = "nnue-bench";
    run.figures["seed"] = seed;
    run.figures["evaluations"] = n;
    run.figures["results"] = report::Json::array();
    auto [base_s, base_n, base_sum] = replay<false, nnue::Simd::Scalar>(traces,
                                                                        *synthetic_network(128));
    (void)base_sum;
    const double base_rate = double(base_n) / base_s;
    for (int hidden : {128, 1024}) {
      auto net = synthetic_network(hidden);
      for (nnue::Simd s : {nnue::Simd::Scalar, nnue::Simd::Avx2}) {
        if (s == nnue::Simd::Avx2 && !nnue::kHasAvx2) continue;
        const KernelTiming k = time_kernels(s, positions, traces, *net);
        report_kernels(run, table, hidden, s == nnue::Simd::Scalar ? "scalar" : "avx2", k,
                       positions.size(), base_s);
      }
    }
    auto search_nps = search_nodes_per_second();
    std::string summary = fmt::format(
        "nnue-bench: {} evaluations per measurement, seed {}; make/unmake replay alone: {:.0f} moves/s\n{}"
        "* incremental = push + evaluate (update + forward) after each move of the replayed walks, the\n"
        "  replay's make/unmake time subtracted; king moves refresh that perspective\n"
        "search nodes/s: {}\n",
        n, seed, base_rate, table.str(),
        search_nps ? fmt::format("{:.0f}", *search_nps)
                   : "n/a (hook search_nodes_per_second(): no search yet)");
    run.figures["make_unmake_moves_per_s"] = std::llround(base_rate);
    run.figures["search_nodes_per_s"] = search_nps ? report::Json(std::llround(*search_nps))
                                                   : report::Json(nullptr);
    suite.system_out = summary;
    suite.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_run).count();
    run.markdown = "```\n" + summary + "```\n";
    report::write_run_report(run, paths);
    std::cout << summary << "report: " << paths.junit << "\n";
    return report::exit_status(run);
  } catch (...) {
    return input_failure("stk-harness nnue-bench", app.help().c_str());
  }
}

}  // namespace stk::harness
