#include "commands/review/review_page.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "commands/review/review_mutants.h"
#include "commands/review/review_verdict.h"

namespace stk::harness::review {

namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1180px;color:#222;padding:0 1em}
h1{font-size:1.6em;margin:.2em 0}h1.passed{color:#146c2e}h1.failed,h1.error{color:#a4161a}
h2{border-bottom:1px solid #ddd;padding-bottom:.15em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #d5d5d5;padding:3px 8px;text-align:right}
th{background:#f2f2f2}td.l,th.l{text-align:left}tr.bad td{background:#fde8e8}
.outcome{font-weight:600}.outcome.passed{color:#146c2e}.outcome.failure,.outcome.error,.outcome.problem{color:#a4161a}
.outcome.skipped{color:#777}.worse{color:#a4161a}.better{color:#146c2e}.either{color:#7a5b00}
.problem{color:#a00;font-weight:bold}pre{background:#f7f7f7;padding:.5em;white-space:pre-wrap}
.meta{color:#555}.chart{max-width:100%;border:1px solid #ddd;margin:.4em 0;display:block}
details{margin:.4em 0}.scroll{overflow-x:auto;max-width:100%}td.links{white-space:nowrap}
summary{cursor:pointer;color:#225}p.what{color:#444;margin:.2em 0 .6em}
)";

std::string step_row(const StepLine& s, const PageContext& ctx) {
  std::string links;
  if (s.run) {
    links = report_link(ctx, s.run->junit, "JUnit");
    if (!s.run->summary.empty()) links += " · " + report_link(ctx, s.run->summary, "JSON");
    links += fmt::format(" · <a href=\"#h-{}\">section</a>", html_escape(s.run->harness));
  }
  return fmt::format(
      "<tr class=\"step {0}\" data-outcome=\"{0}\"><td class=\"l outcome {0}\">{0}</td>"
      "<td class=\"l\">{1}</td><td class=\"l decisive\">{2}</td><td class=\"l links\">{3}</td></tr>\n",
      html_escape(s.outcome), html_escape(s.name), html_escape(s.decisive), links);
}

std::string headline(const Verdict& v, const PageContext& ctx) {
  const int steps = int(v.steps.size()), bad = steps - v.count("passed") - v.count("skipped");
  std::string text = v.overall == "passed"
                         ? fmt::format("Passed: all {} steps passed", steps - v.count("skipped"))
                         : fmt::format("{}: {} of {} steps did not pass",
                                       v.overall == "failed" ? "Failed" : "Error", bad, steps);
  if (ctx.previous && ctx.previous->run_id)
    text += fmt::format(", {} figures worse than the previous run", ctx.previous->worse());
  return fmt::format("<h1 id=\"verdict\" class=\"{}\">{}</h1>\n", v.overall, html_escape(text));
}

std::string change_item(const Change& c) {
  const char* way = c.direction > 0 ? "better" : c.direction < 0 ? "worse" : "either";
  const char* word = c.direction > 0 ? "better" : c.direction < 0 ? "worse" : "changed";
  const int d = c.figure.digits;
  const std::string noise = c.figure.noise == Noise::exact
                                ? "exact figure: any change is real"
                                : fmt::format("beyond its noise +-{:.{}f} (history's spread)",
                                              c.noise.value_or(0), d);
  return fmt::format(
      "<li class=\"change {}\" data-key=\"{}\"><b>{}</b>: {} {:.{}f} (was {:.{}f}, {:+.{}f}); {}</li>\n",
      way, html_escape(c.figure.key), word, html_escape(c.figure.label), c.figure.value, d,
      *c.earlier, d, c.delta, d, html_escape(noise));
}

std::string comparison_block(const Comparison& cmp, const std::string& id) {
  std::string s;
  if (!cmp.run_id)
    return fmt::format("<p id=\"{}\" class=\"meta\">No {} in the history to compare with{}.</p>\n",
                       id, html_escape(cmp.against),
                       cmp.against == "previous run" ? " (the next run of ci/main.sh will have one)"
                                                     : "");
  const auto notable = cmp.notable();
  int compared = 0, fresh = 0;
  for (const Change& c : cmp.changes) c.earlier ? ++compared : ++fresh;
  s += fmt::format(
      "<p class=\"meta\">Against the {}: run {} of revision {} ({}, {} tier). {} figures compared, "
      "{} changed beyond their noise{}.</p>\n",
      html_escape(cmp.against), *cmp.run_id, html_escape(cmp.run.revision),
      html_escape(cmp.run.date), html_escape(cmp.run.tier), compared, notable.size(),
      fresh ? fmt::format(", {} new", fresh) : "");
  s += fmt::format("<ul id=\"{}\" class=\"changed\">\n", id);
  for (const Change* c : notable) s += change_item(*c);
  if (notable.empty()) s += "<li class=\"change none\">nothing changed beyond its noise</li>\n";
  return s + "</ul>\n";
}

std::string changes_section(const PageContext& ctx) {
  std::string s = "<section id=\"changes\"><h2>What changed</h2>\n";
  if (!ctx.previous)
    return s + "<p class=\"meta\">No history database: nothing to compare.</p></section>\n";
  s += comparison_block(*ctx.previous, "changed-since-previous");
  if (ctx.base) s += comparison_block(*ctx.base, "changed-since-base");
  return s + "</section>\n";
}

// Failures first: each failing testcase with its message; its output folded (the first lines).
std::string failing_section(const ReviewData& d, const PageContext& ctx) {
  constexpr std::size_t kCasesPerRun = 20, kDetailChars = 4000;
  std::string s;
  for (const RunRow& r : d.runs) {
    for (std::size_t i = 0; i < r.failing.size() && i < kCasesPerRun; ++i) {
      const FailingCase& f = r.failing[i];
      const std::string detail = f.detail.size() > kDetailChars ? f.detail.substr(0, kDetailChars) +
                                                                      "\n... (see the JUnit file)"
                                                                : f.detail;
      s += fmt::format(
          "<div class=\"case\" id=\"{}\"><h4>{}: {} / {} <small>({})</small></h4><p>{}</p>{}</div>\n",
          f.anchor, f.kind, html_escape(f.classname), html_escape(f.name),
          report_link(ctx, r.junit), html_escape(f.message),
          detail.empty() ? ""
                         : "<details><summary>output</summary><pre>" + html_escape(detail) +
                               "</pre></details>");
    }
    if (r.failing.size() > kCasesPerRun)
      s += fmt::format("<p class=\"meta\">... and {} more failing testcases in {}</p>\n",
                       r.failing.size() - kCasesPerRun, report_link(ctx, r.junit));
  }
  return s.empty() ? ""
                   : "<section id=\"failing\"><h2>Failing testcases</h2>\n" + s + "</section>\n";
}

std::string problems_section(const ReviewData& d) {
  if (!d.problem_count()) return "";
  std::string s = "<section id=\"problems\"><h2>Problems with the inputs</h2><ul>\n";
  for (const std::string& p : d.problems)
    s += "<li class=\"problem\">" + html_escape(p) + "</li>\n";
  for (const RunRow& r : d.runs)
    for (const std::string& p : r.problems)
      s += "<li class=\"problem\">" + html_escape(p) + "</li>\n";
  return s + "</ul></section>\n";
}

// The last runs' values of every figure, newest first (a table: the trend is in the numbers).
std::string history_section(const PageContext& ctx) {
  std::string s = "<section id=\"history\"><h2>History</h2>\n";
  if (ctx.history.empty()) return s + "<p class=\"meta\">no history recorded</p></section>\n";
  std::set<long long> ids;
  std::map<std::string, std::map<long long, double>> values;
  std::map<long long, RunFacts> runs;
  for (const HistoryRow& r : ctx.history)
    ids.insert(r.run_id), values[r.key][r.run_id] = r.value, runs[r.run_id] = r.run;
  std::vector<long long> last(ids.rbegin(), ids.rend());
  if (last.size() > 6) last.resize(6);
  s += fmt::format(
      "<details><summary>every figure over the last {} runs of {} (newest first)</summary>\n"
      "<table id=\"history-table\"><tr><th class=\"l\">figure</th>",
      last.size(), html_escape(ctx.history_source));
  for (long long id : last)
    s += fmt::format("<th>run {}<br><small>{} {}</small></th>", id,
                     html_escape(runs[id].revision.substr(0, 12)), html_escape(runs[id].tier));
  s += "</tr>\n";
  for (const auto& [key, by_run] : values) {
    s += "<tr class=\"series\" data-key=\"" + html_escape(key) + "\"><td class=\"l\">" +
         html_escape(key) + "</td>";
    for (long long id : last) {
      const auto v = by_run.find(id);
      s += v == by_run.end() ? "<td>-</td>" : fmt::format("<td>{:.6g}</td>", v->second);
    }
    s += "</tr>\n";
  }
  return s + "</table></details></section>\n";
}

// Harnesses in the order their first step ran.
std::vector<std::string> harness_order(const Verdict& v, const ReviewData& d) {
  std::vector<std::string> order;
  auto add = [&](const std::string& h) {
    if (h != "all" && std::find(order.begin(), order.end(), h) == order.end()) order.push_back(h);
  };
  for (const StepLine& s : v.steps)
    if (s.run) add(s.run->harness);
  for (const RunRow& r : d.runs) add(r.harness);
  return order;
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

std::string report_link(const PageContext& ctx, const std::string& rel, const std::string& text) {
  return fmt::format("<a href=\"{}\">{}</a>", html_escape(ctx.link_prefix + rel),
                     html_escape(text.empty() ? rel : text));
}

std::string figure_span(const Figure& f) {
  return fmt::format(
      "<span class=\"fig\" data-key=\"{}\" data-src=\"{}\" data-ptr=\"{}\" data-digits=\"{}\">{:.{}f}</span>",
      html_escape(f.key), html_escape(f.source), html_escape(f.pointer), f.digits, f.value,
      f.digits);
}

std::string render_page(const ReviewData& d, const PageContext& ctx) {
  const Verdict v = verdict_of(d);
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>stk review: " +
      v.overall + "</title><style>" + kStyle + "</style></head><body>\n";
  s += headline(v, ctx);
  s += fmt::format(
      "<p class=\"meta\">Reports {} · page written by stk-harness at revision {} · "
      "<a href=\"#changes\">what changed</a> · <a href=\"#steps\">steps</a> · harness sections below · "
      "<a href=\"#history\">history</a> · <a href=\"#files\">files</a></p>\n",
      html_escape(d.reports_dir), html_escape(ctx.revision));
  s += problems_section(d) + changes_section(ctx);
  s +=
      "<section id=\"steps\"><h2>Steps</h2>\n<table id=\"steps-table\"><tr><th class=\"l\">outcome"
      "</th><th class=\"l\">step</th><th class=\"l\">the figure it turns on</th><th class=\"l\">reports"
      "</th></tr>\n";
  for (const StepLine& line : v.steps) s += step_row(line, ctx);
  s += "</table></section>\n";
  s += failing_section(d, ctx) + harness_sections(d, ctx, harness_order(v, d));
  s += mutants_section(d, ctx) + history_section(ctx);
  s += "<section id=\"files\"><h2>Files</h2><details><summary>every summary file (" +
       std::to_string(d.files.size()) + ")</summary><ul>\n";
  for (const std::string& f : d.files) s += "<li>" + report_link(ctx, f) + "</li>\n";
  return s + "</ul></details></section>\n</body></html>\n";
}

}  // namespace stk::harness::review
