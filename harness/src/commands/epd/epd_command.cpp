// stk-harness epd: tactical suites (bm/am, SAN) at fixed depth or fixed nodes, for the in-process
// engine or any UCI engine, gated against a golden baseline.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "commands.h"
#include "epd/epd_report.h"
#include "epd/epd_results.h"
#include "epd/suite_run.h"
#include "proc/process.h"
#include "report/summary_files.h"
#include "common/counts.h"

namespace stk::harness {

namespace {

using namespace epd;

// "Nodes searched : N" from `stk bench`, the engine binary built beside this one.
std::uint64_t run_bench() {
  namespace fs = std::filesystem;
  fs::path self = fs::canonical("/proc/self/exe");
  fs::path stk = self.parent_path().parent_path() / "engine" / "stk";
  if (!fs::exists(stk))
    throw InputError("--bench-signature auto: no engine binary at " + stk.string());
  const std::string out = proc::run({stk.string(), "bench"}).output;
  auto at = out.rfind("Nodes searched");
  auto colon = at == std::string::npos ? at : out.find(':', at);
  if (colon == std::string::npos)
    throw InputError("--bench-signature auto: '" + stk.string() +
                     " bench' printed no 'Nodes searched: N'");
  const std::string_view rest = std::string_view(out).substr(colon + 1);
  const auto count = parse_count_field(rest.substr(0, rest.find('\n')));
  if (!count)
    throw InputError("--bench-signature auto: '" + stk.string() +
                     " bench' printed no count after 'Nodes searched:'");
  return *count;
}

// --bench-signature: N, or "auto" (run `stk bench`).
const CLI::Validator kBenchSignature(
    [](std::string& v) -> std::string {
      if (v == "auto") return "";
      if (auto n = parse_count(v); n && *n <= (1ULL << 62)) return "";
      return "must be a node count or 'auto', got '" + v + "'";
    },
    "N|auto", "bench signature");

std::optional<std::uint64_t> bench_signature(const std::string& given) {
  if (given.empty()) return std::nullopt;
  if (given == "auto") return run_bench();
  return parse_count(given).value();  // kBenchSignature let only counts through
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
  auto list = [](const std::vector<std::string>& v) {
    return fmt::format("{}", fmt::join(v, " "));
  };
  std::cout << fmt::format("  budget {} -> {}; solved {} / {} -> {} / {}\n",
                           old->meta.budget.label(), now.meta.budget.label(), old->solved(),
                           old->positions.size(), now.solved(), now.positions.size());
  auto bench = [](const RunResults& r) {
    return r.meta.bench_signature ? std::to_string(*r.meta.bench_signature)
                                  : std::string("unknown");
  };
  std::cout << "  bench signature " << bench(*old) << " -> " << bench(now) << "\n";
  std::cout << "  - no longer solved (" << lost.size() << "): " << list(lost) << "\n";
  std::cout << "  + newly solved (" << gained.size() << "): " << list(gained) << "\n";
  if (!added.empty()) std::cout << "  positions added: " << added.size() << "\n";
  if (dropped) std::cout << "  positions dropped: " << dropped << "\n";
}

// The report name: "<config>" or "<config>-shard<K>".
std::string report_stem(const std::string& config, const std::string& shard) {
  const Shard s = parse_shard(shard);
  return config + (s.count > 1 ? "-shard" + std::to_string(s.index) : "");
}

// The options of epd beyond the suite options: the engine, the baseline and its gates, the shard.
struct EpdOptions {
  std::string engine_name = "inprocess", baseline_path, shard_text = "1/1", bench_text;
  int min_solved = -1;
  bool update = false;
};

void add_epd_options(CLI::App& app, SuiteOptions& o, EpdOptions& e) {
  add_suite_options(
      app, o,
      "UCI option (repeatable), e.g. 'Use NNUE=false'; the in-process engine takes FHPredictor,\n"
      "FHModel, FHLmrTier1, FHLmrTier2, FHStaticNull");
  app.add_option("--engine", e.engine_name,
                 "'inprocess', or a UCI engine: a path or CMD ARGS (docs/uci.md)")
      ->check(engine_command_check())
      ->capture_default_str();
  app.add_option("--baseline", e.baseline_path,
                 "results JSON of an earlier run: a position solved there and failed now fails");
  app.add_option("--min-solved", e.min_solved,
                 "without a baseline gate: fail if fewer than N positions are solved")
      ->check(CLI::Range(0, kMaxMinSolved));
  app.add_option("--shard", e.shard_text,
                 "take the selected positions i with i % N == K-1 (combine with 'merge')")
      ->check(shard_check());
  app.add_option("--config", o.config, "report name (default <suite>-<sd|sn><N>)");
  app.add_option("--bench-signature", e.bench_text,
                 "record the engine's bench node count (N, or 'auto': run 'stk bench')")
      ->check(kBenchSignature);
  app.add_flag("--update-golden", e.update,
               "write this run's results to the --baseline file and print the diff");
}

// A parse error owes the report only when --config names it (the default name needs the budget).
void declare_given_report(const CLI::App& app) {
  const std::string config = given_value(app, "--config", "");
  if (config.empty()) return;
  std::string shard = given_value(app, "--shard", "1/1");
  try {
    shard = report_stem(config, shard);
  } catch (const UsageError&) {
    shard = config;
  }
  declare_junit_report(given_value(app, "--out-dir", "reports"), shard);
}

// The baseline to judge against (none without --baseline, or when --update-golden creates it);
// InputError when it was made at another budget.
std::optional<RunResults> read_baseline(const EpdOptions& e, const Budget& budget) {
  std::optional<RunResults> baseline;
  const std::string& baseline_path = e.baseline_path;
  const bool update = e.update;
  if (!baseline_path.empty() && (!update || std::filesystem::exists(baseline_path))) {
    baseline = read_results(baseline_path);
    if (!update &&
        (baseline->meta.budget.kind != budget.kind || baseline->meta.budget.value != budget.value))
      throw InputError(fmt::format("baseline {} was made at {}, this run is {}: not comparable",
                                   baseline_path, baseline->meta.budget.label(), budget.label()));
  }
  return baseline;
}

}  // namespace

int run_epd(int argc, char** argv) {
  CLI::App app{
      "Tactical suites (bm/am, SAN) at fixed depth or fixed nodes, for the in-process engine or any UCI\n"
      "engine: a position solved in --baseline and failed now is a regression (exit 1).\n"
      "Report: reports/junit/epd-CONFIG.xml, reports/epd/CONFIG.{json,md} (-shardK with --shard).",
      "stk-harness epd"};
  SuiteOptions o;
  EpdOptions e;
  add_epd_options(app, o, e);
  if (auto status = parse_cli_or_report(app, argc, argv, [&] { declare_given_report(app); }))
    return *status;
  try {
    const Shard shard = parse_shard(e.shard_text);
    // The report is owed as soon as its name is known: now with --config, else once the budget is.
    if (!o.config.empty()) declare_junit_report(o.out_dir, report_stem(o.config, e.shard_text));
    const std::string epd_file = o.epd_file;
    const Budget budget = parse_budget(app, o);
    const bool config_given = !o.config.empty();
    const std::string config = config_given ? o.config : default_config("", epd_file, budget);
    if (!config_given) declare_junit_report(o.out_dir, report_stem(config, e.shard_text));
    const auto options = parse_options(o.options);
    const std::size_t hash_mb = o.hash_mb;
    const int stride = o.stride;
    if (e.update && e.baseline_path.empty())
      throw UsageError("--update-golden needs --baseline FILE (the golden file to write)");
    if (e.update && shard.count > 1)
      throw UsageError("--update-golden needs the whole suite, not a shard");

    // 1. Inputs, all checked before any search: suite, baseline, engine.
    const std::vector<EpdPosition> suite = read_epd_file(epd_file);
    const std::optional<RunResults> baseline = read_baseline(e, budget);
    auto bench = bench_signature(e.bench_text);
    auto engine = open_engine(e.engine_name, hash_mb, options);

    // 2. The slice: every stride-th position, then this shard's share of those.
    auto selected = select_stride(suite, stride);
    std::vector<const EpdPosition*> todo;
    for (std::size_t i = 0; i < selected.size(); ++i)
      if (shard.takes(i)) todo.push_back(selected[i]);

    // 3. Search and judge.
    RunResults run;
    run.meta = base_meta(epd_file, config, *engine, budget, stride, int(selected.size()));
    run.meta.shard = shard.label();
    run.meta.bench_signature = bench;
    run.meta.min_solved = e.min_solved;
    if (!e.update) run.meta.baseline_file = e.baseline_path;
    run.positions = run_positions(*engine, todo, budget, o.quiet);

    // 4. Reports and the gate.
    const std::string stem = report_stem(config, e.shard_text);
    Published pub = publish(run,
                            e.update   ? nullptr
                            : baseline ? &*baseline
                                       : nullptr,
                            echo(app), o.out_dir, stem);
    std::cout << pub.summary << "\nreports: " << pub.junit_path << ", " << pub.json_path << "\n";
    if (e.update) {
      write_text_file(e.baseline_path, to_json(run, std::nullopt, true).dump(2) + "\n");
      print_golden_diff(e.baseline_path, baseline ? &*baseline : nullptr, run);
      return pub.exit_code;
    }
    return pub.exit_code;
  } catch (...) {
    return input_failure("stk-harness epd", app.help().c_str());
  }
}

}  // namespace stk::harness
