// How a game ended, as a machine field of every game record (docs/match-results.md
// "Terminations"): the rules (from the harness's own move generator, never an engine), the
// adjudicator, or a fault of one engine. Counted per engine and colour, so that "which side crashed
// or lost on time" is read from the counts, never parsed back from the reason's text.
#pragma once

#include <array>
#include <optional>
#include <string>

namespace stk::harness::match {

enum class Termination {
  Unrecorded,  // a result file written before terminations were recorded
  Checkmate,
  Stalemate,
  Repetition,
  FiftyMoves,
  InsufficientMaterial,
  Adjudication,
  TimeLoss,     // no bestmove before the deadline, or the clock overrun
  Crash,        // the engine's process ended
  IllegalMove,  // a bestmove that is not legal in the position
  Disconnect,   // the engine closed its output but its process still ran
};

inline constexpr std::array kTerminations = {
    Termination::Unrecorded,   Termination::Checkmate,  Termination::Stalemate,
    Termination::Repetition,   Termination::FiftyMoves, Termination::InsufficientMaterial,
    Termination::Adjudication, Termination::TimeLoss,   Termination::Crash,
    Termination::IllegalMove,  Termination::Disconnect};

// "checkmate", "fifty-moves", "time-loss", ... (the names the result file holds).
const char* to_string(Termination t);
// nullopt for a name that is none of them.
std::optional<Termination> parse_termination(const std::string& name);

// A fault of the engine that lost: crash, time loss, illegal move, disconnect.
bool is_fault(Termination t);

// "" when `result` ("1-0", "0-1", "1/2-1/2") can end a game this way, else why not: checkmate and
// faults decide a game, the other rules draw it; adjudication and unrecorded allow any result.
std::string result_problem(Termination t, const std::string& result);

}  // namespace stk::harness::match
