// nodes: under "go nodes N" no info line reports more than N nodes (plus --nodes-tolerance * N).
// The overshoot is measured and reported either way; an overshoot within one periodic check
// interval (1024 + N/1024 nodes, how Stockfish polls its limits) is tagged as such.
#include <cmath>

#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

void add_node_limit_scenarios(std::vector<Scenario>& out, const Settings&) {
  struct Case {
    std::uint64_t nodes;
    const char* fen;
  };
  const Case cases[] = {
      {1000, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
      {20000, "r2qk2r/ppp1bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R b KQkq - 0 6"},
      {200000, Position::kStartFen},
  };
  for (const Case& c : cases) {
    out.push_back(
        {"nodes", "go-nodes-" + std::to_string(c.nodes),
         "'go nodes " + std::to_string(c.nodes) + "': no info line reports more nodes",
         [c](Session& s, ScenarioResult& r) {
           const Position root = position_of(c.fen);
           const std::string go = "go nodes " + std::to_string(c.nodes);
           s.send(std::string("position fen ") + c.fen);
           SearchRun run = run_go(s, go, s.timeout(Timeouts::kHang));
           r.facts["bestmove_ms"] = run.ms;
           if (!require_finished(run, r, go)) return;
           check_search(root, run, r, go, {s.settings().strict_pv});
           if (!run.last_nodes) {
             r.warn("no info line reports nodes: the limit cannot be checked");
             return;
           }
           const std::uint64_t allowed =
               c.nodes + std::uint64_t(std::floor(double(c.nodes) * s.settings().nodes_tolerance));
           const long long overshoot = (long long)run.max_nodes - (long long)c.nodes;
           r.facts["limit"] = c.nodes;
           r.facts["last_info_nodes"] = *run.last_nodes;
           r.facts["max_info_nodes"] = run.max_nodes;
           r.facts["overshoot_nodes"] = std::max(0LL, overshoot);
           r.facts["allowed_nodes"] = allowed;
           if (run.max_nodes > allowed) {
             const bool periodic = overshoot <= 1024 + (long long)(c.nodes / 1024);
             r.fail("an info line reports " + std::to_string(run.max_nodes) + " nodes under '" +
                        go + "' (overshoot " + std::to_string(overshoot) + ", allowed " +
                        std::to_string(allowed - c.nodes) + ")",
                    periodic ? "nodes-overshoot-periodic" : "nodes-overshoot");
           }
         }});
  }
}

}  // namespace stk::harness::ucicheck
