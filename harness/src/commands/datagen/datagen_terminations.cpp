#include "commands/datagen/datagen_terminations.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace stk::harness::datagen {

TerminationCounts count_terminations(const std::vector<JournalGame>& games) {
  TerminationCounts counts;
  for (const JournalGame& g : games) {
    const std::size_t outcome = g.result == "1-0" ? 0 : g.result == "0-1" ? 2 : 1;
    ++counts[g.termination][outcome];
  }
  return counts;
}

std::string terminations_line(const TerminationCounts& counts) {
  std::string out;
  for (const auto& [kind, n] : counts) {
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", match::to_string(kind),
                       n[0] + n[1] + n[2]);
    if (n[0] + n[2] > 0) out += fmt::format(" (white {}, black {})", n[0], n[2]);
  }
  return out.empty() ? "no games" : out;
}

nlohmann::ordered_json terminations_json(const TerminationCounts& counts) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [kind, n] : counts)
    j[match::to_string(kind)] = {{"games", n[0] + n[1] + n[2]},
                                 {"white_wins", n[0]},
                                 {"draws", n[1]},
                                 {"black_wins", n[2]}};
  return j;
}

std::string terminations_markdown(const TerminationCounts& counts) {
  std::string out = "| ended by | games | White won | drawn | Black won |\n|---|---|---|---|---|\n";
  for (const auto& [kind, n] : counts)
    out += fmt::format("| {} | {} | {} | {} | {} |\n", match::to_string(kind), n[0] + n[1] + n[2],
                       n[0], n[1], n[2]);
  return out;
}

}  // namespace stk::harness::datagen
