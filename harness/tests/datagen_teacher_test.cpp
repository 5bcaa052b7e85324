// The teacher's answer as datagen reads it: the last unbounded multipv-1 score before bestmove,
// mate distances turned into the search's mate scores.
#include <catch2/catch.hpp>

#include "commands/datagen/datagen_teacher.h"
#include "search/search.h"

using stk::harness::datagen::Label;
using stk::harness::datagen::read_label;

TEST_CASE("datagen teacher: the last exact score before bestmove is the label", "[datagen]") {
  Label l;
  REQUIRE(read_label({"info depth 1 score cp 10 pv e2e4", "info depth 2 score cp 35 pv d2d4",
                      "info depth 3 score cp 90 lowerbound pv d2d4", "bestmove d2d4"},
                     l));
  CHECK(l.score == 35);  // the lowerbound after it is no label
  CHECK_FALSE(l.mate);
  CHECK(l.best == "d2d4");
}

TEST_CASE("datagen teacher: other multipv lines do not label", "[datagen]") {
  Label l;
  REQUIRE(read_label({"info depth 5 multipv 1 score cp 12 pv e2e4",
                      "info depth 5 multipv 2 score cp -40 pv a2a3", "bestmove e2e4"},
                     l));
  CHECK(l.score == 12);
}

TEST_CASE("datagen teacher: mate distances become mate scores", "[datagen]") {
  using stk::search::kValueMate;
  Label win, loss;
  REQUIRE(read_label({"info depth 9 score mate 2 pv h5f7", "bestmove h5f7"}, win));
  CHECK(win.mate);
  CHECK(win.score == kValueMate - 3);  // mate in 2 moves: 3 plies
  REQUIRE(read_label({"info depth 9 score mate -1 pv e8d8", "bestmove e8d8"}, loss));
  CHECK(loss.score == -(kValueMate - 2));
}

TEST_CASE("datagen teacher: no score or no bestmove is no label", "[datagen]") {
  Label l;
  CHECK_FALSE(read_label({"info depth 1 score cp 5 upperbound pv e2e4", "bestmove e2e4"}, l));
  CHECK_FALSE(read_label({"info depth 1 score cp 5 pv e2e4"}, l));
  CHECK_FALSE(read_label({"bestmove e2e4"}, l));
}
