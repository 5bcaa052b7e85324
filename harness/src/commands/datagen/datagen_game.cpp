#include "commands/datagen/datagen_game.h"

#include <cstdlib>
#include <stdexcept>

#include "commands/datagen/datagen_teacher.h"
#include "games/adjudication.h"
#include "games/game_termination.h"
#include "movegen.h"
#include "notation.h"
#include "positions/seeded_games.h"

namespace stk::harness::datagen {

const char* white_result(const std::string& result) {
  return result == "1-0" ? "1.0" : result == "0-1" ? "0.0" : "0.5";
}

namespace {

std::string rules_result(fhgen::GameEnd end, const Position& pos) {
  if (end != fhgen::GameEnd::Checkmate) return "1/2-1/2";
  return pos.side_to_move() == WHITE ? "0-1" : "1-0";  // the side to move is mated
}

std::string end_text(fhgen::GameEnd end) {
  std::string s = fhgen::game_end_name(end);
  for (char& c : s)
    if (c == '_') c = ' ';
  return s;
}

}  // namespace

selfplay::Opening generated_opening(search::Searcher& searcher, const OpeningOptions& options,
                                    std::uint64_t seed, int index) {
  std::mt19937_64 rng = fhgen::game_rng(seed, index);
  search::Limits limits;
  limits.nodes = options.balance_nodes;
  selfplay::Opening o;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    Position pos;
    pos.set(Position::kStartFen);
    o.moves.clear();
    bool ok = true;
    for (int ply = 0; ply < options.random_plies && ok; ++ply) {
      MoveList list(pos);
      ok = list.size() > 0;
      if (!ok) break;
      const Move m = list.begin()[fhgen::uniform_below(rng, list.size())].move;
      o.moves.push_back(to_uci(m));
      pos.make_move(m);
    }
    if (!ok || fhgen::game_over(pos)) continue;
    searcher.clear();
    if (std::abs(searcher.go(pos, limits).score) <= options.balance_cp) break;
  }
  o.source = "generated:" + std::to_string(seed) + ":" + std::to_string(index);
  return o;
}

Game play_game(search::Searcher& searcher, const selfplay::Opening& opening,
               const GameOptions& options, int index, Teacher* teacher) {
  Game g;
  g.index = index;
  searcher.clear();
  if (teacher) teacher->new_game();
  Position pos = opening.position();
  selfplay::Adjudicator adjudicator(options.adjudication);
  search::Limits limits;
  limits.nodes = options.nodes;
  for (;;) {
    if (auto end = fhgen::game_over(pos)) {
      g.result = rules_result(*end, pos);
      g.end = end_text(*end);
      g.termination = rules_termination(*end);
      return g;
    }
    if (g.engine_plies >= options.max_plies) {
      g.result = "1/2-1/2";
      g.end = "max plies";
      g.termination = match::Termination::Adjudication;  // a draw by the cap, as match's --maxmoves
      return g;
    }
    const search::Result r = searcher.go(pos, limits);
    if (!MoveList(pos).contains(r.best))
      throw std::runtime_error("game " + std::to_string(index) +
                               ": the search returned no legal move in " + pos.fen());
    const bool white = pos.side_to_move() == WHITE;
    int score = r.score;
    bool mate = std::abs(r.score) >= search::kValueMateInMaxPly;
    Move best = r.best;
    if (teacher) {  // the label is the teacher's view of this position, the move stays ours
      const Label label = teacher->label(pos);
      score = label.score, mate = label.mate, best = label.move;
    }
    g.records.push_back({pos.fen(), white ? score : -score, pos.game_ply(),
                         !pos.in_check() && !pos.is_capture_or_promotion(best) && !mate});
    pos.make_move(r.best);
    ++g.engine_plies;
    const int fullmove = 1 + pos.game_ply() / 2;
    if (auto verdict = adjudicator.after_move(r.score, white, fullmove, g.engine_plies)) {
      if (fhgen::game_over(pos)) continue;  // the rules decide a finished game, not the scores
      g.result = verdict->result;
      g.end = verdict->reason;
      g.termination = match::Termination::Adjudication;
      return g;
    }
  }
}

}  // namespace stk::harness::datagen
