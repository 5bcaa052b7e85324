// The clock rules of "go wtime/btime/winc/binc/movestogo", on search::time_budget directly (no
// timing involved): the side to move's own clock and increment, never the opponent's.
#include <catch2/catch.hpp>

#include "position.h"
#include "search/time_budget.h"

using namespace stk;

TEST_CASE("time budget: the side to move's own clock and increment", "[search][time]") {
  Position white, black;
  REQUIRE_FALSE(white.set(Position::kStartFen));
  REQUIRE_FALSE(black.set("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2"));
  auto clocks = [](int wtime, int btime, int winc = 0, int binc = 0) {
    search::Limits l;
    l.time_ms[WHITE] = wtime;
    l.time_ms[BLACK] = btime;
    l.inc_ms[WHITE] = winc;
    l.inc_ms[BLACK] = binc;
    return l;
  };
  // A minute on our clock, 100 ms on the opponent's: a budget of seconds, not of milliseconds.
  for (auto [pos, limits] :
       {std::pair{&white, clocks(60000, 100)}, std::pair{&black, clocks(100, 60000)}}) {
    INFO((pos == &white ? "white" : "black") << " to move, 60 s left");
    search::Budget b = search::time_budget(*pos, limits);
    CHECK(b.soft_s >= 1.0);
    CHECK(b.hard_s >= 2.0);
    CHECK(b.hard_s <= 60.0 * 0.25);
  }
  // The reverse: 100 ms on our clock.
  for (auto [pos, limits] :
       {std::pair{&white, clocks(100, 60000)}, std::pair{&black, clocks(60000, 100)}}) {
    INFO((pos == &white ? "white" : "black") << " to move, 100 ms left");
    search::Budget b = search::time_budget(*pos, limits);
    CHECK(b.hard_s > 0);
    CHECK(b.hard_s <= 0.1);
    CHECK(b.soft_s <= b.hard_s);
  }
  // Our increment counts, the opponent's does not.
  for (Position* pos : {&white, &black}) {
    const bool w = pos == &white;
    search::Budget own = search::time_budget(*pos,
                                             clocks(10000, 10000, w ? 5000 : 0, w ? 0 : 5000));
    search::Budget theirs = search::time_budget(*pos,
                                                clocks(10000, 10000, w ? 0 : 5000, w ? 5000 : 0));
    search::Budget none = search::time_budget(*pos, clocks(10000, 10000));
    INFO((w ? "white" : "black") << " to move");
    CHECK(own.soft_s > 2 * none.soft_s);
    CHECK(theirs.soft_s == none.soft_s);
    CHECK(theirs.hard_s == none.hard_s);
  }
  // Never more than the time left, whatever the increment (it is added only after the move).
  for (int left : {50, 1000, 3000}) {
    search::Budget b = search::time_budget(white, clocks(left, left, 10000, 10000));
    INFO(left << " ms left, 10 s increment");
    CHECK(b.hard_s < left / 1000.0);
    CHECK(b.soft_s <= b.hard_s);
  }
  // Moves to go: the whole remaining time is for fewer moves.
  search::Limits one = clocks(10000, 10000), many = one;
  one.movestogo = 1;
  many.movestogo = 40;
  CHECK(search::time_budget(white, one).soft_s > 4 * search::time_budget(white, many).soft_s);
  // Our clock at zero without increment: the least search (depth 1), answered at once.
  CHECK(search::time_budget(white, clocks(0, 60000)).max_depth == 1);
  CHECK(search::time_budget(black, clocks(60000, 0)).max_depth == 1);
  CHECK(search::time_budget(black, clocks(0, 60000)).max_depth > 1);
  // A clock not given means no time limit (an in-process search sets depth or nodes only).
  search::Budget untimed = search::time_budget(white, search::Limits{});
  CHECK(untimed.soft_s == 0);
  CHECK(untimed.hard_s == 0);
}
