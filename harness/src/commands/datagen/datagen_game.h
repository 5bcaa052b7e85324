// One self-play game for training data: the engine plays both sides from a balanced opening at a
// fixed node budget, and every position before an engine move becomes a record with the search's
// score. A game depends only on its opening and the options (the searcher is cleared first).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commands/match/match_settings.h"
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
  int engine_plies = 0;
  std::vector<Record> records;
};

// The result as the text format writes it: 1.0, 0.5 or 0.0 from White's view.
const char* white_result(const std::string& result);

Game play_game(search::Searcher& searcher, const selfplay::Opening& opening,
               const GameOptions& options, int index);

}  // namespace stk::harness::datagen
