// The self-play match: opening pairs played with colours reversed on N threads (each driving its
// own engine processes), recorded in opening order (so a fixed-nodes run is deterministic whatever
// the concurrency), the state file saved after every pair, a progress line every few pairs, an
// early stop when the SPRT decides (unsharded runs), and an optional A/A control (B against B on the
// same openings) recorded in its own result file and judged by its own gate.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match_results/match_result.h"
#include "commands/match/game_play.h"
#include "commands/match/match_settings.h"
#include "positions/openings.h"

namespace stk::harness::selfplay {

struct MatchPlan {
  match::MatchDefinition definition;                    // the A/B match
  std::optional<match::MatchDefinition> aa_definition;  // --ab-control: B against a second B
  std::array<EngineConfig, 2> engines;                  // A, B
  std::vector<Opening> openings;                        // pair i plays openings[i % size]
  GameSettings settings;                                // budget[0] = A's, budget[1] = B's
  int shard_index = 1;
  int concurrency = 1;
  int progress_every = 10;  // pairs between progress lines
  std::string state_path, aa_state_path, pgn_path, aa_pgn_path, out_dir, stem, aa_stem;
  std::string repro_dir;  // reproducer bundles of faulted games ("": none written)
  bool quiet = false;
  std::optional<std::uint64_t> max_faults;  // --max-faults: the `faults` testcase of each report
  std::vector<std::pair<std::string, std::string>> properties;  // inputs as given, for JUnit
};

// Plays (or resumes) the match and publishes its reports; returns 0 when every gate passed, 1 when
// one failed. Throws InputError / EngineStartError (exit 2) when an engine cannot be started.
int run_match(const MatchPlan& plan);

}  // namespace stk::harness::selfplay
