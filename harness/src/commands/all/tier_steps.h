// The ordered list of harness runs that make up each tier.
#pragma once

#include <string>
#include <vector>

namespace stk::harness {

struct StepContext {
  std::string tier;           // "quick", "full" or "premerge"
  std::string out_dir;        // reports root
  std::string self;           // path of this stk-harness binary
  std::string shared;         // shared data root (suites, schemas)
  std::string base{};         // premerge: the base revision as given (--base)
  std::string base_commit{};  // premerge: its full commit
  int max_regressions =
      25;  // premerge: the compare gate, ECM positions lost at each budget (of 220)
  int sanitizer_games = 20;  // premerge: games of the sanitizer match (0: no such step)
};

using Argv = std::vector<std::string>;

inline void append(Argv& out, const std::string& word) { out.push_back(word); }
inline void append(Argv& out, const Argv& words) {
  out.insert(out.end(), words.begin(), words.end());
}

// One argument vector from words and argument vectors, in order.
template <class... Parts>
Argv args(const Parts&... parts) {
  Argv out;
  (append(out, parts), ...);
  return out;
}

struct Step {
  std::string name;
  // Run in order, each an argument vector (never a shell); the first that does not exit 0 ends
  // the step with its status.
  std::vector<Argv> commands;
  std::vector<std::string> reports;  // the JUnit files it must write (stk-harness all checks them)
  // The commands as a user pastes them into a shell: words quoted, joined by " && " (the listing
  // and the report's `command` fact).
  std::string command_line() const;
};

std::vector<Step> tier_steps(const StepContext& ctx);
// The premerge tier (all/premerge_steps.cpp): compare base vs the working tree's build, a
// non-regression match between them, the sanitizer match, the diff's mutants.
std::vector<Step> premerge_steps(const StepContext& ctx);

}  // namespace stk::harness
