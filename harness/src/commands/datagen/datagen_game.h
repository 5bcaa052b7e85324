// One self-play game for training data: the engine plays both sides from a balanced opening at a
// fixed node budget, and every position before an engine move becomes a record with the search's
// score. A game depends only on its opening and the options (the searcher is cleared first).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "games/adjudication.h"
#include "match_results/termination.h"
#include "positions/openings.h"
#include "search/search.h"

namespace stk::harness::datagen {

struct GameOptions {
  std::uint64_t nodes = 5000;  // "go nodes N" for every engine move
  int max_plies = 400;         // engine plies; a game still running then is a draw
  selfplay::Adjudication adjudication;
};

// The quiet filter a trainer usually applies: not in check, the best move neither a capture nor
// a promotion, the score not a mate score.
struct Record {
  std::string fen;  // six fields
  int score = 0;    // the search score from White's view, centipawns (mate scores as searched)
  int ply = 0;      // game ply of the position (the opening's plies included)
  bool quiet = false;
};

struct Game {
  int index = 0;
  std::string result;  // "1-0", "0-1", "1/2-1/2"
  std::string end;  // "checkmate", "stalemate", "repetition", ..., "adjudication: ...", "max plies"
  match::Termination termination = match::Termination::Unrecorded;  // the same, as a machine field
  int engine_plies = 0;
  std::vector<Record> records;
};

struct OpeningOptions {
  int random_plies = 8;  // uniformly random legal plies from the start position
  int balance_cp = 300;  // kept when a search of the position scores within +-this
  std::uint64_t balance_nodes = 5000;
};

// Game `index`'s generated opening: drawn from (seed, index) alone, so that a shard or a resumed
// run makes only its own games' openings. Attempts until one is balanced (at most 1000; then the
// last one drawn). Openings of two games may coincide (rare at 8 plies; the data keeps both).
selfplay::Opening generated_opening(search::Searcher& searcher, const OpeningOptions& options,
                                    std::uint64_t seed, int index);

// The result as the text format writes it: 1.0, 0.5 or 0.0 from White's view.
const char* white_result(const std::string& result);

class Teacher;

// `teacher`: null, the labels are the game's own search; else each record's score and quiet flag
// are the teacher's (the moves played stay stk's).
Game play_game(search::Searcher& searcher, const selfplay::Opening& opening,
               const GameOptions& options, int index, Teacher* teacher = nullptr);

}  // namespace stk::harness::datagen
