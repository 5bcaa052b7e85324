// stk-harness epd-compare: the in-process engine and a reference through the same harness code,
// solved counts and total nodes side by side (a measurement, not a gate).
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

namespace stk::harness {

using namespace epd;

int run_epd_compare(int argc, char** argv) {
  CLI::App app{
      "Runs the in-process engine and the reference through the same harness code and prints both solved\n"
      "counts and total nodes side by side; writes both reports (<config>-stk, <config>-reference). A\n"
      "measurement, not a gate. The in-process engine takes the fail-high predictor's options, so\n"
      "'--reference inprocess --option FHPredictor=true' compares the predictor on (reference) with off (stk).",
      "stk-harness epd-compare"};
  SuiteOptions o;
  std::string reference;
  std::vector<std::string> stk_options;
  add_suite_options(app, o, "UCI option of the reference (repeatable)");
  app.add_option("--reference", reference,
                 "UCI engine (a path or CMD ARGS, docs/uci.md), or 'inprocess'")
      ->check(engine_command_check())
      ->required();
  app.add_option("--stk-option", stk_options, "option of the in-process side (repeatable)")
      ->check(kNameValue);
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
    const std::string config = o.config.empty() ? default_config("compare-", epd_file, budget)
                                                : o.config;
    if (o.config.empty()) declare_both(out_dir, config);
    const auto options = parse_options(o.options);
    const std::size_t hash_mb = o.hash_mb;
    const int stride = o.stride;
    const std::vector<EpdPosition> suite = read_epd_file(epd_file);
    auto selected = select_stride(suite, stride);

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
      s.run.meta = base_meta(epd_file, config + "-" + s.label, *s.engine, budget, stride,
                             int(selected.size()));
      s.run.positions = run_positions(*s.engine, selected, budget, o.quiet);
      s.pub = publish(s.run, nullptr, echo(app), out_dir, config + "-" + s.label);
      worst = std::max(worst, s.pub.exit_code);
    }

    const SolveOverlap overlap = solve_overlap(sides[0].run, sides[1].run);
    auto total = [](const RunResults& r, bool time) {
      double t = 0;
      std::uint64_t n = 0;
      for (const auto& p : r.positions) t += p.time_s, n += p.nodes;
      return time ? fmt::format("{:.1f} s", t) : std::to_string(n);
    };
    std::cout << fmt::format("\nepd-compare {} ({} positions, {})\n", sides[0].run.meta.suite,
                             selected.size(), budget.label())
              << fmt::format("{:<14} {:>28} {:>28}\n", "", sides[0].engine->name(),
                             sides[1].engine->name())
              << fmt::format("{:<14} {:>28} {:>28}\n", "solved",
                             fmt::format("{} / {}", sides[0].run.solved(), selected.size()),
                             fmt::format("{} / {}", sides[1].run.solved(), selected.size()))
              << fmt::format("{:<14} {:>28} {:>28}\n", "solved alone", overlap.only_first,
                             overlap.only_second)
              << fmt::format("{:<14} {:>28} {:>28}\n", "total nodes", total(sides[0].run, false),
                             total(sides[1].run, false))
              << fmt::format("{:<14} {:>28} {:>28}\n", "total time", total(sides[0].run, true),
                             total(sides[1].run, true))
              << fmt::format("solved by both: {}\nreports: {}, {}\n", overlap.both,
                             sides[0].pub.json_path, sides[1].pub.json_path);
    return worst;
  } catch (...) {
    return input_failure("stk-harness epd-compare", app.help().c_str());
  }
}

}  // namespace stk::harness
