// One "go" as a GUI sees it (every line until bestmove, timed), and the checks every search gets:
// it ended by itself, its bestmove and ponder are legal, every info PV is legal from the searched
// position and agrees with its mate score.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "position.h"
#include "commands/uci-check/scenario.h"

namespace stk::harness::ucicheck {

struct SearchRun {
  std::string go;
  std::vector<TimedLine> lines;
  std::optional<uci::BestMove> best;
  double ms = 0;                            // go sent -> bestmove (or -> giving up)
  bool stopped_by_harness = false;          // no bestmove within the limit; the harness sent stop
  bool crashed = false;                     // the engine's output closed (it exited or died)
  std::string end_state;                    // the engine's state when the search did not finish
  std::optional<std::uint64_t> last_nodes;  // "nodes" of the last info line carrying it
  std::uint64_t max_nodes = 0;              // largest "nodes" of any info line
};

// Sends `go` (already including "go") and waits `limit` for bestmove; without one, sends stop
// and waits Timeouts::kPrompt more.
SearchRun run_go(Session& s, const std::string& go, std::chrono::milliseconds limit);
// Collects bestmove, nodes and timing from lines already read (the go was sent at `sent`).
void digest_search_lines(SearchRun& run, SteadyClock::time_point sent);

// Failures for a search that did not end by itself (behaviours "crash", "hang",
// "searches-until-stop"). True when it finished on its own.
bool require_finished(const SearchRun& run, ScenarioResult& r, const std::string& label);

struct CheckOptions {
  bool strict_pv = false;
  const Position* previous = nullptr;  // the position searched before: names stale PVs
};
// Bestmove and ponder legal in `root`, every info PV legal and consistent with its score. Counts
// go to the facts pv_lines_checked / truncated_mate_pvs; the first bad line of a search fails.
void check_search(const Position& root, const SearchRun& run, ScenarioResult& r,
                  const std::string& label, const CheckOptions& options);

// "Y" when `text` is legal in `pos`.
bool legal_in(const Position& pos, const std::string& text);

// Adds `n` to an integer fact.
void add_count(ScenarioResult& r, const std::string& key, long long n);

}  // namespace stk::harness::ucicheck
