#include "epd/epd_results.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <map>

#include <fmt/format.h>

#include "cli/cli.h"
#include "notation.h"

namespace stk::harness::epd {

int RunResults::solved() const {
  return int(std::count_if(positions.begin(), positions.end(),
                           [](const PositionResult& p) { return p.solved; }));
}

SolveOverlap solve_overlap(const RunResults& first, const RunResults& second) {
  if (first.positions.size() != second.positions.size())
    throw InputError(fmt::format("cannot compare runs of {} and {} positions",
                                 first.positions.size(), second.positions.size()));
  SolveOverlap o;
  for (std::size_t i = 0; i < first.positions.size(); ++i) {
    const bool a = first.positions[i].solved, b = second.positions[i].solved;
    o.both += a && b;
    o.only_first += a && !b;
    o.only_second += b && !a;
  }
  return o;
}

PositionResult judge(const EpdPosition& p, const SearchOutcome& o) {
  PositionResult r;
  r.index = p.index;
  r.line = p.line;
  r.name = p.name();
  r.fen = p.fen;
  r.bm = p.bm_san;
  r.am = p.am_san;
  r.score = o.score;
  r.depth = o.depth;
  r.nodes = o.nodes;
  r.time_s = o.time_s;
  Position pos;
  pos.set(p.full_fen());
  r.best_uci = o.best == Move::none() ? o.best_text : to_uci(o.best);
  if (o.best == Move::none()) {
    r.error = "the engine's best move '" + o.best_text + "' is not a legal move here";
    return r;
  }
  r.best_san = to_san(pos, o.best);
  r.solved = p.solved_by(o.best);
  Position walk = pos;
  for (Move m : o.pv) {
    r.pv_san.push_back(to_san(walk, m));
    walk.make_move(m);
  }
  if (r.solved && !o.iterations.empty()) {
    std::size_t k = o.iterations.size();
    while (k > 0 && !o.iterations[k - 1].pv.empty() && p.solved_by(o.iterations[k - 1].pv[0])) --k;
    if (k < o.iterations.size()) r.first_solved_depth = o.iterations[k].depth;
  }
  return r;
}

Comparison compare(const RunResults& run, const RunResults& base, const std::string& path) {
  if (base.meta.budget.kind != run.meta.budget.kind ||
      base.meta.budget.value != run.meta.budget.value)
    throw InputError(fmt::format("baseline {} was made at {}, this run is {}: not comparable", path,
                                 base.meta.budget.label(), run.meta.budget.label()));
  std::map<std::string, const PositionResult*> by_name;
  for (const PositionResult& b : base.positions) by_name[b.name] = &b;
  Comparison c;
  for (const PositionResult& p : run.positions) {
    auto it = by_name.find(p.name);
    if (it == by_name.end()) {
      c.not_in_baseline.push_back(p.name);
      continue;
    }
    if (it->second->fen != p.fen)
      throw InputError(
          fmt::format("baseline {}: position \"{}\" has FEN '{}' but the suite has '{}'", path,
                      p.name, it->second->fen, p.fen));
    if (it->second->solved && !p.solved) c.regressions.push_back(p.name);
    if (!it->second->solved && p.solved) c.new_solves.push_back(p.name);
  }
  return c;
}

namespace {

// 4 decimals as before, or 0 where a golden file masks the times.
double time_value(double t, bool mask) { return mask ? 0.0 : std::round(t * 1e4) / 1e4; }

// Members of one JSON object, read with the object's place in the file named in every error.
class Fields {
 public:
  Fields(const report::Json& obj, std::string where) : obj_(obj), where_(std::move(where)) {
    if (!obj_.is_object())
      throw std::runtime_error(where_ + ": expected an object, got " + obj_.type_name());
  }
  const report::Json& at(const std::string& key) const {
    auto it = obj_.find(key);
    if (it == obj_.end()) throw std::runtime_error(name(key) + ": missing");
    return *it;
  }
  bool has(const std::string& key) const { return obj_.contains(key); }
  bool is_null(const std::string& key) const { return at(key).is_null(); }
  template <class T>
  T get(const std::string& key) const {
    const report::Json& v = at(key);
    const bool fits = std::is_same_v<T, bool>          ? v.is_boolean()
                      : std::is_same_v<T, std::string> ? v.is_string()
                      : std::is_floating_point_v<T>    ? v.is_number()
                      : std::is_unsigned_v<T>          ? v.is_number_unsigned()
                                                       : v.is_number_integer();
    if (!fits)
      throw std::runtime_error(name(key) + ": expected " + kind<T>() + ", got " + v.dump());
    return v.get<T>();
  }
  // An integer in [lo, hi], judged before it is narrowed (an int cast would wrap 2^32 + 1 to 1).
  template <class T>
  T count(const std::string& key, T lo, T hi) const {
    const report::Json& v = at(key);
    const bool in = v.is_number_unsigned() ? v.get<std::uint64_t>() >= std::uint64_t(lo) &&
                                                 v.get<std::uint64_t>() <= std::uint64_t(hi)
                    : v.is_number_integer() ? v.get<std::int64_t>() >= std::int64_t(lo) &&
                                                  v.get<std::int64_t>() <= std::int64_t(hi)
                                            : false;
    if (!in)
      throw std::runtime_error(
          fmt::format("{}: expected an integer in [{}, {}], got {}", name(key), lo, hi, v.dump()));
    return v.get<T>();
  }
  std::vector<std::string> strings(const std::string& key) const {
    const report::Json& v = at(key);
    std::vector<std::string> out;
    if (v.is_array())
      for (const report::Json& x : v)
        if (x.is_string()) out.push_back(x.get<std::string>());
    if (!v.is_array() || out.size() != v.size())
      throw std::runtime_error(name(key) + ": expected a list of strings");
    return out;
  }
  std::string name(const std::string& key) const {
    return where_.empty() ? key : where_ + "." + key;
  }

 private:
  template <class T>
  static const char* kind() {
    if constexpr (std::is_same_v<T, bool>) return "true or false";
    else if constexpr (std::is_same_v<T, std::string>) return "a string";
    else if constexpr (std::is_floating_point_v<T>) return "a number";
    else if constexpr (std::is_unsigned_v<T>) return "a non-negative integer";
    else return "an integer";
  }
  const report::Json& obj_;
  std::string where_;
};

}  // namespace

report::Json to_json(const RunResults& r, const std::optional<Comparison>& cmp, bool mask_times) {
  using report::Json;
  const RunMeta& m = r.meta;
  Json o = Json::object();
  o["harness"] = "epd";
  o["format"] = 1;
  o["config"] = m.config;
  o["suite"] = m.suite;
  o["epd_file"] = m.epd_file;
  o["engine"] = m.engine;
  o["engine_settings"] = Json::object();
  for (const auto& [k, v] : m.engine_settings) o["engine_settings"][k] = v;
  o["budget"] = {{"kind", m.budget.tag()}, {"value", m.budget.value}};
  o["stride"] = m.stride;
  o["selected"] = m.selected;
  o["shard"] = m.shard;
  o["git_revision"] = m.git_revision;
  o["bench_signature"] = m.bench_signature ? Json(*m.bench_signature) : Json();
  o["baseline_file"] = m.baseline_file.empty() ? Json() : Json(m.baseline_file);
  o["min_solved"] = m.min_solved < 0 ? Json() : Json(m.min_solved);
  double total_time = 0;
  std::uint64_t total_nodes = 0;
  int errors = 0;
  Json positions = Json::array();
  for (const PositionResult& p : r.positions) {
    total_time += p.time_s;
    total_nodes += p.nodes;
    errors += !p.error.empty();
    Json j = {{"index", p.index},
              {"line", p.line},
              {"id", p.name},
              {"fen", p.fen},
              {"bm", p.bm},
              {"am", p.am},
              {"best_uci", p.best_uci},
              {"best_san", p.best_san},
              {"solved", p.solved},
              {"score", p.score},
              {"depth", p.depth},
              {"first_solved_depth", p.first_solved_depth ? Json(p.first_solved_depth) : Json()},
              {"nodes", p.nodes},
              {"time_s", time_value(p.time_s, mask_times)},
              {"pv", p.pv_san}};
    if (!p.error.empty()) j["error"] = p.error;
    positions.push_back(std::move(j));
  }
  o["positions"] = std::move(positions);
  o["summary"] = {{"positions", r.positions.size()},
                  {"solved", r.solved()},
                  {"errors", errors},
                  {"total_nodes", total_nodes},
                  {"time_s", time_value(total_time, mask_times)}};
  if (cmp)
    o["comparison"] = {{"regressions", cmp->regressions},
                       {"new_solves", cmp->new_solves},
                       {"not_in_baseline", cmp->not_in_baseline}};
  return o;
}

constexpr int kIntMax = std::numeric_limits<int>::max();

RunResults read_results(const std::string& path) {
  const report::Json doc = report::read_json_file(path);  // a syntax error names the byte offset
  try {
    // A run's summary carries the report envelope ("report") before these keys; a baseline does not.
    const Fields top(doc, "");
    if (top.get<std::string>("harness") != "epd")
      throw std::runtime_error("not an epd results file (harness \"" +
                               top.get<std::string>("harness") + "\")");
    if (top.count<int>("format", 0, kIntMax) != 1)
      throw std::runtime_error("unknown format version");
    RunResults r;
    RunMeta& m = r.meta;
    m.config = top.get<std::string>("config");
    m.suite = top.get<std::string>("suite");
    m.epd_file = top.get<std::string>("epd_file");
    m.engine = top.get<std::string>("engine");
    const report::Json& settings = top.at("engine_settings");
    if (!settings.is_object()) throw std::runtime_error("engine_settings: expected an object");
    const Fields setting(settings, "engine_settings");
    for (auto it = settings.begin(); it != settings.end(); ++it)
      m.engine_settings.emplace_back(it.key(), setting.get<std::string>(it.key()));
    const Fields budget(top.at("budget"), "budget");
    const std::string kind = budget.get<std::string>("kind");
    if (kind != "sd" && kind != "sn") throw std::runtime_error("budget.kind must be sd or sn");
    m.budget.kind = kind == "sd" ? Budget::Kind::Depth : Budget::Kind::Nodes;
    m.budget.value = budget.count<std::uint64_t>(
        "value", 1, m.budget.kind == Budget::Kind::Depth ? kMaxSearchDepth : kMaxSearchNodes);
    m.stride = top.count<int>("stride", 1, kMaxStride);
    m.selected = top.count<int>("selected", 0, kIntMax);
    m.shard = top.get<std::string>("shard");
    m.git_revision = top.get<std::string>("git_revision");
    if (!top.is_null("bench_signature"))
      m.bench_signature = top.get<std::uint64_t>("bench_signature");
    if (!top.is_null("baseline_file")) m.baseline_file = top.get<std::string>("baseline_file");
    if (!top.is_null("min_solved")) m.min_solved = top.count<int>("min_solved", 0, kMaxMinSolved);
    const report::Json& positions = top.at("positions");
    if (!positions.is_array()) throw std::runtime_error("positions: expected a list");
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const Fields v(positions[i], "positions[" + std::to_string(i) + "]");
      PositionResult p;
      p.index = v.count<int>("index", 0, kIntMax);
      p.line = v.count<int>("line", 1, kIntMax);
      p.name = v.get<std::string>("id");
      p.fen = v.get<std::string>("fen");
      p.bm = v.strings("bm");
      p.am = v.strings("am");
      p.best_uci = v.get<std::string>("best_uci");
      p.best_san = v.get<std::string>("best_san");
      p.solved = v.get<bool>("solved");
      p.score = v.get<std::string>("score");
      p.depth = v.count<int>("depth", 0, kIntMax);
      if (!v.is_null("first_solved_depth"))
        p.first_solved_depth = v.count<int>("first_solved_depth", 0, kIntMax);
      p.nodes = v.get<std::uint64_t>("nodes");
      p.time_s = v.get<double>("time_s");
      p.pv_san = v.strings("pv");
      if (v.has("error")) p.error = v.get<std::string>("error");
      r.positions.push_back(std::move(p));
    }
    return r;
  } catch (const std::runtime_error& e) {
    throw InputError(path + ": " + e.what());
  }
}

}  // namespace stk::harness::epd
