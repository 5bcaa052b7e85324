// The checks of `stk-harness accumulator`, as functions the unit tests call too:
//  (a) incremental accumulators == full recompute after every step of random walks (and a lazy
//      stack that catches up over several plies at random intervals);
//  (c) two evaluators (scalar vs AVX2) give identical results on sampled positions;
//  (d) colour mirror and horizontal mirror leave the evaluation unchanged.
// Each takes its defect hook: a policy (a) or the evaluator under test (c, d).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "positions/random_games.h"
#include "nnue/accumulator.h"

namespace stk::harness {

struct GameCheckOptions {
  int games = 20;
  WalkOptions walk;
  std::uint64_t seed = 1;
};

struct GameCheckResult {
  std::uint64_t steps_checked = 0;  // eager stack: every step
  std::uint64_t lazy_checks = 0;    // lazy stack: at random intervals
  std::uint64_t mismatches = 0;     // eager stack mismatching steps
  std::uint64_t lazy_mismatches = 0;
  std::uint64_t eval_mismatches = 0;         // incremental evaluate() != evaluate_refresh()
  std::uint64_t refreshes = 0, updates = 0;  // eager stack's perspective refreshes / updates
  WalkCoverage coverage;
  std::string first_failure;  // start FEN, moves from it, step and the mismatching lane
};

template <class Policy>
GameCheckResult check_random_games(const nnue::Network& net, const GameCheckOptions& opt);

using Evaluator = std::function<nnue::EvalParts(const Position&)>;

struct CompareResult {
  std::uint64_t compared = 0, mismatches = 0, skipped = 0;
  std::string first_failure;
};

// reference(pos) == candidate(pos) for every FEN.
CompareResult compare_evaluators(const std::vector<std::string>& fens, const Evaluator& reference,
                                 const Evaluator& candidate);
// eval(pos) == eval(mirror(pos)); horizontal mirrors skip positions with castling rights.
CompareResult check_colour_mirror(const std::vector<std::string>& fens, const Evaluator& eval);
CompareResult check_horizontal_mirror(const std::vector<std::string>& fens, const Evaluator& eval);

// FEN of the position with files flipped (a<->h); only for positions without castling rights.
std::string flip_files_fen(const Position& pos);

}  // namespace stk::harness
