// stk-harness accumulator: the incremental NNUE accumulator against a full recompute over seeded
// random walks (a), the scalar and AVX2 kernels against each other (c), and the colour/horizontal
// mirror symmetries of the evaluation (d). Part (b) searches the bench positions with the search's
// accumulator audit policy (harness/src/search_audit), comparing with a recompute at every node.
#include <chrono>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "accumulator/accumulator_checks.h"
#include "accumulator/planted_defects.h"
#include "checknet/synthetic_net.h"
#include "bench.h"
#include "commands.h"
#include "common/cli.h"
#include "nnue/evaluate.h"
#include "report/junit.h"
#include "report/summary_files.h"
#include "search_audit/accumulator_audit.h"

namespace stk::harness {

namespace {

constexpr const char* kUsage =
    "usage: stk-harness accumulator [--games N] [--plies N] [--seed S] [--positions N]\n"
    "                               [--net FILE [--allow-trailing] | --hidden 128|1024 [--net-seed S]]\n"
    "                               [--plant DEFECT] [--config NAME] [--junit FILE] [--out-dir DIR]\n"
    "  --games N       random walks (default 24), each --plies N forward steps (default 300)\n"
    "  --seed S        walk and sample seed (default 1)\n"
    "  --positions N   sampled positions for the SIMD and mirror checks (default 1000)\n"
    "  --search-depth N  depth of the audited search over the bench positions (default 8)\n"
    "  --net FILE      net to check; default a synthetic net of --hidden (default 128)\n"
    "  --plant DEFECT  run with a planted defect to see the gates fail: king-refresh, index-bit,\n"
    "                  two-dirty (part a), no-low-clamp (c), white-relative, no-file-mirror (d)\n";

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

}  // namespace

int run_accumulator(int argc, char** argv) {
  try {
    Args args(argc, argv,
              {"games", "plies", "seed", "positions", "net", "hidden", "net-seed", "plant", "config", "search-depth",
               "junit", "out-dir"},
              {"allow-trailing", "help"});
    if (args.has("help")) return std::cout << kUsage, 0;
    const std::string config = args.get("config", "default");
    const std::string out_dir = args.get("out-dir", "reports");
    const std::string junit_path = args.get("junit", out_dir + "/junit/accumulator-" + config + ".xml");
    declare_report(junit_path, "accumulator." + config);
    if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
    if (args.has("net") && args.has("hidden")) throw UsageError("give --net or --hidden, not both");
    GameCheckOptions opt;
    opt.games = int(args.get_int("games", 24, 0, 1000000));
    opt.walk.plies = int(args.get_int("plies", 300, 1, 100000));
    opt.seed = std::uint64_t(args.get_int("seed", 1, 0, 1LL << 62));
    const int positions = int(args.get_int("positions", 1000, 0, 10000000));
    const int search_depth = int(args.get_int("search-depth", 8, 1, 64));
    const int hidden = int(args.get_int("hidden", 128, 1, 1 << 20));
    if (!nnue::hidden_supported(hidden)) throw UsageError("--hidden must be 128 or 1024");
    const auto net_seed = std::uint64_t(args.get_int("net-seed", std::int64_t(kDefaultNetSeed), 0, 1LL << 62));
    const std::string plant = args.get("plant", "none");
    if (std::find(kPlants.begin(), kPlants.end(), plant) == kPlants.end())
      throw UsageError("unknown --plant '" + plant + "'");

    std::shared_ptr<const nnue::Network> net;
    if (args.has("net")) {
      std::string error;
      net = nnue::Network::load(args.get("net"), args.has("allow-trailing"), &error);
      if (!net) throw InputError(error);
    } else {
      net = synthetic_network(hidden, net_seed);
    }
    auto extreme = synthetic_network(net->hidden(), net_seed, NetStyle::Extreme);
    std::cout << fmt::format("accumulator: seed {}, net {} (hidden {}, fnv1a64 {:016x}), plant {}\n",
                             opt.seed, net->source(), net->hidden(), net->checksum(), plant);

    junit::TestSuite suite;
    suite.name = "accumulator." + config;
    for (auto& [k, v] : args.echo()) suite.property("input." + k, v);
    suite.property("seed", std::to_string(opt.seed));
    suite.property("games", std::to_string(opt.games));
    suite.property("plies", std::to_string(opt.walk.plies));
    suite.property("positions", std::to_string(positions));
    suite.property("search_depth", std::to_string(search_depth));
    suite.property("net", net->source());
    suite.property("net_hidden", std::to_string(net->hidden()));
    suite.property("net_fnv1a64", fmt::format("{:016x}", net->checksum()));
    suite.property("net_seed", args.has("net") ? "n/a" : std::to_string(net_seed));
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
      auto previous = nnue::network();
      nnue::set_network(net);
      AccumulatorAuditResult audit = audit_accumulators_in_search(bench_positions(), search_depth, 0);
      nnue::set_network(previous);
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

    std::ostringstream json, md;
    json << "{\n  \"harness\": \"accumulator\",\n  \"config\": " << json_str(config)
         << ",\n  \"seed\": " << opt.seed << ",\n  \"plant\": " << json_str(plant)
         << ",\n  \"net\": " << json_str(net->source()) << ",\n  \"net_fnv1a64\": \""
         << fmt::format("{:016x}", net->checksum()) << "\",\n  \"checks\": [";
    md << "# accumulator (" << config << ")\n\nnet `" << net->source() << "` (hidden " << net->hidden()
       << "), seed " << opt.seed << ", plant " << plant << "\n\n| check | result | facts |\n|---|---|---|\n";
    for (std::size_t i = 0; i < suite.cases.size(); ++i) {
      const auto& tc = suite.cases[i];
      const char* outcome = tc.outcome == junit::Outcome::Passed ? "passed"
                            : tc.outcome == junit::Outcome::Failed ? "failed"
                            : tc.outcome == junit::Outcome::Skipped ? "skipped" : "error";
      json << (i ? ",\n" : "\n") << "    {\"check\": " << json_str(tc.classname + "/" + tc.name)
           << ", \"result\": \"" << outcome << "\"";
      std::string facts_md;
      for (auto& [k, v] : tc.facts) {
        json << ", " << json_str(k) << ": " << v;
        facts_md += (facts_md.empty() ? "" : ", ") + k + " " + v;
      }
      if (!tc.message.empty()) json << ", \"message\": " << json_str(tc.message);
      json << "}";
      md << "| " << tc.classname << " / " << tc.name << " | " << outcome
         << (tc.message.empty() ? "" : ": " + tc.message) << " | " << facts_md << " |\n";
      if (tc.outcome == junit::Outcome::Failed)
        std::cerr << "FAILED " << tc.classname << " / " << tc.name << ": " << tc.message << "\n  " << tc.detail << "\n";
    }
    json << "\n  ],\n  \"failed\": " << failed << "\n}\n";
    md << "\n" << suite.system_out;
    std::string err;
    if (!junit::write_report(junit_path, {suite}, &err)) throw InputError(err);
    write_text_file(out_dir + "/accumulator/" + config + ".json", json.str());
    write_text_file(out_dir + "/accumulator/" + config + ".md", md.str());
    std::cout << suite.system_out << "report: " << junit_path << "\n";
    return failed ? 1 : 0;
  } catch (...) {
    return input_failure("stk-harness accumulator", kUsage);
  }
}

}  // namespace stk::harness
