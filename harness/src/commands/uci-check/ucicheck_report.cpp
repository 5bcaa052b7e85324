#include "commands/uci-check/ucicheck_report.h"

#include <fmt/format.h>

namespace stk::harness::ucicheck {

namespace {

bool keeps_transcript(const ScenarioResult& r) {
  return r.verdict != Verdict::Pass && r.verdict != Verdict::NotApplicable;
}

std::string fact_text(const nlohmann::ordered_json& v) {
  if (v.is_string()) return printable(v.get<std::string>());
  if (v.is_number_float()) return fmt::format("{:.1f}", v.get<double>());
  return printable(v.dump());
}

std::string facts_line(const ScenarioResult& r) {
  std::string s;
  for (const auto& [k, v] : r.facts.items()) s += (s.empty() ? "" : ", ") + k + "=" + fact_text(v);
  return s;
}

std::string md_cell(std::string s) {
  for (char& c : s)
    if (c == '|' || c == '\n') c = c == '|' ? '/' : ' ';
  return s.size() > 300 ? s.substr(0, 300) + "..." : s;
}

}  // namespace

int RunSummary::count(Verdict v) const {
  int n = 0;
  for (const ScenarioResult& r : results) n += r.verdict == v;
  return n;
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Difference: return "documented difference";
    case Verdict::Error: return "error";
    case Verdict::NotApplicable: return "not applicable";
  }
  return "?";
}

std::string printable(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if ((c >= 0x20 && c < 0x7f) || c == '\n') o += char(c);
    else o += fmt::format("\\x{:02x}", c);
  }
  return o;
}

std::vector<std::string> transcript_excerpt(const std::vector<TranscriptEntry>& t, std::size_t head,
                                            std::size_t tail) {
  // Kept: the head, the tail, and a window around every harness note and stderr line (where a
  // crash or a hang shows); each run of the rest becomes one "omitted" line.
  constexpr std::size_t kWindow = 8;
  std::vector<bool> keep(t.size(), false);
  for (std::size_t i = 0; i < t.size(); ++i) {
    keep[i] = keep[i] || i < head || i + tail >= t.size();
    if (t[i].direction == '#' || t[i].direction == '!')
      for (std::size_t j = i >= kWindow ? i - kWindow : 0; j < std::min(t.size(), i + kWindow + 1);
           ++j)
        keep[j] = true;
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.size();) {
    if (keep[i]) {
      out.push_back(
          fmt::format("[{:9.1f} ms] {} {}", t[i].t_ms, t[i].direction, printable(t[i].text)));
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < t.size() && !keep[j]) ++j;
    out.push_back(fmt::format("... {} lines omitted ...", j - i));
    i = j;
  }
  return out;
}

junit::TestSuite to_junit(const RunSummary& run) {
  junit::TestSuite suite;
  suite.name = "uci-check." + run.config;
  for (const auto& [k, v] : run.inputs) suite.property("input." + k, printable(v));
  suite.property("engine_command", printable(run.settings.engine));
  suite.property("engine_id", printable(run.engine_id));
  suite.property("seed", std::to_string(run.settings.seed));
  suite.property("nodes_tolerance", fmt::format("{}", run.settings.nodes_tolerance));
  suite.property("timeout_scale", fmt::format("{}", run.settings.timeout_scale));
  suite.property("documented_differences", run.settings.documented_differences ? "on" : "off");
  const double scale = run.settings.timeout_scale;  // the latency gates as applied
  suite.property("gate.stop_p99_ms", fmt::format("{}", run.settings.stop_p99_ms * scale));
  suite.property("gate.stop_max_ms", fmt::format("{}", run.settings.stop_max_ms * scale));
  suite.property("gate.overrun_p99_ms", fmt::format("{}", run.settings.overrun_p99_ms * scale));
  suite.property("gate.overrun_max_ms", fmt::format("{}", run.settings.overrun_max_ms * scale));
  junit::add_build_properties(suite);
  for (const ScenarioResult& r : run.results)
    for (const auto& [k, v] : r.properties)
      suite.property(r.group + "." + r.name + "." + k, printable(v));
  suite.time_s = run.time_s;
  for (const ScenarioResult& r : run.results) {
    junit::TestCase tc;
    tc.classname = "uci-check." + r.group;
    tc.name = r.name;
    tc.time_s = r.time_s;
    for (const auto& [k, v] : r.facts.items()) tc.facts.emplace_back(k, fact_text(v));
    std::string seen;
    for (const Failure& f : r.failures)
      seen += "failure [" + f.behaviour + "]: " + printable(f.text) + "\n";
    for (const std::string& w : r.warnings) seen += "warning: " + printable(w) + "\n";
    if (keeps_transcript(r)) {
      seen += "transcript (> sent, < received, # harness):\n";
      for (const std::string& l : transcript_excerpt(r.transcript)) seen += l + "\n";
    }
    switch (r.verdict) {
      case Verdict::Pass: tc.system_out = seen; break;
      case Verdict::Fail:
        tc.outcome = junit::Outcome::Failed;
        tc.message = printable(r.failures.front().text.substr(0, 300));
        tc.detail = seen;
        break;
      case Verdict::Difference:
        tc.outcome = junit::Outcome::Skipped;
        tc.message = "documented difference: " + r.difference;
        tc.system_out = seen;
        break;
      case Verdict::NotApplicable:
        tc.outcome = junit::Outcome::Skipped;
        tc.message = "not applicable: " + printable(r.not_applicable);
        tc.system_out = seen;
        break;
      case Verdict::Error:
        tc.outcome = junit::Outcome::Error;
        tc.message = printable(r.error.substr(0, 300));
        tc.detail = printable(r.error) + "\n" + seen;
        break;
    }
    suite.cases.push_back(std::move(tc));
  }
  return suite;
}

nlohmann::ordered_json to_json(const RunSummary& run) {
  nlohmann::ordered_json j;
  j["config"] = run.config;
  j["engine_command"] = run.settings.engine;
  j["engine_id"] = run.engine_id;
  j["seed"] = run.settings.seed;
  j["nodes_tolerance"] = run.settings.nodes_tolerance;
  j["strict_pv"] = run.settings.strict_pv;
  j["timeout_scale"] = run.settings.timeout_scale;
  j["documented_differences"] = run.settings.documented_differences;
  j["time_s"] = run.time_s;
  j["counts"] = {{"pass", run.count(Verdict::Pass)},
                 {"fail", run.count(Verdict::Fail)},
                 {"documented_difference", run.count(Verdict::Difference)},
                 {"not_applicable", run.count(Verdict::NotApplicable)},
                 {"error", run.count(Verdict::Error)}};
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ScenarioResult& r : run.results) {
    nlohmann::ordered_json s;
    s["id"] = r.group + "." + r.name;
    s["verdict"] = verdict_name(r.verdict);
    s["time_ms"] = r.time_s * 1000;
    if (!r.error.empty()) s["error"] = printable(r.error);
    if (!r.difference.empty()) s["documented_difference"] = r.difference;
    if (!r.not_applicable.empty()) s["not_applicable"] = printable(r.not_applicable);
    s["failures"] = nlohmann::ordered_json::array();
    for (const Failure& f : r.failures)
      s["failures"].push_back({{"behaviour", f.behaviour}, {"text", printable(f.text)}});
    s["warnings"] = nlohmann::ordered_json::array();
    for (const std::string& w : r.warnings) s["warnings"].push_back(printable(w));
    s["facts"] = r.facts;
    if (keeps_transcript(r)) s["transcript"] = transcript_excerpt(r.transcript);
    list.push_back(std::move(s));
  }
  j["scenarios"] = std::move(list);
  return j;
}

std::string to_markdown(const RunSummary& run) {
  std::string md = fmt::format("Engine: `{}` (id name `{}`), seed {}, {:.1f} s.\n\n",
                               printable(run.settings.engine), printable(run.engine_id),
                               run.settings.seed, run.time_s);
  md += fmt::format("{} pass, {} fail, {} documented difference, {} not applicable, {} error.\n\n",
                    run.count(Verdict::Pass), run.count(Verdict::Fail),
                    run.count(Verdict::Difference), run.count(Verdict::NotApplicable),
                    run.count(Verdict::Error));
  md += "| scenario | verdict | ms | what was seen |\n|---|---|---|---|\n";
  for (const ScenarioResult& r : run.results) {
    std::string seen = r.verdict == Verdict::Error           ? r.error
                       : r.verdict == Verdict::NotApplicable ? r.not_applicable
                       : r.failures.empty()
                           ? facts_line(r)
                           : r.failures.front().text + " [" + r.failures.front().behaviour + "]";
    md += fmt::format("| {}.{} | {} | {:.0f} | {} |\n", r.group, r.name,
                      r.verdict == Verdict::Pass
                          ? "pass"
                          : std::string("**") + verdict_name(r.verdict) + "**",
                      r.time_s * 1000, md_cell(printable(seen)));
  }
  for (const ScenarioResult& r : run.results) {
    if (!keeps_transcript(r)) continue;
    md += fmt::format("\n## {}.{}: {}\n\n", r.group, r.name, verdict_name(r.verdict));
    if (!r.difference.empty()) md += "Documented difference: " + r.difference + "\n\n";
    if (!r.error.empty()) md += "Error: " + printable(r.error) + "\n\n";
    for (const Failure& f : r.failures) md += "- [" + f.behaviour + "] " + printable(f.text) + "\n";
    for (const std::string& w : r.warnings) md += "- warning: " + printable(w) + "\n";
    md += "\nFacts: " + facts_line(r) + "\n\n```\n";
    for (const std::string& l : transcript_excerpt(r.transcript)) md += l + "\n";
    md += "```\n";
  }
  return md;
}

}  // namespace stk::harness::ucicheck
