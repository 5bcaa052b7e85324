// How self-play games end early, in match and in datagen: draw and resign adjudication from the
// engines' own scores, a verdict only when BOTH engines have held the threshold for `movecount`
// moves each (2 * movecount consecutive plies), so that one engine's misjudgement cannot end a
// game.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace stk::harness::selfplay {

// Draw: from full move `movenumber` on, both engines' scores within +-score cp for `movecount`
// moves each. Resign: both engines agree that one side is ahead by >= score cp for `movecount`
// moves each. Max moves: a draw once `maxmoves` full moves are played (0: no cap).
struct Adjudication {
  struct Draw {
    int movenumber = 40, movecount = 8, score = 10;
  };
  struct Resign {
    int movecount = 3, score = 1000;
  };
  std::optional<Draw> draw;
  std::optional<Resign> resign;
  int maxmoves = 0;
  std::string text() const;  // recorded in the match definition's settings
};

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
