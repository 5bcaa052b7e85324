// Draw and resign adjudication from the engines' own scores: a verdict only when BOTH engines have
// held the threshold for `movecount` moves each (2 * movecount consecutive plies), so that one
// engine's misjudgement cannot end a game.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands/match/match_settings.h"

namespace stk::harness::selfplay {

struct Adjudged {
  std::string result;  // "1-0", "0-1", "1/2-1/2"
  std::string reason;  // "adjudication: draw (...)", "adjudication: Black resigns (...)"
};

class Adjudicator {
 public:
  explicit Adjudicator(const Adjudication& settings) : settings_(settings) {}
  // After each engine move: its score from the mover's view (nullopt: none given, which breaks
  // every run), whether White moved, the full move number of the position after the move and the
  // number of engine moves (plies) played so far. Returns a verdict once one is due.
  std::optional<Adjudged> after_move(std::optional<int> score, bool white_moved, int fullmove,
                                     int engine_plies);

 private:
  Adjudication settings_;
  int draw_run_ = 0, white_run_ = 0, black_run_ = 0;  // consecutive plies under each verdict
};

}  // namespace stk::harness::selfplay
