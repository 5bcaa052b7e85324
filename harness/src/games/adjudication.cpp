#include "games/adjudication.h"

#include <fmt/format.h>

namespace stk::harness::selfplay {

std::string Adjudication::text() const {
  std::string s;
  if (draw)
    s += fmt::format("draw movenumber={} movecount={} score={}", draw->movenumber, draw->movecount,
                     draw->score);
  if (resign)
    s += fmt::format("{}resign movecount={} score={}", s.empty() ? "" : "; ", resign->movecount,
                     resign->score);
  if (maxmoves) s += fmt::format("{}maxmoves={}", s.empty() ? "" : "; ", maxmoves);
  return s.empty() ? "none" : s;
}

std::optional<Adjudged> Adjudicator::after_move(std::optional<int> score, bool white_moved,
                                                int fullmove, int engine_plies) {
  if (!score) {
    draw_run_ = white_run_ = black_run_ = 0;
  } else {
    const int white_view = white_moved ? *score : -*score;
    draw_run_ = settings_.draw && std::abs(white_view) <= settings_.draw->score ? draw_run_ + 1 : 0;
    white_run_ = settings_.resign && white_view >= settings_.resign->score ? white_run_ + 1 : 0;
    black_run_ = settings_.resign && white_view <= -settings_.resign->score ? black_run_ + 1 : 0;
  }
  if (settings_.resign) {
    const int need = 2 * settings_.resign->movecount;
    const std::string why = fmt::format("both engines scored it beyond {} cp for {} moves",
                                        settings_.resign->score, settings_.resign->movecount);
    if (white_run_ >= need) return Adjudged{"1-0", "adjudication: Black resigns (" + why + ")"};
    if (black_run_ >= need) return Adjudged{"0-1", "adjudication: White resigns (" + why + ")"};
  }
  if (settings_.draw && fullmove >= settings_.draw->movenumber &&
      draw_run_ >= 2 * settings_.draw->movecount)
    return Adjudged{
        "1/2-1/2",
        fmt::format("adjudication: draw (both engines within {} cp for {} moves from move {})",
                    settings_.draw->score, settings_.draw->movecount, settings_.draw->movenumber)};
  if (settings_.maxmoves && engine_plies >= 2 * settings_.maxmoves)
    return Adjudged{"1/2-1/2",
                    fmt::format("adjudication: draw (move cap of {} moves)", settings_.maxmoves)};
  return std::nullopt;
}

}  // namespace stk::harness::selfplay
