// What a self-play match is played under, as parsed from the command line: the engines (command,
// name, UCI options, an optional per-engine node or depth limit), the time control, adjudication.
// Every parser throws UsageError naming the option and the bad token.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "games/adjudication.h"

namespace stk::harness::selfplay {

// The budget of one move: a clock with increment (tc), or a fixed node count or depth per move.
struct TimeControl {
  enum class Kind { Clock, Nodes, Depth } kind = Kind::Nodes;
  int base_ms = 0, inc_ms = 0;                      // Clock
  std::uint64_t nodes = 0;                          // Nodes
  int depth = 0;                                    // Depth
  std::string text() const;                         // "10+0.1", "nodes=10000", "depth=8"
  std::string go_args(int wtime, int btime) const;  // the arguments of "go" for this budget
};

// "10+0.1" (seconds + increment seconds); "40/60+0.6" is not supported (sudden death only).
TimeControl parse_clock(const std::string& text);

struct EngineConfig {
  std::string command;
  std::string name;
  std::map<std::string, std::string> options;  // option.X=Y
  std::optional<TimeControl> limit;            // nodes=N or depth=N: overrides the match's budget
};

// "cmd=CMD name=N option.X=Y nodes=N depth=N" as separate tokens (one --engine's values).
EngineConfig parse_engine(const std::vector<std::string>& tokens);

Adjudication::Draw parse_draw(const std::vector<std::string>& tokens);
Adjudication::Resign parse_resign(const std::vector<std::string>& tokens);

// "key=value" tokens into a map; UsageError naming `option` on a token without '=' or an unknown key.
std::map<std::string, std::string> parse_key_values(const std::vector<std::string>& tokens,
                                                    const std::string& option,
                                                    const std::vector<std::string>& keys);
long long parse_integer(const std::string& text, const std::string& what, long long lo,
                        long long hi);

}  // namespace stk::harness::selfplay
