// Seeded random walks over legal games for the accumulator checks: walk down, back up partway,
// down again (deep make/unmake nesting), with a bias towards the moves that stress an incremental
// accumulator (castling both ways, en passant, promotions and under-promotions, king moves, in
// particular across the d/e file boundary, captures next to a king) and occasional null moves.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/splitmix.h"
#include "movegen.h"
#include "position.h"

namespace stk::harness {

enum class WalkOp { Make, Unmake, MakeNull, UnmakeNull };

// What a walk exercised: the accumulator checks are only as good as this coverage.
struct WalkCoverage {
  std::uint64_t steps = 0, moves = 0, unmakes = 0, null_moves = 0, captures = 0;
  std::uint64_t castles_short = 0, castles_long = 0, en_passant = 0, promotions = 0;
  std::uint64_t under_promotions = 0, capture_promotions = 0, king_moves = 0;
  std::uint64_t king_crossings = 0;      // king moves between files a-d and e-h
  std::uint64_t captures_near_king = 0;  // capture on a square next to a king, or by a king
  int max_depth = 0;
  void add(const WalkCoverage& o);
  // Names of the categories never exercised ("" when all were).
  std::string missing() const;
  std::vector<std::pair<std::string, std::string>> facts() const;
};

// Start positions of the walks (legal, chosen for castling, en passant and promotions).
const std::vector<std::string>& walk_start_fens();

struct WalkOptions {
  int plies = 300;           // forward steps (moves and null moves) per game
  int null_percent = 5;      // chance of a null move when legal (not in check, last not null)
  int special_percent = 40;  // chance of picking among the stressing moves when there are any
};

// Plays one random walk from `fen`, calling on_step(op, pos) after every make/unmake.
// The walk returns to the start position at the end (every make is undone).
template <class OnStep>
void random_walk(const std::string& fen, SplitMix& rng, const WalkOptions& opt, OnStep&& on_step,
                 WalkCoverage& cov);

// Positions sampled from seeded walks (for the SIMD and mirror checks), as FENs.
std::vector<std::string> sample_positions(std::uint64_t seed, int count);

// --- implementation -----------------------------------------------------------------------

void classify_move(const Position& pos, Move m, WalkCoverage& cov);
// -1, or the category of a move that stresses an accumulator: castling, en passant, promotion,
// king move, capture next to a king.
constexpr int kStressCategories = 5;
int stress_category(const Position& pos, Move m);

template <class OnStep>
void random_walk(const std::string& fen, SplitMix& rng, const WalkOptions& opt, OnStep&& on_step,
                 WalkCoverage& cov) {
  Position pos;
  if (auto err = pos.set(fen, true))
    throw std::runtime_error("walk start FEN '" + fen + "': " + *err);
  std::vector<bool> is_null;  // per ply of the walk: was it a null move
  auto down = [&] {
    MoveList list(pos);
    bool can_null = !pos.in_check() && (is_null.empty() || !is_null.back());
    if (list.size() == 0 || (can_null && rng.chance(opt.null_percent))) {
      if (!can_null) return false;
      pos.make_null();
      is_null.push_back(true);
      ++cov.null_moves;
      on_step(WalkOp::MakeNull, pos);
      return true;
    }
    // Stressing moves by category (so that frequent king moves do not crowd out castling).
    std::vector<Move> special[kStressCategories];
    int nonempty[kStressCategories], ncat = 0;
    for (const ExtMove& e : list)
      if (int cat = stress_category(pos, e.move); cat >= 0) special[cat].push_back(e.move);
    for (int c = 0; c < kStressCategories; ++c)
      if (!special[c].empty()) nonempty[ncat++] = c;
    Move m = list.begin()[rng.below(list.size())].move;
    if (ncat > 0 && rng.chance(opt.special_percent)) {
      const std::vector<Move>& pick = special[nonempty[rng.below(std::size_t(ncat))]];
      m = pick[rng.below(pick.size())];
    }
    classify_move(pos, m, cov);
    pos.make_move(m);
    is_null.push_back(false);
    ++cov.moves;
    on_step(WalkOp::Make, pos);
    return true;
  };
  auto up = [&] {
    bool was_null = is_null.back();
    is_null.pop_back();
    if (was_null) pos.unmake_null();
    else pos.unmake_move();
    ++cov.unmakes;
    on_step(was_null ? WalkOp::UnmakeNull : WalkOp::Unmake, pos);
  };
  int forward = 0;
  while (forward < opt.plies) {
    int run = 1 + int(rng.below(16));
    for (int i = 0; i < run && forward < opt.plies; ++i) {
      if (!down()) break;  // mate or stalemate right after a null move: go back up
      ++forward;
      ++cov.steps;
      cov.max_depth = std::max(cov.max_depth, int(is_null.size()));
    }
    int back = is_null.empty()
                   ? 0
                   : int(rng.below(std::size_t(std::min<std::size_t>(is_null.size(), 12)) + 1));
    if (MoveList(pos).size() == 0 && back == 0 && !is_null.empty()) back = 1;
    for (int i = 0; i < back; ++i) up(), ++cov.steps;
  }
  while (!is_null.empty()) up(), ++cov.steps;
}

}  // namespace stk::harness
