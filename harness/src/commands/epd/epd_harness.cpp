// stk-harness epd / merge / epd-compare: tactical suites (bm/am, SAN) at fixed depth or fixed
// nodes, for the in-process engine or any UCI engine, gated against a golden baseline.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "commands.h"
#include "cli/cli.h"
#include "epd/engine_driver.h"
#include "epd/epd_report.h"
#include "epd/epd_results.h"
#include "positions/epd_suite.h"
#include "match_results/match_result_file.h"
#include "report/build_info.h"
#include "cli/cli_owed_reports.h"
#include "report/summary_files.h"

namespace stk::harness {

namespace {

using namespace epd;

// Options that epd and epd-compare share.
struct SuiteOptions {
  std::string epd_file, config, out_dir = "reports";
  std::uint64_t depth = 0, nodes = 0;
  std::vector<std::string> options;  // NAME=VALUE, for the engine (epd) or the reference (epd-compare)
  std::size_t hash_mb = 16;
  int stride = 1;
  bool quiet = false;
};

// "NAME=VALUE" with a non-empty name.
const CLI::Validator kNameValue(
    [](std::string& o) -> std::string {
      const auto eq = o.find('=');
      return eq == std::string::npos || eq == 0 ? "must be NAME=VALUE, got '" + o + "'" : "";
    },
    "NAME=VALUE", "NAME=VALUE");

void add_suite_options(CLI::App& app, SuiteOptions& o, const std::string& option_help) {
  app.add_option("--epd", o.epd_file, "suite with bm/am (SAN) and id operations, e.g. $STK_SHARED/suites/ECM.epd")
      ->required();
  app.add_option("--depth", o.depth, "fixed depth per position (sd: tests tree shape at fixed effort)")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(120)));
  app.add_option("--nodes", o.nodes, "fixed node budget per position (sn: tests accuracy at fixed cost)")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 40));
  app.add_option("--option", o.options, option_help)->check(kNameValue);
  app.add_option("--hash", o.hash_mb, "hash size in MB; Threads is always 1; state is cleared per position")
      ->check(CLI::Range(std::size_t(1), std::size_t(65536)))->capture_default_str();
  app.add_option("--stride", o.stride, "take every S-th position of the file (index % S == 0)")
      ->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("--out-dir", o.out_dir, "reports folder")->capture_default_str();
  app.add_flag("--quiet", o.quiet, "no line per position");
}

std::vector<std::pair<std::string, std::string>> parse_options(const std::vector<std::string>& raw) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& o : raw) {
    auto eq = o.find('=');
    out.emplace_back(o.substr(0, eq), o.substr(eq + 1));
  }
  return out;
}

Budget parse_budget(const CLI::App& app, const SuiteOptions& o) {
  const bool depth = app.count("--depth") > 0, nodes = app.count("--nodes") > 0;
  if (depth == nodes) throw UsageError("give exactly one of --depth N (sd) and --nodes N (sn)");
  Budget b;
  b.kind = depth ? Budget::Kind::Depth : Budget::Kind::Nodes;
  b.value = depth ? o.depth : o.nodes;
  return b;
}

// The report name when --config is not given: "<prefix><suite>-<sd|sn><N>".
std::string default_config(const std::string& prefix, const std::string& epd_file, const Budget& budget) {
  return prefix + std::filesystem::path(epd_file).stem().string() + "-" + budget.tag() + std::to_string(budget.value);
}

// "Nodes searched : N" from `stk bench`, the engine binary built beside this one.
std::uint64_t run_bench() {
  namespace fs = std::filesystem;
  fs::path self = fs::canonical("/proc/self/exe");
  fs::path stk = self.parent_path().parent_path() / "engine" / "stk";
  if (!fs::exists(stk)) throw InputError("--bench-signature auto: no engine binary at " + stk.string());
  FILE* p = popen(("'" + stk.string() + "' bench 2>&1").c_str(), "r");
  if (!p) throw InputError("--bench-signature auto: cannot run " + stk.string());
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  pclose(p);
  auto at = out.rfind("Nodes searched");
  auto colon = at == std::string::npos ? at : out.find(':', at);
  if (colon == std::string::npos)
    throw InputError("--bench-signature auto: '" + stk.string() + " bench' printed no 'Nodes searched: N'");
  return std::stoull(out.substr(colon + 1));
}

// --bench-signature: N, or "auto" (run `stk bench`).
const CLI::Validator kBenchSignature(
    [](std::string& v) -> std::string {
      if (v == "auto") return "";
      std::size_t end = 0;
      try {
        if (std::stoull(v, &end) <= (1ULL << 62) && end == v.size() && v[0] != '-') return "";
      } catch (const std::exception&) {
      }
      return "must be a node count or 'auto', got '" + v + "'";
    },
    "N|auto", "bench signature");

std::optional<std::uint64_t> bench_signature(const std::string& given) {
  if (given.empty()) return std::nullopt;
  if (given == "auto") return run_bench();
  return std::stoull(given);
}

// Searches each position with fresh engine state and judges the answer.
std::vector<PositionResult> run_positions(EngineDriver& engine, const std::vector<const EpdPosition*>& todo,
                                          const Budget& budget, bool quiet) {
  std::vector<PositionResult> out;
  int solved = 0;
  for (std::size_t i = 0; i < todo.size(); ++i) {
    const EpdPosition& p = *todo[i];
    Position pos;
    pos.set(p.full_fen());
    PositionResult r;
    try {
      r = judge(p, engine.search(pos, p.full_fen(), budget));
    } catch (const std::runtime_error& e) {
      r = judge(p, SearchOutcome{});
      r.error = std::string("engine failed: ") + e.what();
    }
    solved += r.solved;
    if (!quiet)
      std::cout << fmt::format("[{}/{}] {:<10} {:<14} best {:<8} {:<8} depth {:>2} nodes {:>9} {:.2f}s  ({} solved)\n",
                               i + 1, todo.size(), r.name,
                               (r.bm.empty() ? "am " + fmt::format("{}", fmt::join(r.am, " "))
                                             : "bm " + fmt::format("{}", fmt::join(r.bm, " "))),
                               r.best_san.empty() ? r.best_uci : r.best_san,
                               r.error.empty() ? (r.solved ? "solved" : "-") : "ERROR", r.depth,
                               r.nodes, r.time_s, solved)
                << std::flush;
    out.push_back(std::move(r));
  }
  return out;
}

std::unique_ptr<EngineDriver> open_engine(const std::string& which, std::size_t hash_mb,
                                          const std::vector<std::pair<std::string, std::string>>& opts) {
  if (which == "inprocess") return make_inprocess_engine(hash_mb, opts);
  try {
    return make_uci_engine(which, hash_mb, opts);
  } catch (const InputError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
}

std::vector<const EpdPosition*> select(const std::vector<EpdPosition>& all, int stride) {
  std::vector<const EpdPosition*> out;
  for (const EpdPosition& p : all)
    if (p.index % stride == 0) out.push_back(&p);
  return out;
}

RunMeta base_meta(const std::string& epd_file, const std::string& config, const EngineDriver& engine,
                  const Budget& budget, int stride, int selected) {
  RunMeta m;
  m.config = config;
  m.suite = std::filesystem::path(epd_file).stem().string();
  m.epd_file = epd_file;
  m.engine = engine.name();
  m.engine_settings = engine.settings();
  m.budget = budget;
  m.stride = stride;
  m.selected = selected;
  m.git_revision = build_info::git_revision();
  return m;
}

std::vector<std::pair<std::string, std::string>> echo(const CLI::App& app) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& [k, v] : given_options(app)) out.emplace_back("input." + k, v);
  return out;
}

// Prints what --update-golden changes: solved-set differences and the summary counts.
void print_golden_diff(const std::string& path, const RunResults* old, const RunResults& now) {
  std::cout << "golden " << path << ":\n";
  if (!old) {
    std::cout << "  created: " << now.solved() << " solved of " << now.positions.size() << " ("
              << now.meta.budget.label() << ")\n";
    return;
  }
  std::map<std::string, bool> before;
  for (const auto& p : old->positions) before[p.name] = p.solved;
  std::vector<std::string> gained, lost, added;
  std::set<std::string> seen;
  for (const auto& p : now.positions) {
    seen.insert(p.name);
    auto it = before.find(p.name);
    if (it == before.end()) added.push_back(p.name);
    else if (it->second && !p.solved) lost.push_back(p.name);
    else if (!it->second && p.solved) gained.push_back(p.name);
  }
  int dropped = 0;
  for (const auto& p : old->positions) dropped += !seen.count(p.name);
  auto list = [](const std::vector<std::string>& v) { return fmt::format("{}", fmt::join(v, " ")); };
  std::cout << fmt::format("  budget {} -> {}; solved {} / {} -> {} / {}\n", old->meta.budget.label(),
                           now.meta.budget.label(), old->solved(), old->positions.size(), now.solved(),
                           now.positions.size());
  auto bench = [](const RunResults& r) {
    return r.meta.bench_signature ? std::to_string(*r.meta.bench_signature) : std::string("unknown");
  };
  std::cout << "  bench signature " << bench(*old) << " -> " << bench(now) << "\n";
  std::cout << "  - no longer solved (" << lost.size() << "): " << list(lost) << "\n";
  std::cout << "  + newly solved (" << gained.size() << "): " << list(gained) << "\n";
  if (!added.empty()) std::cout << "  positions added: " << added.size() << "\n";
  if (dropped) std::cout << "  positions dropped: " << dropped << "\n";
}

}  // namespace

int run_epd(int argc, char** argv) {
  CLI::App app{"Tactical suites (bm/am, SAN) at fixed depth or fixed nodes, for the in-process engine or any UCI\n"
               "engine: a position solved in --baseline and failed now is a regression (exit 1).\n"
               "Report: reports/junit/epd-CONFIG.xml, reports/epd/CONFIG.{json,md} (-shardK with --shard).",
               "stk-harness epd"};
  SuiteOptions o;
  std::string engine_name = "inprocess", baseline_path, shard_text = "1/1", bench_text;
  int min_solved = -1;
  bool update = false;
  add_suite_options(app, o, "UCI option (repeatable), e.g. 'Use NNUE=false'; the in-process engine takes FHPredictor,\n"
                            "FHModel, FHLmrTier1, FHLmrTier2, FHStaticNull");
  app.add_option("--engine", engine_name, "'inprocess' or the path of a UCI engine")->capture_default_str();
  app.add_option("--baseline", baseline_path, "results JSON of an earlier run: a position solved there and failed now fails");
  app.add_option("--min-solved", min_solved, "without a baseline gate: fail if fewer than N positions are solved")
      ->check(CLI::Range(0, 1000000));
  app.add_option("--shard", shard_text, "take the selected positions i with i % N == K-1 (combine with 'merge')")
      ->check(shard_check());
  app.add_option("--config", o.config, "report name (default <suite>-<sd|sn><N>)");
  app.add_option("--bench-signature", bench_text, "record the engine's bench node count (N, or 'auto': run 'stk bench')")
      ->check(kBenchSignature);
  app.add_flag("--update-golden", update, "write this run's results to the --baseline file and print the diff");
  // The report name: "<config>" or "<config>-shard<K>".
  auto stem_of = [](const std::string& config, const std::string& shard) {
    const Shard s = parse_shard(shard);
    return config + (s.count > 1 ? "-shard" + std::to_string(s.index) : "");
  };
  // A parse error owes the report only when --config names it (the default name needs the budget).
  auto declare_given = [&] {
    const std::string config = given_value(app, "--config", "");
    if (config.empty()) return;
    std::string shard = given_value(app, "--shard", "1/1");
    try {
      shard = stem_of(config, shard);
    } catch (const UsageError&) {
      shard = config;
    }
    declare_junit_report(given_value(app, "--out-dir", "reports"), shard);
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    const Shard shard = parse_shard(shard_text);
    // The report is owed as soon as its name is known: now with --config, else once the budget is.
    if (!o.config.empty()) declare_junit_report(o.out_dir, stem_of(o.config, shard_text));
    const std::string epd_file = o.epd_file;
    const Budget budget = parse_budget(app, o);
    const bool config_given = !o.config.empty();
    const std::string config = config_given ? o.config : default_config("", epd_file, budget);
    if (!config_given) declare_junit_report(o.out_dir, stem_of(config, shard_text));
    const auto options = parse_options(o.options);
    const std::size_t hash_mb = o.hash_mb;
    const int stride = o.stride;
    if (update && baseline_path.empty()) throw UsageError("--update-golden needs --baseline FILE (the golden file to write)");
    if (update && shard.count > 1) throw UsageError("--update-golden needs the whole suite, not a shard");

    // 1. Inputs, all checked before any search: suite, baseline, engine.
    const std::vector<EpdPosition> suite = read_epd_file(epd_file);
    std::optional<RunResults> baseline;
    if (!baseline_path.empty() && (!update || std::filesystem::exists(baseline_path))) {
      baseline = read_results(baseline_path);
      if (!update && (baseline->meta.budget.kind != budget.kind || baseline->meta.budget.value != budget.value))
        throw InputError(fmt::format("baseline {} was made at {}, this run is {}: not comparable",
                                     baseline_path, baseline->meta.budget.label(), budget.label()));
    }
    auto bench = bench_signature(bench_text);
    auto engine = open_engine(engine_name, hash_mb, options);

    // 2. The slice: every stride-th position, then this shard's share of those.
    auto selected = select(suite, stride);
    std::vector<const EpdPosition*> todo;
    for (std::size_t i = 0; i < selected.size(); ++i)
      if (shard.takes(i)) todo.push_back(selected[i]);

    // 3. Search and judge.
    RunResults run;
    run.meta = base_meta(epd_file, config, *engine, budget, stride, int(selected.size()));
    run.meta.shard = shard.label();
    run.meta.bench_signature = bench;
    run.meta.min_solved = min_solved;
    if (!update) run.meta.baseline_file = baseline_path;
    run.positions = run_positions(*engine, todo, budget, o.quiet);

    // 4. Reports and the gate.
    const std::string stem = stem_of(config, shard_text);
    Published pub = publish(run, update ? nullptr : baseline ? &*baseline : nullptr, echo(app), o.out_dir, stem);
    std::cout << pub.summary << "\nreports: " << pub.junit_path << ", " << pub.json_path << "\n";
    if (update) {
      write_text_file(baseline_path, to_json(run, std::nullopt, true).dump(2) + "\n");
      print_golden_diff(baseline_path, baseline ? &*baseline : nullptr, run);
      return pub.exit_code;
    }
    return pub.exit_code;
  } catch (...) {
    return input_failure("stk-harness epd", app.help().c_str());
  }
}

int run_merge(int argc, char** argv) {
  // Match result files (kind "stk-match-result") are merged by the match harness.
  for (int i = 1; i < argc; ++i)
    if (std::filesystem::is_regular_file(argv[i]) && match::names_match_kind(argv[i])) return run_match_merge(argc, argv);
  CLI::App app{"Combines the JSON results of 'stk-harness epd --shard K/N' runs (every K of one N) into the report\n"
               "an unsharded run would have written: reports/epd/OUT_CONFIG.{json,md}, reports/junit/epd-OUT_CONFIG.xml.\n"
               "The baseline and min-solved recorded by the shards are used unless given here.\n"
               "(Given match result files instead, runs 'stk-harness match-merge'.)",
               "stk-harness merge"};
  std::string config, out_dir = "reports", baseline_option;
  std::vector<std::string> files;
  int min_solved = -1;
  app.add_option("OUT_CONFIG", config, "name of the merged report")->required();
  app.add_option("SHARD_JSON", files, "results of every shard (reports/epd/CONFIG-shardK.json)")->required();
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  app.add_option("--baseline", baseline_option, "baseline results JSON (default: the shards')");
  app.add_option("--min-solved", min_solved, "fail if fewer than N are solved (default: the shards')")
      ->check(CLI::Range(0, 1000000));
  auto declare_given = [&] {
    if (const std::string c = given_value(app, "OUT_CONFIG", ""); !c.empty())
      declare_junit_report(given_value(app, "--out-dir", "reports"), c);
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    declare_junit_report(out_dir, config);
    std::vector<std::string> pos = {config};  // pos[i + 1] is the file of parts[i]
    pos.insert(pos.end(), files.begin(), files.end());
    std::vector<RunResults> parts;
    for (const std::string& f : files) parts.push_back(read_results(f));

    // Every shard must come from the same run definition, and together cover it exactly once.
    const RunMeta& first = parts[0].meta;
    int count = 0;
    std::set<int> shard_seen;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const RunMeta& m = parts[i].meta;
      const std::string& file = pos[i + 1];
      auto differs = [&](const std::string& what, const std::string& a, const std::string& b) {
        if (a != b)
          throw InputError(fmt::format("{}: {} '{}' differs from {}'s '{}': not shards of one run", file,
                                       what, b, pos[1], a));
      };
      differs("suite file", first.epd_file, m.epd_file);
      differs("engine", first.engine, m.engine);
      differs("budget", first.budget.label(), m.budget.label());
      differs("stride", std::to_string(first.stride), std::to_string(m.stride));
      differs("git revision", first.git_revision, m.git_revision);
      differs("baseline", first.baseline_file, m.baseline_file);
      differs("min-solved", std::to_string(first.min_solved), std::to_string(m.min_solved));
      differs("selected count", std::to_string(first.selected), std::to_string(m.selected));
      auto settings = [](const RunMeta& r) {
        std::string s;
        for (const auto& [k, v] : r.engine_settings) s += k + "=" + v + ",";
        return s;
      };
      differs("engine settings", settings(first), settings(m));
      Shard s = parse_shard(m.shard);
      if (count == 0) count = s.count;
      if (s.count != count)
        throw InputError(fmt::format("{}: shard {} is not one of {} shards", file, m.shard, count));
      if (!shard_seen.insert(s.index).second)
        throw InputError(fmt::format("{}: shard {} given twice", file, m.shard));
    }
    if (int(shard_seen.size()) != count)
      throw InputError(fmt::format("{} of {} shards given: a merge needs every shard", shard_seen.size(), count));

    RunResults run;
    run.meta = first;
    run.meta.config = config;
    run.meta.shard = "1/1";
    if (!baseline_option.empty()) run.meta.baseline_file = baseline_option;
    if (min_solved >= 0) run.meta.min_solved = min_solved;
    std::set<int> index_seen;
    for (const RunResults& part : parts)
      for (const PositionResult& p : part.positions) {
        if (!index_seen.insert(p.index).second)
          throw InputError(fmt::format("position {} ({}) appears in two shards", p.index, p.name));
        run.positions.push_back(p);
      }
    if (int(run.positions.size()) != first.selected)
      throw InputError(fmt::format("the shards hold {} positions, the run selected {}", run.positions.size(),
                                   first.selected));
    std::sort(run.positions.begin(), run.positions.end(),
              [](const PositionResult& a, const PositionResult& b) { return a.index < b.index; });

    std::optional<RunResults> baseline;
    if (!run.meta.baseline_file.empty()) baseline = read_results(run.meta.baseline_file);
    auto props = echo(app);
    props.emplace_back("merged_shards", std::to_string(count));
    Published pub = publish(run, baseline ? &*baseline : nullptr, props, out_dir, config);
    std::cout << pub.summary << "\nreports: " << pub.junit_path << ", " << pub.json_path << "\n";
    return pub.exit_code;
  } catch (...) {
    return input_failure("stk-harness merge", app.help().c_str());
  }
}

int run_epd_compare(int argc, char** argv) {
  CLI::App app{"Runs the in-process engine and the reference through the same harness code and prints both solved\n"
               "counts and total nodes side by side; writes both reports (<config>-stk, <config>-reference). A\n"
               "measurement, not a gate. The in-process engine takes the fail-high predictor's options, so\n"
               "'--reference inprocess --option FHPredictor=true' compares the predictor on (reference) with off (stk).",
               "stk-harness epd-compare"};
  SuiteOptions o;
  std::string reference;
  std::vector<std::string> stk_options;
  add_suite_options(app, o, "UCI option of the reference (repeatable)");
  app.add_option("--reference", reference, "UCI engine, or 'inprocess'")->required();
  app.add_option("--stk-option", stk_options, "option of the in-process side (repeatable)")->check(kNameValue);
  app.add_option("--config", o.config, "report name (default compare-<suite>-<sd|sn><N>)");
  auto declare_both = [](const std::string& out_dir, const std::string& config) {
    for (const char* side : {"-stk", "-reference"}) declare_junit_report(out_dir, config + side);
  };
  auto declare_given = [&] {
    if (const std::string c = given_value(app, "--config", ""); !c.empty())
      declare_both(given_value(app, "--out-dir", "reports"), c);
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    const std::string out_dir = o.out_dir, epd_file = o.epd_file;
    if (!o.config.empty()) declare_both(out_dir, o.config);
    const Budget budget = parse_budget(app, o);
    const std::string config = o.config.empty() ? default_config("compare-", epd_file, budget) : o.config;
    if (o.config.empty()) declare_both(out_dir, config);
    const auto options = parse_options(o.options);
    const std::size_t hash_mb = o.hash_mb;
    const int stride = o.stride;
    const std::vector<EpdPosition> suite = read_epd_file(epd_file);
    auto selected = select(suite, stride);

    struct Side {
      std::string label;
      std::unique_ptr<EngineDriver> engine;
      RunResults run;
      Published pub;
    };
    Side sides[2];
    sides[0].label = "stk";
    sides[0].engine = open_engine("inprocess", hash_mb, parse_options(stk_options));
    sides[1].label = "reference";
    sides[1].engine = open_engine(reference, hash_mb, options);
    int worst = 0;
    for (Side& s : sides) {
      std::cout << "== " << s.label << ": " << s.engine->name() << "\n" << std::flush;
      s.run.meta = base_meta(epd_file, config + "-" + s.label, *s.engine, budget, stride, int(selected.size()));
      s.run.positions = run_positions(*s.engine, selected, budget, o.quiet);
      s.pub = publish(s.run, nullptr, echo(app), out_dir, config + "-" + s.label);
      worst = std::max(worst, s.pub.exit_code);
    }

    int both = 0, only[2] = {0, 0};
    for (std::size_t i = 0; i < selected.size(); ++i) {
      bool a = sides[0].run.positions[i].solved, b = sides[1].run.positions[i].solved;
      both += a && b;
      only[0] += a && !b;
      only[1] += b && !a;
    }
    auto total = [](const RunResults& r, bool time) {
      double t = 0;
      std::uint64_t n = 0;
      for (const auto& p : r.positions) t += p.time_s, n += p.nodes;
      return time ? fmt::format("{:.1f} s", t) : std::to_string(n);
    };
    std::cout << fmt::format("\nepd-compare {} ({} positions, {})\n", sides[0].run.meta.suite,
                             selected.size(), budget.label())
              << fmt::format("{:<14} {:>28} {:>28}\n", "", sides[0].engine->name(), sides[1].engine->name())
              << fmt::format("{:<14} {:>28} {:>28}\n", "solved",
                             fmt::format("{} / {}", sides[0].run.solved(), selected.size()),
                             fmt::format("{} / {}", sides[1].run.solved(), selected.size()))
              << fmt::format("{:<14} {:>28} {:>28}\n", "solved alone", only[0], only[1])
              << fmt::format("{:<14} {:>28} {:>28}\n", "total nodes", total(sides[0].run, false),
                             total(sides[1].run, false))
              << fmt::format("{:<14} {:>28} {:>28}\n", "total time", total(sides[0].run, true),
                             total(sides[1].run, true))
              << fmt::format("solved by both: {}\nreports: {}, {}\n", both, sides[0].pub.json_path,
                             sides[1].pub.json_path);
    return worst;
  } catch (...) {
    return input_failure("stk-harness epd-compare", app.help().c_str());
  }
}

}  // namespace stk::harness
