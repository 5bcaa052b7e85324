#include "commands/accumulator/accumulator_checks.h"

#include <memory>

#include <fmt/format.h>

#include "commands/accumulator/planted_defects.h"
#include "notation.h"

namespace stk::harness {

namespace {

std::string describe_parts(const nnue::EvalParts& e) {
  return fmt::format("eval {} (bucket {}, psqt {}, positional {})", e.eval, e.bucket, e.psqt,
                     e.positional);
}

const char* op_name(WalkOp op) {
  switch (op) {
    case WalkOp::Make: return "after make_move";
    case WalkOp::Unmake: return "after unmake_move";
    case WalkOp::MakeNull: return "after make_null";
    case WalkOp::UnmakeNull: return "after unmake_null";
  }
  return "?";
}

}  // namespace

template <class Policy>
GameCheckResult check_random_games(const nnue::Network& net, const GameCheckOptions& opt) {
  using Stack = nnue::BasicAccumulatorStack<Policy, nnue::kBestSimd>;
  GameCheckResult r;
  SplitMix rng(opt.seed), lazy_rng(opt.seed ^ 0x5eed);
  auto eager = std::make_unique<Stack>(), lazy = std::make_unique<Stack>();
  const auto& starts = walk_start_fens();
  for (int g = 0; g < opt.games; ++g) {
    const std::string& fen = starts[std::size_t(g) % starts.size()];
    Position root;
    if (auto err = root.set(fen, true))
      throw std::runtime_error("start FEN '" + fen + "': " + *err);
    eager->reset(root, net);
    lazy->reset(root, net);
    std::vector<std::string> line;
    std::uint64_t step = 0;
    int until_lazy = 1;
    auto fail = [&](const char* which, WalkOp op, const std::string& why) {
      if (!r.first_failure.empty()) return;
      r.first_failure =
          fmt::format("{} stack, game {} (seed {}), step {} {}: {}\n  position fen {} moves {}",
                      which, g + 1, opt.seed, step, op_name(op), why, fen, fmt::join(line, " "));
    };
    auto on_step = [&](WalkOp op, const Position& pos) {
      ++step;
      if (op == WalkOp::Make || op == WalkOp::MakeNull) {
        line.push_back(op == WalkOp::Make ? to_uci(pos.last_move()) : "0000");
        eager->push(pos.state().dirty);
        lazy->push(pos.state().dirty);
      } else {
        line.pop_back();
        eager->pop();
        lazy->pop();
      }
      std::string why;
      ++r.steps_checked;
      eager->update(pos);
      if (!nnue::accumulator_matches_recompute(*eager, pos, &why)) {
        ++r.mismatches;
        fail("eager", op, why + "\n  fen " + pos.fen());
      }
      nnue::EvalParts inc = eager->evaluate(pos),
                      ref = nnue::evaluate_refresh<nnue::kBestSimd>(net, pos);
      if (!(inc == ref)) {
        ++r.eval_mismatches;
        fail("eager", op,
             "incremental " + describe_parts(inc) + " vs refresh " + describe_parts(ref) +
                 "\n  fen " + pos.fen());
      }
      if (--until_lazy == 0) {
        until_lazy = 1 + int(lazy_rng.below(8));
        ++r.lazy_checks;
        lazy->update(pos);
        if (!nnue::accumulator_matches_recompute(*lazy, pos, &why)) {
          ++r.lazy_mismatches;
          fail("lazy", op, why + "\n  fen " + pos.fen());
        }
      }
    };
    WalkCoverage cov;
    random_walk(fen, rng, opt.walk, on_step, cov);
    r.coverage.add(cov);
  }
  r.refreshes = eager->stats().refreshes;
  r.updates = eager->stats().updates;
  return r;
}

template GameCheckResult check_random_games<nnue::DefaultAccumulatorPolicy>(
    const nnue::Network&, const GameCheckOptions&);
template GameCheckResult check_random_games<PlantNoKingRefresh>(const nnue::Network&,
                                                                const GameCheckOptions&);
template GameCheckResult check_random_games<PlantIndexBitFlip>(const nnue::Network&,
                                                               const GameCheckOptions&);
template GameCheckResult check_random_games<PlantTwoDirtyOnly>(const nnue::Network&,
                                                               const GameCheckOptions&);

CompareResult compare_evaluators(const std::vector<std::string>& fens, const Evaluator& reference,
                                 const Evaluator& candidate) {
  CompareResult r;
  for (const std::string& fen : fens) {
    Position pos;
    if (auto err = pos.set(fen)) throw std::runtime_error("bad FEN '" + fen + "': " + *err);
    nnue::EvalParts a = reference(pos), b = candidate(pos);
    ++r.compared;
    if (!(a == b)) {
      if (!r.mismatches)
        r.first_failure = fmt::format("{}: reference {}, candidate {}", fen, describe_parts(a),
                                      describe_parts(b));
      ++r.mismatches;
    }
  }
  return r;
}

namespace {

CompareResult check_mirror(const std::vector<std::string>& fens, const Evaluator& eval,
                           bool horizontal) {
  CompareResult r;
  for (const std::string& fen : fens) {
    Position pos, mirror;
    if (auto err = pos.set(fen)) throw std::runtime_error("bad FEN '" + fen + "': " + *err);
    if (horizontal) {
      if (pos.castling_rights() != NO_CASTLING) {
        ++r.skipped;
        continue;
      }
      std::string flipped = flip_files_fen(pos);
      if (auto err = mirror.set(flipped))
        throw std::runtime_error("file mirror of '" + fen + "' is not a valid FEN '" + flipped +
                                 "': " + *err);
    } else {
      mirror = pos.mirrored();
    }
    nnue::EvalParts a = eval(pos), b = eval(mirror);
    ++r.compared;
    if (a.eval != b.eval) {
      if (!r.mismatches)
        r.first_failure = fmt::format("{}: {}\n  mirror {}: {}", fen, describe_parts(a),
                                      mirror.fen(), describe_parts(b));
      ++r.mismatches;
    }
  }
  return r;
}

}  // namespace

CompareResult check_colour_mirror(const std::vector<std::string>& fens, const Evaluator& eval) {
  return check_mirror(fens, eval, false);
}
CompareResult check_horizontal_mirror(const std::vector<std::string>& fens, const Evaluator& eval) {
  return check_mirror(fens, eval, true);
}

std::string flip_files_fen(const Position& pos) {
  static const char* kChars = "PNBRQKpnbrqk";
  std::string placement;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      Piece pc = pos.piece_on(make_square(7 - f, r));
      if (pc == NO_PIECE) {
        ++empty;
        continue;
      }
      if (empty) placement += char('0' + empty), empty = 0;
      placement += kChars[pc];
    }
    if (empty) placement += char('0' + empty);
    if (r) placement += '/';
  }
  std::string ep = pos.ep_square() == NO_SQUARE ? "-" : square_name(flip_file(pos.ep_square()));
  return fmt::format("{} {} - {} {} 1", placement, pos.side_to_move() == WHITE ? 'w' : 'b', ep,
                     pos.rule50());
}

}  // namespace stk::harness
