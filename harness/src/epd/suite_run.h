// What the EPD commands share (epd, merge, epd-compare): the suite options, the budget, opening
// an engine, the stride selection, and searching a list of positions with fresh state each.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_fwd.h"

#include "epd/engine_driver.h"
#include "epd/epd_results.h"
#include "positions/epd_suite.h"

namespace stk::harness::epd {

// Options that epd and epd-compare share.
struct SuiteOptions {
  std::string epd_file, config, out_dir = "reports";
  std::uint64_t depth = 0, nodes = 0;
  std::vector<std::string>
      options;  // NAME=VALUE, for the engine (epd) or the reference (epd-compare)
  std::size_t hash_mb = 16;
  int stride = 1;
  bool quiet = false;
};

using OptionPairs = std::vector<std::pair<std::string, std::string>>;

// "NAME=VALUE" with a non-empty name.
extern const CLI::Validator kNameValue;

void add_suite_options(CLI::App& app, SuiteOptions& o, const std::string& option_help);
OptionPairs parse_options(const std::vector<std::string>& raw);
// Exactly one of --depth and --nodes (UsageError otherwise).
Budget parse_budget(const CLI::App& app, const SuiteOptions& o);
// The report name when --config is not given: "<prefix><suite>-<sd|sn><N>".
std::string default_config(const std::string& prefix, const std::string& epd_file,
                           const Budget& budget);
// Searches each position with fresh engine state and judges the answer; a line per position
// unless quiet.
std::vector<PositionResult> run_positions(EngineDriver& engine,
                                          const std::vector<const EpdPosition*>& todo,
                                          const Budget& budget, bool quiet);
// "inprocess" or the path of a UCI engine; an engine that cannot start is an InputError.
std::unique_ptr<EngineDriver> open_engine(const std::string& which, std::size_t hash_mb,
                                          const OptionPairs& opts);
// Every stride-th position of the file (index % stride == 0).
std::vector<const EpdPosition*> select_stride(const std::vector<EpdPosition>& all, int stride);
RunMeta base_meta(const std::string& epd_file, const std::string& config,
                  const EngineDriver& engine, const Budget& budget, int stride, int selected);
// The given options as report properties "input.<name>".
OptionPairs echo(const CLI::App& app);

}  // namespace stk::harness::epd
