// Shrinks a failing list of UCI commands to a short one that fails the same way
// (docs/reproducers.md "Minimizing"): positions rewritten as FENs, the last search alone, delta
// debugging over the commands, then over each go's limits. Every trial replays the candidate
// against a fresh engine process (uci_replay.h) under the replay's time limits. A no-answer
// failure (every trial would wait the whole answer time) is only cut after the command awaited.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "repro/uci_replay.h"

namespace stk::harness::repro {

struct MinimizeTrial {
  std::string step;  // "recorded", "fen", "last-search", "ddmin", "go-limits"
  std::size_t commands =
      0;  // how many the candidate held (not the list: 400 trials of a long game)
  Symptom seen;
  bool reproduced = false;
  double ms = 0;
};

struct MinimizeBudget {
  std::size_t max_trials = 400;
  std::chrono::seconds max_time{120};
};

struct Minimized {
  bool reproduced = false;            // the recorded commands failed as `target` on replay
  std::vector<std::string> commands;  // the shortest list found that fails as `target`
  std::vector<MinimizeTrial> trials;
  bool minimal = false;  // 1-minimal over commands and go limits (the budget did not run out)
};

Minimized minimize_commands(const std::string& engine, const std::vector<std::string>& recorded,
                            const Symptom& target, const ReplayLimits& limits = {},
                            const MinimizeBudget& budget = {});

}  // namespace stk::harness::repro
