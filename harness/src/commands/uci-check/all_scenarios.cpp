#include "commands/uci-check/scenario.h"

namespace stk::harness::ucicheck {

std::vector<Scenario> all_scenarios(const Settings& settings) {
  std::vector<Scenario> out;
  add_handshake_scenarios(out, settings);
  add_during_search_scenarios(out, settings);
  add_limit_scenarios(out, settings);
  add_node_limit_scenarios(out, settings);
  add_time_use_scenarios(out, settings);
  add_ponder_scenarios(out, settings);
  add_latency_scenarios(out, settings);
  add_pv_scenarios(out, settings);
  add_notation_scenarios(out, settings);
  add_game_scenarios(out, settings);
  add_garbage_scenarios(out, settings);
  add_invariance_scenarios(out, settings);
  return out;
}

}  // namespace stk::harness::ucicheck
