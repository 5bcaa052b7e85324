#include "commands/review/review_inputs.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "cli/cli.h"
#include "io/input_file.h"

namespace stk::harness::review {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// Harnesses whose run always leaves a JSON summary beside its JUnit file: a missing one is a problem.
// Every text child of an element, in order: a JUnit <failure> may hold plain text and CDATA
// sections side by side, and GetText() returns only the first of them.
std::string all_text(const tinyxml2::XMLElement& e) {
  std::string text;
  for (const tinyxml2::XMLNode* n = e.FirstChild(); n; n = n->NextSibling())
    if (const tinyxml2::XMLText* t = n->ToText()) text += t->Value();
  return text;
}

const std::set<std::string> kWritesSummary = {"perft",       "epd",   "accumulator", "bench",
                                              "shadow",      "drift", "eval",        "features",
                                              "calibration", "match", "uci-check",   "mutation",
                                              "mutants"};

std::optional<Json> read_json(const fs::path& path, std::string* why) {
  std::string text;
  try {
    text = io::read_input_file(path.string());
  } catch (const InputError& error) {  // "<path>: <why>"
    return *why = "cannot be read (" + std::string(error.what()).substr(path.string().size() + 2) +
                  ")",
           std::nullopt;
  }
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    *why = fmt::format("malformed JSON at byte {}: {}", e.byte, e.what());
    return std::nullopt;
  }
}

// The JUnit files a tier step's output names ("reports: reports/junit/x.xml ..."), as paths
// relative to the reports directory ("junit/x.xml").
std::vector<std::string> step_reports(const std::string& system_out) {
  std::vector<std::string> out;
  std::istringstream lines(system_out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("reports: ")) continue;
    std::istringstream words(line.substr(9));
    for (std::string w; words >> w;)
      if (w.ends_with(".xml")) {
        const auto at = w.rfind("junit/");
        out.push_back(at == std::string::npos ? w : w.substr(at));
      }
  }
  return out;
}

CaseResult case_result(const tinyxml2::XMLElement& tc) {
  CaseResult c;
  c.classname = tc.Attribute("classname") ? tc.Attribute("classname") : "";
  c.name = tc.Attribute("name") ? tc.Attribute("name") : "";
  c.outcome = tc.FirstChildElement("failure")   ? "failure"
              : tc.FirstChildElement("error")   ? "error"
              : tc.FirstChildElement("skipped") ? "skipped"
                                                : "passed";
  if (const auto* out = tc.FirstChildElement("system-out"))
    c.reports = step_reports(all_text(*out));
  return c;
}

// Counts every testcase of every testsuite by its child element, the same way a CI system does.
void read_junit(const fs::path& path, RunRow& row, int& anchor_seq) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(path.c_str()) != tinyxml2::XML_SUCCESS) {
    row.problems.push_back(fmt::format("{}: malformed JUnit XML (line {}): {}", row.junit,
                                       doc.ErrorLineNum(), doc.ErrorStr()));
    return;
  }
  const tinyxml2::XMLElement* root = doc.RootElement();
  std::vector<const tinyxml2::XMLElement*> suites;
  if (root && std::string(root->Name()) == "testsuites") {
    for (auto* s = root->FirstChildElement("testsuite"); s; s = s->NextSiblingElement("testsuite"))
      suites.push_back(s);
  } else if (root && std::string(root->Name()) == "testsuite") {
    suites.push_back(root);
  }
  if (suites.empty()) {
    row.problems.push_back(row.junit + ": no <testsuite> element");
    return;
  }
  const char* suite_name = suites.front()->Attribute("name");
  const std::string name = suite_name ? suite_name : "";
  const auto dot = name.find('.');
  if (dot != std::string::npos)
    row.harness = name.substr(0, dot), row.config = name.substr(dot + 1);
  for (auto* s : suites)
    for (auto* tc = s->FirstChildElement("testcase"); tc; tc = tc->NextSiblingElement("testcase")) {
      ++row.tests;
      row.cases.push_back(case_result(*tc));
      for (const char* kind : {"failure", "error"})
        if (auto* e = tc->FirstChildElement(kind)) {
          ++(std::string(kind) == "failure" ? row.failures : row.errors);
          FailingCase f;
          f.classname = tc->Attribute("classname") ? tc->Attribute("classname") : "";
          f.name = tc->Attribute("name") ? tc->Attribute("name") : "";
          f.kind = kind;
          f.message = e->Attribute("message") ? e->Attribute("message") : "";
          f.detail = all_text(*e);
          f.anchor = fmt::format("case-{}", ++anchor_seq);
          row.failing.push_back(std::move(f));
        }
      if (tc->FirstChildElement("skipped")) ++row.skipped;
    }
}

// Adds figures to a row, each read through a JSON pointer so that the page can name its source.
class FigureReader {
 public:
  FigureReader(RunRow& row, const Json& json) : row_(row), json_(json) {}

  // An array counts as its length; a missing or non-numeric value is a problem of the row.
  void add(const std::string& name, const std::string& label, const std::string& pointer,
           int digits, Better better = Better::either, Noise noise = Noise::exact) {
    const Json::json_pointer ptr(pointer);
    if (!json_.contains(ptr)) return problem(pointer, "missing");
    const Json& v = json_.at(ptr);
    double value;
    if (v.is_number()) value = v.get<double>();
    else if (v.is_array()) value = double(v.size());
    else if (v.is_boolean()) value = v.get<bool>() ? 1 : 0;
    else return problem(pointer, "not a number");
    const std::string key = row_.harness + "." + row_.config + "." + name;
    for (const Figure& g : row_.figures)
      if (g.key == key) return problem(pointer, "gives figure " + key + " a second time");
    row_.figures.push_back({row_.harness + "." + row_.config + "." + name, label, value, digits,
                            row_.summary, pointer, better, noise});
  }
  const Json* at(const std::string& pointer) const {
    const Json::json_pointer ptr(pointer);
    return json_.contains(ptr) ? &json_.at(ptr) : nullptr;
  }
  void problem(const std::string& pointer, const std::string& why) {
    row_.problems.push_back(fmt::format("{}: {} {}", row_.summary, pointer, why));
  }

 private:
  RunRow& row_;
  const Json& json_;
};

std::string names(const Json& list) {
  std::string out;
  for (const Json& x : list)
    out += (out.empty() ? "" : ", ") + (x.is_string() ? x.get<std::string>() : x.dump());
  return out;
}

// Readable names of the shadow audit's mechanisms (docs/harnesses/shadow.md).
std::string mechanism_name(const std::string& m) {
  static const std::map<std::string, std::string> names = {{"lmr", "LMR"},
                                                           {"lmp", "LMP"},
                                                           {"futility", "futility"},
                                                           {"see", "SEE pruning"},
                                                           {"null_move", "null move"},
                                                           {"static_null", "static null move"}};
  const auto it = names.find(m);
  return it == names.end() ? m : it->second;
}

// "accumulator.simd/scalar equals avx2 (net)" -> key "simd-scalar-equals-avx2-net" (unique: two
// checks share a group) and label "scalar equals avx2 (net), simd".
std::pair<std::string, std::string> check_names(const std::string& check) {
  const std::string text = check.substr(check.find('.') == std::string::npos ? 0
                                                                             : check.find('.') + 1);
  std::string key;
  for (char c : text) {
    const bool word = std::isalnum(static_cast<unsigned char>(c));
    if (word) key += char(std::tolower(static_cast<unsigned char>(c)));
    else if (!key.empty() && key.back() != '-') key += '-';
  }
  while (!key.empty() && key.back() == '-') key.pop_back();
  const auto slash = text.find('/');
  const std::string label = slash == std::string::npos
                                ? text
                                : text.substr(slash + 1) + ", " + text.substr(0, slash);
  return {key, label};
}

// A match's game diagnostics (docs/match-results.md "Game diagnostics"): games per termination,
// games each engine lost by a fault (a note names the kinds), and the flagged openings. A result
// written before they were recorded has none: said in a note, not a problem.
void add_game_diagnostics(FigureReader& f, RunRow& row) {
  const Json* ends = f.at("/diagnostics/terminations");
  if (!ends || !ends->is_object()) {
    row.notes.push_back("no game diagnostics (a result written before they were recorded)");
    return;
  }
  for (auto it = ends->begin(); it != ends->end(); ++it)
    f.add("ended." + it.key(), "games ended by " + it.key(),
          "/diagnostics/terminations/" + pointer_token(it.key()) + "/games", 0);
  for (const char* engine : {"A", "B"}) {
    const std::string at = std::string("/diagnostics/losses_by_fault/") + engine;
    f.add(std::string("faults.") + engine,
          std::string("games ") + engine +
              " lost by a fault (crash, time, illegal move, disconnect)",
          at + "/total", 0, Better::lower);
    const Json* kinds = f.at(at);
    if (!kinds || !kinds->is_object()) continue;
    std::string text;
    for (auto it = kinds->begin(); it != kinds->end(); ++it)
      if (it.key() != "total")
        text += fmt::format("{}{} {}", text.empty() ? "" : ", ", it.value().dump(), it.key());
    if (!text.empty()) row.notes.push_back(std::string(engine) + " lost by a fault: " + text);
  }
  f.add("openings.decided", "openings decided before move 1 (one colour won both games)",
        "/diagnostics/openings/decided_before_move_1", 0);
  f.add("openings.duplicate", "opening positions played in more than one pair",
        "/diagnostics/openings/duplicate_positions", 0, Better::lower);
}

// The headline figures of each harness's summary (see each harness's JSON writer for the fields),
// each with the way it should move and whether it is exact or a timing.
void headline_figures(RunRow& row, const Json& j) {
  FigureReader f(row, j);
  const std::string& h = row.harness;
  constexpr Better up = Better::higher, down = Better::lower, either = Better::either;
  constexpr Noise timing = Noise::timing;
  if (h == "perft") {
    f.add("nodes_per_second", "perft speed (nodes/s)", "/nodes_per_second", 0, up, timing);
    f.add("total_nodes", "nodes counted", "/total_nodes", 0);
    f.add("failed", "counts that differ from golden", "/failed", 0, down);
  } else if (h == "perft-speed") {
    f.add("nps_ratio", "perft speed ratio stk/reference (median)", "/nps_ratio/median", 2, up,
          timing);
    f.add("nps_ratio_min", "perft speed ratio, slowest repeat", "/nps_ratio/min", 2, up, timing);
    f.add("nps_ratio_max", "perft speed ratio, fastest repeat", "/nps_ratio/max", 2, up, timing);
  } else if (h == "epd") {
    f.add("solved", "positions solved", "/summary/solved", 0, up);
    f.add("positions", "positions", "/summary/positions", 0);
    if (const Json* b = f.at("/baseline_file"); b && b->is_string()) {
      f.add("regressions", "regressions against the baseline", "/comparison/regressions", 0, down);
      f.add("new_solves", "new solves against the baseline", "/comparison/new_solves", 0, up);
      row.notes.push_back("baseline " + b->get<std::string>());
      if (const Json* r = f.at("/comparison/regressions"); r && !r->empty())
        row.notes.push_back("regressions: " + names(*r));
    }
    if (const Json* k = f.at("/budget/kind"), *v = f.at("/budget/value"); k && v)
      row.notes.push_back("budget " + k->get<std::string>() + " " + v->dump());
  } else if (h == "bench") {
    f.add("nodes", "bench signature (nodes)", "/nodes", 0);
    f.add("expected_nodes", "golden bench signature (nodes)", "/expected_nodes", 0);
    f.add("nodes_per_second", "bench speed (nodes/s)", "/nodes_per_second", 0, up, timing);
  } else if (h == "accumulator") {
    const Json* checks = f.at("/checks");
    for (std::size_t i = 0; checks && checks->is_array() && i < checks->size(); ++i) {
      const auto [key, label] = check_names((*checks)[i].value("check", fmt::format("{}", i)));
      for (auto& [k, v] : (*checks)[i].items()) {
        if (!v.is_number()) continue;
        const bool miss = k.find("mismatch") != std::string::npos;
        std::string words = k;
        std::replace(words.begin(), words.end(), '_', ' ');
        f.add(key + "." + k, label + ": " + words, fmt::format("/checks/{}/{}", i, k), 0,
              miss ? down : either);
      }
    }
  } else if (h == "drift") {
    f.add("p99", "|quantized - float| p99 (cp)", "/abs_delta_cp/p99", 2, down);
    f.add("max", "|quantized - float| max (cp)", "/abs_delta_cp/max", 2, down);
    f.add("int16_overflow_lanes", "int16 accumulator overflow lanes", "/int16_overflow_lanes", 0,
          down);
    if (const Json* buckets = f.at("/per_bucket"); buckets && buckets->is_object())
      for (auto it = buckets->begin(); it != buckets->end(); ++it)
        f.add("bucket" + it.key() + ".p99", "output bucket " + it.key() + ": |delta| p99 (cp)",
              "/per_bucket/" + pointer_token(it.key()) + "/p99", 2, down);
  } else if (h == "shadow") {
    f.add("positions", "positions audited", "/positions", 0);
    f.add("misses", "silent misses", "/misses", 0, down);
    f.add("invariant_failures", "searches changed by the audit", "/invariant_failures", 0, down);
    const Json* mechs = f.at("/mechanisms");
    for (std::size_t i = 0; mechs && mechs->is_array() && i < mechs->size(); ++i) {
      const std::string m = (*mechs)[i].value("mechanism", fmt::format("{}", i));
      const std::string n = mechanism_name(m), p = fmt::format("/mechanisms/{}/", i);
      f.add(m + ".audited", n + ": decisions audited", p + "audited", 0);
      f.add(m + ".rate", n + ": miss rate", p + "rate", 5, down);
      f.add(m + ".control_rate", n + ": control's miss rate", p + "control_rate", 5, down);
      f.add(m + ".excess", n + ": excess over control", p + "excess", 5, down);
      f.add(m + ".excess_lo", n + ": excess, 95% low", p + "excess_lo", 5, down);
      f.add(m + ".excess_hi", n + ": excess, 95% high", p + "excess_hi", 5, down);
    }
  } else if (h == "features" || h == "eval") {
    const Json* corpora = f.at("/corpora");
    for (auto it = corpora ? corpora->begin() : Json::const_iterator();
         corpora && it != corpora->end(); ++it) {
      const std::string base = "/corpora/" + pointer_token(it.key());
      f.add(it.key() + ".positions", it.key() + ": positions compared", base + "/positions", 0);
      f.add(it.key() + ".mismatches", it.key() + ": positions that differ",
            base + (h == "eval" ? "/engine-vs-oracle/mismatches" : "/mismatches"), 0, down);
    }
  } else if (h == "calibration") {
    f.add("records", "held-out fail-high records", "/records", 0);
    f.add("ece", "expected calibration error (all)", "/slices/all/ece", 4, down);
    f.add("auc", "AUC of the fail-high predictor (all)", "/slices/all/auc", 4, up);
  } else if (h == "netlint") {
    f.add("int16_headroom", "int16 accumulator headroom (x)", "/ft/int16_headroom", 2, up);
    f.add("ft_clipped_low", "share of FT outputs clipped at 0", "/ft/clipped_low_share", 4, down);
    f.add("ft_clipped_high", "share of FT outputs clipped at 127", "/ft/clipped_high_share", 4,
          down);
    f.add("ft_dead", "dead FT lanes", "/ft/dead_lanes", 0, down);
    f.add("ft_saturated", "saturated FT lanes", "/ft/saturated_lanes", 0, down);
    f.add("int32_headroom", "int32 dense-sum headroom (x)", "/int32_headroom", 1, up);
  } else if (h == "netquality") {
    f.add("pair_accuracy", "pair accuracy (net)", "/net/pair_accuracy", 4, up);
    f.add("classical_pair_accuracy", "pair accuracy (classical)", "/classical/pair_accuracy", 4);
    f.add("mae_cp", "holdout mean abs. error, net (cp)", "/net/mae_cp", 1, down);
    f.add("classical_mae_cp", "holdout mean abs. error, classical (cp)", "/classical/mae_cp", 1);
    f.add("spread_ratio", "decided spread net/classical", "/spread_ratio", 2, up);
    f.add("collapsed", "share of decided positions collapsed (net)", "/net/decided_collapsed_share",
          4, down);
    f.add("scale", "scale net/classical", "/scale_net_per_classical", 3);
  } else if (is_mutant_report(h)) {
    f.add("killed", "mutants killed", "/modules/total/killed", 0, up);
    f.add("survived", "mutants survived", "/modules/total/survived", 0, down);
    f.add("not-covered", "mutants no test executes", "/modules/total/not-covered", 0, down);
    f.add("triaged", "survivors triaged as equivalent", "/modules/total/triaged", 0);
    if (const Json* s = f.at("/modules/total/score"); s && s->is_number())
      f.add("score", "mutation score (%)", "/modules/total/score", 1, up);
  } else if (h == "compare") {  // a pre-merge comparison: the base revision against this one
    f.add("speed_ratio", "search speed candidate/base (median)", "/speed/ratio_median", 3, up,
          timing);
    for (const char* side : {"base", "candidate"})
      if (const Json* n = f.at(std::string("/") + side + "/bench_nodes"); n && n->is_number())
        f.add(std::string(side) + "_bench", std::string("bench signature, ") + side,
              std::string("/") + side + "/bench_nodes", 0);
    const Json* budgets = f.at("/suite/budgets");
    for (std::size_t i = 0; budgets && budgets->is_array() && i < budgets->size(); ++i) {
      const std::string b = (*budgets)[i].value("budget", fmt::format("{}", i));
      const std::string p = fmt::format("/suite/budgets/{}/", i);
      f.add(b + ".positions", b + ": positions", p + "positions", 0);
      f.add(b + ".base_solved", b + ": solved by the base", p + "base_solved", 0);
      f.add(b + ".candidate_solved", b + ": solved by the candidate", p + "candidate_solved", 0,
            up);
      f.add(b + ".gained", b + ": solved by the candidate only", p + "gained", 0, up);
      f.add(b + ".lost", b + ": solved by the base only", p + "lost", 0, down);
    }
  } else if (h == "bench-diff") {
    f.add("base_signature", "base bench signature (nodes)", "/base/signature", 0);
    f.add("candidate_signature", "candidate bench signature (nodes)", "/candidate/signature", 0);
    if (const Json* eq = f.at("/signatures_equal"); eq && eq->is_boolean() && !eq->get<bool>()) {
      f.add("first_differing_position", "first bench position whose nodes differ",
            "/first_differing_position", 0);
      f.add("divergence_record", "first divergent trace record", "/divergence/record", 0);
      if (const Json* d = f.at("/divergence"); d && d->is_object()) {
        std::string path;
        for (const Json& m : d->value("path", Json::array()))
          if (m.is_string()) path += " " + m.get<std::string>();
        row.notes.push_back(
            fmt::format("first divergence: position {}, record {}, path{}: {}",
                        f.at("/traced_position") ? f.at("/traced_position")->dump() : "?",
                        d->value("record", Json()).dump(), path.empty() ? " (root)" : path,
                        d->value("mechanism", std::string("?"))));
      }
    }
  } else if (h == "datagen") {
    f.add("games", "games in the data file", "/games", 0);
    f.add("positions", "positions (records)", "/positions", 0);
    f.add("quiet_positions", "quiet positions", "/quiet_positions", 0);
    f.add("positions_per_second_per_core", "positions/s per core", "/positions_per_second_per_core",
          0, up, timing);
    if (const Json* ends = f.at("/terminations"); ends && ends->is_object())
      for (auto it = ends->begin(); it != ends->end(); ++it)
        f.add("ended." + it.key(), "games ended by " + it.key(),
              "/terminations/" + pointer_token(it.key()) + "/games", 0);
  } else if (h == "match") {
    f.add("pairs", "game pairs", "/counts/pairs", 0);
    f.add("elo", "Elo", "/summary/pentanomial_estimate/elo", 2, up, timing);
    f.add("elo_error", "Elo, 95% half-width", "/summary/pentanomial_estimate/elo_error", 2);
    if (f.at("/summary/pentanomial_estimate/nelo")) {
      f.add("nelo", "normalized Elo", "/summary/pentanomial_estimate/nelo", 2, up, timing);
      f.add("nelo_error", "normalized Elo, 95% half-width",
            "/summary/pentanomial_estimate/nelo_error", 2);
    }
    // Pairs by their score for the first engine (0, 0.5, 1, 1.5, 2 points of 2).
    if (const Json* penta = f.at("/counts/pentanomial"); penta && penta->is_array()) {
      static const char* const kScores[] = {"LL 0", "LD 0.5", "WL+DD 1", "WD 1.5", "WW 2"};
      for (std::size_t i = 0; i < penta->size() && i < 5; ++i)
        f.add(fmt::format("pairs.score{}", i), std::string("pairs by score: ") + kScores[i],
              fmt::format("/counts/pentanomial/{}", i), 0);
    }
    add_game_diagnostics(f, row);
    if (const Json* spread = f.at("/homogeneity");
        spread && spread->is_object() && spread->value("applicable", false)) {
      f.add("homogeneity.p_value", "shard homogeneity p-value (match-merge)",
            "/homogeneity/p_value", 4, Better::higher);
      if (spread->value("flagged", false))
        row.notes.push_back(
            fmt::format("shards not homogeneous (p {:.4f} < {}): most out of line {}",
                        spread->value("p_value", 0.0), spread->value("alpha", 0.0),
                        spread->contains("worst") && (*spread)["worst"].is_string()
                            ? (*spread)["worst"].get<std::string>()
                            : "?"));
    }
    if (f.at("/summary/sprt")) {
      f.add("llr", "log-likelihood ratio", "/summary/sprt/llr", 2, up, timing);
      f.add("llr_lower", "LLR lower bound", "/summary/sprt/lower_bound", 2);
      f.add("llr_upper", "LLR upper bound", "/summary/sprt/upper_bound", 2);
      if (const Json* v = f.at("/summary/sprt/verdict"))
        row.notes.push_back("SPRT " + v->get<std::string>());
    }
  }
}

// A summary's "report" envelope (docs/report-schema.md) states the counts of the JUnit
// file it belongs to; a summary that disagrees was written by another run or from other results.
void check_envelope(RunRow& row, const Json& j) {
  if (!j.is_object() || !j.contains("report")) return;  // written before the envelope existed
  const Json& e = j["report"];
  const std::pair<const char*, int> counts[] = {{"tests", row.tests},
                                                {"failures", row.failures},
                                                {"errors", row.errors},
                                                {"skipped", row.skipped}};
  for (const auto& [key, junit_count] : counts) {
    const Json* v = e.is_object() && e.contains(key) ? &e[key] : nullptr;
    if (!v || !v->is_number_integer())
      row.problems.push_back(
          fmt::format("{}: /report/{} missing or not an integer", row.summary, key));
    else if (v->get<long long>() != junit_count)
      row.problems.push_back(fmt::format("{}: /report/{} is {} but {} has {}", row.summary, key,
                                         v->get<long long>(), row.junit, junit_count));
  }
}

// The summary of a JUnit file "<harness>-<config>.xml": reports/<harness>/<config>.json, or
// <harness>-<config>.json there; the calibration tool writes calibration.json.
std::string find_summary(const fs::path& reports, const RunRow& row) {
  const fs::path dir = reports / row.harness;
  for (const std::string& name :
       {row.config + ".json", row.harness + "-" + row.config + ".json",
        row.harness == "calibration" ? std::string("calibration.json") : std::string()})
    if (std::error_code ec; !name.empty() && fs::is_regular_file(dir / name, ec))
      return (fs::path(row.harness) / name).generic_string();
  return "";
}

}  // namespace

bool is_mutant_report(const std::string& harness) {
  return harness == "mutation" || harness == "mutants";
}

std::string pointer_token(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}

int ReviewData::problem_count() const {
  int n = int(problems.size());
  for (const RunRow& r : runs) n += int(r.problems.size());
  return n;
}

std::optional<double> slice_margin(const Json& cell, double tolerance, double min_neff) {
  if (!cell.is_object() || cell.value("records", 0) == 0 || cell.value("n_eff", 0.0) < min_neff)
    return std::nullopt;
  const double worst = std::max(cell.value("logit_ece_beyond_noise", 0.0),
                                cell.value("logit_error", 0.0));
  return tolerance - worst;
}

ReviewData read_reports(const std::string& reports_dir, const std::string& baseline_calibration) {
  ReviewData data;
  data.reports_dir = reports_dir;
  const fs::path reports(reports_dir);
  const fs::path junit_dir = reports / "junit";
  std::vector<fs::path> junit_files;
  std::error_code ec;
  // Every file system call here takes an error code: a link loop or an unreadable entry is a
  // problem the page names, never an exception that leaves no page.
  if (fs::is_directory(junit_dir, ec))
    for (const auto& e : fs::directory_iterator(junit_dir, ec))
      if (e.path().extension() == ".xml") junit_files.push_back(e.path());
  std::sort(junit_files.begin(), junit_files.end());
  if (junit_files.empty())
    data.problems.push_back((junit_dir.generic_string()) + ": no JUnit files");

  std::set<std::string> summaries_used;
  int anchor_seq = 0;
  for (const fs::path& path : junit_files) {
    RunRow row;
    row.junit = path.lexically_relative(reports).generic_string();
    read_junit(path, row, anchor_seq);
    if (row.harness.empty()) {  // unreadable: name the run after its file
      const std::string stem = path.stem().string();
      const auto dash = stem.find('-');
      row.harness = stem.substr(0, dash);
      row.config = dash == std::string::npos ? "" : stem.substr(dash + 1);
    }
    row.summary = find_summary(reports, row);
    if (row.summary.empty() && kWritesSummary.count(row.harness))
      row.problems.push_back(
          fmt::format("{0}/{1}.json (or {0}/{0}-{1}.json): missing, the summary of {2}",
                      row.harness, row.config, row.junit));
    if (!row.summary.empty()) {
      summaries_used.insert(row.summary);
      std::string why;
      auto json = read_json(reports / row.summary, &why);
      if (!json) row.problems.push_back(row.summary + ": " + why);
      // A field of another type than its harness writes (a number where a name belongs) is the
      // summary's problem, named on the page, never an exception that leaves no page.
      if (json) try {
          check_envelope(row, *json);
          headline_figures(row, *json);
        } catch (const nlohmann::json::exception& e) {
          row.problems.push_back(row.summary + ": a field of the wrong type: " + e.what());
        }
      if (json && row.harness == "calibration")
        data.calibration = std::move(json), data.calibration_source = row.summary;
      else if (json && is_mutant_report(row.harness))
        data.mutant_runs.push_back({row.summary, row.harness, row.config, std::move(*json)});
    }
    data.runs.push_back(std::move(row));
  }

  // Every other summary file is linked; a JSON file that does not parse is a problem too.
  fs::recursive_directory_iterator it(reports, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::directory_entry& e = *it;
    if (std::error_code kind; !e.is_regular_file(kind)) continue;
    const std::string rel = e.path().lexically_relative(reports).generic_string();
    const std::string ext = e.path().extension().string();
    if (rel.starts_with("junit/") || rel.starts_with("review/")) continue;
    if (ext != ".json" && ext != ".md" && ext != ".png" && ext != ".svg") continue;
    if (rel.find('/') == std::string::npos) continue;  // the page itself, the README
    data.files.push_back(rel);
    std::string why;
    if (ext == ".json" && !summaries_used.count(rel) && !read_json(e.path(), &why))
      data.problems.push_back(rel + ": " + why);
  }
  if (ec) data.problems.push_back(reports.generic_string() + ": cannot list: " + ec.message());
  std::sort(data.files.begin(), data.files.end());

  if (!baseline_calibration.empty()) {
    std::string why;
    data.baseline_source = baseline_calibration;
    data.baseline_calibration = read_json(baseline_calibration, &why);
    if (!data.baseline_calibration) data.problems.push_back(baseline_calibration + ": " + why);
    else if (!data.baseline_calibration->contains("slices"))
      data.problems.push_back(baseline_calibration + ": not a calibration summary (no \"slices\")"),
          data.baseline_calibration.reset();
  }
  return data;
}

}  // namespace stk::harness::review
