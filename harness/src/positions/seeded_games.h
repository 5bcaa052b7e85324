// Seeded self-play games for position sets: a random opening, then the engine plays both sides
// at a fixed node budget; every few plies the position before the engine's move is sampled.
// Each game depends only on (seed, game index), so any one game can be replayed on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/splitmix.h"
#include "position.h"
#include "search/search.h"

namespace stk::harness::fhgen {

struct SelfPlayOptions {
  int random_plies_min = 4;  // uniformly random legal plies before the engine plays
  int random_plies_max = 10;
  std::uint64_t nodes = 2000;  // "go nodes N" for every engine move
  int max_plies = 80;          // game plies from the start position, random ones included
  int every = 3;               // sample engine move k when k % every == 0 (k = 0, 1, ...)
};

enum class GameEnd { Checkmate, Stalemate, Repetition, FiftyMoves, InsufficientMaterial, MaxPlies };
const char* game_end_name(GameEnd end);

struct SampledPosition {
  std::string fen;  // canonical four EPD fields (see canonical_fen)
  int game = 0;
  int ply = 0;  // game ply of the position (0 = start position)
};

struct GameRecord {
  int game = 0;
  int random_plies = 0;  // as drawn; fewer were played if the game ended inside the opening
  int plies = 0;         // plies played in all
  GameEnd end = GameEnd::MaxPlies;
  std::vector<SampledPosition> samples;  // in game order; in-check positions left out
};

// Placement, side, castling and en passant, with the en-passant square written only when an
// en-passant capture is legal: equal positions get equal text (the dedup and split key).
std::string canonical_fen(const Position& pos);

// The game's end when `pos` (with its history) ends it, else nullopt: no legal move, threefold
// repetition, fifty moves, or material with which neither side can mate.
std::optional<GameEnd> game_over(const Position& pos);
bool insufficient_material(const Position& pos);

// Per-game generator: std::mt19937_64 seeded from the run seed and the game index.
std::mt19937_64 game_rng(std::uint64_t seed, int game);
// Uniform integer in [0, n) from a 64-bit generator, the same on every standard library.
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n);

// Plays game `game` of a run seeded `seed` from the start position. Clears `searcher` first
// (fresh hash and histories per game), so the result does not depend on earlier games.
GameRecord play_seeded_game(search::Searcher& searcher, const SelfPlayOptions& opt,
                            std::uint64_t seed, int game);

}  // namespace stk::harness::fhgen
