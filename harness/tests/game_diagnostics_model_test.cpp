// Game diagnostics (docs/match-results.md "Terminations" and "Game diagnostics") against a model
// written from that text: each game counted once for each engine with its own colour and outcome,
// faults charged to the loser, positions grouped and flagged; swapping the engines swaps the rows;
// a file keeps terminations and positions; a termination that cannot give its result is refused.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "match_results/game_diagnostics.h"
#include "match_results/match_result.h"
#include "match_results/match_result_file.h"

namespace game_diagnostics_model_test {

// Declared here: a unity build shares this file's scope with tests that use namespace stk.
namespace m = stk::harness::match;
using m::Color;
using m::diagnostics_json;
using m::EngineSpec;
using m::GameRecord;
using m::GateMode;
using m::MatchDefinition;
using m::MatchResult;
using m::opening_table;
using m::OpeningStats;
using m::PairRecord;
using m::parse_match_result;
using m::parse_termination;
using m::SideOutcomes;
using m::Termination;
using m::termination_table;
using m::TerminationTable;
using m::to_json_text;
using m::to_string;

const std::vector<std::string> kFaults = {"time-loss", "crash", "illegal-move", "disconnect"};
const std::vector<std::string> kDraws = {"stalemate", "repetition", "fifty-moves",
                                         "insufficient-material"};

bool is_fault_name(const std::string& t) {
  return std::find(kFaults.begin(), kFaults.end(), t) != kFaults.end();
}

// A game that could have happened: the termination's rule decides which results it can have.
GameRecord gen_game(Color a) {
  const std::string name = *rc::gen::element<std::string>("checkmate", "stalemate", "repetition",
                                                          "fifty-moves", "insufficient-material",
                                                          "adjudication", "time-loss", "crash",
                                                          "illegal-move", "disconnect",
                                                          "unrecorded");
  std::string result;
  if (name == "checkmate" || is_fault_name(name))
    result = *rc::gen::element<std::string>("1-0", "0-1");
  else if (std::find(kDraws.begin(), kDraws.end(), name) != kDraws.end()) result = "1/2-1/2";
  else result = *rc::gen::element<std::string>("1-0", "0-1", "1/2-1/2");
  GameRecord g{a, result, "text nobody parses", *rc::gen::inRange(0, 4)};
  g.termination = *parse_termination(name);
  return g;
}

MatchResult gen_match() {
  MatchDefinition d;
  d.config = "m";
  d.engines = {EngineSpec{"x", "x", {}}, EngineSpec{"y", "y", {}}};
  d.time_control = "nodes=1";
  d.pairs_planned = *rc::gen::inRange<std::uint64_t>(1, 30);
  d.gate = {GateMode::NonRegression, -1000.0};
  MatchResult r(d, {1});
  // A few positions, so that some repeat; "" is a pair recorded without one.
  const std::vector<std::string> positions = {"", "p1 w - -", "p2 b - -", "p3 w KQkq -"};
  for (std::uint64_t i = 0; i < d.pairs_planned; ++i) {
    if (*rc::gen::inRange(0, 4) == 0) continue;
    const bool white_first = *rc::gen::arbitrary<bool>();
    PairRecord p{i,
                 {gen_game(white_first ? Color::White : Color::Black),
                  gen_game(white_first ? Color::Black : Color::White)},
                 *rc::gen::elementOf(positions)};
    r.add_pair(p);
  }
  return r;
}

// A's half points, from White's result and A's colour.
int a_points(const GameRecord& g) {
  if (g.result == "1/2-1/2") return 1;
  return (g.result == "1-0") == (g.a_color == Color::White) ? 2 : 0;
}

// (termination, engine, colour) -> {w, d, l}; engine 0 A, 1 B; colour 0 white, 1 black.
using Model = std::map<std::tuple<std::string, int, int>, std::array<std::uint64_t, 3>>;

Model model_table(const MatchResult& r) {
  Model m;
  for (const PairRecord& p : r.pairs())
    for (const GameRecord& g : p.games) {
      const std::string t = to_string(g.termination);
      const int a_colour = g.a_color == Color::White ? 0 : 1;
      const int a = a_points(g);
      m[{t, 0, a_colour}][a == 2 ? 0 : a == 1 ? 1 : 2]++;
      m[{t, 1, 1 - a_colour}][a == 0 ? 0 : a == 1 ? 1 : 2]++;
    }
  return m;
}

Model table_as_model(const TerminationTable& t) {
  Model m;
  for (const auto& [kind, row] : t)
    for (int e = 0; e < 2; ++e)
      for (int c = 0; c < 2; ++c) {
        const SideOutcomes& s = row[std::size_t(e)][std::size_t(c)];
        if (s.games()) m[{to_string(kind), e, c}] = {s.wins, s.draws, s.losses};
      }
  return m;
}

// The same games with the engines' roles swapped: every game's A colour flips, results stay.
MatchResult swapped(const MatchResult& r) {
  MatchDefinition d = r.definition();
  std::swap(d.engines[0], d.engines[1]);
  MatchResult out(d, r.shards());
  for (PairRecord p : r.pairs()) {
    for (GameRecord& g : p.games)
      g.a_color = g.a_color == Color::White ? Color::Black : Color::White;
    out.add_pair(p);
  }
  return out;
}

// MODEL match-game-diagnostics
// checks: harness/src/match_results/game_diagnostics.cpp  (terminations per engine and colour, faults charged to the loser, openings flagged)
// contract: docs/match-results.md#game-diagnostics-match_resultsgame_diagnosticsh
// planted: ci/mutants/model-match-terminations.patch  (B counted with A's colour)
TEST_CASE("model: terminations count every game once per engine with its colour and outcome",
          "[model][match]") {
  rc::prop("the table equals the model; swapping the engines swaps its rows", [] {
    const MatchResult r = gen_match();
    const Model m = model_table(r);
    RC_ASSERT(table_as_model(termination_table(r)) == m);
    Model mirrored;
    for (const auto& [key, wdl] : m)
      mirrored[{std::get<0>(key), 1 - std::get<1>(key), std::get<2>(key)}] = wdl;
    RC_ASSERT(table_as_model(termination_table(swapped(r))) == mirrored);
  });
  rc::prop("the JSON charges each fault loss to the engine that lost it", [] {
    const MatchResult r = gen_match();
    const nlohmann::ordered_json j = diagnostics_json(r);
    const Model m = model_table(r);
    for (int e = 0; e < 2; ++e) {
      std::uint64_t total = 0;
      std::map<std::string, std::uint64_t> by_kind;
      for (const auto& [key, wdl] : m)
        if (std::get<1>(key) == e && is_fault_name(std::get<0>(key)) && wdl[2])
          by_kind[std::get<0>(key)] += wdl[2], total += wdl[2];
      const auto& got = j["losses_by_fault"][e == 0 ? "A" : "B"];
      RC_ASSERT(got["total"].get<std::uint64_t>() == total);
      RC_ASSERT(got.size() == by_kind.size() + 1);
      for (const auto& [kind, n] : by_kind) RC_ASSERT(got[kind].get<std::uint64_t>() == n);
    }
    std::uint64_t games = 0;
    for (const auto& [kind, entry] : j["terminations"].items())
      games += entry["games"].get<std::uint64_t>();
    RC_ASSERT(games == 2 * r.pairs().size());
  });
}

TEST_CASE("model: openings group by position and flag the decided and the duplicated",
          "[model][match]") {
  rc::prop("each position's pairs, pentanomial and flags follow the contract", [] {
    const MatchResult r = gen_match();
    std::map<std::string, std::vector<const PairRecord*>> groups;
    for (const PairRecord& p : r.pairs())
      groups[p.position.empty() ? "#" + std::to_string(p.opening) : p.position].push_back(&p);
    const std::vector<OpeningStats> table = opening_table(r);
    RC_ASSERT(table.size() == groups.size());
    for (const OpeningStats& s : table) {
      const auto& g = groups.at(s.position.empty() ? "#" + std::to_string(s.openings.at(0))
                                                   : s.position);
      RC_ASSERT(s.openings.size() == g.size());
      RC_ASSERT(s.duplicate == (g.size() > 1));
      bool decided = false;
      std::array<std::uint64_t, 5> penta{};
      for (const PairRecord* p : g) {
        const auto& [g0, g1] = p->games;
        penta[std::size_t(a_points(g0) + a_points(g1))]++;
        decided |= g0.result != "1/2-1/2" && g0.result == g1.result;
        for (const GameRecord& x : p->games) {
          const std::string t = to_string(x.termination);
          decided |= x.plies == 0 && t != "unrecorded" && !is_fault_name(t);
        }
      }
      RC_ASSERT(s.penta.n == penta);
      RC_ASSERT(s.decided_before_move_1 == decided);
    }
  });
}

TEST_CASE("model: a result file keeps each game's termination and each pair's position",
          "[model][match]") {
  rc::prop("written and read back, the pairs are equal", [] {
    const MatchResult r = gen_match();
    const MatchResult back = parse_match_result(to_json_text(r), "gen.json");
    RC_ASSERT(back.pairs() == r.pairs());
  });
}

TEST_CASE("a termination that cannot give its game's result is refused with the game named",
          "[match]") {
  MatchDefinition d;
  d.config = "m";
  d.engines = {EngineSpec{"x", "x", {}}, EngineSpec{"y", "y", {}}};
  d.time_control = "nodes=1";
  d.pairs_planned = 4;
  d.gate = {GateMode::NonRegression, -1000.0};
  MatchResult r(d, {1});
  auto pair = [](const char* t0, const char* r0) {
    PairRecord p{0, {GameRecord{Color::White, r0, "", 10}, GameRecord{Color::Black, "0-1", "", 9}}};
    p.games[0].termination = *parse_termination(t0);
    p.games[1].termination = Termination::Checkmate;
    return p;
  };
  // Each rule by its smallest breach, and the result it allows.
  CHECK_THROWS_WITH(r.add_pair(pair("stalemate", "1-0")),
                    Catch::Contains("game 1: stalemate draws a game, not 1-0"));
  CHECK_THROWS_WITH(r.add_pair(pair("crash", "1/2-1/2")),
                    Catch::Contains("game 1: crash decides a game, not 1/2-1/2"));
  CHECK_THROWS_WITH(r.add_pair(pair("checkmate", "1/2-1/2")),
                    Catch::Contains("checkmate decides a game"));
  CHECK(r.pairs().empty());
  CHECK_NOTHROW(r.add_pair(pair("adjudication", "1/2-1/2")));
  // A file naming an unknown termination is refused with the field's path.
  std::string text = to_json_text(r);
  const std::string written = "\"termination\":\"adjudication\"";
  REQUIRE(text.find(written) != std::string::npos);
  text.replace(text.find(written), written.size(), "\"termination\":\"abandoned\"");
  CHECK_THROWS_WITH(parse_match_result(text, "f.json"),
                    Catch::Contains(
                        "f.json: field 'pairs[0].games[0].termination' is 'abandoned'"));
}

}  // namespace game_diagnostics_model_test
