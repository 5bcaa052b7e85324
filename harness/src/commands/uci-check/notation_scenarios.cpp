// notation: castling (e1g1, never e1h1 in standard chess), en passant and under-promotion, both
// ways. Played: positions whose only mate in one (or only legal move) is such a move, for both
// colours (found by a seeded search with python-chess and checked here by stk's generator): the
// engine must play it in correct notation. Accepted: "position ... moves" lists that contain such
// moves, each followed by a move that is legal only if it was applied correctly; the engine
// must then search the final position.
#include "movegen.h"
#include "notation.h"
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/pv_consistency.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {

struct Played {
  const char* name;
  const char* fen;
  const char* move;  // the only mate in one, or the only legal move
};

struct Accepted {
  const char* name;
  const char* fen;  // nullptr: the start position
  const char* moves;
};

void play_special(Session& s, ScenarioResult& r, const Played& c) {
  const Position root = position_of(c.fen);
  s.send(std::string("position fen ") + c.fen);
  SearchRun run = run_go(s, "go nodes 100000", s.timeout(Timeouts::kHang));
  r.facts["expected"] = c.move;
  if (run.best) r.facts["bestmove"] = run.best->move;
  if (!require_finished(run, r, "go nodes 100000")) return;
  check_search(root, run, r, "go nodes 100000", {s.settings().strict_pv});
  if (run.best->move != c.move && legal_in(root, run.best->move))
    r.fail("played '" + run.best->move + "'; the only " +
               (MoveList(root).size() == 1 ? "legal move" : "mate in one") + " is '" + c.move + "'",
           "missed-special-move");
}

void accept_special(Session& s, ScenarioResult& r, const Accepted& c) {
  // A search of the start position first: if the list is refused, the engine is left there.
  const Position previous = position_of(Position::kStartFen);
  s.send("position startpos");
  SearchRun first = run_go(s, "go depth 1", s.timeout(Timeouts::kHang));
  if (!require_finished(first, r, "go depth 1 from the start")) return;
  Position final_pos = position_of(c.fen ? c.fen : Position::kStartFen);
  std::string command = c.fen ? std::string("position fen ") + c.fen : "position startpos";
  command += std::string(" moves ") + c.moves;
  std::string text = c.moves;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find(' ', at);
    std::string m = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    final_pos.make_move(*parse_uci(final_pos, m));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  final_pos = position_of(final_pos.fen());
  r.facts["final_fen"] = final_pos.fen();
  s.send(command);
  SearchRun run = run_go(s, "go depth 3", s.timeout(Timeouts::kHang));
  if (run.best) r.facts["bestmove"] = run.best->move;
  if (!require_finished(run, r, "go depth 3")) return;
  CheckOptions options{s.settings().strict_pv, &previous};
  check_search(final_pos, run, r, "go depth 3 after '" + command + "'", options);
}

}  // namespace

void add_notation_scenarios(std::vector<Scenario>& out, const Settings&) {
  static const Played kPlayed[] = {
      {"play-castle-kingside-white", "7q/1N6/n7/8/2n5/8/B3Q3/k3K2R w K - 0 1", "e1g1"},
      {"play-castle-queenside-black", "r3k2K/p3q3/8/8/3pB3/1N6/8/8 b q - 0 1", "e8c8"},
      {"play-en-passant-only-move-white", "8/8/8/Pp3q2/2K5/5k2/1q6/8 w - b6 0 1", "a5b6"},
      {"play-en-passant-mate-black", "6q1/K1k5/8/8/pP6/q7/8/1B6 b - b3 0 1", "a4b3"},
      {"play-en-passant-mate-white", "2B5/k1K5/8/Pp6/8/Q7/8/8 w - b6 0 1", "a5b6"},
      {"play-underpromotion-white", "8/P1R5/1k2B3/1r6/Q7/8/8/4K3 w - - 0 1", "a7a8n"},
      {"play-underpromotion-black", "4k3/3b4/7b/4q3/1r4b1/8/Kp3r2/8 b - - 0 1", "b2b1n"},
  };
  static const Accepted kAccepted[] = {
      {"accept-castling-kingside", nullptr,
       "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 f1e1 e8g8 c2c3 f8e8 d2d4"},
      {"accept-castling-queenside", nullptr,
       "d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7 e1c1 e8c8 d1e1 d8e8 e2e4"},
      {"accept-en-passant", nullptr, "e2e4 a7a6 e4e5 d7d5 e5d6 c7d6 d2d4 d6d5 g1f3"},
      {"accept-underpromotion-white", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8n g7f7 e8d6 f7e6"},
      {"accept-underpromotion-black", "4k3/8/8/8/8/8/1p4K1/8 b - - 0 1", "b2b1n g2f2 b1d2 f2e2"},
  };
  for (const Played& c : kPlayed)
    out.push_back({"notation", c.name, std::string("plays '") + c.move + "' in UCI notation",
                   [c](Session& s, ScenarioResult& r) { play_special(s, r, c); }});
  for (const Accepted& c : kAccepted)
    out.push_back({"notation", c.name,
                   std::string("accepts 'moves ") + c.moves + "' and searches the result",
                   [c](Session& s, ScenarioResult& r) { accept_special(s, r, c); }});
}

}  // namespace stk::harness::ucicheck
