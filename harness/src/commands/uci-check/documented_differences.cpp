#include "commands/uci-check/documented_differences.h"

#include <algorithm>

namespace stk::harness::ucicheck {

const std::vector<DocumentedDifference>& documented_differences() {
  // Each engine-specific entry was measured on Debian's stockfish 15.1 (/usr/games/stockfish);
  // see docs/harnesses/uci-check.md, "Documented differences". The entries with an empty prefix
  // apply to any engine: what UCI does not ask of an engine but the invariance scenarios record
  // (docs/harnesses/uci-check.md, "Invariance (any engine)").
  static const std::vector<DocumentedDifference> kList = {
      {"",
       {"invariance."},
       {"not-deterministic"},
       "not deterministic at a fixed node count (the same search in two fresh engines differed; "
       "figures in the message): UCI does not ask for it, so the invariance cannot be judged"},
      {"",
       {"invariance.colour-mirror"},
       {"not-mirror-symmetric", "not-deterministic"},
       "a position and its colour mirror search differently at a fixed node count, reproducibly "
       "(move ordering by square index; figures in the message): UCI does not ask for symmetry"},
      {"Stockfish 15.1",
       {"nodes."},
       {"nodes-overshoot-periodic"},
       "Stockfish checks its node limit every min(1024, N/1024) nodes, so 'go nodes N' overshoots by a few nodes "
       "(the measured overshoot is in the facts)"},
      {"Stockfish 15.1",
       {"limits."},
       {"searches-until-stop"},
       "Stockfish reads a zero limit (wtime 0 btime 0, movetime 0, nodes 0, depth 0) as 'no limit' and searches "
       "until stop"},
      {"Stockfish 15.1",
       {"during-search.mistyped-go"},
       {"searches-until-stop"},
       "Stockfish ignores an unknown go argument; 'go depht 5' is then a go without limits, searched until stop"},
      {"Stockfish 15.1",
       {"during-search.go"},
       {"hang"},
       "Stockfish's input loop waits for the running search before a new go (UCI sends go only when the engine "
       "waits), so stop is never read: the harness kills it"},
      {"Stockfish 15.1",
       {"during-search.ucinewgame"},
       {"hang"},
       "Stockfish's ucinewgame waits for the running search (UCI sends it only when the engine waits), so stop is "
       "never read: the harness kills it"},
      {"Stockfish 15.1",
       {"during-search.setoption"},
       {"hang"},
       "Stockfish's setoption Hash waits for the running search (UCI sends setoption only when the engine waits), "
       "so stop is never read: the harness kills it"},
      {"Stockfish 15.1",
       {"garbage.setoption"},
       {"crash"},
       "Stockfish converts a spin value with std::stof unchecked: 'setoption name Hash value abc' ends it with "
       "an uncaught std::invalid_argument (SIGABRT)"},
      {"Stockfish 15.1",
       {"garbage.position-no-argument", "garbage.position-unknown-keyword"},
       {"stale-search"},
       "Stockfish ignores a 'position' command without startpos or fen and keeps the previous position"},
      {"Stockfish 15.1",
       {"garbage.position-fen-missing", "garbage.position-fen-garbage",
        "garbage.position-fen-no-kings"},
       {"crash"},
       "Stockfish trusts the GUI's FEN: an empty one or one without kings is undefined behaviour (it crashed, SIGSEGV)"},
      {"Stockfish 15.1",
       {"garbage.position-fen-bad-side", "garbage.position-fen-nine-files"},
       {"illegal-bestmove"},
       "Stockfish reads a malformed FEN as far as it goes (side 'x' as black, a ninth file spilling into the next "
       "rank) and searches whatever that sets up"},
      {"Stockfish 15.1",
       {"garbage.position-illegal-move", "garbage.position-garbage-move"},
       {"prefix-search"},
       "Stockfish stops reading 'moves' at the first illegal one and searches the position before it"},
  };
  return kList;
}

const DocumentedDifference* find_documented_difference(const std::string& engine_name,
                                                       const std::string& scenario_id,
                                                       const std::vector<std::string>& behaviours) {
  if (behaviours.empty()) return nullptr;
  for (const DocumentedDifference& d : documented_differences()) {
    if (!engine_name.starts_with(d.engine_prefix)) continue;
    bool scenario_matches = std::any_of(d.scenarios.begin(), d.scenarios.end(),
                                        [&](const std::string& p) {
                                          return p.back() == '.' || p.back() == '-'
                                                     ? scenario_id.starts_with(p)
                                                     : scenario_id == p;
                                        });
    if (!scenario_matches) continue;
    bool all = std::all_of(behaviours.begin(), behaviours.end(), [&](const std::string& b) {
      return std::find(d.behaviours.begin(), d.behaviours.end(), b) != d.behaviours.end();
    });
    if (all) return &d;
  }
  return nullptr;
}

}  // namespace stk::harness::ucicheck
