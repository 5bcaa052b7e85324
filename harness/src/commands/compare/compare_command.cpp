// stk-harness compare --base A --candidate B: two revisions (each built once in its own worktree),
// the working tree's build, or any UCI engines, measured side by side in one run: bench signature,
// nodes/s from alternating runs, solved-set diff at equal nodes and at equal depth, tree size, and
// with --audits the shadow miss rates and fail-high predictor firing rates. Gates are opt-in.
#include <chrono>
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "commands/compare/compare_audits.h"
#include "commands/compare/compare_report.h"
#include "report/run_report.h"

namespace stk::harness {

namespace {

using namespace compare;

std::vector<std::pair<std::string, std::string>> parse_options(const std::vector<std::string>& raw,
                                                               const std::string& flag) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& o : raw) {
    auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(flag + " must be NAME=VALUE, got '" + o + "'");
    out.emplace_back(o.substr(0, eq), o.substr(eq + 1));
  }
  return out;
}

// The options as given; the *_given flags are set after parsing.
struct CompareOptions {
  std::string base_arg, cand_arg, epd_file = shared_dir() + "/suites/ECM.epd", config,
                                  out_dir = "reports";
  std::vector<std::string> base_opts, cand_opts, gate_names;
  int stride = 1, speed_runs_n = 5, max_regressions = -1;
  std::uint64_t nodes = 100000, speed_nodes = 100000;
  int depth = 9;
  double min_speed_ratio = 0;
  bool audits = false;
  AuditSettings audit;
  bool max_regressions_given = false, min_speed_ratio_given = false;
};

// The gate options, whose presence (not only value) turns a gate on.
struct GateOptions {
  CLI::Option* max_regressions = nullptr;
  CLI::Option* min_speed_ratio = nullptr;
};

GateOptions add_compare_options(CLI::App& app, CompareOptions& o) {
  GateOptions given;
  app.add_option("--base", o.base_arg, "git revision, 'worktree' or UCI engine (path or CMD ARGS)")
      ->required();
  app.add_option("--candidate", o.cand_arg,
                 "git revision, 'worktree' or UCI engine (path or CMD ARGS)")
      ->required();
  app.add_option("--base-option", o.base_opts, "UCI option NAME=VALUE for the base (repeatable)");
  app.add_option("--candidate-option", o.cand_opts,
                 "UCI option NAME=VALUE for the candidate (repeatable)");
  app.add_option("--epd", o.epd_file, "suite with bm/am and id")->capture_default_str();
  app.add_option("--stride", o.stride, "take every S-th position")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  app.add_option("--nodes", o.nodes, "equal-nodes budget per position (sn; 0 skips)")
      ->capture_default_str();
  app.add_option("--depth", o.depth, "equal-depth budget per position (sd; 0 skips)")
      ->capture_default_str()
      ->check(CLI::Range(0, 120));
  app.add_option("--speed-runs", o.speed_runs_n, "alternating nodes/s runs per side (0 skips)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  app.add_option("--speed-nodes", o.speed_nodes, "nodes per bench position in a speed run")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(1000), std::uint64_t(1) << 40));
  app.add_flag("--audits", o.audits,
               "shadow miss rates and predictor firing rates (git revisions or 'worktree' only)");
  app.add_option("--audit-stride", o.audit.stride, "audits: every S-th suite position")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  app.add_option("--audit-depth", o.audit.depth, "audits: shadow depth (collection at depth+1)")
      ->capture_default_str()
      ->check(CLI::Range(2, 30));
  app.add_option("--gate", o.gate_names,
                 "bench-unchanged: a speed-only change (bench and equal-depth trees identical)")
      ->check(CLI::IsMember({"bench-unchanged"}));
  given.max_regressions = app.add_option("--max-regressions", o.max_regressions,
                                         "gate: at most K positions lost at each budget")
                              ->check(CLI::Range(0, 1000000));
  given.min_speed_ratio = app.add_option("--min-speed-ratio", o.min_speed_ratio,
                                         "gate: median candidate/base nodes/s at least R")
                              ->check(CLI::PositiveNumber);
  app.add_option("--config", o.config, "report name (default <base>-vs-<candidate>)");
  app.add_option("--out-dir", o.out_dir, "reports root")->capture_default_str();
  return given;
}

// The opt-in gates; UsageError when one has nothing to judge on.
Gates resolve_gates(const CompareOptions& o) {
  Gates gates;
  gates.bench_unchanged = !o.gate_names.empty();
  if (o.max_regressions_given) gates.max_regressions = o.max_regressions;
  if (o.min_speed_ratio_given) gates.min_speed_ratio = o.min_speed_ratio;
  if (gates.min_speed_ratio && o.speed_runs_n == 0)
    throw UsageError("--min-speed-ratio needs --speed-runs N > 0");
  if (gates.max_regressions && o.nodes == 0 && o.depth == 0)
    throw UsageError("--max-regressions needs --nodes or --depth");
  return gates;
}

// The run's identity and its two sides resolved; UsageError when --audits cannot audit them, and
// InputError for an unreadable suite, before any build.
void resolve_sides(CompareResult& r, const CompareOptions& o, int argc, char** argv) {
  r.config = o.config;
  r.epd_file = o.epd_file;
  r.stride = o.stride;
  for (int i = 1; i < argc; ++i)
    r.properties.emplace_back("input.argv" + std::to_string(i), argv[i]);
  r.base = resolve_side("base", o.base_arg, parse_options(o.base_opts, "--base-option"));
  r.candidate = resolve_side("candidate", o.cand_arg,
                             parse_options(o.cand_opts, "--candidate-option"));
  if (o.audits && (!r.base.is_stk() || !r.candidate.is_stk()))
    throw UsageError(
        "--audits needs git revisions or 'worktree' on both sides (each side's own stk-harness)");
  if (o.audits && (!r.base.options.empty() || !r.candidate.options.empty()))
    throw UsageError(
        "--audits audits each side's defaults: the shadow and collection runs take no UCI options");
  if (o.nodes || o.depth) epd::read_epd_file(o.epd_file);  // a bad suite fails before any build
}

// Builds (reused when already built), then every measurement side by side.
void measure_sides(CompareResult& r, const CompareOptions& o, const Gates& gates,
                   const std::string& self) {
  r.build_s = build_revision(r.base) + build_revision(r.candidate);
  const auto t0 = std::chrono::steady_clock::now();
  r.base_bench = bench_signature(r.base);
  r.candidate_bench = bench_signature(r.candidate);
  if (gates.bench_unchanged && o.depth == 0 && !(r.base_bench.nodes && r.candidate_bench.nodes))
    throw UsageError("--gate bench-unchanged: no bench signature on both sides (" +
                     (r.base_bench.nodes ? r.candidate_bench.note : r.base_bench.note) +
                     ") and --depth 0: nothing to judge the gate on");
  r.speed = speed_runs(r.base, r.candidate, o.speed_runs_n, o.speed_nodes);
  const std::string runs_dir = o.out_dir + "/compare/" + o.config;
  for (auto [kind, value] : {std::pair{epd::Budget::Kind::Nodes, o.nodes},
                             std::pair{epd::Budget::Kind::Depth, std::uint64_t(o.depth)}}) {
    if (value == 0) continue;
    const epd::Budget budget{kind, value};
    const std::string tag = budget.tag() + std::to_string(value);
    auto a = run_suite(self, r.base, o.epd_file, o.stride, budget, runs_dir, "base-" + tag);
    auto b = run_suite(self, r.candidate, o.epd_file, o.stride, budget, runs_dir,
                       "candidate-" + tag);
    r.suites.push_back(diff_suites(budget, std::move(a), std::move(b)));
  }
  AuditSettings audit = o.audit;
  audit.epd_file = o.epd_file;
  if (o.audits) r.audits = run_audits(r.base, r.candidate, audit, runs_dir);
  r.measure_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int run_compare(int argc, char** argv) {
  CLI::App app{
      "Two engines side by side: bench signature, nodes/s (alternating runs), solved-set diff at equal\n"
      "nodes and equal depth, tree size; --audits adds shadow miss rates and predictor firing rates.\n"
      "A side is a git revision (built once with the release preset in build/compare/<commit>),\n"
      "'worktree' (the build this stk-harness belongs to) or any UCI engine: its path, or a command\n"
      "CMD ARGS split into words as a shell quotes them, never run by one (docs/uci.md).\n"
      "Exit 0 every requested gate passes, 1 a gate failed, 2 usage or input error.",
      "stk-harness compare"};
  CompareOptions o;
  const GateOptions given = add_compare_options(app, o);
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given_junit(app, "compare", "")))
    return *status;
  o.max_regressions_given = bool(*given.max_regressions);
  o.min_speed_ratio_given = bool(*given.min_speed_ratio);
  try {
    const std::string self = std::filesystem::canonical("/proc/self/exe").string();
    if (o.config.empty()) o.config = default_config(o.base_arg, o.cand_arg);
    const std::string& config = o.config;
    const report::ReportPaths paths = report::report_paths(o.out_dir, "compare", config);
    declare_report(paths, "compare." + config);
    const Gates gates = resolve_gates(o);

    CompareResult r;
    resolve_sides(r, o, argc, argv);
    measure_sides(r, o, gates, self);

    // The verdict and the three reports.
    report::RunReport run{"compare", config};
    const junit::TestSuite& verdict = run.suites.emplace_back(judge(r, gates));
    run.figures = to_json(r, verdict);
    run.markdown = to_markdown(r, verdict);
    report::write_run_report(run, paths);
    std::cout << "\ncompare " << config << "\n" << console_table(r);
    for (const auto& tc : verdict.cases)
      if (tc.outcome == junit::Outcome::Failed)
        std::cout << "FAILED " << tc.name << ": " << tc.message << "\n";
    std::cout << fmt::format("compare: {:.0f} s building, {:.0f} s measuring\nreports: {}, {}\n",
                             r.build_s, r.measure_s, paths.junit, paths.json);
    return report::exit_status(run);
  } catch (...) {
    return input_failure("stk-harness compare");
  }
}

}  // namespace stk::harness
