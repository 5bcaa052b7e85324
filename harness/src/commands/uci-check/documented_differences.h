// Behaviours of known engines that the checks reject but that are deliberate, measured and
// documented (docs/harnesses/uci-check.md, "Documented differences"). A failing scenario
// becomes a "documented difference" (JUnit <skipped> with the reason; the report keeps what
// was seen) only when the engine's id name
// starts with the entry's prefix AND every failure's behaviour tag is one the entry names for
// that scenario: any other failure of the same scenario still fails.
#pragma once

#include <string>
#include <vector>

namespace stk::harness::ucicheck {

struct DocumentedDifference {
  std::string engine_prefix;           // "Stockfish 15.1"; "" for any engine
  std::vector<std::string> scenarios;  // "group.name"; ending in '.' or '-': every id it begins
  std::vector<std::string> behaviours;
  std::string text;
};

const std::vector<DocumentedDifference>& documented_differences();

// The entry that excuses every one of `behaviours` in `scenario_id` for `engine_name`, or null.
const DocumentedDifference* find_documented_difference(const std::string& engine_name,
                                                       const std::string& scenario_id,
                                                       const std::vector<std::string>& behaviours);

}  // namespace stk::harness::ucicheck
