// Independent model of harness/src/games (draw, resign and move-cap adjudication), written from
// docs/harnesses/match.md#adjudication: a verdict is a window over the game's last plies, not a
// counter, so the model shares no state machine with the code.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "games/adjudication.h"

using stk::harness::selfplay::Adjudged;
using stk::harness::selfplay::Adjudication;
using stk::harness::selfplay::Adjudicator;

namespace adjudication_model_test {

struct Ply {
  std::optional<int> score;  // the mover's own score, cp
  bool white_moved;
  int fullmove;  // of the position after the move
};

// The verdict due after the last ply of `h` (h.size() engine plies played), or "" for none:
// "1-0" / "0-1" / "1/2-1/2" with the kind "resign", "draw" or "cap".
struct Due {
  std::string result, kind;
};

// The reason a game adjudicated for `due` records (docs/harnesses/match.md#adjudication).
std::string documented_reason(const Adjudication& s, const Due& due) {
  if (due.kind == "resign")
    return std::string("adjudication: ") + (due.result == "1-0" ? "Black" : "White") +
           " resigns (both engines scored it beyond " + std::to_string(s.resign->score) +
           " cp for " + std::to_string(s.resign->movecount) + " moves)";
  if (due.kind == "draw")
    return "adjudication: draw (both engines within " + std::to_string(s.draw->score) + " cp for " +
           std::to_string(s.draw->movecount) + " moves from move " +
           std::to_string(s.draw->movenumber) + ")";
  return "adjudication: draw (move cap of " + std::to_string(s.maxmoves) + " moves)";
}

std::optional<Due> model_verdict(const Adjudication& s, const std::vector<Ply>& h) {
  const int n = int(h.size());
  auto white_view = [&](int i) -> std::optional<int> {
    if (!h[std::size_t(i)].score) return std::nullopt;
    return h[std::size_t(i)].white_moved ? *h[std::size_t(i)].score : -*h[std::size_t(i)].score;
  };
  // Every one of the last `len` plies has a score meeting `pred` (White's view).
  auto window = [&](int len, auto pred) {
    if (len <= 0 || n < len) return false;
    for (int i = n - len; i < n; ++i) {
      const auto v = white_view(i);
      if (!v || !pred(*v)) return false;
    }
    return true;
  };
  if (s.resign) {
    const int len = 2 * s.resign->movecount, t = s.resign->score;
    if (window(len, [&](int v) { return v >= t; })) return Due{"1-0", "resign"};
    if (window(len, [&](int v) { return v <= -t; })) return Due{"0-1", "resign"};
  }
  if (s.draw && h.back().fullmove >= s.draw->movenumber &&
      window(2 * s.draw->movecount, [&](int v) { return std::abs(v) <= s.draw->score; }))
    return Due{"1/2-1/2", "draw"};
  if (s.maxmoves > 0 && n >= 2 * s.maxmoves) return Due{"1/2-1/2", "cap"};
  return std::nullopt;
}

std::string kind_of(const Adjudged& a) {
  if (a.reason.find("resigns") != std::string::npos) return "resign";
  if (a.reason.find("move cap") != std::string::npos) return "cap";
  return "draw";
}

// Plays the plies through the code and the model; both must agree after every ply, and the game ends
// at the first verdict. Returns the verdict's ply index (or -1).
int play(const Adjudication& s, const std::vector<Ply>& plies) {
  Adjudicator code(s);
  std::vector<Ply> h;
  for (std::size_t i = 0; i < plies.size(); ++i) {
    h.push_back(plies[i]);
    const auto got = code.after_move(plies[i].score, plies[i].white_moved, plies[i].fullmove,
                                     int(h.size()));
    const auto want = model_verdict(s, h);
    if (got.has_value() != want.has_value())
      RC_FAIL("after ply " + std::to_string(i + 1) + ": code " +
              (got ? got->result + " (" + got->reason + ")" : std::string("no verdict")) +
              ", model " + (want ? want->result + " " + want->kind : std::string("no verdict")));
    if (got) {
      RC_ASSERT(got->result == want->result);
      RC_ASSERT(kind_of(*got) == want->kind);
      RC_ASSERT(got->reason == documented_reason(s, *want));
      return int(i);
    }
  }
  return -1;
}

// A game from move `start`, White first, each ply's score drawn near the thresholds.
std::vector<Ply> gen_game(const Adjudication& s, int start) {
  const int rt = s.resign ? s.resign->score : 1000, dt = s.draw ? s.draw->score : 10;
  const auto scores = *rc::gen::container<std::vector<std::optional<int>>>(
      *rc::gen::inRange(1, 120),
      rc::gen::oneOf(rc::gen::element<std::optional<int>>(std::nullopt, rt, rt - 1, -rt, 1 - rt, dt,
                                                          dt + 1, -dt, -dt - 1, 0),
                     rc::gen::map(rc::gen::inRange(-2 * rt, 2 * rt),
                                  [](int v) { return std::optional<int>(v); })));
  std::vector<Ply> g;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const bool white = i % 2 == 0;
    g.push_back({scores[i], white, start + int(i + 1) / 2});
  }
  return g;
}

Adjudication gen_settings() {
  Adjudication s;
  if (*rc::gen::arbitrary<bool>())
    s.draw = Adjudication::Draw{*rc::gen::inRange(1, 30), *rc::gen::inRange(1, 6),
                                *rc::gen::inRange(0, 40)};
  if (*rc::gen::arbitrary<bool>())
    s.resign = Adjudication::Resign{*rc::gen::inRange(1, 5), *rc::gen::inRange(100, 1500)};
  s.maxmoves = *rc::gen::element(0, 0, 10, 40);
  return s;
}

// A run of `plies` plies whose White-view scores are all `v` (each mover reports its own view).
std::vector<Ply> constant(int plies, int v, int start = 60) {
  std::vector<Ply> g;
  for (int i = 0; i < plies; ++i) {
    const bool white = i % 2 == 0;
    g.push_back({white ? v : -v, white, start + (i + 1) / 2});
  }
  return g;
}

// MODEL games-adjudication
// checks: harness/src/games/adjudication.cpp  (draw, resign and move-cap adjudication from the engines' scores)
// contract: docs/harnesses/match.md#adjudication
// planted: ci/mutants/model-games-adjudication.patch  (a draw only strictly inside +-score, not at it)
TEST_CASE("adjudication of generated games equals the window model and flips at each threshold",
          "[model][adjudication]") {
  SECTION("verdicts both ways: exactly at each threshold, and one short of it") {
    Adjudication s;
    s.draw = Adjudication::Draw{40, 8, 10};
    s.resign = Adjudication::Resign{3, 1000};
    // Resign: 6 plies at exactly 1000 cp decide; 5 plies, or 999 cp, do not.
    CHECK(play(s, constant(6, 1000)) == 5);
    CHECK(play(s, constant(6, -1000)) == 5);
    CHECK(play(s, constant(5, 1000)) == -1);
    CHECK(play(s, constant(6, 999)) == -1);
    // Draw: 16 plies within exactly 10 cp from move 40 decide; 15 plies, or 11 cp, do not.
    CHECK(play(s, constant(16, 10)) == 15);
    CHECK(play(s, constant(16, -10)) == 15);
    CHECK(play(s, constant(15, 10)) == -1);
    CHECK(play(s, constant(16, 11)) == -1);
    // movenumber: the 16th ply lands on move 40 (from move 32) decides; on move 39 it does not.
    CHECK(play(s, constant(16, 0, 32)) == 15);
    CHECK(play(s, constant(16, 0, 31)) == -1);
    // A ply without a score breaks the run.
    auto broken = constant(16, 0);
    broken[8].score.reset();
    CHECK(play(s, broken) == -1);
    // Move cap: 2 * maxmoves engine plies.
    Adjudication cap;
    cap.maxmoves = 10;
    CHECK(play(cap, constant(20, 500)) == 19);
    CHECK(play(cap, constant(19, 500)) == -1);
  }
  SECTION("generated games") {
    rc::prop("after every ply the code's verdict is the model's", [] {
      const Adjudication s = gen_settings();
      const int start = *rc::gen::inRange(1, 60);
      const int at = play(s, gen_game(s, start));
      RC_TAG(at >= 0 ? "adjudicated" : "played out");
    });
    rc::prop("a game with colours mirrored gets the mirrored verdict", [] {
      const Adjudication s = gen_settings();
      RC_PRE(s.resign.has_value());
      const int plies = *rc::gen::inRange(1, 40);
      const int v = *rc::gen::inRange(-2000, 2001);
      const auto a = constant(plies, v), b = constant(plies, -v);
      Adjudicator ca(s), cb(s);
      for (std::size_t i = 0; i < a.size(); ++i) {
        const auto ga = ca.after_move(a[i].score, a[i].white_moved, a[i].fullmove, int(i + 1));
        const auto gb = cb.after_move(b[i].score, b[i].white_moved, b[i].fullmove, int(i + 1));
        RC_ASSERT(ga.has_value() == gb.has_value());
        if (!ga) continue;
        const std::string flipped = ga->result == "1-0"   ? "0-1"
                                    : ga->result == "0-1" ? "1-0"
                                                          : "1/2-1/2";
        RC_ASSERT(gb->result == flipped);
        break;
      }
    });
  }
}

// The settings a match definition's `adjudication` text names, read by the grammar of
// docs/harnesses/match.md#adjudication: "none", or the rules set in the order draw, resign,
// maxmoves, joined by "; ". nullopt: a text outside that grammar.
std::optional<Adjudication> read_settings_text(const std::string& text) {
  Adjudication s;
  if (text == "none") return s;
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t semi = text.find("; ", at);
    parts.push_back(text.substr(at, semi == std::string::npos ? std::string::npos : semi - at));
    if (semi == std::string::npos) break;
    at = semi + 2;
  }
  int order = 0;
  for (const std::string& part : parts) {
    std::istringstream in(part);
    std::string rule, extra;
    in >> rule;
    auto number = [&](const std::string& key) -> std::optional<int> {
      std::string word;
      if (!(in >> word) || word.rfind(key + "=", 0) != 0) return std::nullopt;
      try {
        std::size_t used = 0;
        const int v = std::stoi(word.substr(key.size() + 1), &used);
        if (used != word.size() - key.size() - 1) return std::nullopt;
        return v;
      } catch (const std::exception&) {
        return std::nullopt;
      }
    };
    if (rule == "draw" && order < 1) {
      const auto a = number("movenumber"), b = number("movecount"), c = number("score");
      if (!a || !b || !c) return std::nullopt;
      s.draw = Adjudication::Draw{*a, *b, *c};
      order = 1;
    } else if (rule == "resign" && order < 2) {
      const auto a = number("movecount"), b = number("score");
      if (!a || !b) return std::nullopt;
      s.resign = Adjudication::Resign{*a, *b};
      order = 2;
    } else if (rule.rfind("maxmoves=", 0) == 0 && order < 3) {
      std::istringstream again(part);
      in.swap(again);
      const auto n = number("maxmoves");
      if (!n || *n <= 0) return std::nullopt;
      s.maxmoves = *n;
      order = 3;
    } else {
      return std::nullopt;
    }
    if (in >> extra) return std::nullopt;
  }
  return s;
}

// MODEL games-adjudication-text
// checks: harness/src/games/adjudication.cpp  (the settings text a match or datagen definition records)
// contract: docs/harnesses/match.md#adjudication
// planted: ci/mutants/model-games-adjudication-text.patch  (a draw rule printed when none is set)
TEST_CASE("the adjudication text reads back as exactly the rules set and their numbers",
          "[model][adjudication]") {
  CHECK(Adjudication().text() == "none");
  rc::prop("text() names each rule set, and only those", [] {
    const Adjudication s = gen_settings();
    const std::string text = s.text();
    const auto back = read_settings_text(text);
    RC_ASSERT(back.has_value());
    RC_ASSERT(back->draw.has_value() == s.draw.has_value());
    if (s.draw) {
      RC_ASSERT(back->draw->movenumber == s.draw->movenumber);
      RC_ASSERT(back->draw->movecount == s.draw->movecount);
      RC_ASSERT(back->draw->score == s.draw->score);
    }
    RC_ASSERT(back->resign.has_value() == s.resign.has_value());
    if (s.resign) {
      RC_ASSERT(back->resign->movecount == s.resign->movecount);
      RC_ASSERT(back->resign->score == s.resign->score);
    }
    RC_ASSERT(back->maxmoves == s.maxmoves);
    RC_TAG(text == "none" ? "none" : text.find(';') == std::string::npos ? "one rule" : "rules");
  });
}

}  // namespace adjudication_model_test
