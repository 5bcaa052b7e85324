#include "positions/seeded_games.h"

#include <stdexcept>

#include "movegen.h"

namespace stk::harness::fhgen {

namespace {

constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

}  // namespace

const char* game_end_name(GameEnd end) {
  switch (end) {
    case GameEnd::Checkmate: return "checkmate";
    case GameEnd::Stalemate: return "stalemate";
    case GameEnd::Repetition: return "repetition";
    case GameEnd::FiftyMoves: return "fifty_moves";
    case GameEnd::InsufficientMaterial: return "insufficient_material";
    case GameEnd::MaxPlies: return "max_plies";
  }
  return "?";
}

std::string canonical_fen(const Position& pos) {
  std::string fen = pos.fen();
  // fen(): placement side castling ep halfmove fullmove; keep the first four fields.
  std::size_t cut = fen.size();
  for (int spaces = 0, i = 0; i < int(fen.size()); ++i)
    if (fen[std::size_t(i)] == ' ' && ++spaces == 4) {
      cut = std::size_t(i);
      break;
    }
  fen.resize(cut);
  if (pos.ep_square() != NO_SQUARE) {
    bool capturable = false;
    for (const ExtMove& e : MoveList(pos, NOISY)) capturable |= e.move.kind() == EN_PASSANT;
    if (!capturable) fen.replace(fen.rfind(' ') + 1, std::string::npos, "-");
  }
  return fen;
}

bool insufficient_material(const Position& pos) {
  if (pos.pieces(PAWN) | pos.pieces(ROOK) | pos.pieces(QUEEN)) return false;
  Bitboard minors = pos.pieces(KNIGHT) | pos.pieces(BISHOP);
  if (popcount(minors) <= 1) return true;
  // Only bishops, all on squares of one colour: no mate is possible.
  Bitboard bishops = pos.pieces(BISHOP);
  return minors == bishops && ((bishops & kDarkSquares) == 0 || (bishops & ~kDarkSquares) == 0);
}

std::optional<GameEnd> game_over(const Position& pos) {
  if (MoveList(pos).size() == 0) return pos.in_check() ? GameEnd::Checkmate : GameEnd::Stalemate;
  if (pos.rule50() >= 100) return GameEnd::FiftyMoves;
  if (pos.is_draw(0)) return GameEnd::Repetition;  // ply 0: the whole game is history (threefold)
  if (insufficient_material(pos)) return GameEnd::InsufficientMaterial;
  return std::nullopt;
}

std::mt19937_64 game_rng(std::uint64_t seed, int game) {
  return std::mt19937_64(mix64(mix64(seed) ^ std::uint64_t(game)));
}

std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n) {
  // Rejection sampling: std::uniform_int_distribution differs between standard libraries.
  const std::uint64_t limit = std::uint64_t(-1) - std::uint64_t(-1) % n;
  std::uint64_t x;
  do x = rng();
  while (x >= limit);
  return x % n;
}

GameRecord play_seeded_game(search::Searcher& searcher, const SelfPlayOptions& opt,
                            std::uint64_t seed, int game) {
  GameRecord rec;
  rec.game = game;
  std::mt19937_64 rng = game_rng(seed, game);
  rec.random_plies = opt.random_plies_min +
                     int(uniform_below(rng, std::uint64_t(opt.random_plies_max -
                                                          opt.random_plies_min + 1)));
  searcher.clear();
  Position pos;
  pos.set(Position::kStartFen);

  // 1. The random opening: uniformly random legal plies.
  for (; rec.plies < rec.random_plies && rec.plies < opt.max_plies; ++rec.plies) {
    if (auto end = game_over(pos)) {
      rec.end = *end;
      return rec;
    }
    MoveList list(pos);
    pos.make_move(list.begin()[uniform_below(rng, list.size())].move);
  }

  // 2. The engine plays both sides; every `every`-th position before its move is sampled.
  search::Limits limits;
  limits.nodes = opt.nodes;
  for (int k = 0; rec.plies < opt.max_plies; ++k, ++rec.plies) {
    if (auto end = game_over(pos)) {
      rec.end = *end;
      return rec;
    }
    if (k % opt.every == 0 && !pos.in_check())
      rec.samples.push_back({canonical_fen(pos), game, rec.plies});
    search::Result r = searcher.go(pos, limits);
    if (!MoveList(pos).contains(r.best))
      throw std::runtime_error("game " + std::to_string(game) + " ply " +
                               std::to_string(rec.plies) +
                               ": the search returned no legal move in " + pos.fen());
    pos.make_move(r.best);
  }
  rec.end = game_over(pos).value_or(GameEnd::MaxPlies);
  return rec;
}

}  // namespace stk::harness::fhgen
