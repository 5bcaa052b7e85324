// limits: zero and tiny limits (wtime/btime 0, movetime 0, nodes 0, depth 0, nodes 1, movetime 1,
// depth 1) each give a legal bestmove promptly, without the GUI having to send stop.
#include "notation.h"
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {
constexpr const char* kFen =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
}

void add_limit_scenarios(std::vector<Scenario>& out, const Settings&) {
  for (const char* go : {"go wtime 0 btime 0", "go movetime 0", "go nodes 0", "go depth 0",
                         "go nodes 1", "go movetime 1", "go depth 1"}) {
    std::string name = go;
    for (char& c : name) c = c == ' ' ? '-' : c;
    out.push_back({"limits", name, std::string("'") + go + "': a legal bestmove promptly",
                   [go = std::string(go)](Session& s, ScenarioResult& r) {
                     const Position root = position_of(kFen);
                     s.send(std::string("position fen ") + kFen);
                     SearchRun run = run_go(s, go, s.timeout(Timeouts::kPrompt));
                     r.facts["bestmove_ms"] = run.ms;
                     if (run.last_nodes) r.facts["nodes"] = *run.last_nodes;
                     if (require_finished(run, r, go))
                       check_search(root, run, r, go, {s.settings().strict_pv});
                   }});
  }
}

}  // namespace stk::harness::ucicheck
