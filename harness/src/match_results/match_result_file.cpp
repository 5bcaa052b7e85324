#include "match_results/match_result_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "io/input_file.h"
#include "cli/cli.h"
#include "cli/file_names.h"
#include "io/output_file.h"
#include "match_results/game_diagnostics.h"
#include "match_results/match_analysis.h"
#include "match_results/match_journal.h"

namespace stk::harness::match {

namespace {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

const char* color_name(Color c) { return c == Color::White ? "white" : "black"; }

ojson sprt_json(const SprtParams& p) {
  return {{"elo0", p.elo0},
          {"elo1", p.elo1},
          {"alpha", p.alpha},
          {"beta", p.beta},
          {"model", to_string(p.model)}};
}

ojson definition_json(const MatchDefinition& d) {
  ojson engines = ojson::array();
  for (const EngineSpec& e : d.engines)
    engines.push_back({{"name", e.name}, {"command", e.command}, {"options", e.options}});
  ojson gate = {{"mode", to_string(d.gate.mode)}};
  gate["min_elo_lower95"] = d.gate.min_elo_lower95 ? ojson(*d.gate.min_elo_lower95)
                                                   : ojson(nullptr);
  return {{"config", d.config},
          {"engines", engines},
          {"time_control", d.time_control},
          {"settings", d.settings},
          {"openings",
           {{"file", d.openings_file}, {"seed", d.openings_seed}, {"pairs", d.pairs_planned}}},
          {"shard_count", d.shard_count},
          {"sprt", d.sprt ? sprt_json(*d.sprt) : ojson(nullptr)},
          {"gate", gate}};
}

ojson pair_json(const PairRecord& p) {
  ojson games = ojson::array();
  for (const GameRecord& g : p.games)
    games.push_back({{"a", color_name(g.a_color)},
                     {"result", g.result},
                     {"termination", to_string(g.termination)},
                     {"reason", g.reason},
                     {"plies", g.plies}});
  ojson out = {{"opening", p.opening}};
  if (!p.position.empty()) out["position"] = p.position;
  out["score"] = p.score();
  out["games"] = games;
  return out;
}

// A multi-line dump indented by `pad` after its first line, with arrays of numbers on one line.
std::string indented(const std::string& text, const std::string& pad) {
  static const std::regex number_array(R"(\[\s*\n([-0-9.eE+,\s]*?)\n\s*\])");
  std::string flat;
  auto begin = std::sregex_iterator(text.begin(), text.end(), number_array);
  std::size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    flat.append(text, last, std::size_t(it->position()) - last);
    std::string items = (*it)[1].str();
    items.erase(std::remove_if(items.begin(), items.end(),
                               [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
                items.end());
    for (std::size_t i = 0; (i = items.find(',', i)) != std::string::npos; i += 2)
      items.insert(i + 1, " ");
    flat += "[" + items + "]";
    last = std::size_t(it->position() + it->length());
  }
  flat.append(text, last);
  std::string out;
  for (char c : flat) {
    out += c;
    if (c == '\n') out += pad;
  }
  return out;
}

// Field access that names the file and the field's path in every complaint.
struct Fields {
  const std::string& file;

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw InputError(file + ": " + (where.empty() ? "" : "field '" + where + "' ") + what);
  }
  const json& at(const json& obj, const std::string& where, const std::string& key) const {
    const std::string path = where.empty() ? key : where + "." + key;
    if (!obj.is_object()) fail(where, "must be an object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(path, "is missing");
    return *it;
  }
  std::string str(const json& obj, const std::string& where, const std::string& key) const {
    const json& v = at(obj, where, key);
    if (!v.is_string()) fail(where.empty() ? key : where + "." + key, "must be a string");
    return v.get<std::string>();
  }
  std::uint64_t u64(const json& obj, const std::string& where, const std::string& key) const {
    const json& v = at(obj, where, key);
    if (!v.is_number_unsigned())
      fail(where.empty() ? key : where + "." + key, "must be a non-negative integer");
    return v.get<std::uint64_t>();
  }
  double num(const json& obj, const std::string& where, const std::string& key) const {
    const json& v = at(obj, where, key);
    if (!v.is_number()) fail(where.empty() ? key : where + "." + key, "must be a number");
    return v.get<double>();
  }
  std::map<std::string, std::string> strings(const json& obj, const std::string& where,
                                             const std::string& key) const {
    const json& v = at(obj, where, key);
    const std::string path = where.empty() ? key : where + "." + key;
    if (!v.is_object()) fail(path, "must be an object of strings");
    std::map<std::string, std::string> out;
    for (auto& [k, val] : v.items()) {
      if (!val.is_string()) fail(path + "." + k, "must be a string");
      out[k] = val.get<std::string>();
    }
    return out;
  }
};

MatchDefinition parse_definition(const Fields& f, const json& d) {
  MatchDefinition def;
  def.config = f.str(d, "definition", "config");
  // The config names the merged report's files: the rule --config keeps (cli/file_names.h).
  if (!is_safe_name(def.config))
    f.fail("definition.config",
           "must be a report name (1 to 200 of letters, digits, '.', '_', "
           "'-'; no '..'; not starting with '.' or '-')");
  const json& engines = f.at(d, "definition", "engines");
  if (!engines.is_array() || engines.size() != 2)
    f.fail("definition.engines", "must list exactly 2 engines (A, B)");
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string where = fmt::format("definition.engines[{}]", i);
    def.engines[i] = {f.str(engines[i], where, "name"), f.str(engines[i], where, "command"),
                      f.strings(engines[i], where, "options")};
  }
  def.time_control = f.str(d, "definition", "time_control");
  def.settings = f.strings(d, "definition", "settings");
  const json& openings = f.at(d, "definition", "openings");
  def.openings_file = f.str(openings, "definition.openings", "file");
  def.openings_seed = f.u64(openings, "definition.openings", "seed");
  def.pairs_planned = f.u64(openings, "definition.openings", "pairs");
  const std::uint64_t shard_count = f.u64(d, "definition", "shard_count");
  if (shard_count < 1 || shard_count > 1000000)
    f.fail("definition.shard_count", "must be in 1..1000000");
  def.shard_count = int(shard_count);
  const json& sprt = f.at(d, "definition", "sprt");
  if (!sprt.is_null()) {
    SprtParams p;
    p.elo0 = f.num(sprt, "definition.sprt", "elo0");
    p.elo1 = f.num(sprt, "definition.sprt", "elo1");
    p.alpha = f.num(sprt, "definition.sprt", "alpha");
    p.beta = f.num(sprt, "definition.sprt", "beta");
    try {
      p.model = parse_elo_model(f.str(sprt, "definition.sprt", "model"));
    } catch (const std::invalid_argument& e) {
      f.fail("definition.sprt.model", e.what());
    }
    def.sprt = p;
  }
  const json& gate = f.at(d, "definition", "gate");
  try {
    def.gate.mode = parse_gate_mode(f.str(gate, "definition.gate", "mode"));
  } catch (const std::invalid_argument& e) {
    f.fail("definition.gate.mode", e.what());
  }
  if (!f.at(gate, "definition.gate", "min_elo_lower95").is_null())
    def.gate.min_elo_lower95 = f.num(gate, "definition.gate", "min_elo_lower95");
  if (auto why = def.problem(); !why.empty()) f.fail("definition", why);
  return def;
}

constexpr std::uint64_t kMaxPlies = 1000000;

PairRecord parse_pair(const Fields& f, const json& p, const std::string& where) {
  PairRecord pair;
  pair.opening = f.u64(p, where, "opening");
  if (p.is_object() && p.contains("position")) pair.position = f.str(p, where, "position");
  const json& games = f.at(p, where, "games");
  if (!games.is_array() || games.size() != 2)
    f.fail(where + ".games", "must hold the pair's 2 games");
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string g = fmt::format("{}.games[{}]", where, i);
    const std::string color = f.str(games[i], g, "a");
    if (color != "white" && color != "black")
      f.fail(g + ".a", "must be 'white' or 'black' (engine A's colour)");
    pair.games[i].a_color = color == "white" ? Color::White : Color::Black;
    pair.games[i].result = f.str(games[i], g, "result");
    pair.games[i].reason = f.str(games[i], g, "reason");
    // Written since terminations were recorded; an earlier file's games are "unrecorded".
    if (games[i].contains("termination")) {
      const std::string name = f.str(games[i], g, "termination");
      const auto t = parse_termination(name);
      if (!t)
        f.fail(g + ".termination", "is '" + name + "', not a termination (docs/match-results.md)");
      pair.games[i].termination = *t;
    }
    const std::uint64_t plies = f.u64(games[i], g, "plies");
    if (plies > kMaxPlies)
      f.fail(g + ".plies", fmt::format("is {}, above {} (not a game's length)", plies, kMaxPlies));
    pair.games[i].plies = int(plies);
  }
  return pair;
}

}  // namespace

ojson to_json(const MatchResult& r) {
  ojson head;
  head["kind"] = kMatchResultKind;
  head["version"] = kMatchResultVersion;
  head["definition"] = definition_json(r.definition());
  head["shards"] = r.shards();
  head["complete"] = r.complete();
  const MatchCounts& c = r.counts();
  head["counts"] = {{"pairs", c.penta.pairs()},
                    {"wdl", {{"w", c.wdl.wins}, {"d", c.wdl.draws}, {"l", c.wdl.losses}}},
                    {"pentanomial", c.penta.n}};
  // Derived, for people: a statistic that cannot be computed must not stop the runner saving its pairs.
  head["summary"] = nullptr;
  if (c.penta.pairs() > 0) try {
      head["summary"] = to_json(analyse(c.penta, c.wdl, r.definition().sprt));
    } catch (const std::exception& e) {
      head["summary"] = {{"error", e.what()}};
    }
  head["diagnostics"] = diagnostics_json(r);
  ojson pairs = ojson::array();
  for (const PairRecord& p : r.pairs()) pairs.push_back(pair_json(p));
  head["pairs"] = std::move(pairs);
  return head;
}

std::string to_json_text(const MatchResult& r) {
  const ojson all = to_json(r);
  // Top-level fields indented, one line per pair: readable, and linear in the number of pairs.
  std::string out = "{\n";
  for (auto it = all.begin(); it != all.end(); ++it)
    if (it.key() != "pairs")
      out += "  " + ojson(it.key()).dump() + ": " + indented(it.value().dump(2), "  ") + ",\n";
  out += "  \"pairs\": [";
  const ojson& pairs = all["pairs"];
  for (std::size_t i = 0; i < pairs.size(); ++i)
    out += (i ? ",\n    " : "\n    ") + pairs[i].dump();
  out += pairs.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

MatchResult parse_match_result(const std::string& text, const std::string& path) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(fmt::format("{}: not valid JSON at byte {}: {}", path, e.byte, e.what()));
  }
  const Fields f{path};
  if (!j.is_object() || !j.contains("kind") || j["kind"] != kMatchResultKind)
    f.fail("kind", std::string("must be \"") + kMatchResultKind + "\" (not a match result file)");
  if (f.u64(j, "", "version") != std::uint64_t(kMatchResultVersion))
    f.fail("version", "is not " + std::to_string(kMatchResultVersion) +
                          " (a file from another harness version)");
  MatchDefinition def = parse_definition(f, f.at(j, "", "definition"));
  const json& shards_json = f.at(j, "", "shards");
  if (!shards_json.is_array() || shards_json.empty())
    f.fail("shards", "must be a non-empty array of shard indices");
  std::set<int> shards;
  for (const json& s : shards_json) {
    if (!s.is_number_unsigned() || s.get<std::uint64_t>() < 1 ||
        s.get<std::uint64_t>() > std::uint64_t(def.shard_count))
      f.fail("shards", fmt::format("must hold indices in 1..{}", def.shard_count));
    if (!shards.insert(s.get<int>()).second)
      f.fail("shards", fmt::format("lists shard {} twice", s.get<int>()));
  }
  MatchResult r(def, shards);
  const json& pairs = f.at(j, "", "pairs");
  if (!pairs.is_array()) f.fail("pairs", "must be an array");
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const std::string where = fmt::format("pairs[{}]", i);
    PairRecord pair = parse_pair(f, pairs[i], where);
    try {
      r.add_pair(pair);
    } catch (const std::invalid_argument& e) {
      f.fail(where, std::string("is refused: ") + e.what());
    }
    check_pair_score(pairs[i], pair, path, where);
  }
  // The stored counts must be the sum over the pairs: a hand-edited or torn file is refused.
  const json& counts = f.at(j, "", "counts");
  const json& wdl = f.at(counts, "counts", "wdl");
  const WdlCounts stored_wdl{f.u64(wdl, "counts.wdl", "w"), f.u64(wdl, "counts.wdl", "d"),
                             f.u64(wdl, "counts.wdl", "l")};
  const json& penta = f.at(counts, "counts", "pentanomial");
  PentanomialCounts stored_penta;
  if (!penta.is_array() || penta.size() != 5)
    f.fail("counts.pentanomial", "must hold 5 counts LL,LD,DD,DW,WW");
  for (std::size_t k = 0; k < 5; ++k) {
    if (!penta[k].is_number_unsigned())
      f.fail("counts.pentanomial", "must hold non-negative integers");
    stored_penta.n[k] = penta[k].get<std::uint64_t>();
  }
  const MatchCounts& c = r.counts();
  if (!(stored_wdl == c.wdl) || !(stored_penta == c.penta))
    f.fail(
        "counts",
        fmt::format(
            "(W {} D {} L {}, ptnml {}) differ from the {} pairs listed (W {} D {} L {}, ptnml {})",
            stored_wdl.wins, stored_wdl.draws, stored_wdl.losses, fmt::join(stored_penta.n, ","),
            r.pairs().size(), c.wdl.wins, c.wdl.draws, c.wdl.losses, fmt::join(c.penta.n, ",")));
  return r;
}

namespace {

std::string read_all(const std::string& path) { return io::read_input_file(path); }

}  // namespace

MatchResult read_match_result(const std::string& path) {
  if (is_match_journal(path)) {
    JournalRead j = read_match_journal(path);
    if (!j.dropped.empty()) std::cerr << j.dropped << "\n";
    return std::move(j.result);
  }
  return parse_match_result(read_all(path), path);
}

bool is_match_result_file(const std::string& path) {
  if (is_match_journal(path)) return true;
  try {
    json j = json::parse(read_all(path));
    return j.is_object() && j.contains("kind") && j["kind"] == kMatchResultKind;
  } catch (...) {
    return false;
  }
}

bool names_match_kind(const std::string& path) {
  if (!io::input_file_error(path).empty()) return false;  // never a device read without end
  if (is_match_result_file(path)) return true;
  std::ifstream in(path, std::ios::binary);
  std::string head(64 * 1024, '\0');
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(std::size_t(in.gcount()));
  // A published result starts with its report envelope ({"report": {..., "harness": "match"), so a
  // file cut short before "kind" still names the match by its envelope.
  static const std::regex match_envelope(
      R"re(^\{\s*"report"\s*:\s*\{[^{}]*"harness"\s*:\s*"match")re");
  return head.find(std::string("\"") + kMatchResultKind + "\"") != std::string::npos ||
         head.find("\"stk-match-journal\"") != std::string::npos ||
         std::regex_search(head, match_envelope);
}

void save_match_result(const std::string& path, const MatchResult& r) {
  io::replace_file(path, to_json_text(r));
}

MatchResult resume_or_start(const std::string& path, const MatchDefinition& def, int shard_index) {
  if (!std::filesystem::exists(path)) {
    try {
      return MatchResult(def, {shard_index});
    } catch (const std::invalid_argument& e) {
      throw InputError(std::string("match definition: ") + e.what());
    }
  }
  MatchResult stored = read_match_result(path);
  if (auto diff = first_difference(stored.definition(), def); !diff.empty())
    throw InputError(path + ": holds a different match, cannot resume (stored vs now: " + diff +
                     ")");
  if (stored.shards() != std::set<int>{shard_index})
    throw InputError(fmt::format("{}: holds shard(s) {} of {}, not shard {}", path,
                                 fmt::join(stored.shards(), ","), def.shard_count, shard_index));
  return stored;
}

ojson definition_to_json(const MatchDefinition& d) { return definition_json(d); }
ojson pair_to_json(const PairRecord& p) { return pair_json(p); }
std::string read_result_text(const std::string& path) { return read_all(path); }
MatchDefinition definition_from_json(const json& d, const std::string& file) {
  return parse_definition(Fields{file}, d);
}
void check_pair_score(const json& p, const PairRecord& pair, const std::string& file,
                      const std::string& where) {
  if (p.is_object() && p.contains("score") && p["score"] != pair.score())
    Fields{file}.fail(where + ".score",
                      fmt::format("is {} but its games score {}", p["score"].dump(), pair.score()));
}

PairRecord pair_from_json(const json& p, const std::string& file, const std::string& where) {
  return parse_pair(Fields{file}, p, where);
}

}  // namespace stk::harness::match
