#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include "commands/accumulator/accumulator_checks.h"
#include "commands/accumulator/planted_defects.h"
#include "nets/synthetic_net.h"
#include "movegen.h"
#include "nnue/accumulator.h"
#include "notation.h"

using namespace stk;
using namespace stk::nnue;
using harness::GameCheckOptions;
using harness::GameCheckResult;

namespace {

GameCheckOptions options(int games, int plies, std::uint64_t seed) {
  GameCheckOptions o;
  o.games = games;
  o.walk.plies = plies;
  o.seed = seed;
  return o;
}

std::uint64_t all_mismatches(const GameCheckResult& r) {
  return r.mismatches + r.lazy_mismatches + r.eval_mismatches;
}

}  // namespace

TEST_CASE("incremental accumulators equal a full recompute over random walks (RapidCheck seeds)",
          "[nnue][accumulator]") {
  auto net = harness::synthetic_network(128);
  auto extreme = harness::synthetic_network(128, harness::kDefaultNetSeed,
                                            harness::NetStyle::Extreme);
  rc::prop("every step of a seeded walk matches", [&](std::uint32_t seed) {
    const Network& n = seed % 2 ? *net : *extreme;  // the extreme net makes int16 lanes wrap
    GameCheckResult r = harness::check_random_games<DefaultAccumulatorPolicy>(n,
                                                                              options(2, 60, seed));
    RC_LOG() << r.first_failure;
    RC_ASSERT(r.steps_checked > 0u);
    RC_ASSERT(all_mismatches(r) == 0u);
  });
}

TEST_CASE("make/unmake/null sequences drawn by RapidCheck keep the stack equal to a recompute",
          "[nnue][accumulator]") {
  auto net = harness::synthetic_network(128);
  rc::prop("stack follows arbitrary nesting", [&](const std::vector<std::uint16_t>& script) {
    Position pos;
    const auto& starts = harness::walk_start_fens();
    pos.set(starts[script.empty() ? 0 : script[0] % starts.size()], true);
    auto stack = std::make_unique<AccumulatorStack>();
    stack->reset(pos, *net);
    std::vector<bool> nulls;
    for (std::uint16_t s : script) {
      int op = s % 8;  // 0-4 make, 5 null, 6-7 unmake
      MoveList list(pos);
      if (op >= 6 && !nulls.empty()) {
        if (nulls.back()) pos.unmake_null();
        else pos.unmake_move();
        nulls.pop_back();
        stack->pop();
      } else if (op == 5 && !pos.in_check() && (nulls.empty() || !nulls.back())) {
        pos.make_null();
        nulls.push_back(true);
        stack->push(pos.state().dirty);
      } else if (list.size() > 0) {
        pos.make_move(list.begin()[(s >> 3) % list.size()].move);
        nulls.push_back(false);
        stack->push(pos.state().dirty);
      }
      if (s & 0x8000) continue;  // leave some steps unevaluated: the lazy path catches up later
      std::string why;
      stack->update(pos);
      RC_ASSERT(accumulator_matches_recompute(*stack, pos, &why));
      RC_ASSERT(stack->evaluate(pos) == evaluate_refresh(*net, pos));
    }
  });
}

TEST_CASE("nested king moves restore correctly on unmake", "[nnue][accumulator]") {
  auto net = harness::synthetic_network(128);
  Position pos;
  REQUIRE_FALSE(pos.set("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
  AccumulatorStack stack;
  stack.reset(pos, *net);
  auto check = [&] {
    std::string why;
    stack.update(pos);
    INFO(pos.fen() << ": " << why);
    REQUIRE(accumulator_matches_recompute(stack, pos, &why));
  };
  check();
  // White castles long (king crosses e->c: the white perspective's bucket mirror flips), black
  // castles short, white king walks, then everything is undone step by step.
  for (const char* uci : {"e1c1", "e8g8", "c1d2", "g8g7", "d2e3"}) {
    auto m = parse_uci(pos, uci);
    REQUIRE(m);
    pos.make_move(*m);
    stack.push(pos.state().dirty);
    check();
  }
  for (int i = 0; i < 5; ++i) {
    pos.unmake_move();
    stack.pop();
    check();
  }
  CHECK(stack.size() == 1);
}

TEST_CASE("the H=1024 stack matches a recompute over random walks", "[nnue][accumulator]") {
  auto net = harness::synthetic_network(1024);
  GameCheckResult r = harness::check_random_games<DefaultAccumulatorPolicy>(*net,
                                                                            options(4, 80, 7));
  INFO(r.first_failure);
  CHECK(r.steps_checked > 0);
  CHECK(all_mismatches(r) == 0);
}

TEST_CASE("planted accumulator defects are caught by the random-walk check",
          "[nnue][accumulator][planted]") {
  auto net = harness::synthetic_network(128);
  auto opt = options(24, 200, 1);  // the harness default games: all start positions are visited
  GameCheckResult ok = harness::check_random_games<DefaultAccumulatorPolicy>(*net, opt);
  CHECK(all_mismatches(ok) == 0);
  CHECK(ok.coverage.missing().empty());
  GameCheckResult king = harness::check_random_games<harness::PlantNoKingRefresh>(*net, opt);
  CHECK(king.mismatches > 0);
  CHECK(king.lazy_mismatches > 0);
  GameCheckResult bit = harness::check_random_games<harness::PlantIndexBitFlip>(*net, opt);
  CHECK(bit.mismatches > 0);
  GameCheckResult dirty = harness::check_random_games<harness::PlantTwoDirtyOnly>(*net, opt);
  CHECK(dirty.mismatches > 0);  // only capture-promotions have a third change
  CHECK(dirty.mismatches < bit.mismatches);
  INFO(dirty.first_failure);
  CHECK(dirty.first_failure.find("lane") != std::string::npos);
}

TEST_CASE("an unevaluated top entry never passes the audit", "[nnue][accumulator]") {
  auto net = harness::synthetic_network(128);
  Position pos;
  pos.set(Position::kStartFen);
  AccumulatorStack stack;
  stack.reset(pos, *net);
  std::string why;
  CHECK_FALSE(accumulator_matches_recompute(stack, pos, &why));
  CHECK(why.find("not computed") != std::string::npos);
}
