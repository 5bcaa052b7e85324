// stk-harness accumulator: the incremental NNUE accumulator against a full recompute over seeded
// random walks (a), the scalar and AVX2 kernels against each other (c), and the colour/horizontal
// mirror symmetries of the evaluation (d). Part (b) searches the bench positions with the search's
// accumulator audit policy (harness/src/search_audit), comparing with a recompute at every node.
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "commands.h"
#include "commands/accumulator/accumulator_report.h"
#include "commands/accumulator/accumulator_run.h"
#include "commands/accumulator/accumulator_settings.h"
#include "report/junit.h"
#include "report/run_report.h"

namespace stk::harness {

int run_accumulator(int argc, char** argv) {
  using namespace accumulator;
  CLI::App app{
      "The incremental NNUE accumulator against a full recompute over seeded random walks (a), during a\n"
      "real search with the per-node audit policy (b), the scalar and AVX2 kernels against each other\n"
      "(c), and the colour/horizontal mirror symmetries of the evaluation (d). Report:\n"
      "reports/junit/accumulator-CONFIG.xml, reports/accumulator/CONFIG.{json,md}.",
      "stk-harness accumulator"};
  AccumulatorSettings s;
  CLI::Option* net_opt = add_accumulator_options(app, s);
  if (auto status = parse_cli_or_report(app, argc, argv,
                                        declare_given_junit(app, "accumulator", "default")))
    return *status;
  s.net_given = bool(*net_opt);
  try {
    report::ReportPaths paths = report::report_paths(s.out_dir, "accumulator", s.config);
    if (!s.junit_file.empty()) paths.junit = s.junit_file;
    declare_report(paths, "accumulator." + s.config);

    const CheckedNets nets = load_nets(s);
    std::cout << fmt::format(
        "accumulator: seed {}, net {} (hidden {}, fnv1a64 {:016x}), plant {}\n", s.walks.seed,
        nets.net->source(), nets.net->hidden(), nets.net->checksum(), s.plant);

    report::RunReport run{"accumulator", s.config};
    junit::TestSuite& suite = run.suites.emplace_back();
    describe_suite(suite, app, s, nets);
    const RunTotals totals = run_checks(s, nets, suite);
    finish_report(run, s, nets, totals);
    report::write_run_report(run, paths);
    std::cout << suite.system_out << "report: " << paths.junit << "\n";
    return report::exit_status(run);
  } catch (...) {
    return input_failure("stk-harness accumulator", app.help().c_str());
  }
}

}  // namespace stk::harness
