// The calibration harness's tables: gate margin of every slice and search decision, the deciles of
// each side (the reliability plot beside them is the harness's own matplotlib chart).
#include <map>

#include <fmt/format.h>

#include "commands/review/review_page.h"

namespace stk::harness::review {

using Json = nlohmann::json;

namespace {

std::string json_span(const std::string& src, const std::string& ptr, const Json& root,
                      int digits) {
  const Json::json_pointer p(ptr);
  if (!root.contains(p) || !root.at(p).is_number()) return "<span class=\"problem\">missing</span>";
  Figure f;
  f.value = root.at(p).get<double>(), f.digits = digits, f.source = src, f.pointer = ptr;
  return figure_span(f);
}

// Gate margins of every slice and search decision (tolerance minus the worst log-odds error).
std::map<std::string, double> margins(const Json& cal) {
  std::map<std::string, double> out;
  const double tol = cal.value("tolerance", 0.0), min_neff = cal.value("min_neff", 0.0);
  if (cal.contains("slices"))
    for (auto it = cal["slices"].begin(); it != cal["slices"].end(); ++it)
      if (auto m = slice_margin(it.value(), tol, min_neff)) out["slice " + it.key()] = *m;
  if (cal.contains("decisions"))
    for (auto it = cal["decisions"].begin(); it != cal["decisions"].end(); ++it)
      if (it.value().contains("flagged"))
        if (auto m = slice_margin(it.value()["flagged"], tol, min_neff))
          out["decision " + it.key()] = *m;
  return out;
}

// One side's deciles: the reliability plot and the table ("" when the summary has none).
std::string deciles_section(const Json& c, const std::string& src, const char* side) {
  const Json::json_pointer dp("/slices/" + std::string(side) + "/deciles");
  if (!c.contains(dp)) return "";
  const Json& dec = c.at(dp);
  std::string s = fmt::format(
      "<details><summary>reliability deciles, {} side (the chart above, as numbers)</summary>\n",
      side);
  std::string rows;
  for (std::size_t i = 0; i < dec.size(); ++i) {
    const std::string p = dp.to_string() + fmt::format("/{}", i);
    rows += fmt::format("<tr><td>{}</td>", i);
    for (auto [k, dg] : std::initializer_list<std::pair<const char*, int>>{{"records", 0},
                                                                           {"n_eff", 0},
                                                                           {"mean_prediction", 5},
                                                                           {"realized_rate", 5},
                                                                           {"wilson_lo", 5},
                                                                           {"wilson_hi", 5}})
      rows += "<td>" + json_span(src, p + "/" + k, c, dg) + "</td>";
    rows += "</tr>\n";
  }
  s += fmt::format(
      "<table class=\"deciles\" id=\"deciles-{}\"><tr><th>decile</th><th>records</th><th>effective n</th><th>mean pred</th>"
      "<th>realized</th><th>Wilson lo</th><th>Wilson hi</th></tr>\n{}</table></details>\n",
      side, rows);
  return s;
}

std::string calibration_section_body(const ReviewData& d, const PageContext& ctx) {
  std::string s = "<div id=\"calibration\">\n";
  if (!d.calibration) return s + "<p>no calibration summary</p>\n";
  const Json& c = *d.calibration;
  const std::string& src = d.calibration_source;
  s += fmt::format(
      "<p>{}: tier {}, tolerance {} log-odds, minimum effective n {}. Margin = tolerance - max(log-odds ECE beyond "
      "noise, mean prediction's log-odds distance from the realized Wilson interval); skipped slices have none.</p>\n",
      report_link(ctx, src), html_escape(c.value("tier", "?")), c.value("tolerance", 0.0),
      c.value("min_neff", 0.0));
  const auto now = margins(c);
  std::map<std::string, double> base;
  if (d.baseline_calibration) {
    base = margins(*d.baseline_calibration);
    s += "<p>Baseline: " + html_escape(d.baseline_source) + "</p>\n";
  }
  auto margin_cells = [&](const std::string& key) {
    std::string cells;
    auto m = now.find(key);
    cells += m == now.end()
                 ? "<td>skipped</td>"
                 : fmt::format("<td><span class=\"margin\" data-gate=\"{}\">{:.3f}</span></td>",
                               html_escape(key), m->second);
    if (d.baseline_calibration) {
      auto b = base.find(key);
      cells += b == base.end() ? "<td>-</td>" : fmt::format("<td>{:.3f}</td>", b->second);
      cells += m == now.end() || b == base.end()
                   ? "<td>-</td>"
                   : fmt::format(
                         "<td><span class=\"margin-change\" data-gate=\"{}\">{:+.3f}</span></td>",
                         html_escape(key), m->second - b->second);
    }
    return cells;
  };
  const std::string base_head = d.baseline_calibration ? "<th>baseline margin</th><th>change</th>"
                                                       : "";
  s +=
      "<h3>Slices (side and depth band)</h3><table id=\"calibration-slices\"><tr><th class=\"l\">slice</th><th>records</th>"
      "<th>effective n</th><th>mean pred</th><th>realized</th><th>ECE</th><th>log-odds ECE beyond noise</th><th>log-odds error</th>"
      "<th>margin</th>" +
      base_head + "</tr>\n";
  for (auto it = c["slices"].begin(); it != c["slices"].end(); ++it) {
    const std::string p = "/slices/" + pointer_token(it.key());
    s += fmt::format("<tr><td class=\"l\">{}</td>", html_escape(it.key()));
    for (auto [k, dg] :
         std::initializer_list<std::pair<const char*, int>>{{"records", 0},
                                                            {"n_eff", 0},
                                                            {"mean_prediction", 4},
                                                            {"realized_rate", 4},
                                                            {"ece", 4},
                                                            {"logit_ece_beyond_noise", 3},
                                                            {"logit_error", 3}})
      s += "<td>" + json_span(src, p + "/" + k, c, dg) + "</td>";
    s += margin_cells("slice " + it.key()) + "</tr>\n";
  }
  s += "</table>\n";
  for (const char* side : {"alpha", "beta"}) s += deciles_section(c, src, side);
  if (c.contains("decisions")) {
    s +=
        "<h3>Search decisions: firing rates and flagged populations</h3><table id=\"calibration-decisions\"><tr><th class=\"l\">decision"
        "</th><th class=\"l\">rule</th><th>firing rate</th><th>flagged records</th><th>mean pred</th><th>realized</th><th>margin</th>" +
        base_head + "</tr>\n";
    for (auto it = c["decisions"].begin(); it != c["decisions"].end(); ++it) {
      const std::string p = "/decisions/" + pointer_token(it.key());
      s += fmt::format(
          "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}</tr>\n",
          html_escape(it.key()), html_escape(it.value().value("rule", "")),
          json_span(src, p + "/firing_rate", c, 5), json_span(src, p + "/flagged/records", c, 0),
          json_span(src, p + "/flagged/mean_prediction", c, 5),
          json_span(src, p + "/flagged/realized_rate", c, 5), margin_cells("decision " + it.key()));
    }
    s += "</table>\n";
  }
  return s;
}

}  // namespace

std::string calibration_tables(const ReviewData& d, const PageContext& ctx) {
  return calibration_section_body(d, ctx) + "</div>\n";
}

}  // namespace stk::harness::review
