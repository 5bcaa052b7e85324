#include "epd/epd_results.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "common/cli.h"
#include "epd/json_reader.h"
#include "notation.h"
#include "report/summary_files.h"

namespace stk::harness::epd {

int RunResults::solved() const {
  return int(std::count_if(positions.begin(), positions.end(),
                           [](const PositionResult& p) { return p.solved; }));
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
  if (base.meta.budget.kind != run.meta.budget.kind || base.meta.budget.value != run.meta.budget.value)
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
      throw InputError(fmt::format("baseline {}: position \"{}\" has FEN '{}' but the suite has '{}'",
                                   path, p.name, it->second->fen, p.fen));
    if (it->second->solved && !p.solved) c.regressions.push_back(p.name);
    if (!it->second->solved && p.solved) c.new_solves.push_back(p.name);
  }
  return c;
}

namespace {

std::string json_list(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + json_str(v[i]);
  return s + "]";
}

std::string time_text(double t, bool mask) { return mask ? "0" : fmt::format("{:.4f}", t); }

std::vector<std::string> strings(const json::Value& v, const std::string& what) {
  std::vector<std::string> out;
  for (const json::Value& x : v.as_array(what)) out.push_back(x.as_string(what));
  return out;
}

}  // namespace

std::string to_json(const RunResults& r, const std::optional<Comparison>& cmp, bool mask_times) {
  const RunMeta& m = r.meta;
  std::ostringstream o;
  o << "{\n  \"harness\": \"epd\",\n  \"format\": 1,\n"
    << "  \"config\": " << json_str(m.config) << ",\n"
    << "  \"suite\": " << json_str(m.suite) << ",\n"
    << "  \"epd_file\": " << json_str(m.epd_file) << ",\n"
    << "  \"engine\": " << json_str(m.engine) << ",\n"
    << "  \"engine_settings\": {";
  for (std::size_t i = 0; i < m.engine_settings.size(); ++i)
    o << (i ? ", " : "") << json_str(m.engine_settings[i].first) << ": "
      << json_str(m.engine_settings[i].second);
  o << "},\n"
    << "  \"budget\": {\"kind\": " << json_str(m.budget.tag()) << ", \"value\": " << m.budget.value
    << "},\n"
    << "  \"stride\": " << m.stride << ",\n"
    << "  \"selected\": " << m.selected << ",\n"
    << "  \"shard\": " << json_str(m.shard) << ",\n"
    << "  \"git_revision\": " << json_str(m.git_revision) << ",\n"
    << "  \"bench_signature\": "
    << (m.bench_signature ? std::to_string(*m.bench_signature) : std::string("null")) << ",\n"
    << "  \"baseline_file\": " << (m.baseline_file.empty() ? "null" : json_str(m.baseline_file))
    << ",\n"
    << "  \"min_solved\": " << (m.min_solved < 0 ? "null" : std::to_string(m.min_solved)) << ",\n";
  double total_time = 0;
  std::uint64_t total_nodes = 0;
  int errors = 0;
  o << "  \"positions\": [";
  for (std::size_t i = 0; i < r.positions.size(); ++i) {
    const PositionResult& p = r.positions[i];
    total_time += p.time_s;
    total_nodes += p.nodes;
    errors += !p.error.empty();
    o << (i ? ",\n" : "\n") << "    {\"index\": " << p.index << ", \"line\": " << p.line
      << ", \"id\": " << json_str(p.name) << ", \"fen\": " << json_str(p.fen)
      << ", \"bm\": " << json_list(p.bm) << ", \"am\": " << json_list(p.am)
      << ", \"best_uci\": " << json_str(p.best_uci) << ", \"best_san\": " << json_str(p.best_san)
      << ", \"solved\": " << (p.solved ? "true" : "false") << ", \"score\": " << json_str(p.score)
      << ", \"depth\": " << p.depth << ", \"first_solved_depth\": "
      << (p.first_solved_depth ? std::to_string(p.first_solved_depth) : std::string("null"))
      << ", \"nodes\": " << p.nodes << ", \"time_s\": " << time_text(p.time_s, mask_times)
      << ", \"pv\": " << json_list(p.pv_san);
    if (!p.error.empty()) o << ", \"error\": " << json_str(p.error);
    o << "}";
  }
  o << "\n  ],\n  \"summary\": {\"positions\": " << r.positions.size()
    << ", \"solved\": " << r.solved() << ", \"errors\": " << errors
    << ", \"total_nodes\": " << total_nodes << ", \"time_s\": " << time_text(total_time, mask_times)
    << "}";
  if (cmp)
    o << ",\n  \"comparison\": {\"regressions\": " << json_list(cmp->regressions)
      << ", \"new_solves\": " << json_list(cmp->new_solves)
      << ", \"not_in_baseline\": " << json_list(cmp->not_in_baseline) << "}";
  o << "\n}\n";
  return o.str();
}

RunResults read_results(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  std::stringstream buf;
  buf << in.rdbuf();
  try {
    json::Value doc = json::Value::parse(buf.str());
    if (doc.at("harness").as_string("harness") != "epd")
      throw std::runtime_error("not an epd results file (harness \"" +
                               doc.at("harness").as_string("harness") + "\")");
    if (doc.at("format").as_int("format") != 1) throw std::runtime_error("unknown format version");
    RunResults r;
    RunMeta& m = r.meta;
    m.config = doc.at("config").as_string("config");
    m.suite = doc.at("suite").as_string("suite");
    m.epd_file = doc.at("epd_file").as_string("epd_file");
    m.engine = doc.at("engine").as_string("engine");
    for (const auto& [k, v] : doc.at("engine_settings").as_object("engine_settings"))
      m.engine_settings.emplace_back(k, v.as_string("engine_settings." + k));
    const json::Value& budget = doc.at("budget");
    std::string kind = budget.at("kind").as_string("budget.kind");
    if (kind != "sd" && kind != "sn") throw std::runtime_error("budget.kind must be sd or sn");
    m.budget.kind = kind == "sd" ? Budget::Kind::Depth : Budget::Kind::Nodes;
    m.budget.value = std::uint64_t(budget.at("value").as_int("budget.value"));
    m.stride = int(doc.at("stride").as_int("stride"));
    m.selected = int(doc.at("selected").as_int("selected"));
    m.shard = doc.at("shard").as_string("shard");
    m.git_revision = doc.at("git_revision").as_string("git_revision");
    if (const json::Value& b = doc.at("bench_signature"); !b.is_null())
      m.bench_signature = std::uint64_t(b.as_int("bench_signature"));
    if (const json::Value& b = doc.at("baseline_file"); !b.is_null())
      m.baseline_file = b.as_string("baseline_file");
    if (const json::Value& b = doc.at("min_solved"); !b.is_null())
      m.min_solved = int(b.as_int("min_solved"));
    for (const json::Value& v : doc.at("positions").as_array("positions")) {
      PositionResult p;
      p.index = int(v.at("index").as_int("index"));
      p.line = int(v.at("line").as_int("line"));
      p.name = v.at("id").as_string("id");
      p.fen = v.at("fen").as_string("fen");
      p.bm = strings(v.at("bm"), "bm");
      p.am = strings(v.at("am"), "am");
      p.best_uci = v.at("best_uci").as_string("best_uci");
      p.best_san = v.at("best_san").as_string("best_san");
      p.solved = v.at("solved").as_bool("solved");
      p.score = v.at("score").as_string("score");
      p.depth = int(v.at("depth").as_int("depth"));
      if (const json::Value& f = v.at("first_solved_depth"); !f.is_null())
        p.first_solved_depth = int(f.as_int("first_solved_depth"));
      p.nodes = std::uint64_t(v.at("nodes").as_int("nodes"));
      p.time_s = v.at("time_s").as_double("time_s");
      p.pv_san = strings(v.at("pv"), "pv");
      if (const json::Value* e = v.find("error")) p.error = e->as_string("error");
      r.positions.push_back(std::move(p));
    }
    return r;
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path + ": " + e.what());
  }
}

}  // namespace stk::harness::epd
