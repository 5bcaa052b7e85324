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
#include "common/cli.h"
#include "epd/engine_driver.h"
#include "epd/epd_report.h"
#include "epd/epd_results.h"
#include "epd/epd_suite.h"
#include "match/match_result_file.h"
#include "report/build_info.h"
#include "report/summary_files.h"

namespace stk::harness {

namespace {

using namespace epd;

constexpr const char* kUsage =
    "usage: stk-harness epd --epd FILE (--depth N | --nodes N) [--engine inprocess|PATH]\n"
    "                       [--option NAME=VALUE]... [--hash MB] [--baseline FILE] [--min-solved N]\n"
    "                       [--stride S] [--shard K/N] [--config NAME] [--out-dir DIR]\n"
    "                       [--bench-signature N|auto] [--update-golden] [--quiet]\n"
    "  --epd FILE        suite with bm/am (SAN) and id operations, e.g. $STK_SHARED/suites/ECM.epd\n"
    "  --depth N         fixed depth per position (sd: tests tree shape at fixed effort)\n"
    "  --nodes N         fixed node budget per position (sn: tests accuracy at fixed cost)\n"
    "  --engine E        'inprocess' (default) or the path of a UCI engine\n"
    "  --option N=V      UCI option (repeatable), e.g. 'Use NNUE=false'; the in-process engine takes\n"
    "                    FHPredictor, FHModel, FHLmrTier1, FHLmrTier2, FHStaticNull\n"
    "  --hash MB         hash size (default 16); Threads is always 1; state is cleared per position\n"
    "  --baseline FILE   results JSON of an earlier run: a position solved there and failed now fails\n"
    "  --min-solved N    without a baseline gate: fail if fewer than N positions are solved\n"
    "  --stride S        take every S-th position of the file (index % S == 0), default 1\n"
    "  --shard K/N       take the selected positions i with i % N == K-1 (combine with 'merge')\n"
    "  --config NAME     report name (default <suite>-<sd|sn><N>)\n"
    "  --bench-signature record the engine's bench node count (N, or 'auto': run 'stk bench')\n"
    "  --update-golden   write this run's results to the --baseline file and print the diff\n";

constexpr const char* kMergeUsage =
    "usage: stk-harness merge OUT_CONFIG SHARD.json... [--out-dir DIR] [--baseline FILE]\n"
    "                         [--min-solved N]\n"
    "  (Given match result files instead, runs 'stk-harness match-merge'.)\n"
    "  Combines the JSON results of 'stk-harness epd --shard K/N' runs (every K of one N) into the\n"
    "  report an unsharded run would have written: reports/epd/OUT_CONFIG.json/.md and\n"
    "  reports/junit/epd-OUT_CONFIG.xml. The baseline and min-solved recorded by the shards are\n"
    "  used unless given here.\n";

constexpr const char* kCompareUsage =
    "usage: stk-harness epd-compare --epd FILE (--nodes N | --depth N) --reference UCI_ENGINE|inprocess\n"
    "                               [--option NAME=VALUE]... [--stk-option NAME=VALUE]... [--hash MB]\n"
    "                               [--stride S] [--config NAME] [--out-dir DIR] [--quiet]\n"
    "  Runs the in-process engine and the reference through the same harness code and prints\n"
    "  both solved counts and total nodes side by side; writes both JSON/Markdown/JUnit reports\n"
    "  (<config>-stk, <config>-reference). A measurement, not a gate.\n"
    "  --option applies to the reference, --stk-option to the in-process side. The in-process\n"
    "  engine takes the fail-high predictor's options, so '--reference inprocess --option\n"
    "  FHPredictor=true' compares the predictor on (reference) with off (stk).\n";

std::vector<std::pair<std::string, std::string>> parse_options(const std::vector<std::string>& raw) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& o : raw) {
    auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--option must be NAME=VALUE, got '" + o + "'");
    out.emplace_back(o.substr(0, eq), o.substr(eq + 1));
  }
  return out;
}

Budget parse_budget(const Args& args) {
  if (args.has("depth") == args.has("nodes"))
    throw UsageError("give exactly one of --depth N (sd) and --nodes N (sn)");
  Budget b;
  if (args.has("depth")) {
    b.kind = Budget::Kind::Depth;
    b.value = std::uint64_t(args.get_int("depth", 0, 1, 120));
  } else {
    b.kind = Budget::Kind::Nodes;
    b.value = std::uint64_t(args.get_int("nodes", 0, 1, 1LL << 40));
  }
  return b;
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

std::optional<std::uint64_t> bench_signature(const Args& args) {
  if (!args.has("bench-signature")) return std::nullopt;
  if (args.get("bench-signature") == "auto") return run_bench();
  return std::uint64_t(args.get_int("bench-signature", 0, 0, 1LL << 62));
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

std::vector<std::pair<std::string, std::string>> echo(const Args& args) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& [k, v] : args.echo()) out.emplace_back("input." + k, v);
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
  try {
    Args args(argc, argv,
              {"epd", "depth", "nodes", "engine", "option", "hash", "baseline", "min-solved",
               "stride", "shard", "config", "out-dir", "bench-signature"},
              {"help", "update-golden", "quiet"});
    if (args.has("help")) return std::cout << kUsage, 0;
    const std::string out_dir = args.get("out-dir", "reports");
    const Shard shard = parse_shard(args.get("shard", "1/1"));
    auto stem_of = [&](const std::string& config) {
      return config + (shard.count > 1 ? "-shard" + std::to_string(shard.index) : "");
    };
    // The report is owed as soon as its name is known: now with --config, else once the budget is.
    if (args.has("config")) declare_junit_report(out_dir, stem_of(args.get("config")));
    if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
    if (!args.has("epd")) throw UsageError("--epd FILE is required");
    const std::string epd_file = args.get("epd");
    const Budget budget = parse_budget(args);
    const std::string config =
        args.get("config", std::filesystem::path(epd_file).stem().string() + "-" + budget.tag() +
                               std::to_string(budget.value));
    if (!args.has("config")) declare_junit_report(out_dir, stem_of(config));
    const auto options = parse_options(args.all("option"));
    const auto hash_mb = std::size_t(args.get_int("hash", 16, 1, 65536));
    const int stride = int(args.get_int("stride", 1, 1, 1000000));
    const int min_solved = int(args.get_int("min-solved", -1, 0, 1000000));
    const bool update = args.has("update-golden");
    const std::string baseline_path = args.get("baseline");
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
    auto bench = bench_signature(args);
    auto engine = open_engine(args.get("engine", "inprocess"), hash_mb, options);

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
    run.positions = run_positions(*engine, todo, budget, args.has("quiet"));

    // 4. Reports and the gate.
    const std::string stem = stem_of(config);
    Published pub = publish(run, update ? nullptr : baseline ? &*baseline : nullptr, echo(args), out_dir, stem);
    std::cout << pub.summary << "\nreports: " << pub.junit_path << ", " << pub.json_path << "\n";
    if (update) {
      write_text_file(baseline_path, to_json(run, std::nullopt, true));
      print_golden_diff(baseline_path, baseline ? &*baseline : nullptr, run);
      return pub.exit_code;
    }
    return pub.exit_code;
  } catch (...) {
    return input_failure("stk-harness epd", kUsage);
  }
}

int run_merge(int argc, char** argv) {
  // Match result files (kind "stk-match-result") are merged by the match harness.
  for (int i = 1; i < argc; ++i)
    if (std::filesystem::is_regular_file(argv[i]) && match::is_match_result_file(argv[i])) return run_match_merge(argc, argv);
  try {
    Args args(argc, argv, {"out-dir", "baseline", "min-solved"}, {"help"});
    if (args.has("help")) return std::cout << kMergeUsage, 0;
    const auto& pos = args.positional();
    if (pos.empty()) throw UsageError("need OUT_CONFIG and at least one shard JSON file");
    const std::string config = pos[0];
    declare_junit_report(args.get("out-dir", "reports"), config);
    if (pos.size() < 2) throw UsageError("need OUT_CONFIG and at least one shard JSON file");
    std::vector<RunResults> parts;
    for (std::size_t i = 1; i < pos.size(); ++i) parts.push_back(read_results(pos[i]));

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
    if (args.has("baseline")) run.meta.baseline_file = args.get("baseline");
    if (args.has("min-solved")) run.meta.min_solved = int(args.get_int("min-solved", -1, 0, 1000000));
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
    auto props = echo(args);
    props.emplace_back("merged_shards", std::to_string(count));
    Published pub = publish(run, baseline ? &*baseline : nullptr, props, args.get("out-dir", "reports"), config);
    std::cout << pub.summary << "\nreports: " << pub.junit_path << ", " << pub.json_path << "\n";
    return pub.exit_code;
  } catch (...) {
    return input_failure("stk-harness merge", kMergeUsage);
  }
}

int run_epd_compare(int argc, char** argv) {
  try {
    Args args(argc, argv,
              {"epd", "depth", "nodes", "reference", "option", "stk-option", "hash", "stride", "config", "out-dir"},
              {"help", "quiet"});
    if (args.has("help")) return std::cout << kCompareUsage, 0;
    const std::string out_dir = args.get("out-dir", "reports");
    auto declare_both = [&](const std::string& config) {
      for (const char* side : {"-stk", "-reference"}) declare_junit_report(out_dir, config + side);
    };
    if (args.has("config")) declare_both(args.get("config"));
    if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
    if (!args.has("epd")) throw UsageError("--epd FILE is required");
    if (!args.has("reference")) throw UsageError("--reference UCI_ENGINE is required");
    const std::string epd_file = args.get("epd");
    const Budget budget = parse_budget(args);
    const std::string config = args.get(
        "config", "compare-" + std::filesystem::path(epd_file).stem().string() + "-" + budget.tag() +
                      std::to_string(budget.value));
    if (!args.has("config")) declare_both(config);
    const auto options = parse_options(args.all("option"));
    const auto hash_mb = std::size_t(args.get_int("hash", 16, 1, 65536));
    const int stride = int(args.get_int("stride", 1, 1, 1000000));
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
    sides[0].engine = open_engine("inprocess", hash_mb, parse_options(args.all("stk-option")));
    sides[1].label = "reference";
    sides[1].engine = open_engine(args.get("reference"), hash_mb, options);
    int worst = 0;
    for (Side& s : sides) {
      std::cout << "== " << s.label << ": " << s.engine->name() << "\n" << std::flush;
      s.run.meta = base_meta(epd_file, config + "-" + s.label, *s.engine, budget, stride, int(selected.size()));
      s.run.positions = run_positions(*s.engine, selected, budget, args.has("quiet"));
      s.pub = publish(s.run, nullptr, echo(args), out_dir, config + "-" + s.label);
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
    return input_failure("stk-harness epd-compare", kCompareUsage);
  }
}

}  // namespace stk::harness
