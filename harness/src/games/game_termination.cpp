#include "games/game_termination.h"

namespace stk::harness {

match::Termination rules_termination(fhgen::GameEnd end) {
  using match::Termination;
  switch (end) {
    case fhgen::GameEnd::Checkmate: return Termination::Checkmate;
    case fhgen::GameEnd::Stalemate: return Termination::Stalemate;
    case fhgen::GameEnd::Repetition: return Termination::Repetition;
    case fhgen::GameEnd::FiftyMoves: return Termination::FiftyMoves;
    case fhgen::GameEnd::InsufficientMaterial: return Termination::InsufficientMaterial;
    case fhgen::GameEnd::MaxPlies: return Termination::Adjudication;
  }
  return Termination::Unrecorded;
}

}  // namespace stk::harness
