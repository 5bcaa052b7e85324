// The clock rules of docs/uci.md ("Time", and the header of search/time_budget.h) as properties on
// generated clocks: only the side to move's clock and increment count, a colour's clock gives the
// same budget whichever colour it is, and the hard limit is never past the time left.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include "position.h"
#include "search/time_budget.h"

using namespace stk;

namespace {

struct Clocks {
  int time[2], inc[2];
  int movestogo, movetime;
};

rc::Gen<int> gen_clock() {
  return rc::gen::oneOf(rc::gen::inRange(0, 30), rc::gen::inRange(0, 2000),
                        rc::gen::inRange(0, 600000), rc::gen::just(-1));
}

rc::Gen<Clocks> gen_clocks() {
  return rc::gen::exec([] {
    Clocks c{};
    for (int side : {0, 1}) {
      c.time[side] = *gen_clock();
      c.inc[side] = *rc::gen::oneOf(rc::gen::just(0), rc::gen::inRange(0, 60000));
    }
    c.movestogo = *rc::gen::oneOf(rc::gen::just(0), rc::gen::inRange(1, 80));
    c.movetime = *rc::gen::oneOf(rc::gen::just(0), rc::gen::just(0), rc::gen::inRange(1, 20000));
    return c;
  });
}

search::Limits limits_of(const Clocks& c) {
  search::Limits l;
  for (Color side : {WHITE, BLACK}) l.time_ms[side] = c.time[side], l.inc_ms[side] = c.inc[side];
  l.movestogo = c.movestogo;
  l.movetime_ms = c.movetime;
  return l;
}

Clocks swapped(Clocks c) {
  std::swap(c.time[0], c.time[1]);
  std::swap(c.inc[0], c.inc[1]);
  return c;
}

bool same(const search::Budget& a, const search::Budget& b) {
  return a.node_limit == b.node_limit && a.soft_s == b.soft_s && a.hard_s == b.hard_s &&
         a.max_depth == b.max_depth;
}

const Position& with_side_to_move(Color c) {
  static const Position white = [] {
    Position p;
    p.set(Position::kStartFen);
    return p;
  }();
  static const Position black = [] {
    Position p;
    p.set("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    return p;
  }();
  return c == WHITE ? white : black;
}

}  // namespace

// MODEL search-time-budget
// checks: engine/src/search/time_budget.cpp  (the soft and hard time limits of a go with clocks)
// contract: docs/uci.md#behaviour
// planted: ci/mutants/model-search-time-budget.patch  (the increment counted before the move is made)
TEST_CASE("model: the time budget reads only the mover's clock and never plans past it",
          "[search][time][model]") {
  rc::prop("budgets on generated clocks", [] {
    const Clocks c = *gen_clocks();
    const Color us = *rc::gen::elementOf(std::vector<Color>{WHITE, BLACK});
    const Color them = ~us;
    RC_LOG() << "us " << int(us) << " time " << c.time[0] << "/" << c.time[1] << " inc " << c.inc[0]
             << "/" << c.inc[1] << " movestogo " << c.movestogo << " movetime " << c.movetime
             << "\n";
    const search::Budget b = search::time_budget(with_side_to_move(us), limits_of(c));

    // The opponent's clock and increment change nothing.
    Clocks other = c;
    other.time[them] = *gen_clock();
    other.inc[them] = *rc::gen::inRange(0, 60000);
    RC_ASSERT(same(b, search::time_budget(with_side_to_move(us), limits_of(other))));
    // The same clock gives the same budget to the other colour.
    RC_ASSERT(same(b, search::time_budget(with_side_to_move(them), limits_of(swapped(c)))));

    const int left = c.time[us];
    if (c.movetime > 0) RC_ASSERT(b.hard_s > 0 && b.hard_s <= c.movetime / 1000.0);
    if (left < 0) {  // no clock for the mover: only movetime limits time
      RC_ASSERT(b.hard_s == (c.movetime > 0 ? c.movetime / 1000.0 : 0.0));
      return;
    }
    if (left == 0) {  // nothing to think with, whatever the increment: the least search
      RC_ASSERT(b.max_depth == 1);
      return;
    }
    // A clock: a positive hard limit strictly inside the time left, soft no later than hard.
    RC_ASSERT(b.hard_s > 0);
    RC_ASSERT(b.hard_s < left / 1000.0);
    RC_ASSERT(b.soft_s > 0);
    RC_ASSERT(b.soft_s <= b.hard_s);
  });
}

// MODEL search-last-iteration
// checks: engine/src/search/time_budget.cpp  (the iteration after which a search, or a ponder search after ponderhit, stops)
// contract: engine/src/search/time_budget.h
// planted: ci/mutants/model-search-last-iteration.patch  (one iteration past the depth limit)
// The stopping rule both a search and a ponder search after ponderhit follow (last_iteration):
// once an iteration is the last, a deeper or later one is too (the ponder clock relies on a
// depth already done staying "deep enough"); without a soft limit only the depth limit ends it.
TEST_CASE("model: the last iteration is the depth limit or the soft limit, whichever comes first",
          "[search][time][model]") {
  rc::prop("last_iteration on generated budgets", [] {
    const Clocks c = *gen_clocks();
    search::Limits l = limits_of(c);
    l.depth = *rc::gen::oneOf(rc::gen::just(0), rc::gen::inRange(1, 300));
    const search::Budget b = search::time_budget(with_side_to_move(WHITE), l);
    const int depth = *rc::gen::inRange(1, search::kMaxPly);
    const double elapsed = *rc::gen::inRange(0, 700000) / 1000.0;
    RC_LOG() << "max_depth " << b.max_depth << " soft " << b.soft_s << " depth " << depth
             << " elapsed " << elapsed << "\n";
    RC_ASSERT(b.max_depth >= 1 &&
              b.max_depth < search::kMaxPly);  // depth 1 always runs, kMaxPly never
    const bool last = search::last_iteration(b, depth, elapsed);
    if (last) {
      RC_ASSERT(search::last_iteration(b, depth + 1, elapsed));
      RC_ASSERT(search::last_iteration(b, depth, elapsed + 0.5));
    }
    RC_ASSERT(search::last_iteration(b, b.max_depth, 0.0));
    if (depth < b.max_depth) RC_ASSERT(search::last_iteration(b, depth, 0.0) == false);
    if (b.soft_s == 0) RC_ASSERT(last == (depth >= b.max_depth));
    if (b.soft_s > 0 && depth < b.max_depth) RC_ASSERT(last == (elapsed >= b.soft_s));
  });
}
