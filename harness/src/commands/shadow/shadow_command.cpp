// stk-harness shadow: the silent-miss audit over an EPD suite. Each position is searched once by
// the engine's own search (Worker<NoPolicy>) and once with the shadow audit; the two must agree
// exactly (invariant gate). Every miss rate is reported beside its control rate (the same kind of
// search repeated where the real search's answer is known) and gated on the excess; the control
// rate, the depth every shadow root was entered with, and the fabricated-bound signature are
// gated too. Misses are classified by open-window re-searches.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "commands.h"
#include "commands/shadow/shadow_report.h"
#include "commands/shadow/shadow_run.h"
#include "commands/shadow/shadow_settings.h"
#include "positions/epd_suite.h"
#include "report/junit.h"
#include "report/run_report.h"

namespace stk::harness {

namespace {

using namespace shadow;

// The suite's properties: the options as given and what the run resolved them to.
junit::TestSuite shadow_suite(const CLI::App& app, const ShadowSettings& s, std::size_t positions) {
  junit::TestSuite suite;
  suite.name = "shadow." + s.config;
  for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
  suite.property("budget", s.budget);
  suite.property("positions", std::to_string(positions));
  suite.property("shard", s.shard.label());
  suite.property("isolation", s.isolation);
  suite.property("control_every", std::to_string(s.search.audit.control_every));
  suite.property("bootstrap",
                 fmt::format("cluster bootstrap over root positions, seed {}, {} resamples, "
                             "percentile 95%",
                             s.boot.seed, s.boot.resamples));
  junit::add_build_properties(suite);
  return suite;
}

}  // namespace

int run_shadow(int argc, char** argv) {
  CLI::App app{
      "The silent-miss audit over an EPD suite: each position searched by the engine's own search and\n"
      "again with the shadow audit (the two must agree exactly); every miss rate beside its control rate\n"
      "(the same kind of search repeated where the real search's answer is known), gated on the excess.\n"
      "Report: reports/junit/shadow-CONFIG.xml, reports/shadow/CONFIG.{json,md} with -misses.jsonl,\n"
      "-control-hits.jsonl and -rates.png ($STK_PYTHON, else .venv/bin/python, draws it: stkref.shadowplot).",
      "stk-harness shadow"};
  ShadowSettings s;
  const BudgetOptions budget_options = add_shadow_options(app, s);
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given_junit(app, "shadow", "")))
    return *status;
  try {
    // The report is owed as soon as its name is known: now with --config, else once the budget is.
    const bool config_given = !s.config.empty();
    if (config_given)
      declare_report(report::junit_path(s.out_dir, "shadow", s.config), "shadow." + s.config);
    resolve_settings(s, budget_options);
    if (!config_given)
      declare_report(report::junit_path(s.out_dir, "shadow", s.config), "shadow." + s.config);
    const report::ReportPaths paths = report::report_paths(s.out_dir, "shadow", s.config);

    const auto all = epd::read_epd_file(s.epd_file);
    const auto todo = select_positions(all, s);
    junit::TestSuite suite = shadow_suite(app, s, todo.size());
    RunTotals totals = audit_positions(todo, s, suite);
    const RunFigures figures = classify_and_measure(totals, s);

    report::RunReport run = build_shadow_report(s, todo.size(), totals, figures, std::move(suite),
                                                paths);
    report::write_run_report(run, paths);
    print_shadow_summary(s, todo.size(), totals, figures, paths);
    return report::exit_status(run);
  } catch (...) {
    return input_failure("stk-harness shadow", app.help().c_str());
  }
}

}  // namespace stk::harness
