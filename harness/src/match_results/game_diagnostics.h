// What a match's games say besides its score (docs/match-results.md "Game diagnostics"): how the
// games ended, per engine and colour, and the pentanomial per opening position with the openings
// that cannot carry information flagged (decided before the engines' first move, or the same
// position played in more than one pair: a transposition or a book played round twice).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "match_results/match_result.h"

namespace stk::harness::match {

// Outcomes of one engine with one colour, from that engine's side.
struct SideOutcomes {
  std::uint64_t wins = 0, draws = 0, losses = 0;
  std::uint64_t games() const { return wins + draws + losses; }
  bool operator==(const SideOutcomes&) const = default;
};

// [engine: 0 A, 1 B][colour: 0 white, 1 black]; every game counts once for each engine.
using EngineColourOutcomes = std::array<std::array<SideOutcomes, 2>, 2>;

// Only the terminations that occurred are keys.
using TerminationTable = std::map<Termination, EngineColourOutcomes>;

TerminationTable termination_table(const MatchResult& r);

// The games lost by a fault, per engine: "A (name): 1 crash, 2 time-loss; B (name): ..." or "none".
std::string fault_line(const TerminationTable& t, const MatchDefinition& d);
// One line for a JUnit message: "checkmate 12, adjudication 40, time-loss 2".
std::string termination_line(const TerminationTable& t);

struct OpeningStats {
  std::string position;                 // "" when the file recorded none (then one per opening)
  std::vector<std::uint64_t> openings;  // the pairs' opening indices, ascending
  PentanomialCounts penta;
  // A pair of it was decided by the opening: one colour won both games, or a game ended by the
  // rules or adjudication before the engines' first move.
  bool decided_before_move_1 = false;
  bool duplicate = false;  // more than one pair played this position
};

// One entry per opening position, in the order of its first opening index.
std::vector<OpeningStats> opening_table(const MatchResult& r);

// Per termination, one JUnit property value: "A white 3-0-1, A black ..., B ..." (W-D-L).
std::string engine_colour_text(const EngineColourOutcomes& row);

// Markdown: the termination table (rows: terminations; columns: A and B as White and Black) and
// the flagged openings.
std::string diagnostics_markdown(const MatchResult& r);

// {"terminations": {...}, "openings": {...}} for the result file's derived fields.
nlohmann::ordered_json diagnostics_json(const MatchResult& r);

}  // namespace stk::harness::match
