#include "commands/review/review_page.h"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "commands/review/review_mutants.h"
#include "commands/review/review_svg.h"

namespace stk::harness::review {

using Json = nlohmann::json;

namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
th{background:#f2f2f2}td.l,th.l{text-align:left}tr.bad td{background:#fde8e8}tr.ok td.status{color:#060}
.problem{color:#a00;font-weight:bold}pre{background:#f7f7f7;padding:.5em;white-space:pre-wrap}
svg.chart{border:1px solid #ddd;margin:4px}.bar{fill:#4a7ab5}.ci{stroke:#888;stroke-width:2}.pt{fill:#c33}
.zero{stroke:#aaa;stroke-dasharray:3}.axis{stroke:#444}.line{fill:none;stroke:#4a7ab5;stroke-width:1.5}
.ax{font-size:9px;fill:#444}img{max-width:480px;border:1px solid #ddd}
)";

std::string fmt_value(double v, int digits) { return fmt::format("{:.{}f}", v, digits); }

std::string link(const PageContext& ctx, const std::string& rel, const std::string& text = "") {
  return fmt::format("<a href=\"{}\">{}</a>", html_escape(ctx.link_prefix + rel),
                     html_escape(text.empty() ? rel : text));
}

// A number shown with the JSON value it came from: the browser test reads it back through data-src/data-ptr.
std::string figure_span(const Figure& f) {
  return fmt::format(
      "<span class=\"fig\" data-key=\"{}\" data-src=\"{}\" data-ptr=\"{}\" data-digits=\"{}\">{}</span>",
      html_escape(f.key), html_escape(f.source), html_escape(f.pointer), f.digits,
      fmt_value(f.value, f.digits));
}

std::string json_span(const std::string& src, const std::string& ptr, const Json& root,
                      int digits) {
  const Json::json_pointer p(ptr);
  if (!root.contains(p) || !root.at(p).is_number()) return "<span class=\"problem\">missing</span>";
  return figure_span({"", "", root.at(p).get<double>(), digits, src, ptr});
}

std::string stem_of(const std::string& junit) {
  const auto slash = junit.rfind('/');
  std::string s = junit.substr(slash == std::string::npos ? 0 : slash + 1);
  return s.substr(0, s.rfind('.'));
}

std::string runs_table(const ReviewData& d, const PageContext& ctx) {
  std::string s =
      "<h2 id=\"runs\">Runs</h2>\n<table id=\"runs-table\"><tr><th class=\"l\">run</th><th class=\"l\">JUnit</th>"
      "<th>tests</th><th>passed</th><th>failures</th><th>errors</th><th>skipped</th><th class=\"l\">summary</th>"
      "<th class=\"l\">status</th></tr>\n";
  for (const RunRow& r : d.runs) {
    const bool bad = r.failures || r.errors || !r.problems.empty();
    std::string status;
    for (const FailingCase& f : r.failing)
      status += fmt::format("<a href=\"#{}\">{}: {}</a><br>", f.anchor, f.kind,
                            html_escape(f.classname + " / " + f.name));
    for (const std::string& p : r.problems)
      status += "<span class=\"problem\">" + html_escape(p) + "</span><br>";
    if (status.empty()) status = "passed";
    s += fmt::format(
        "<tr class=\"run {}\" id=\"run-{}\" data-junit=\"{}\"><td class=\"l\">{}</td><td class=\"l\">{}</td>"
        "<td class=\"tests\">{}</td><td class=\"passed\">{}</td><td class=\"failures\">{}</td>"
        "<td class=\"errors\">{}</td><td class=\"skipped\">{}</td><td class=\"l\">{}</td><td class=\"l status\">{}</td></tr>\n",
        bad ? "bad" : "ok", html_escape(stem_of(r.junit)), html_escape(r.junit),
        html_escape(r.harness + "." + r.config), link(ctx, r.junit), r.tests,
        r.tests - r.failures - r.errors - r.skipped, r.failures, r.errors, r.skipped,
        r.summary.empty() ? std::string() : link(ctx, r.summary), status);
  }
  return s + "</table>\n";
}

// Figures whose key ends in `suffix`, in row order.
std::vector<const Figure*> with_suffix(const RunRow& r, const std::string& suffix) {
  std::vector<const Figure*> out;
  for (const Figure& f : r.figures)
    if (f.key.size() >= suffix.size() &&
        f.key.compare(f.key.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(&f);
  return out;
}

std::string run_chart(const RunRow& r) {
  const std::string base = r.harness + "." + r.config + ".";
  if (r.harness == "drift") {
    std::vector<std::string> labels;
    std::vector<double> v;
    for (const Figure* f : with_suffix(r, ".p99"))
      if (f->key.starts_with(base + "bucket"))
        labels.push_back(f->key.substr(base.size() + 6, f->key.size() - base.size() - 10)),
            v.push_back(f->value);
    return labels.empty() ? "" : svg_bars(labels, v, "|delta cp| p99 by output bucket");
  }
  if (r.harness == "shadow") {
    std::vector<std::string> labels;
    std::vector<double> c, lo, hi;
    for (const Figure* f : with_suffix(r, ".excess")) {
      const std::string m = f->key.substr(base.size(), f->key.size() - base.size() - 7);
      labels.push_back(m), c.push_back(f->value);
      for (const Figure& g : r.figures) {
        if (g.key == base + m + ".excess_lo") lo.push_back(g.value);
        if (g.key == base + m + ".excess_hi") hi.push_back(g.value);
      }
    }
    if (lo.size() != c.size() || hi.size() != c.size()) return "";
    return labels.empty()
               ? ""
               : svg_intervals(labels, c, lo, hi, "miss rate excess over control, bootstrap 95%");
  }
  return "";
}

std::string figures_section(const ReviewData& d, const PageContext& ctx) {
  std::string s = "<h2 id=\"figures\">Headline figures</h2>\n";
  for (const RunRow& r : d.runs) {
    if (r.figures.empty() && r.notes.empty()) continue;
    s += fmt::format("<h3 id=\"fig-{}\">{} <small>({})</small></h3>\n",
                     html_escape(stem_of(r.junit)), html_escape(r.harness + "." + r.config),
                     link(ctx, r.summary));
    for (const std::string& n : r.notes) s += "<p class=\"note\">" + html_escape(n) + "</p>\n";
    s += run_chart(r);
    s += "<table class=\"figures\"><tr><th class=\"l\">figure</th><th>value</th></tr>\n";
    for (const Figure& f : r.figures)
      s += fmt::format("<tr><td class=\"l\">{}</td><td>{}</td></tr>\n", html_escape(f.label),
                       figure_span(f));
    s += "</table>\n";
    // Plots the harness wrote beside its summary (the drift histogram, shadow rates, reliability).
    const std::string dir = r.summary.substr(0, r.summary.rfind('/') + 1);
    const std::string stem = r.summary.substr(dir.size(), r.summary.size() - dir.size() - 5);
    for (const std::string& file : d.files)
      if (file.starts_with(dir) && file.size() > 4 &&
          file.compare(file.size() - 4, 4, ".png") == 0 &&
          (file.starts_with(dir + stem) || r.harness == "calibration"))
        s += fmt::format("<p><a href=\"{0}\"><img src=\"{0}\" alt=\"{1}\"></a></p>\n",
                         html_escape(ctx.link_prefix + file), html_escape(file));
  }
  return s;
}

std::string failing_section(const ReviewData& d, const PageContext& ctx) {
  std::string s = "<h2 id=\"failing\">Failing testcases</h2>\n";
  int n = 0;
  for (const RunRow& r : d.runs)
    for (const FailingCase& f : r.failing) {
      ++n;
      s += fmt::format(
          "<div class=\"case\" id=\"{}\"><h4>{} {} / {} <small>({})</small></h4><p>{}</p><pre>{}</pre></div>\n",
          f.anchor, f.kind, html_escape(f.classname), html_escape(f.name), link(ctx, r.junit),
          html_escape(f.message), html_escape(f.detail));
    }
  return n ? s : s + "<p>none</p>\n";
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
  std::string s = fmt::format("<h3>Deciles: {}</h3>\n", side);
  std::vector<double> pred, real, lo, hi;
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
    pred.push_back(dec[i].value("mean_prediction", 0.0)),
        real.push_back(dec[i].value("realized_rate", 0.0));
    lo.push_back(dec[i].value("wilson_lo", 0.0)), hi.push_back(dec[i].value("wilson_hi", 0.0));
  }
  s += svg_reliability(pred, real, lo, hi, std::string("reliability: ") + side);
  s += fmt::format(
      "<table class=\"deciles\" id=\"deciles-{}\"><tr><th>decile</th><th>records</th><th>n_eff</th><th>mean pred</th>"
      "<th>realized</th><th>Wilson lo</th><th>Wilson hi</th></tr>\n{}</table>\n",
      side, rows);
  return s;
}

std::string calibration_section(const ReviewData& d, const PageContext& ctx) {
  std::string s = "<h2 id=\"calibration\">Calibration</h2>\n";
  if (!d.calibration) return s + "<p>no calibration summary</p>\n";
  const Json& c = *d.calibration;
  const std::string& src = d.calibration_source;
  s += fmt::format(
      "<p>{}: tier {}, tolerance {} log-odds, minimum n_eff {}. Margin = tolerance - max(log-odds ECE beyond "
      "noise, mean prediction's log-odds distance from the realized Wilson interval); skipped slices have none.</p>\n",
      link(ctx, src), html_escape(c.value("tier", "?")), c.value("tolerance", 0.0),
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
      "<th>n_eff</th><th>mean pred</th><th>realized</th><th>ECE</th><th>log-odds ECE beyond noise</th><th>log-odds error</th>"
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

std::string history_section(const PageContext& ctx) {
  std::string s = "<h2 id=\"history\">History</h2>\n";
  if (ctx.history.empty()) return s + "<p>no history recorded</p>\n";
  s += "<p>" + html_escape(ctx.history_source) +
       ": each headline figure across runs of <code>stk-harness all</code>, oldest first.</p>\n";
  for (const Series& series : ctx.history) {
    std::vector<std::string> labels;
    std::vector<double> values;
    for (const auto& p : series.points)
      labels.push_back(p.revision + " " + p.date + " " + p.tier), values.push_back(p.value);
    s += "<div class=\"series\" data-key=\"" + html_escape(series.key) + "\"><h4>" +
         html_escape(series.key) + "</h4>" + svg_line(labels, values, series.key) + "</div>\n";
  }
  return s;
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string render_page(const ReviewData& d, const PageContext& ctx) {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>stk review</title><style>";
  s += kStyle;
  s += "</style></head><body>\n<h1>stk review</h1>\n";
  s += fmt::format(
      "<p>Reports directory {} (written by stk-harness at revision {}). <a href=\"#runs\">Runs</a> | "
      "<a href=\"#figures\">Figures</a> | <a href=\"#failing\">Failing testcases</a> | <a href=\"#mutants\">Mutants</a> | "
      "<a href=\"#calibration\">Calibration</a> | "
      "<a href=\"#history\">History</a> | <a href=\"#files\">Files</a></p>\n",
      html_escape(d.reports_dir), html_escape(ctx.revision));
  if (d.problem_count()) {
    s += "<div id=\"problems\"><h2>Problems with the inputs</h2><ul>\n";
    for (const std::string& p : d.problems)
      s += "<li class=\"problem\">" + html_escape(p) + "</li>\n";
    for (const RunRow& r : d.runs)
      for (const std::string& p : r.problems)
        s += "<li class=\"problem\">" + html_escape(p) + "</li>\n";
    s += "</ul></div>\n";
  }
  s += runs_table(d, ctx) + figures_section(d, ctx) + failing_section(d, ctx) +
       mutants_section(d, ctx) + calibration_section(d, ctx) + history_section(ctx);
  s += "<h2 id=\"files\">Files</h2><ul>\n";
  for (const std::string& f : d.files) s += "<li>" + link(ctx, f) + "</li>\n";
  return s + "</ul>\n</body></html>\n";
}

}  // namespace stk::harness::review
