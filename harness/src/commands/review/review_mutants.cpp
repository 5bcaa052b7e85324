#include "commands/review/review_mutants.h"

#include <fmt/format.h>

namespace stk::harness::review {

using Json = nlohmann::json;

namespace {

// Columns of the module table: the keys of stkmutation.report's tally.
constexpr const char* kColumns[] = {"generated",   "killed",  "timeout",    "survived",
                                    "not-covered", "triaged", "equivalent", "uncompilable",
                                    "skipped",     "error"};

std::string count_cell(const Json& row, const char* key) {
  const Json* v = row.contains(key) ? &row[key] : nullptr;
  return v && v->is_number_integer() ? std::to_string(v->get<long long>())
                                     : "<span class=\"problem\">missing</span>";
}

std::string score_cell(const Json& row) {
  if (!row.contains("score") || row["score"].is_null()) return "-";
  if (!row["score"].is_number()) return "<span class=\"problem\">not a number</span>";
  return fmt::format("{:.1f}%", row["score"].get<double>());
}

std::string module_table(const Json& modules) {
  std::string s = "<table class=\"mutant-modules\"><tr><th class=\"l\">module</th>";
  for (const char* c : kColumns) s += fmt::format("<th>{}</th>", c);
  s += "<th>score</th></tr>\n";
  for (auto it = modules.begin(); it != modules.end(); ++it) {
    const bool total = it.key() == "total";
    s += fmt::format("<tr{}><td class=\"l\">{}</td>", total ? " class=\"total\"" : "",
                     total ? "<b>total</b>" : html_escape(it.key()));
    for (const char* c : kColumns) s += "<td>" + count_cell(it.value(), c) + "</td>";
    s += "<td>" + score_cell(it.value()) + "</td></tr>\n";
  }
  return s + "</table>\n";
}

std::string text_of(const Json& m, const char* key) {
  return m.contains(key) && m[key].is_string() ? m[key].get<std::string>() : "";
}

// A survivor: where it is, whether it is triaged, its diff hunk and the checks that ran on it.
std::string survivor(const Json& m) {
  std::string where = text_of(m, "file");
  if (m.contains("line") && m["line"].is_number_integer())
    where += ":" + std::to_string(m["line"].get<long long>());
  const std::string triaged = text_of(m, "triaged");
  std::string checks;
  int n = 0;
  if (m.contains("tests") && m["tests"].is_array())
    for (const Json& t : m["tests"])
      if (t.is_string()) checks += "<li>" + html_escape(t.get<std::string>()) + "</li>", ++n;
  return fmt::format(
      "<div class=\"survivor{}\"><h4>{} <small>{} &middot; {} &middot; {}</small></h4>"
      "<pre class=\"diff\">{}</pre><details><summary>{} check(s) ran</summary><ul>{}</ul>"
      "</details></div>\n",
      triaged.empty() ? " gap" : " triaged", html_escape(where),
      html_escape(text_of(m, "operator")), html_escape(text_of(m, "outcome")),
      triaged.empty() ? "<b>gap</b>" : "triaged: " + html_escape(triaged),
      html_escape(text_of(m, "diff")), n, checks);
}

}  // namespace

std::string mutants_section(const ReviewData& d, const PageContext& ctx) {
  std::string s = "<h2 id=\"mutants\">Mutants</h2>\n";
  int runs = 0;
  for (const MutantRun& r : d.mutant_runs) {
    ++runs;
    s += fmt::format("<h3>{} {} <small>(<a href=\"{}\">{}</a>)</small></h3>\n",
                     r.harness == "mutants" ? "planted defects" : "generated mutants",
                     html_escape(r.config), html_escape(ctx.link_prefix + r.source),
                     html_escape(r.source));
    if (r.summary.contains("modules") && r.summary["modules"].is_object())
      s += module_table(r.summary["modules"]);
    int survivors = 0;
    std::string list;
    if (r.summary.contains("mutants") && r.summary["mutants"].is_array())
      for (const Json& m : r.summary["mutants"]) {
        const std::string outcome = m.is_object() ? text_of(m, "outcome") : "";
        if (outcome == "survived" || outcome == "not-covered") ++survivors, list += survivor(m);
      }
    s += fmt::format("<p>{} survivor(s)</p>\n", survivors) + list;
  }
  return runs ? "<section id=\"mutants-section\">" + s + "</section>\n" : "";
}

}  // namespace stk::harness::review
