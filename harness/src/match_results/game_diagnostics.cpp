#include "match_results/game_diagnostics.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace stk::harness::match {

namespace {

using ojson = nlohmann::ordered_json;

void count(SideOutcomes& s, GameScore g) {
  ++(g == GameScore::Win ? s.wins : g == GameScore::Draw ? s.draws : s.losses);
}

bool by_rules(Termination t) {
  return t != Termination::Unrecorded && t != Termination::Adjudication && !is_fault(t);
}

// The opening, not the engines, decided the pair: the same colour won both games (each engine won
// with that colour), or a game ended by the rules or adjudication before the engines' first move.
bool decided_by_opening(const PairRecord& p) {
  const std::string& r = p.games[0].result;
  if (r != "1/2-1/2" && r == p.games[1].result && p.games[0].a_color != p.games[1].a_color)
    return true;
  return std::any_of(p.games.begin(), p.games.end(), [](const GameRecord& g) {
    return g.plies == 0 && (by_rules(g.termination) || g.termination == Termination::Adjudication);
  });
}

ojson outcomes_json(const SideOutcomes& s) {
  return {{"w", s.wins}, {"d", s.draws}, {"l", s.losses}};
}

}  // namespace

TerminationTable termination_table(const MatchResult& r) {
  TerminationTable t;
  for (const PairRecord& p : r.pairs())
    for (const GameRecord& g : p.games) {
      const GameScore a = g.score_for_a();
      const int a_colour = g.a_color == Color::White ? 0 : 1;
      EngineColourOutcomes& row = t[g.termination];
      count(row[0][std::size_t(a_colour)], a);
      count(row[1][std::size_t(1 - a_colour)], mirrored(a));
    }
  return t;
}

std::string fault_line(const TerminationTable& t, const MatchDefinition& d) {
  std::string out;
  for (std::size_t e = 0; e < 2; ++e) {
    std::string faults;
    for (const auto& [kind, row] : t)
      if (is_fault(kind))
        if (auto lost = row[e][0].losses + row[e][1].losses)
          faults += fmt::format("{}{} {}", faults.empty() ? "" : ", ", lost, to_string(kind));
    if (!faults.empty())
      out += fmt::format("{}{} ({}): {}", out.empty() ? "" : "; ", e == 0 ? "A" : "B",
                         d.engines[e].name, faults);
  }
  return out.empty() ? "none" : out;
}

std::string termination_line(const TerminationTable& t) {
  std::string out;
  for (const auto& [kind, row] : t)  // A's games are every game once
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", to_string(kind),
                       row[0][0].games() + row[0][1].games());
  return out;
}

std::vector<OpeningStats> opening_table(const MatchResult& r) {
  std::vector<OpeningStats> out;
  std::map<std::string, std::size_t> at;  // position -> index in out
  for (const PairRecord& p : r.pairs()) {
    // A pair without a recorded position is its own entry: nothing says what it shares.
    const std::string key = p.position.empty() ? "#" + std::to_string(p.opening) : p.position;
    auto [it, fresh] = at.emplace(key, out.size());
    if (fresh) out.push_back({p.position, {}, {}, false, false});
    OpeningStats& s = out[it->second];
    s.openings.push_back(p.opening);
    s.penta.add_pair(p.games[0].score_for_a(), p.games[1].score_for_a());
    s.decided_before_move_1 |= decided_by_opening(p);
  }
  for (OpeningStats& s : out) {
    std::sort(s.openings.begin(), s.openings.end());
    s.duplicate = s.openings.size() > 1;
  }
  return out;
}

std::string engine_colour_text(const EngineColourOutcomes& row) {
  std::string out;
  for (std::size_t e = 0; e < 2; ++e)
    for (std::size_t c = 0; c < 2; ++c)
      out += fmt::format("{}{} {} {}-{}-{}", out.empty() ? "" : ", ", e == 0 ? "A" : "B",
                         c == 0 ? "white" : "black", row[e][c].wins, row[e][c].draws,
                         row[e][c].losses);
  return out;
}

std::string diagnostics_markdown(const MatchResult& r) {
  const MatchDefinition& d = r.definition();
  std::string out = fmt::format(
      "\n### How the games ended\n\nW-D-L of each engine by its colour (A {}, B {}).\n\n"
      "| termination | A white | A black | B white | B black |\n|---|---|---|---|---|\n",
      d.engines[0].name, d.engines[1].name);
  for (const auto& [kind, row] : termination_table(r)) {
    out += fmt::format("| {} |", to_string(kind));
    for (std::size_t e = 0; e < 2; ++e)
      for (std::size_t c = 0; c < 2; ++c)
        out += fmt::format(" {}-{}-{} |", row[e][c].wins, row[e][c].draws, row[e][c].losses);
    out += "\n";
  }
  std::uint64_t positions = 0, decided = 0, duplicated = 0;
  for (const OpeningStats& s : opening_table(r))
    ++positions, decided += s.decided_before_move_1, duplicated += s.duplicate;
  out += fmt::format(
      "\n### Openings\n\n{} positions: {} decided before move 1 (one colour won both games), {} "
      "played in more than one pair (listed under diagnostics.openings in the JSON).\n",
      positions, decided, duplicated);
  return out;
}

ojson diagnostics_json(const MatchResult& r) {
  ojson terminations = ojson::object();
  std::array<ojson, 2> faults = {ojson::object(), ojson::object()};
  std::array<std::uint64_t, 2> fault_total{};
  for (const auto& [kind, row] : termination_table(r)) {
    ojson entry = {{"games", row[0][0].games() + row[0][1].games()}};
    for (std::size_t e = 0; e < 2; ++e) {
      entry[e == 0 ? "A" : "B"] = {{"white", outcomes_json(row[e][0])},
                                   {"black", outcomes_json(row[e][1])}};
      if (const std::uint64_t lost = row[e][0].losses + row[e][1].losses; is_fault(kind) && lost)
        faults[e][to_string(kind)] = lost, fault_total[e] += lost;
    }
    terminations[to_string(kind)] = entry;
  }
  for (std::size_t e = 0; e < 2; ++e) faults[e]["total"] = fault_total[e];
  // Every position played more than once or flagged; a single clean pair's pentanomial is its score.
  ojson listed = ojson::array();
  std::uint64_t positions = 0, decided = 0, duplicated = 0;
  for (const OpeningStats& s : opening_table(r)) {
    ++positions;
    decided += s.decided_before_move_1;
    duplicated += s.duplicate;
    if (!s.duplicate && !s.decided_before_move_1) continue;
    ojson flags = ojson::array();
    if (s.decided_before_move_1) flags.push_back("decided-before-move-1");
    if (s.duplicate) flags.push_back("duplicate-position");
    listed.push_back({{"position", s.position},
                      {"openings", s.openings},
                      {"pentanomial", s.penta.n},
                      {"flags", flags}});
  }
  return {{"terminations", terminations},
          {"losses_by_fault", {{"A", faults[0]}, {"B", faults[1]}}},
          {"openings",
           {{"positions", positions},
            {"decided_before_move_1", decided},
            {"duplicate_positions", duplicated},
            {"flagged", listed}}}};
}

}  // namespace stk::harness::match
