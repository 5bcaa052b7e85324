#include "match_results/termination.h"

namespace stk::harness::match {

const char* to_string(Termination t) {
  switch (t) {
    case Termination::Unrecorded: return "unrecorded";
    case Termination::Checkmate: return "checkmate";
    case Termination::Stalemate: return "stalemate";
    case Termination::Repetition: return "repetition";
    case Termination::FiftyMoves: return "fifty-moves";
    case Termination::InsufficientMaterial: return "insufficient-material";
    case Termination::Adjudication: return "adjudication";
    case Termination::TimeLoss: return "time-loss";
    case Termination::Crash: return "crash";
    case Termination::IllegalMove: return "illegal-move";
    case Termination::Disconnect: return "disconnect";
  }
  return "?";
}

std::optional<Termination> parse_termination(const std::string& name) {
  for (Termination t : kTerminations)
    if (name == to_string(t)) return t;
  return std::nullopt;
}

bool is_fault(Termination t) {
  return t == Termination::TimeLoss || t == Termination::Crash || t == Termination::IllegalMove ||
         t == Termination::Disconnect;
}

std::string result_problem(Termination t, const std::string& result) {
  if (t == Termination::Unrecorded || t == Termination::Adjudication) return "";
  const bool decisive = result == "1-0" || result == "0-1";
  if (t == Termination::Checkmate || is_fault(t))
    return decisive ? "" : std::string(to_string(t)) + " decides a game, not " + result;
  return decisive ? std::string(to_string(t)) + " draws a game, not " + result : "";
}

}  // namespace stk::harness::match
