// games: short games played the way a GUI plays them: "position startpos moves ..." + go for
// every move, the table kept between moves (no ucinewgame within a game), ucinewgame between
// games. Every bestmove legal, every PV legal from the current position (a PV of the previous
// position is a stale PV).
#include "notation.h"
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/pv_consistency.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {

enum class Opponent { Self, Random };

struct Game {
  Opponent opponent;
  Color engine_colour;  // with a random opponent
  int random_opening;   // seeded random plies before the engine plays (self-play)
  int max_plies;
  std::string go;
};

// Plays one game; false when the engine failed badly enough (hang, crash, illegal move) to stop.
bool play_game(Session& s, ScenarioResult& r, const Game& g, SplitMix& rng,
               const std::string& label) {
  Position pos = position_of(Position::kStartFen);
  std::string moves;
  std::optional<Position> previous;
  int engine_moves = 0;
  double slowest = 0;
  for (int ply = 0; ply < g.max_plies && has_legal_move(pos); ++ply) {
    const bool engine_turn = g.opponent == Opponent::Self ? ply >= g.random_opening
                                                          : pos.side_to_move() == g.engine_colour;
    Move m = Move::none();
    if (!engine_turn) {
      m = random_legal_move(pos, rng);
    } else {
      s.send("position startpos" + (moves.empty() ? std::string() : " moves" + moves));
      SearchRun run = run_go(s, g.go, s.timeout(Timeouts::kHang));
      const std::string where = label + " ply " + std::to_string(ply + 1);
      if (!require_finished(run, r, where)) return false;
      const std::size_t failures = r.failures.size();
      check_search(pos, run, r, where, {s.settings().strict_pv, previous ? &*previous : nullptr});
      auto best = parse_uci(pos, run.best->move);
      if (!best) return false;
      if (r.failures.size() > failures) r.facts[label + "_first_failure_ply"] = ply + 1;
      m = *best;
      ++engine_moves;
      slowest = std::max(slowest, run.ms);
      previous = pos;
    }
    moves += " " + to_uci(m);
    pos.make_move(m);
  }
  r.facts[label + "_plies"] = pos.game_ply();
  r.facts[label + "_engine_moves"] = engine_moves;
  r.facts[label + "_slowest_move_ms"] = slowest;
  r.facts[label + "_end"] = !has_legal_move(pos) ? (pos.in_check() ? "checkmate" : "stalemate")
                                                 : "ply limit";
  return true;
}

void play_games(Session& s, ScenarioResult& r, const std::vector<Game>& games, std::uint64_t seed) {
  SplitMix rng(seed);
  r.facts["seed"] = seed;
  for (std::size_t i = 0; i < games.size(); ++i) {
    if (i > 0) {
      s.send("ucinewgame");
      if (!s.isready(s.timeout(Timeouts::kPrompt)).found)
        return r.fail("isready not answered after ucinewgame between games (" + s.state() + ")",
                      "hang");
    }
    if (!play_game(s, r, games[i], rng, "game" + std::to_string(i + 1))) return;
  }
}

}  // namespace

void add_game_scenarios(std::vector<Scenario>& out, const Settings& settings) {
  const std::uint64_t seed = settings.seed;
  out.push_back({"games", "self-play",
                 "two self-play games (4 seeded random plies, then go nodes 5000 a move)",
                 [seed](Session& s, ScenarioResult& r) {
                   play_games(s, r,
                              {{Opponent::Self, WHITE, 4, 24, "go nodes 5000"},
                               {Opponent::Self, WHITE, 4, 24, "go nodes 5000"}},
                              seed);
                 }});
  out.push_back(
      {"games", "vs-random",
       "the engine as white (go nodes 5000) then black (go movetime 20) against a seeded random mover",
       [seed](Session& s, ScenarioResult& r) {
         play_games(s, r,
                    {{Opponent::Random, WHITE, 0, 40, "go nodes 5000"},
                     {Opponent::Random, BLACK, 0, 40, "go movetime 20"}},
                    seed + 1);
       }});
}

}  // namespace stk::harness::ucicheck
