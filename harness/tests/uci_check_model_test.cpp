// Independent model of uci-check's PV verdict (docs/harnesses/uci-check.md, "PV and mate
// scores"): PVs cut from mating lines and random games, given scores near the true mate distance,
// judged by a model written from the rule, both ways at the smallest margin (mate N vs N +- 1).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <string>
#include <vector>

#include "commands/uci-check/pv_consistency.h"
#include "common/splitmix.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace uci_check_model_test {

using namespace stk;
using namespace stk::harness;

namespace {

// Lines from the start position: two that end in mate (black mates, white mates) and random games.
std::vector<std::string> line_moves(int which) {
  if (which == 0) return {"f2f3", "e7e5", "g2g4", "d8h4"};  // fool's mate
  if (which == 1)
    return {"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"};  // scholar's mate
  Position pos;
  pos.set(Position::kStartFen);
  SplitMix rng{std::uint64_t(which)};
  std::vector<std::string> moves;
  for (int i = 0; i < 14; ++i) {
    MoveList list(pos);
    if (list.size() == 0) break;
    const Move m = list.begin()[rng.below(list.size())].move;
    moves.push_back(to_uci(m));
    pos.make_move(m);
  }
  return moves;
}

struct Verdict {
  bool error = false, truncated = false;
  int plies = 0;
};

Verdict model(const Position& root_in, const std::vector<std::string>& pv,
              uci::InfoLine::Score kind, int n, bool bound, bool strict) {
  Position pos = root_in;
  Verdict v;
  for (const auto& text : pv) {
    const auto m = parse_uci(pos, text);
    if (!m || MoveList(pos).size() == 0) {
      v.error = true;
      return v;
    }
    pos.make_move(*m);
    ++v.plies;
  }
  if (kind != uci::InfoLine::Score::Mate || bound) return v;
  const int needed = n > 0 ? 2 * n - 1 : -2 * n;
  const bool no_move = MoveList(pos).size() == 0;
  const bool mated = no_move && pos.in_check();
  if (mated) v.error = v.plies != needed;
  else if (no_move) v.error = true;
  else if (v.plies < needed) v.truncated = true, v.error = strict;
  else v.error = true;
  return v;
}

}  // namespace

// MODEL uci-check-pv-mate
// checks: harness/src/commands/uci-check/pv_consistency.cpp  (a PV's legality and its agreement with "score mate N")
// contract: docs/harnesses/uci-check.md#pv-and-mate-scores
// planted: ci/mutants/model-uci-check-pv-mate.patch  (mate N > 0 expected after 2N plies)
TEST_CASE("uci-check judges PVs and mate scores as a model of the rule does",
          "[model][uci-check]") {
  rc::prop("PVs cut from mating lines and random games", [] {
    const int which = *rc::gen::elementOf(std::vector<int>{0, 0, 1, 1, 2, 3, 4});
    const auto line = line_moves(which);
    const int start = *rc::gen::inRange<int>(0, int(line.size()));
    const int end = *rc::gen::inRange<int>(start + 1, int(line.size()) + 1);
    Position root;
    root.set(Position::kStartFen);
    for (int i = 0; i < start; ++i) root.make_move(*parse_uci(root, line[std::size_t(i)]));
    std::vector<std::string> pv(line.begin() + start, line.begin() + end);
    if (*rc::gen::inRange(0, 6) == 0)
      pv.push_back(*rc::gen::elementOf(std::vector<std::string>{"e1f2", "a2a3", "e8e7", "h7h5"}));
    // The mate distance the whole line gives the root, then a score near it (or anywhere).
    const int k = int(line.size()) - start;
    const int true_n = k % 2 == 1 ? (k + 1) / 2 : -k / 2;
    const int n = *rc::gen::arbitrary<bool>()
                      ? true_n + *rc::gen::elementOf(std::vector<int>{-1, 0, 0, 1})
                      : *rc::gen::inRange(-6, 7);
    const auto kind = *rc::gen::elementOf(
        std::vector<uci::InfoLine::Score>{uci::InfoLine::Score::Mate, uci::InfoLine::Score::Mate,
                                          uci::InfoLine::Score::Cp});
    const bool bound = *rc::gen::inRange(0, 5) == 0;
    const bool strict = *rc::gen::arbitrary<bool>();
    uci::InfoLine info;
    info.score_kind = kind;
    info.score = kind == uci::InfoLine::Score::Mate ? n : 35;
    info.lowerbound = bound;
    info.has_pv = true;
    info.pv = pv;
    const auto got = ucicheck::check_pv(root, info, strict);
    const auto want = model(root, pv, kind, n, bound, strict);
    RC_ASSERT(got.errors.empty() == !want.error);
    RC_ASSERT(got.truncated_mate == want.truncated);
    RC_ASSERT(got.plies == want.plies);
  });
  SECTION("both ways: mate in 2 from after f3 with its 3 plies, and mate 1 or 3") {
    Position root;
    root.set(Position::kStartFen);
    root.make_move(*parse_uci(root, "f2f3"));
    uci::InfoLine info;
    info.score_kind = uci::InfoLine::Score::Mate;
    info.has_pv = true;
    info.pv = {"e7e5", "g2g4", "d8h4"};
    info.score = 2;
    CHECK(ucicheck::check_pv(root, info, true).errors.empty());
    info.score = 1;
    CHECK_FALSE(ucicheck::check_pv(root, info, false).errors.empty());
    info.score = 3;
    CHECK_FALSE(ucicheck::check_pv(root, info, false).errors.empty());
    info.score = -2;
    CHECK_FALSE(ucicheck::check_pv(root, info, false).errors.empty());
  }
}

}  // namespace uci_check_model_test
