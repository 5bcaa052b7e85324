// How a datagen run's games ended (docs/datagen.md "Report"): per termination, the games White won,
// drew and Black won, from the journal's machine field (never from the end's text).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "commands/datagen/datagen_file.h"

namespace stk::harness::datagen {

// [0] White won, [1] drawn, [2] Black won; only the terminations that occurred are keys.
using TerminationCounts = std::map<match::Termination, std::array<std::uint64_t, 3>>;

TerminationCounts count_terminations(const std::vector<JournalGame>& games);

// "checkmate 12 (white 7, black 5), repetition 3, adjudication 40" (draws are not split).
std::string terminations_line(const TerminationCounts& counts);

// {"checkmate": {"games": 12, "white_wins": 7, "draws": 0, "black_wins": 5}, ...}
nlohmann::ordered_json terminations_json(const TerminationCounts& counts);

// A Markdown table: termination | games | White won | drawn | Black won.
std::string terminations_markdown(const TerminationCounts& counts);

}  // namespace stk::harness::datagen
