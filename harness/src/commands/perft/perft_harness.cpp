// stk-harness perft: legal move counts against golden perft EPDs, make/unmake invariants
// over the same trees, and, on a mismatch, bisection against a reference engine.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "commands.h"
#include "commands/perft/perft_epd.h"
#include "commands/perft/perft_report.h"
#include "commands/perft/perft_run.h"
#include "commands/perft/perft_settings.h"
#include "report/junit.h"
#include "report/run_report.h"

namespace stk::harness {

int run_perft(int argc, char** argv) {
  using namespace perft_harness;  // not "perft": that would hide stk::perft
  CLI::App app{
      "Legal move counts against golden perft EPDs, make/unmake invariants over the same trees, and on a\n"
      "mismatch a bisection against a reference engine. Each check runs in a child process with a time\n"
      "limit, so a crash or hang of the move generator is a failure naming position, depth and signal,\n"
      "bisected (in children again) to the line that crashes.\n"
      "Report: reports/junit/perft-CONFIG.xml, reports/perft/CONFIG.{json,md} (-shardK with --shard).",
      "stk-harness perft"};
  PerftSettings s;
  add_perft_options(app, s);
  if (auto status = parse_cli_or_report(app, argc, argv, [&] { declare_given_report(app); }))
    return *status;
  try {
    s.shard = parse_shard(s.shard_text);
    const report::ReportPaths paths = report_files(s.out_dir, s.config, s.shard_text,
                                                   s.junit_option);
    declare_report(paths, "perft." + s.config);
    resolve_settings(s);

    std::vector<PerftEntry> entries;
    for (const auto& f : s.files)
      for (auto& e : read_perft_epd(f)) entries.push_back(std::move(e));

    std::unique_ptr<UciProcess> reference;
    if (!s.reference_path.empty()) reference = std::make_unique<UciProcess>(s.reference_path);

    report::RunReport perft_report{"perft", report_name(s.config, s.shard_text)};
    junit::TestSuite& suite = perft_report.suites.emplace_back();
    describe_suite(suite, app, s, reference.get());
    RunTotals totals = run_checks(s, entries, reference.get(), suite);
    finish_report(perft_report, totals);
    report::write_run_report(perft_report, paths);
    std::cout << suite.system_out << "report: " << paths.junit << "\n";
    return report::exit_status(perft_report);
  } catch (...) {
    return input_failure("stk-harness perft", app.help().c_str());
  }
}

}  // namespace stk::harness
