// stk-harness merge: the JSON results of `epd --shard K/N` runs combined into the report an
// unsharded run would have written (match result files are handed to match-merge).
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
#include "match_results/match_result_file.h"

namespace stk::harness {

using namespace epd;

namespace {

// Every shard must come from the same run definition, and together cover it exactly once;
// InputError naming the file otherwise. Returns the shard count. pos[i + 1] is the file of parts[i].
int check_shards_of_one_run(const std::vector<RunResults>& parts,
                            const std::vector<std::string>& pos) {
  const RunMeta& first = parts[0].meta;
  int count = 0;
  std::set<int> shard_seen;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const RunMeta& m = parts[i].meta;
    const std::string& file = pos[i + 1];
    auto differs = [&](const std::string& what, const std::string& a, const std::string& b) {
      if (a != b)
        throw InputError(fmt::format("{}: {} '{}' differs from {}'s '{}': not shards of one run",
                                     file, what, b, pos[1], a));
    };
    differs("suite file", first.epd_file, m.epd_file);
    differs("engine", first.engine, m.engine);
    differs("budget", first.budget.label(), m.budget.label());
    differs("stride", std::to_string(first.stride), std::to_string(m.stride));
    differs("git revision", first.git_revision, m.git_revision);
    auto signature = [](const RunMeta& r) {
      return r.bench_signature ? std::to_string(*r.bench_signature) : std::string("unknown");
    };
    differs("bench signature", signature(first), signature(m));
    differs("baseline", first.baseline_file, m.baseline_file);
    differs("min-solved", std::to_string(first.min_solved), std::to_string(m.min_solved));
    differs("selected count", std::to_string(first.selected), std::to_string(m.selected));
    auto settings = [](const RunMeta& r) {
      std::string s;
      for (const auto& [k, v] : r.engine_settings) s += k + "=" + v + ",";
      return s;
    };
    differs("engine settings", settings(first), settings(m));
    // The shard a file records is input, not an option: a bad one names the file.
    Shard s;
    try {
      s = parse_shard(m.shard);
    } catch (const UsageError&) {
      throw InputError(
          fmt::format("{}: field 'shard' must be K/N with 1 <= K <= N, got '{}'", file, m.shard));
    }
    if (count == 0) count = s.count;
    if (s.count != count)
      throw InputError(fmt::format("{}: shard {} is not one of {} shards", file, m.shard, count));
    if (!shard_seen.insert(s.index).second)
      throw InputError(fmt::format("{}: shard {} given twice", file, m.shard));
  }
  if (int(shard_seen.size()) != count)
    throw InputError(
        fmt::format("{} of {} shards given: a merge needs every shard", shard_seen.size(), count));
  return count;
}

// The shards' positions as one run, in suite order; the baseline and min-solved given here
// replace the shards' (empty / -1: keep them). InputError when a position is missing or repeated.
RunResults merged_run(const std::vector<RunResults>& parts, const std::string& config,
                      const std::string& baseline_option, int min_solved) {
  const RunMeta& first = parts[0].meta;
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
    throw InputError(fmt::format("the shards hold {} positions, the run selected {}",
                                 run.positions.size(), first.selected));
  std::sort(run.positions.begin(), run.positions.end(),
            [](const PositionResult& a, const PositionResult& b) { return a.index < b.index; });
  return run;
}

}  // namespace

int run_merge(int argc, char** argv) {
  // Match result files (kind "stk-match-result") are merged by the match harness.
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;  // a link loop or a missing file is not a match result: named below
    if (std::filesystem::is_regular_file(argv[i], ec) && match::names_match_kind(argv[i]))
      return run_match_merge(argc, argv);
  }
  CLI::App app{
      "Combines the JSON results of 'stk-harness epd --shard K/N' runs (every K of one N) into the report\n"
      "an unsharded run would have written: reports/epd/OUT_CONFIG.{json,md}, reports/junit/epd-OUT_CONFIG.xml.\n"
      "The baseline and min-solved recorded by the shards are used unless given here.\n"
      "(Given match result files instead, runs 'stk-harness match-merge'.)",
      "stk-harness merge"};
  std::string config, out_dir = "reports", baseline_option;
  std::vector<std::string> files;
  int min_solved = -1;
  app.add_option("OUT_CONFIG", config, "name of the merged report")->required();
  app.add_option("SHARD_JSON", files, "results of every shard (reports/epd/CONFIG-shardK.json)")
      ->required();
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  app.add_option("--baseline", baseline_option, "baseline results JSON (default: the shards')");
  app.add_option("--min-solved", min_solved,
                 "fail if fewer than N are solved (default: the shards')")
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
    const int count = check_shards_of_one_run(parts, pos);
    const RunResults run = merged_run(parts, config, baseline_option, min_solved);

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

}  // namespace stk::harness
