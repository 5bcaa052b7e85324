// stk-harness match: self-play between a candidate A and a baseline B, the pre-merge gate's games.
#include <filesystem>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "commands.h"
#include "cli/cli.h"
#include "cli/file_names.h"
#include "io/run_lock.h"
#include "cli/cli_app.h"
#include "match_results/match_result.h"
#include "report/run_report.h"
#include "commands/match/match_runner.h"

namespace stk::harness {

namespace {

using namespace selfplay;
using namespace match;

SprtParams parse_sprt(const std::vector<std::string>& tokens) {
  const auto kv = parse_key_values(tokens, "--sprt", {"elo0", "elo1", "alpha", "beta", "model"});
  auto number = [&](const char* key, double fallback) {
    if (!kv.count(key)) return fallback;
    try {
      std::size_t used = 0;
      const double v = std::stod(kv.at(key), &used);
      if (used == kv.at(key).size()) return v;
    } catch (const std::exception&) {
    }
    throw UsageError(std::string("--sprt ") + key + ": '" + kv.at(key) + "' is not a number");
  };
  if (!kv.count("elo0") || !kv.count("elo1")) throw UsageError("--sprt needs elo0= and elo1=");
  SprtParams p{number("elo0", 0), number("elo1", 5), number("alpha", 0.05), number("beta", 0.05), EloModel::Normalized};
  if (kv.count("model")) {
    try {
      p.model = parse_elo_model(kv.at("model"));
    } catch (const std::invalid_argument&) {
      throw UsageError("--sprt model: '" + kv.at("model") + "' is neither normalized nor logistic");
    }
  }
  if (auto why = p.problem(); !why.empty()) throw UsageError("--sprt: " + why);
  return p;
}

// The name a file of this run gets: the config, plus the shard when there are several.
std::string stem_of(const std::string& config, const Shard& shard) {
  return shard.count > 1 ? fmt::format("{}-shard{}of{}", config, shard.index, shard.count) : config;
}

std::string with_suffix(const std::string& path, const std::string& suffix) {
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + suffix + p.extension().string())).string();
}

}  // namespace

int run_match(int argc, char** argv) {
  CLI::App app{"Self-play match between a candidate A (first --engine) and a baseline B (second): every opening\n"
               "played twice with colours reversed, judged by the harness (rules, clocks, legality), recorded\n"
               "pair by pair in a resumable result file; pentanomial statistics, SPRT and the gate of\n"
               "docs/match-results.md. Exit 0 gate passed, 1 failed, 2 bad input.",
               "stk-harness match"};
  std::vector<std::vector<std::string>> engine_tokens;
  std::vector<std::string> draw_tokens, resign_tokens, sprt_tokens;
  std::string openings_path, tc_text, gate_text, state_path, shard_text = "1/1", config = "match", out_dir = "reports",
                                                                pgn_path;
  std::uint64_t seed = 1, pairs = 0, nodes = 0;
  int depth = 0, concurrency = 1, maxmoves = 0, timeout_ms = 10000, progress = 10;
  double min_elo_lower95 = 0;
  bool ab_control = false, quiet = false;
  app.add_option("--engine", engine_tokens, "cmd=PATH [name=N] [option.X=Y ...] [nodes=N|depth=N]; first A, then B")
      ->expected(1, -1)
      ->required();
  app.add_option("--openings", openings_path, "book: .epd (FEN) or .pgn (SAN); default: generated (seeded)");
  auto* seed_opt = app.add_option("--seed", seed, "seed of the generated openings, or of the book's shuffle (without it a book is played in file order)")
                       ->capture_default_str();
  app.add_option("--pairs", pairs, "opening pairs to play (default: the book's size, or 100 generated)");
  auto* tc_opt = app.add_option("--tc", tc_text, "clock BASE+INC in seconds, e.g. 10+0.1");
  auto* nodes_opt = app.add_option("--nodes", nodes, "fixed nodes per move");
  auto* depth_opt = app.add_option("--depth", depth, "fixed depth per move");
  tc_opt->excludes(nodes_opt)->excludes(depth_opt);
  nodes_opt->excludes(depth_opt);
  app.add_option("--concurrency", concurrency, "games at once (each thread drives 2 engines), at most the core count")
      ->capture_default_str();
  app.add_option("--draw", draw_tokens, "draw adjudication: movenumber=40 movecount=8 score=10")->expected(0, -1);
  app.add_option("--resign", resign_tokens, "resign adjudication: movecount=3 score=1000")->expected(0, -1);
  app.add_option("--maxmoves", maxmoves, "adjudicate a draw after this many engine moves per side (0: no cap)");
  app.add_option("--sprt", sprt_tokens, "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized|logistic")->expected(1, -1);
  app.add_option("--gate", gate_text, "gain | non-regression | aa-control (default: gain with --sprt)");
  auto* min_elo_opt = app.add_option("--min-elo-lower95", min_elo_lower95, "non-regression: pass when the Elo lower95 is above it (with --sprt: judges a run undecided at --pairs)");
  app.add_flag("--ab-control", ab_control, "also play B against B on the same openings (gate aa-control)");
  app.add_option("--state", state_path, "resumable journal, one line per pair (default: <out-dir>/match/<config>-state.jsonl)");
  app.add_option("--shard", shard_text, "K/N: play opening pairs i with i % N == K-1")->capture_default_str();
  app.add_option("--config", config, "the match's name in reports")->capture_default_str();
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  app.add_option("--pgn", pgn_path, "PGN of every game (default: <out-dir>/match/<config>.pgn)");
  app.add_option("--timeout-ms", timeout_ms, "handshake and fixed nodes/depth per-move timeout")->capture_default_str();
  app.add_option("--progress", progress, "pairs between progress lines")->capture_default_str();
  app.add_flag("--quiet", quiet, "print only the verdict");
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    const Shard shard = parse_shard(shard_text);
    require_safe_name("--config", config);
    const std::string stem = stem_of(config, shard), aa_stem = stem_of(config + "-aa", shard);
    // One run owns a config's reports and a state (io/run_lock.h): taken before the reports are
    // declared, so that a refused second run leaves the holder's files alone.
    const io::RunLock config_lock(out_dir + "/match/" + stem + ".lock");
    declare_report(report::junit_path(out_dir, "match", stem), "match." + stem);
    if (ab_control) declare_report(report::junit_path(out_dir, "match", aa_stem), "match." + aa_stem);
    if (engine_tokens.size() != 2) throw UsageError("give exactly two --engine: A (the candidate), then B (the baseline)");
    if (timeout_ms < 1 || progress < 1) throw UsageError("--timeout-ms and --progress must be positive");
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    if (concurrency < 1 || unsigned(concurrency) > cores)
      throw UsageError(fmt::format("--concurrency {} is outside 1..{} (the core count)", concurrency, cores));

    MatchPlan plan;
    TimeControl tc;
    if (!tc_text.empty()) tc = parse_clock(tc_text);
    else if (nodes) tc.nodes = nodes;
    else if (depth > 0) tc = TimeControl{TimeControl::Kind::Depth, 0, 0, 0, depth};
    else throw UsageError("give the budget: --tc BASE+INC, --nodes N or --depth N");
    for (int i = 0; i < 2; ++i) {
      plan.engines[std::size_t(i)] = parse_engine(engine_tokens[std::size_t(i)]);
      EngineConfig& e = plan.engines[std::size_t(i)];
      if (e.name.empty()) e.name = std::filesystem::path(e.command.substr(0, e.command.find(' '))).filename().string();
      if (e.limit && tc.kind == TimeControl::Kind::Clock)
        throw UsageError("--engine nodes=/depth= overrides a fixed budget; it cannot be mixed with --tc");
      plan.settings.budget[std::size_t(i)] = e.limit.value_or(tc);
    }
    if (plan.engines[0].name == plan.engines[1].name) plan.engines[1].name += "-B";

    Adjudication adj;
    if (app.count("--draw")) adj.draw = parse_draw(draw_tokens);
    if (app.count("--resign")) adj.resign = parse_resign(resign_tokens);
    adj.maxmoves = maxmoves;
    plan.settings.adjudication = adj;
    plan.settings.move_timeout = std::chrono::milliseconds(timeout_ms);

    GeneratorSettings gen;
    gen.seed = seed;
    MatchDefinition& def = plan.definition;
    def.config = config;
    for (int i = 0; i < 2; ++i)
      def.engines[std::size_t(i)] = EngineSpec{plan.engines[std::size_t(i)].name, plan.engines[std::size_t(i)].command,
                                               plan.engines[std::size_t(i)].options};
    def.time_control = plan.settings.budget[0].text() == plan.settings.budget[1].text()
                           ? tc.text()
                           : "A " + plan.settings.budget[0].text() + ", B " + plan.settings.budget[1].text();
    def.settings = {{"adjudication", adj.text()},
                    {"move_timeout_ms", std::to_string(timeout_ms)},
                    {"time_margin_ms", std::to_string(plan.settings.time_margin_ms)}};
    def.openings_seed = seed;
    if (!openings_path.empty()) {
      plan.openings = read_openings(openings_path);
      // A book is shuffled only when a seed is given: the order is part of the definition.
      if (seed_opt->count()) shuffle_openings(plan.openings, seed);
      def.settings["openings_order"] = seed_opt->count() ? fmt::format("shuffled, seed {}", seed) : "file order";
      if (!quiet)
        std::cout << fmt::format("book {}: {} openings, {}\n", openings_path, plan.openings.size(),
                                 seed_opt->count() ? fmt::format("shuffled with seed {}", seed) : "in file order (no --seed)");
      def.openings_file = openings_path;
      def.pairs_planned = pairs ? pairs : plan.openings.size();
    } else {
      def.pairs_planned = pairs ? pairs : 100;
      def.openings_file = fmt::format("generated: {} random plies, |score| <= {} cp at {} nodes, seed {}", gen.plies,
                                      gen.max_abs_cp, gen.check_nodes, seed);
      if (!quiet) std::cout << "generating " << def.pairs_planned << " openings (seed " << seed << ")...\n";
      plan.openings = generate_openings(gen, def.pairs_planned);
      const std::string path = out_dir + "/match/" + config + "-openings.epd";
      write_openings_epd(path, plan.openings, gen);
      if (!quiet) std::cout << "openings written to " << path << " (give it back with --openings)\n";
    }
    def.shard_count = shard.count;
    if (!sprt_tokens.empty()) def.sprt = parse_sprt(sprt_tokens);
    def.gate.mode = gate_text.empty() ? (def.sprt ? GateMode::Gain : GateMode::NonRegression) : parse_gate_mode(gate_text);
    if (min_elo_opt->count()) def.gate.min_elo_lower95 = min_elo_lower95;
    if (auto why = def.problem(); !why.empty()) throw UsageError(why);
    if (ab_control) {
      MatchDefinition aa = def;
      aa.config = config + "-aa";
      aa.engines = {def.engines[1], def.engines[1]};
      aa.engines[1].name += "'";
      aa.time_control = plan.settings.budget[1].text();
      aa.gate = GateSpec{GateMode::AAControl, std::nullopt};
      plan.aa_definition = aa;
    }

    plan.shard_index = shard.index;
    plan.concurrency = concurrency;
    plan.progress_every = progress;
    plan.out_dir = out_dir;
    plan.stem = stem;
    plan.aa_stem = aa_stem;
    plan.state_path = state_path.empty() ? out_dir + "/match/" + stem + "-state.jsonl" : state_path;
    plan.aa_state_path = with_suffix(plan.state_path, "-aa");
    plan.pgn_path = pgn_path.empty() ? out_dir + "/match/" + stem + ".pgn" : pgn_path;
    plan.aa_pgn_path = with_suffix(plan.pgn_path, "-aa");
    plan.quiet = quiet;
    plan.properties = {{"input.state", plan.state_path}, {"input.pgn", plan.pgn_path},
                       {"input.concurrency", std::to_string(concurrency)}};
    const io::RunLock state_lock(plan.state_path + ".lock");
    return selfplay::run_match(plan);
  } catch (...) {
    return input_failure("stk-harness match");
  }
}

}  // namespace stk::harness
