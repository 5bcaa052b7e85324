// The shadow command's settings: the options as given, and what they resolve to (gates, shard,
// budget and isolation names), checked before any search.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/cli_fwd.h"

#include "cli/cli.h"
#include "commands/shadow/shadow_audit.h"
#include "commands/shadow/shadow_gates.h"
#include "commands/shadow/shadow_stats.h"

namespace stk::harness::shadow {

constexpr std::uint64_t kDefaultControlEvery = 1;

struct ShadowSettings {
  SearchSettings search = default_search();
  std::string epd_file, config, out_dir = "reports", shard_text = "1/1", isolation_text = "exact";
  int stride = 1, classify_depths = 4;
  std::uint64_t classify_nodes = 2'000'000, classify_max = 3000;
  double max_artifact = kDefaultMaxArtifactShare, max_control = kDefaultMaxControl;
  std::vector<std::string> rate_texts, excess_texts, required_texts;
  BootstrapSettings boot = default_bootstrap();
  bool quiet = false, no_controls = false;

  // Resolved by resolve_settings.
  Shard shard;
  std::vector<BandGate> rate_gates, excess_gates;
  std::vector<int> required;  // mechanisms whose excess must be significantly above 0
  std::string budget;         // "sd<N>" or "sn<N>"
  std::string isolation;      // isolation_name of search.audit.isolation

  static SearchSettings default_search();
  static BootstrapSettings default_bootstrap();
};

// The options given to `--depth` and `--nodes` (exactly one must be).
struct BudgetOptions {
  CLI::Option* depth = nullptr;
  CLI::Option* nodes = nullptr;
};

BudgetOptions add_shadow_options(CLI::App& app, ShadowSettings& s);

// Checks and resolves the settings; throws UsageError naming the option. Sets config to its
// default (<epd stem>-<budget>) when it was not given.
void resolve_settings(ShadowSettings& s, const BudgetOptions& given);

}  // namespace stk::harness::shadow
