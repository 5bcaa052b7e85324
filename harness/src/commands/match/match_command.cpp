// stk-harness match: self-play between a candidate A and a baseline B, the pre-merge gate's games.
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "io/interruption.h"
#include "io/output_file.h"
#include "io/run_lock.h"
#include "cli/cli.h"
#include "cli/file_names.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "match_results/match_result.h"
#include "proc/command_words.h"
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
  SprtParams p{number("elo0", 0), number("elo1", 5), number("alpha", 0.05), number("beta", 0.05),
               EloModel::Normalized};
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

// The options as given; seed_given and min_elo_given are set after parsing.
struct MatchOptions {
  std::vector<std::vector<std::string>> engine_tokens;
  std::vector<std::string> draw_tokens, resign_tokens, sprt_tokens;
  std::string openings_path, tc_text, gate_text, state_path, shard_text = "1/1", config = "match",
                                                             out_dir = "reports", pgn_path;
  std::uint64_t seed = 1, pairs = 0, nodes = 0;
  int depth = 0, concurrency = 1, maxmoves = 0, timeout_ms = 10000, progress = 10;
  double min_elo_lower95 = 0;
  std::optional<std::uint64_t> max_faults;
  bool ab_control = false, quiet = false;
  bool seed_given = false, min_elo_given = false;  // --seed, --min-elo-lower95 given
};

// The options whose presence (not only value) the plan depends on.
struct GivenOptions {
  CLI::Option* seed = nullptr;
  CLI::Option* min_elo = nullptr;
};

GivenOptions add_match_options(CLI::App& app, MatchOptions& o) {
  GivenOptions given;
  app.add_option("--engine", o.engine_tokens,
                 "cmd=CMD [name=N] [option.X=Y ...] [nodes=N|depth=N]; first A, then B; CMD is a "
                 "path or a command line CMD ARGS (docs/uci.md)")
      ->expected(1, -1)
      ->required();
  app.add_option("--openings", o.openings_path,
                 "book: .epd (FEN) or .pgn (SAN); default: generated (seeded)");
  given.seed =
      app.add_option(
             "--seed", o.seed,
             "seed of the generated openings, or of the book's shuffle (without it a book is played in file order)")
          ->capture_default_str();
  app.add_option("--pairs", o.pairs,
                 "opening pairs to play (default: the book's size, or 100 generated)");
  auto* tc_opt = app.add_option("--tc", o.tc_text, "clock BASE+INC in seconds, e.g. 10+0.1");
  auto* nodes_opt = app.add_option("--nodes", o.nodes, "fixed nodes per move");
  auto* depth_opt = app.add_option("--depth", o.depth, "fixed depth per move");
  tc_opt->excludes(nodes_opt)->excludes(depth_opt);
  nodes_opt->excludes(depth_opt);
  app.add_option("--concurrency", o.concurrency,
                 "games at once (each thread drives 2 engines), at most the core count")
      ->capture_default_str();
  app.add_option("--draw", o.draw_tokens, "draw adjudication: movenumber=40 movecount=8 score=10")
      ->expected(0, -1);
  app.add_option("--resign", o.resign_tokens, "resign adjudication: movecount=3 score=1000")
      ->expected(0, -1);
  app.add_option("--maxmoves", o.maxmoves,
                 "adjudicate a draw after this many engine moves per side (0: no cap)");
  app.add_option("--sprt", o.sprt_tokens,
                 "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized|logistic")
      ->expected(1, -1);
  app.add_option("--gate", o.gate_text,
                 "gain | non-regression | aa-control (default: gain with --sprt)");
  given.min_elo = app.add_option(
      "--min-elo-lower95", o.min_elo_lower95,
      "non-regression: pass when the Elo lower95 is above it (with --sprt: judges a run undecided at --pairs)");
  app.add_option("--max-faults", o.max_faults,
                 "a second verdict, testcase `faults`: fail when more games than this end by a "
                 "fault of either engine (time loss, crash, illegal move, disconnect)");
  app.add_flag("--ab-control", o.ab_control,
               "also play B against B on the same openings (gate aa-control)");
  app.add_option(
      "--state", o.state_path,
      "resumable journal, one line per pair (default: <out-dir>/match/<config>-state.jsonl)");
  app.add_option("--shard", o.shard_text, "K/N: play opening pairs i with i % N == K-1")
      ->capture_default_str();
  app.add_option("--config", o.config, "the match's name in reports")->capture_default_str();
  app.add_option("--out-dir", o.out_dir, "reports folder")->capture_default_str();
  app.add_option("--pgn", o.pgn_path, "PGN of every game (default: <out-dir>/match/<config>.pgn)");
  app.add_option("--timeout-ms", o.timeout_ms, "handshake and fixed nodes/depth per-move timeout")
      ->capture_default_str();
  app.add_option("--progress", o.progress, "pairs between progress lines")->capture_default_str();
  app.add_flag("--quiet", o.quiet, "print only the verdict");
  return given;
}

// What can be refused before anything is parsed: the engine count, timeouts, concurrency.
void check_options(const MatchOptions& o) {
  if (o.engine_tokens.size() != 2)
    throw UsageError("give exactly two --engine: A (the candidate), then B (the baseline)");
  if (o.timeout_ms < 1 || o.progress < 1)
    throw UsageError("--timeout-ms and --progress must be positive");
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (o.concurrency < 1 || unsigned(o.concurrency) > cores)
    throw UsageError(
        fmt::format("--concurrency {} is outside 1..{} (the core count)", o.concurrency, cores));
}

// The budget both engines get unless their --engine nodes=/depth= overrides it.
TimeControl budget_of(const MatchOptions& o) {
  TimeControl tc;
  if (!o.tc_text.empty()) tc = parse_clock(o.tc_text);
  else if (o.nodes) tc.nodes = o.nodes;
  else if (o.depth > 0) tc = TimeControl{TimeControl::Kind::Depth, 0, 0, 0, o.depth};
  else throw UsageError("give the budget: --tc BASE+INC, --nodes N or --depth N");
  return tc;
}

// The two engines, each with its budget; B renamed when both have one name.
void set_engines(MatchPlan& plan, const MatchOptions& o, const TimeControl& tc) {
  for (int i = 0; i < 2; ++i) {
    plan.engines[std::size_t(i)] = parse_engine(o.engine_tokens[std::size_t(i)]);
    EngineConfig& e = plan.engines[std::size_t(i)];
    if (e.name.empty())
      e.name = std::filesystem::path(proc::command_argv(e.command)[0]).filename().string();
    if (e.limit && tc.kind == TimeControl::Kind::Clock)
      throw UsageError(
          "--engine nodes=/depth= overrides a fixed budget; it cannot be mixed with --tc");
    plan.settings.budget[std::size_t(i)] = e.limit.value_or(tc);
  }
  if (plan.engines[0].name == plan.engines[1].name) plan.engines[1].name += "-B";
}

Adjudication adjudication_of(const CLI::App& app, const MatchOptions& o) {
  Adjudication adj;
  if (app.count("--draw")) adj.draw = parse_draw(o.draw_tokens);
  if (app.count("--resign")) adj.resign = parse_resign(o.resign_tokens);
  adj.maxmoves = o.maxmoves;
  return adj;
}

// The adjudication and move timeout; the definition's engines, time control, settings and openings seed (what the journal records).
void define_match(MatchPlan& plan, const MatchOptions& o, const TimeControl& tc,
                  const Adjudication& adj) {
  plan.settings.adjudication = adj;
  plan.settings.move_timeout = std::chrono::milliseconds(o.timeout_ms);

  MatchDefinition& def = plan.definition;
  def.config = o.config;
  for (int i = 0; i < 2; ++i)
    def.engines[std::size_t(i)] = EngineSpec{plan.engines[std::size_t(i)].name,
                                             plan.engines[std::size_t(i)].command,
                                             plan.engines[std::size_t(i)].options};
  def.time_control = plan.settings.budget[0].text() == plan.settings.budget[1].text()
                         ? tc.text()
                         : "A " + plan.settings.budget[0].text() + ", B " +
                               plan.settings.budget[1].text();
  def.settings = {{"adjudication", adj.text()},
                  {"move_timeout_ms", std::to_string(o.timeout_ms)},
                  {"time_margin_ms", std::to_string(plan.settings.time_margin_ms)}};
  def.openings_seed = o.seed;
}

// The openings: the book (shuffled with --seed), else generated and written beside the reports.
void choose_openings(MatchPlan& plan, const MatchOptions& o) {
  GeneratorSettings gen;
  gen.seed = o.seed;
  MatchDefinition& def = plan.definition;
  if (!o.openings_path.empty()) {
    plan.openings = read_openings(o.openings_path);
    // A book is shuffled only when a seed is given: the order is part of the definition.
    if (o.seed_given) shuffle_openings(plan.openings, o.seed);
    def.settings["openings_order"] = o.seed_given ? fmt::format("shuffled, seed {}", o.seed)
                                                  : "file order";
    if (!o.quiet)
      std::cout << fmt::format("book {}: {} openings, {}\n", o.openings_path, plan.openings.size(),
                               o.seed_given ? fmt::format("shuffled with seed {}", o.seed)
                                            : "in file order (no --seed)");
    def.openings_file = o.openings_path;
    def.pairs_planned = o.pairs ? o.pairs : plan.openings.size();
  } else {
    def.pairs_planned = o.pairs ? o.pairs : 100;
    def.openings_file =
        fmt::format("generated: {} random plies, |score| <= {} cp at {} nodes, seed {}", gen.plies,
                    gen.max_abs_cp, gen.check_nodes, o.seed);
    if (!o.quiet)
      std::cout << "generating " << def.pairs_planned << " openings (seed " << o.seed << ")...\n";
    plan.openings = generate_openings(gen, def.pairs_planned);
    const std::string path = o.out_dir + "/match/" + o.config + "-openings.epd";
    write_openings_epd(path, plan.openings, gen);
    if (!o.quiet)
      std::cout << "openings written to " << path << " (give it back with --openings)\n";
  }
}

// Shard count, SPRT and gate of the definition; UsageError when the definition is inconsistent.
void set_gate(MatchDefinition& def, const MatchOptions& o, const Shard& shard) {
  def.shard_count = shard.count;
  if (!o.sprt_tokens.empty()) def.sprt = parse_sprt(o.sprt_tokens);
  def.gate.mode = o.gate_text.empty() ? (def.sprt ? GateMode::Gain : GateMode::NonRegression)
                                      : parse_gate_mode(o.gate_text);
  if (o.min_elo_given) def.gate.min_elo_lower95 = o.min_elo_lower95;
  if (auto why = def.problem(); !why.empty()) throw UsageError(why);
}

// With --ab-control: B against B on the same openings, judged by the A/A control gate.
void add_aa_definition(MatchPlan& plan, const MatchOptions& o) {
  const MatchDefinition& def = plan.definition;
  if (o.ab_control) {
    MatchDefinition aa = def;
    aa.config = o.config + "-aa";
    aa.engines = {def.engines[1], def.engines[1]};
    aa.engines[1].name += "'";
    aa.time_control = plan.settings.budget[1].text();
    aa.gate = GateSpec{GateMode::AAControl, std::nullopt};
    plan.aa_definition = aa;
  }
}

// Where the run writes (journal, PGN, reports) and how it runs (shard, concurrency, progress).
void set_run_files(MatchPlan& plan, const MatchOptions& o, const Shard& shard,
                   const std::string& stem, const std::string& aa_stem) {
  plan.shard_index = shard.index;
  plan.concurrency = o.concurrency;
  plan.progress_every = o.progress;
  plan.out_dir = o.out_dir;
  plan.repro_dir = o.out_dir + "/repro";
  plan.stem = stem;
  plan.aa_stem = aa_stem;
  plan.state_path = o.state_path.empty() ? o.out_dir + "/match/" + stem + "-state.jsonl"
                                         : o.state_path;
  plan.aa_state_path = with_suffix(plan.state_path, "-aa");
  plan.pgn_path = o.pgn_path.empty() ? o.out_dir + "/match/" + stem + ".pgn" : o.pgn_path;
  plan.aa_pgn_path = with_suffix(plan.pgn_path, "-aa");
  plan.quiet = o.quiet;
  plan.max_faults = o.max_faults;
  plan.properties = {{"input.state", plan.state_path},
                     {"input.pgn", plan.pgn_path},
                     {"input.concurrency", std::to_string(o.concurrency)}};
}

}  // namespace

int run_match(int argc, char** argv) {
  CLI::App app{
      "Self-play match between a candidate A (first --engine) and a baseline B (second): every opening\n"
      "played twice with colours reversed, judged by the harness (rules, clocks, legality), recorded\n"
      "pair by pair in a resumable result file; pentanomial statistics, SPRT and the gate of\n"
      "docs/match-results.md. Exit 0 gate passed, 1 failed, 2 bad input.",
      "stk-harness match"};
  MatchOptions o;
  const GivenOptions given = add_match_options(app, o);
  auto declare_given = [&] {  // a usage error replaces the reports its command line names
    const std::string config = given_value(app, "--config", "match");
    Shard shard;
    try {
      shard = parse_shard(given_value(app, "--shard", "1/1"));
    } catch (const UsageError&) {
      return;  // no name known: nothing owed
    }
    if (!is_safe_name(config)) return;
    std::vector<std::string> stems{stem_of(config, shard)};
    if (app.count("--ab-control") > 0) stems.push_back(stem_of(config + "-aa", shard));
    for (const std::string& stem : stems)
      declare_report(report::junit_path(given_value(app, "--out-dir", "reports"), "match", stem),
                     "match." + stem);
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  o.seed_given = given.seed->count() > 0;
  o.min_elo_given = given.min_elo->count() > 0;
  try {
    const Shard shard = parse_shard(o.shard_text);
    require_safe_name("--config", o.config);
    const std::string stem = stem_of(o.config, shard), aa_stem = stem_of(o.config + "-aa", shard);
    auto declare_reports = [&] {
      declare_report(report::junit_path(o.out_dir, "match", stem), "match." + stem);
      if (o.ab_control)
        declare_report(report::junit_path(o.out_dir, "match", aa_stem), "match." + aa_stem);
    };
    // One run owns a config's reports and a state (io/run_lock.h): taken before the reports are
    // declared, so that a second run refused while the holder runs leaves its files alone; a lock
    // refused for any other reason is this run's failure and replaces an earlier report.
    std::optional<io::RunLock> config_lock;
    {
      // One step for a stop signal: the lock taken is never left without its reports declared.
      const io::WriteSection taking;
      try {
        config_lock.emplace(o.out_dir + "/match/" + stem + ".lock");
      } catch (const io::HeldByAnotherRun&) {
        throw;
      } catch (...) {
        declare_reports();
        throw;
      }
      declare_reports();
    }
    check_options(o);

    MatchPlan plan;
    set_run_files(plan, o, shard, stem, aa_stem);
    // The state first: a second run on it hears that it is held, whatever path it took there.
    const io::RunLock state_lock(io::RunLock::OfFile{}, plan.state_path);
    // Before an engine starts: a device, FIFO or folder named as the journal or the PGN is refused
    // by name, never read (a PGN collection is read on resume); a symbolic link there too, and a
    // place where it cannot be written.
    for (const std::string* p :
         {&plan.state_path, &plan.pgn_path, &plan.aa_state_path, &plan.aa_pgn_path}) {
      io::require_own_regular_target(*p);
      io::require_writable_target(*p);
    }
    const TimeControl tc = budget_of(o);
    set_engines(plan, o, tc);
    const Adjudication adj = adjudication_of(app, o);
    define_match(plan, o, tc, adj);
    choose_openings(plan, o);
    set_gate(plan.definition, o, shard);
    add_aa_definition(plan, o);
    return selfplay::run_match(plan);
  } catch (...) {
    return input_failure("stk-harness match");
  }
}

}  // namespace stk::harness
