// pv: every info line's PV is legal from the searched position and agrees with its mate score,
// over the start, tactical positions and forced mates for and against the side to move (both
// colours), seeded random-walk positions, and the reproducer of a PV printed past checkmate:
// two searches without ucinewgame, the second from the position after the first's best line.
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {

constexpr int kNodes = 50000;

void search_and_check(Session& s, ScenarioResult& r, const std::string& fen, const std::string& go,
                      const std::string& label) {
  const Position root = position_of(fen);
  s.send("position fen " + fen);
  SearchRun run = run_go(s, go, s.timeout(Timeouts::kHang));
  r.facts[label + "_bestmove_ms"] = run.ms;
  if (run.best) r.facts[label + "_bestmove"] = run.best->move;
  if (require_finished(run, r, label)) check_search(root, run, r, label, {s.settings().strict_pv});
}

}  // namespace

void add_pv_scenarios(std::vector<Scenario>& out, const Settings& settings) {
  out.push_back(
      {"pv", "reproducer-mate-sequence",
       "two searches at go nodes 200000 without ucinewgame: no PV move after checkmate",
       [](Session& s, ScenarioResult& r) {
         search_and_check(s, r, "r2q1r1k/2p1b1pp/p1n5/1p1Q1bN1/4n3/1BP1B3/PP3PPP/R4RK1 w - - 0 1",
                          "go nodes 200000", "first");
         search_and_check(s, r, "r2q1rQk/2p1b1pp/p1n5/1p3bN1/4n3/1BP1B3/PP3PPP/R4RK1 b - - 1 1",
                          "go nodes 200000", "second");
       }});
  for (const CheckPosition& p : pv_positions(settings.seed)) {
    out.push_back({"pv", p.id, p.note + ": every PV legal and consistent with its score",
                   [p](Session& s, ScenarioResult& r) {
                     r.facts["fen"] = p.fen;
                     search_and_check(s, r, p.fen, "go nodes " + std::to_string(kNodes), "search");
                   }});
  }
}

}  // namespace stk::harness::ucicheck
