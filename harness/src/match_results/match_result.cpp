#include "match_results/match_result.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace stk::harness::match {

GameScore GameRecord::score_for_a() const {
  if (result == "1/2-1/2") return GameScore::Draw;
  const bool white_won = result == "1-0";
  if (!white_won && result != "0-1")
    throw std::invalid_argument("game result must be 1-0, 0-1 or 1/2-1/2, got '" + result + "'");
  return white_won == (a_color == Color::White) ? GameScore::Win : GameScore::Loss;
}

const char* to_string(GateMode m) {
  return m == GateMode::Gain            ? "gain"
         : m == GateMode::NonRegression ? "non-regression"
                                        : "aa-control";
}

GateMode parse_gate_mode(const std::string& s) {
  if (s == "gain") return GateMode::Gain;
  if (s == "non-regression") return GateMode::NonRegression;
  if (s == "aa-control") return GateMode::AAControl;
  throw std::invalid_argument("gate mode must be gain, non-regression or aa-control, got '" + s +
                              "'");
}

std::string MatchDefinition::problem() const {
  if (config.empty()) return "config (the report name) is empty";
  for (const EngineSpec& e : engines)
    if (e.name.empty()) return "an engine has no name";
  if (pairs_planned == 0) return "no opening pairs planned";
  if (pairs_planned > 1000000000)
    return "openings.pairs " + std::to_string(pairs_planned) + " is above 10^9 planned pairs";
  if (shard_count < 1) return "shard count must be at least 1";
  if (sprt)
    if (auto why = sprt->problem(); !why.empty()) return "SPRT: " + why;
  if (gate.mode == GateMode::Gain && !sprt) return "the gain gate needs SPRT parameters";
  if (gate.mode == GateMode::NonRegression && !sprt && !gate.min_elo_lower95)
    return "the non-regression gate needs SPRT parameters or min_elo_lower95";
  return "";
}

namespace {

template <class T>
std::string show(const T& v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

std::string show(const std::optional<double>& v) { return v ? show(*v) : "none"; }
std::string show(const std::optional<SprtParams>& p) {
  if (!p) return "none";
  return std::string(to_string(p->model)) + " [" + show(p->elo0) + ", " + show(p->elo1) +
         "] alpha " + show(p->alpha) + " beta " + show(p->beta);
}

// First difference of two string maps, as "<prefix>.<key>: 'a' vs 'b'".
std::string map_difference(const std::string& prefix, const std::map<std::string, std::string>& a,
                           const std::map<std::string, std::string>& b) {
  auto ia = a.begin(), ib = b.begin();
  for (; ia != a.end() || ib != b.end();) {
    if (ib == b.end() || (ia != a.end() && ia->first < ib->first))
      return prefix + "." + ia->first + ": '" + ia->second + "' vs not set";
    if (ia == a.end() || ib->first < ia->first)
      return prefix + "." + ib->first + ": not set vs '" + ib->second + "'";
    if (ia->second != ib->second)
      return prefix + "." + ia->first + ": '" + ia->second + "' vs '" + ib->second + "'";
    ++ia, ++ib;
  }
  return "";
}

}  // namespace

std::string first_difference(const MatchDefinition& a, const MatchDefinition& b) {
  auto field = [](const std::string& name, const std::string& x, const std::string& y) {
    return x == y ? std::string() : name + ": '" + x + "' vs '" + y + "'";
  };
  std::vector<std::string> found;
  found.push_back(field("config", a.config, b.config));
  for (int i = 0; i < 2; ++i) {
    const std::string e = "engines[" + std::to_string(i) + "]";
    found.push_back(field(e + ".name", a.engines[i].name, b.engines[i].name));
    found.push_back(field(e + ".command", a.engines[i].command, b.engines[i].command));
    found.push_back(map_difference(e + ".options", a.engines[i].options, b.engines[i].options));
  }
  found.push_back(field("time_control", a.time_control, b.time_control));
  found.push_back(map_difference("settings", a.settings, b.settings));
  found.push_back(field("openings.file", a.openings_file, b.openings_file));
  found.push_back(field("openings.seed", show(a.openings_seed), show(b.openings_seed)));
  found.push_back(field("openings.pairs", show(a.pairs_planned), show(b.pairs_planned)));
  found.push_back(field("shard_count", show(a.shard_count), show(b.shard_count)));
  found.push_back(field("sprt", show(a.sprt), show(b.sprt)));
  found.push_back(field("gate.mode", to_string(a.gate.mode), to_string(b.gate.mode)));
  found.push_back(
      field("gate.min_elo_lower95", show(a.gate.min_elo_lower95), show(b.gate.min_elo_lower95)));
  for (const std::string& f : found)
    if (!f.empty()) return f;
  return "";
}

MatchResult::MatchResult(MatchDefinition def, std::set<int> shards)
    : def_(std::move(def)), shards_(std::move(shards)) {
  if (auto why = def_.problem(); !why.empty()) throw std::invalid_argument(why);
  if (shards_.empty()) throw std::invalid_argument("a result must hold at least one shard");
  for (int s : shards_)
    if (s < 1 || s > def_.shard_count)
      throw std::invalid_argument("shard " + std::to_string(s) + " is not one of 1.." +
                                  std::to_string(def_.shard_count));
}

bool MatchResult::planned(std::uint64_t opening) const {
  return opening < def_.pairs_planned &&
         shards_.count(int(opening % std::uint64_t(def_.shard_count)) + 1) > 0;
}

std::vector<std::uint64_t> MatchResult::remaining() const {
  std::vector<std::uint64_t> out;
  for (int s : shards_)
    for (std::uint64_t i = std::uint64_t(s - 1); i < def_.pairs_planned;
         i += std::uint64_t(def_.shard_count))
      if (!has(i)) out.push_back(i);
  std::sort(out.begin(), out.end());
  return out;
}

bool MatchResult::complete() const {
  std::uint64_t planned_here = 0;
  for (int s : shards_)
    if (std::uint64_t(s - 1) < def_.pairs_planned)
      planned_here += (def_.pairs_planned - std::uint64_t(s) + std::uint64_t(def_.shard_count)) /
                      std::uint64_t(def_.shard_count);
  return pairs_.size() == planned_here;
}

void MatchResult::add_pair(const PairRecord& pair) {
  const std::string which = "opening pair " + std::to_string(pair.opening);
  if (!planned(pair.opening)) {
    std::string list;
    for (int s : shards_) list += (list.empty() ? "" : ",") + std::to_string(s);
    throw std::invalid_argument(which + " is not planned for shard(s) " + list + " of " +
                                std::to_string(def_.shard_count) + " (" +
                                std::to_string(def_.pairs_planned) + " pairs planned)");
  }
  if (has(pair.opening)) throw std::invalid_argument(which + " is already recorded");
  if (pair.games[0].a_color == pair.games[1].a_color)
    throw std::invalid_argument(
        which + ": both games have engine A as the same colour (a pair reverses colours)");
  const GameScore first = pair.games[0].score_for_a(), second = pair.games[1].score_for_a();
  for (std::size_t i = 0; i < 2; ++i)
    if (auto why = result_problem(pair.games[i].termination, pair.games[i].result); !why.empty())
      throw std::invalid_argument(which + ": game " + std::to_string(i + 1) + ": " + why);
  pairs_.push_back(pair);
  done_.insert(pair.opening);
  counts_.add_pair(first, second);
}

std::optional<SprtResult> MatchResult::sprt_result() const {
  if (!def_.sprt) return std::nullopt;
  return sprt(counts_.penta, *def_.sprt);
}

}  // namespace stk::harness::match
