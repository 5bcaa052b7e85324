// Shrinks a failing list of UCI commands to a short one that fails the same way
// (docs/reproducers.md "Minimizing"): positions rewritten as FENs, the last search alone, delta
// debugging over the commands, then over each go's limits. Every trial replays the candidate
// against a fresh engine process (uci_replay.h) under the replay's time limits. A no-answer
// failure (every trial would wait the whole answer time) is only cut after the command awaited.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
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

// Which failures of a run are minimized (docs/reproducers.md): the first of each engine and
// symptom, at most `cap` in all. Another game failing the same way would cost the same replays
// (a disconnect waits kExitGrace in each) to find the same commands; its bundle names the one
// minimized. Shared by the threads of a match.
class FirstOfEachSymptom {
 public:
  explicit FirstOfEachSymptom(int cap) : cap_(cap) {}
  // "" when the failure of `engine` with `symptom` is to be minimized (as bundle `id`); else
  // why not: "as <id>" (the bundle minimized for the same failure) or "the run's first <cap>".
  std::string claim(const std::string& engine, const Symptom& symptom, const std::string& id);

 private:
  std::mutex mutex_;
  int cap_;
  std::map<std::string, std::string> first_;  // engine + symptom -> the bundle minimized
};

Minimized minimize_commands(const std::string& engine, const std::vector<std::string>& recorded,
                            const Symptom& target, const ReplayLimits& limits = {},
                            const MinimizeBudget& budget = {});

}  // namespace stk::harness::repro
