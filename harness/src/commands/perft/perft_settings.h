// The perft command's settings: the options as given (EPD files, depths, reference engine,
// shard, timeout, planted defect) and what they resolve to, checked before any check runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/cli_fwd.h"

#include "cli/cli.h"
#include "report/run_report.h"

namespace stk::harness::perft_harness {

struct PerftSettings {
  std::vector<std::string> files;
  int max_depth = 5, inv_depth = 3, timeout = 600;
  long long max_nodes_option = -1;
  std::string reference_path, config = "default", shard_text = "1/1", junit_option,
                              out_dir = "reports", plant = "none";

  // Resolved by resolve_settings.
  Shard shard;
  std::uint64_t max_nodes = 0;  // std::uint64_t(-1): no limit
  double timeout_s = 0;
};

void add_perft_options(CLI::App& app, PerftSettings& s);

// The run's report name: "<config>" or "<config>-shard<K>".
std::string report_name(const std::string& cfg, const std::string& shard);

// The run's report paths; `junit` (when not empty) replaces the JUnit path.
report::ReportPaths report_files(const std::string& dir, const std::string& cfg,
                                 const std::string& shard, const std::string& junit);

// Declares the report named by the options as given, before they are checked (an unparsable
// --shard counts as 1/1), so that a usage error still leaves a report.
void declare_given_report(const CLI::App& app);

// Defaults the EPD files, resolves the node limit and timeout, and refuses two files of one stem
// (UsageError). The shard is parsed by the caller, before the report is declared.
void resolve_settings(PerftSettings& s);

}  // namespace stk::harness::perft_harness
