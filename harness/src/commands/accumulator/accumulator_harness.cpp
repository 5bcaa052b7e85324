// stk-harness accumulator: the incremental NNUE accumulator against a full recompute over seeded
// random walks (a), the scalar and AVX2 kernels against each other (c), and the colour/horizontal
// mirror symmetries of the evaluation (d). Part (b) searches the bench positions with the search's
// accumulator audit policy (harness/src/search_audit), comparing with a recompute at every node.
#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "commands/accumulator/accumulator_checks.h"
#include "commands/accumulator/planted_defects.h"
#include "nets/synthetic_net.h"
#include "bench.h"
#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "nnue/network.h"
#include "report/junit.h"
#include "report/run_report.h"
#include "commands/accumulator/accumulator_audit.h"

namespace stk::harness {

namespace {

const std::vector<std::string> kPlants = {"none",           "king-refresh",   "index-bit", "two-dirty",
                                          "no-low-clamp",   "white-relative", "no-file-mirror"};

GameCheckResult run_games(const std::string& plant, const nnue::Network& net, const GameCheckOptions& o) {
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

void fail_if(junit::TestCase& tc, bool failed, const std::string& message, const std::string& detail) {
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

// A fact as JSON: a count as a number (the review page reads the node counts), anything else as text.
report::Json fact_json(const std::string& v) {
  if (!v.empty() && v.size() < 20 && v.find_first_not_of("0123456789") == std::string::npos)
    return std::stoull(v);
  return v;
}

const char* outcome_name(junit::Outcome o) {
  return o == junit::Outcome::Passed ? "passed" : o == junit::Outcome::Failed ? "failed"
                                              : o == junit::Outcome::Skipped ? "skipped" : "error";
}

}  // namespace

int run_accumulator(int argc, char** argv) {
  CLI::App app{"The incremental NNUE accumulator against a full recompute over seeded random walks (a), during a\n"
               "real search with the per-node audit policy (b), the scalar and AVX2 kernels against each other\n"
               "(c), and the colour/horizontal mirror symmetries of the evaluation (d). Report:\n"
               "reports/junit/accumulator-CONFIG.xml, reports/accumulator/CONFIG.{json,md}.",
               "stk-harness accumulator"};
  GameCheckOptions opt;
  opt.games = 24;
  opt.walk.plies = 300;
  opt.seed = 1;
  int positions = 1000, search_depth = 8, hidden = 128;
  std::uint64_t net_seed = kDefaultNetSeed;
  std::string net_file, plant = "none", config = "default", junit_file, out_dir = "reports";
  bool allow_trailing = false;
  app.add_option("--games", opt.games, "random walks")->capture_default_str()->check(CLI::Range(0, 1000000));
  app.add_option("--plies", opt.walk.plies, "forward steps per walk")->capture_default_str()->check(CLI::Range(1, 100000));
  app.add_option("--seed", opt.seed, "walk and sample seed")
      ->capture_default_str()->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 62));
  app.add_option("--positions", positions, "sampled positions for the SIMD and mirror checks")
      ->capture_default_str()->check(CLI::Range(0, 10000000));
  app.add_option("--search-depth", search_depth, "depth of the audited search over the bench positions")
      ->capture_default_str()->check(CLI::Range(1, 64));
  CLI::Option* net_opt = app.add_option("--net", net_file, "net to check (default: a synthetic net of --hidden)");
  app.add_flag("--allow-trailing", allow_trailing, "accept bytes after the net (with --net)");
  CLI::Option* hidden_opt = app.add_option("--hidden", hidden, "synthetic net width: 128 or 1024")
                                ->capture_default_str()->check(CLI::IsMember({128, 1024}));
  net_opt->excludes(hidden_opt);
  app.add_option("--net-seed", net_seed, "synthetic net seed")
      ->capture_default_str()->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 62));
  app.add_option("--plant", plant,
                 "run with a planted defect to see the gates fail: king-refresh, index-bit, two-dirty (part a),\n"
                 "no-low-clamp (c), white-relative, no-file-mirror (d)")
      ->capture_default_str()->check(CLI::IsMember(kPlants));
  app.add_option("--config", config, "report name")->capture_default_str();
  app.add_option("--junit", junit_file, "JUnit file (default <out-dir>/junit/accumulator-<config>.xml)");
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    report::ReportPaths paths = report::report_paths(out_dir, "accumulator", config);
    if (!junit_file.empty()) paths.junit = junit_file;
    declare_report(paths.junit, "accumulator." + config);

    std::shared_ptr<const nnue::Network> net;
    if (*net_opt) {
      std::string error;
      net = nnue::Network::load(net_file, allow_trailing, &error);
      if (!net) throw InputError(error);
    } else {
      net = synthetic_network(hidden, net_seed);
    }
    auto extreme = synthetic_network(net->hidden(), net_seed, NetStyle::Extreme);
    std::cout << fmt::format("accumulator: seed {}, net {} (hidden {}, fnv1a64 {:016x}), plant {}\n",
                             opt.seed, net->source(), net->hidden(), net->checksum(), plant);

    report::RunReport run{"accumulator", config};
    junit::TestSuite& suite = run.suites.emplace_back();
    suite.name = "accumulator." + config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("seed", std::to_string(opt.seed));
    suite.property("games", std::to_string(opt.games));
    suite.property("plies", std::to_string(opt.walk.plies));
    suite.property("positions", std::to_string(positions));
    suite.property("search_depth", std::to_string(search_depth));
    suite.property("net", net->source());
    suite.property("net_hidden", std::to_string(net->hidden()));
    suite.property("net_fnv1a64", fmt::format("{:016x}", net->checksum()));
    suite.property("net_seed", *net_opt ? "n/a" : std::to_string(net_seed));
    suite.property("extreme_net", extreme->source());
    suite.property("simd", nnue::kHasAvx2 ? "avx2" : "scalar");
    suite.property("plant", plant);
    junit::add_build_properties(suite);
    auto t_suite = std::chrono::steady_clock::now();

    // (a) incremental == recompute over random walks.
    auto t0 = std::chrono::steady_clock::now();
    GameCheckResult games = run_games(plant, *net, opt);
    GameCheckOptions extreme_opt = opt;
    extreme_opt.games = std::max(1, opt.games / 4);
    GameCheckResult games_x = run_games(plant, *extreme, extreme_opt);
    double t_games = seconds_since(t0);
    {
      auto tc = make_case("games", "incremental equals recompute after every step");
      tc.time_s = t_games;
      tc.facts = {{"steps_checked", std::to_string(games.steps_checked)},
                  {"mismatches", std::to_string(games.mismatches)},
                  {"eval_mismatches", std::to_string(games.eval_mismatches)},
                  {"perspective_refreshes", std::to_string(games.refreshes)},
                  {"perspective_updates", std::to_string(games.updates)},
                  {"extreme_net_steps_checked", std::to_string(games_x.steps_checked)},
                  {"extreme_net_mismatches", std::to_string(games_x.mismatches + games_x.eval_mismatches)}};
      std::uint64_t bad = games.mismatches + games.eval_mismatches + games_x.mismatches + games_x.eval_mismatches;
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
    {
      // (b) a real search (the bench positions) whose compile-time audit policy compares the live
      // accumulators with a recompute at every node.
      auto tc = make_case("search", fmt::format("per-node audit during a real search (depth {})", search_depth));
      t0 = std::chrono::steady_clock::now();
      AccumulatorAuditResult audit = audit_accumulators_in_search(net, bench_positions(), search_depth, 0);
      tc.time_s = seconds_since(t0);
      tc.facts = {{"positions", std::to_string(bench_positions().size())},
                  {"depth", std::to_string(search_depth)},
                  {"nodes_checked", std::to_string(audit.nodes_checked)},
                  {"mismatches", std::to_string(audit.mismatches)}};
      fail_if(tc, audit.mismatches > 0 || audit.nodes_checked == 0,
              fmt::format("{} of {} audited nodes differ from a recompute", audit.mismatches, audit.nodes_checked),
              audit.first_mismatch);
      suite.cases.push_back(tc);
    }

    // (c) scalar vs AVX2 on sampled positions, with the typical and the extreme net.
    t0 = std::chrono::steady_clock::now();
    std::vector<std::string> fens = sample_positions(opt.seed, positions);
    double t_sample = seconds_since(t0);
    for (const auto* n : {net.get(), extreme.get()}) {
      auto tc = make_case("simd", fmt::format("scalar equals avx2 ({})", n == net.get() ? "net" : "extreme net"));
      if (!nnue::kHasAvx2) {
        tc.outcome = junit::Outcome::Skipped;
        tc.message = "this build has no AVX2 kernels (built without __AVX2__)";
        suite.cases.push_back(tc);
        continue;
      }
      t0 = std::chrono::steady_clock::now();
      Evaluator scalar = [n](const Position& p) { return nnue::evaluate_refresh<nnue::Simd::Scalar>(*n, p); };
      Evaluator simd = [n](const Position& p) { return nnue::evaluate_refresh<nnue::kBestSimd>(*n, p); };
      if (plant == "no-low-clamp") simd = [n](const Position& p) { return eval_planted_no_low_clamp(*n, p); };
      CompareResult r = compare_evaluators(fens, scalar, simd);
      tc.time_s = seconds_since(t0);
      tc.facts = compare_facts(r);
      fail_if(tc, r.mismatches > 0, fmt::format("{} of {} positions differ", r.mismatches, r.compared), r.first_failure);
      suite.cases.push_back(tc);
    }

    // (d) mirror symmetries.
    for (bool horizontal : {false, true}) {
      auto tc = make_case("mirror", horizontal ? "horizontal mirror (files flipped, no castling rights)"
                                               : "colour mirror (colours swapped, ranks flipped)");
      t0 = std::chrono::steady_clock::now();
      const nnue::Network* n = net.get();
      Evaluator eval = [n](const Position& p) { return nnue::evaluate_refresh<nnue::kBestSimd>(*n, p); };
      if (plant == "white-relative") eval = [n](const Position& p) { return eval_planted_white_relative(*n, p); };
      if (plant == "no-file-mirror") eval = [n](const Position& p) { return eval_planted_no_file_mirror(*n, p); };
      CompareResult r = horizontal ? check_horizontal_mirror(fens, eval) : check_colour_mirror(fens, eval);
      tc.time_s = seconds_since(t0);
      tc.facts = compare_facts(r);
      fail_if(tc, r.mismatches > 0, fmt::format("{} of {} positions differ from their mirror", r.mismatches, r.compared),
              r.first_failure);
      if (r.compared == 0 && positions > 0)
        fail_if(tc, true, "no position was compared", "every sampled position was skipped");
      suite.cases.push_back(tc);
    }
    suite.time_s = seconds_since(t_suite);

    int failed = suite.count(junit::Outcome::Failed);
    suite.system_out = fmt::format(
        "accumulator: {} checks, {} failed; {} walk steps checked ({} on the extreme net), {} positions "
        "sampled in {:.2f} s\n",
        suite.cases.size(), failed, games.steps_checked, games_x.steps_checked, fens.size(), t_sample);

    run.figures["harness"] = "accumulator";
    run.figures["config"] = config;
    run.figures["seed"] = opt.seed;
    run.figures["plant"] = plant;
    run.figures["net"] = net->source();
    run.figures["net_fnv1a64"] = fmt::format("{:016x}", net->checksum());
    report::Json checks = report::Json::array();
    std::string md = fmt::format("net `{}` (hidden {}), seed {}, plant {}\n\n| check | result | facts |\n|---|---|---|\n",
                                 net->source(), net->hidden(), opt.seed, plant);
    for (const junit::TestCase& tc : suite.cases) {
      report::Json c = {{"check", tc.classname + "/" + tc.name}, {"result", outcome_name(tc.outcome)}};
      std::string facts_md;
      for (auto& [k, v] : tc.facts) {
        c[k] = fact_json(v);
        facts_md += (facts_md.empty() ? "" : ", ") + k + " " + v;
      }
      if (!tc.message.empty()) c["message"] = tc.message;
      checks.push_back(std::move(c));
      md += fmt::format("| {} / {} | {}{} | {} |\n", tc.classname, tc.name, outcome_name(tc.outcome),
                        tc.message.empty() ? "" : ": " + tc.message, facts_md);
      if (tc.outcome == junit::Outcome::Failed)
        std::cerr << "FAILED " << tc.classname << " / " << tc.name << ": " << tc.message << "\n  " << tc.detail << "\n";
    }
    run.figures["checks"] = std::move(checks);
    run.figures["failed"] = failed;
    run.markdown = md + "\n" + suite.system_out;
    report::write_run_report(run, paths);
    std::cout << suite.system_out << "report: " << paths.junit << "\n";
    return failed ? 1 : 0;
  } catch (...) {
    return input_failure("stk-harness accumulator", app.help().c_str());
  }
}

}  // namespace stk::harness
