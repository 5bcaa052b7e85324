// One designed section per harness: what it proves in a sentence, a table with one row per
// configuration (its outcome and scalar figures), a table per configuration of its itemized
// figures ("<item>.<field>": shadow mechanisms, drift buckets, accumulator checks, corpora) with
// intervals in one cell and the gate of each item, the charts the harness drew, the raw files.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "commands/review/review_page.h"
#include "commands/review/review_verdict.h"

namespace stk::harness::review {

namespace {

struct HarnessInfo {
  const char* title;
  const char* proves;
};

const std::map<std::string, HarnessInfo>& harness_info() {
  static const std::map<std::string, HarnessInfo> info = {
      {"perft", {"Perft", "legal move counts equal the golden counts at every depth listed"}},
      {"perft-speed", {"Perft speed", "perft nodes per second against the reference engine"}},
      {"features",
       {"Feature parity", "the C++ STKHALFKA feature indices equal the Python reference's"}},
      {"eval",
       {"Evaluation parity", "the engine's NNUE output equals the Python integer oracle exactly"}},
      {"drift",
       {"Quantization drift", "how far the quantized net's output moves from the float net's"}},
      {"netlint", {"Net lint", "accumulator headroom and clipped or dead lanes of a net"}},
      {"checknet", {"Net file", "the net file's size, header and digest"}},
      {"golden", {"Golden nets", "the golden test vectors of the net format"}},
      {"accumulator",
       {"Accumulator", "incremental accumulator updates equal a full recompute after every move"}},
      {"epd",
       {"EPD suites", "positions solved at a fixed depth or node budget, against a baseline"}},
      {"calibration",
       {"Fail-high calibration", "the fail-high predictor's probabilities match realized rates"}},
      {"shadow",
       {"Shadow-search audit",
        "how often each pruning or reduction decision silently misses a better move, beyond its control"}},
      {"bench",
       {"Bench signature", "the bench node count equals the golden signature (search unchanged)"}},
      {"uci-check", {"UCI protocol", "the engine answers the UCI protocol as specified"}},
      {"match", {"Match", "games between two engines: Elo with its interval and the SPRT"}},
      {"compare",
       {"Against the base revision",
        "the base and this revision built side by side: bench signature, speed, EPD solved and lost"}},
      {"ctest", {"C++ tests", "the engine and harness unit and property tests"}},
      {"pytest", {"Python tests", "the Python reference's tests"}},
      {"mutants", {"Planted defects", "every check fails on the defect planted for it"}},
      {"mutation", {"Mutation score", "generated mutants the tests kill"}},
  };
  return info;
}

const Figure* find(const RunRow& r, const std::string& name) { return find_figure(r, name); }

// The figure's name within its run: "p99", "lmr.rate".
std::string name_of(const RunRow& r, const Figure& f) {
  return f.key.substr(r.harness.size() + r.config.size() + 2);
}

std::string after_colon(const std::string& label) {
  const auto c = label.find(": ");
  return c == std::string::npos ? label : label.substr(c + 2);
}

std::string before_colon(const std::string& label) { return label.substr(0, label.find(": ")); }

// A value cell, marked when it moved beyond its noise since the previous run.
std::string cell(const Figure& f, const PageContext& ctx) {
  std::string mark;
  if (ctx.previous)
    for (const Change& c : ctx.previous->changes)
      if (c.figure.key == f.key && c.beyond_noise)
        mark = fmt::format(" <small class=\"{}\">({:+.{}f})</small>",
                           c.direction > 0   ? "better"
                           : c.direction < 0 ? "worse"
                                             : "either",
                           c.delta, f.digits);
  return "<td>" + figure_span(f) + mark + "</td>";
}

// One row per configuration: outcome, testcases, the figure it turns on, its scalar figures.
std::string config_table(const std::vector<const RunRow*>& runs, const PageContext& ctx) {
  std::vector<std::string> names, labels;
  for (const RunRow* r : runs)
    for (const Figure& f : r->figures)
      if (const std::string n = name_of(*r, f);
          n.find('.') == std::string::npos &&
          std::find(names.begin(), names.end(), n) == names.end())
        names.push_back(n), labels.push_back(f.label);
  const bool any_failing = std::any_of(runs.begin(), runs.end(),
                                       [](const RunRow* r) { return !r->failing.empty(); });
  std::string s =
      "<div class=\"scroll\"><table class=\"configs\"><tr><th class=\"l\">configuration</th><th class=\"l\">outcome</th>"
      "<th>testcases passed</th>";
  for (const std::string& l : labels) s += "<th>" + html_escape(l) + "</th>";
  s += std::string(any_failing ? "<th class=\"l\">failing testcases</th>" : "") +
       "<th class=\"l\">raw</th></tr>\n";
  for (const RunRow* r : runs) {
    const std::string outcome = run_outcome(*r);
    const int passed = r->tests - r->failures - r->errors - r->skipped;
    s += fmt::format(
        "<tr class=\"run {}\" id=\"run-{}\" data-junit=\"{}\"><td class=\"l\">{}</td>"
        "<td class=\"l outcome {}\">{}</td><td class=\"counts\" data-tests=\"{}\" data-passed=\"{}\" "
        "data-failures=\"{}\" data-errors=\"{}\" data-skipped=\"{}\">{} of {}</td>",
        outcome == "passed" ? "ok" : "bad", html_escape(r->harness + "-" + r->config),
        html_escape(r->junit), html_escape(r->config.empty() ? r->harness : r->config), outcome,
        outcome, r->tests, passed, r->failures, r->errors, r->skipped, passed, r->tests);
    for (const std::string& n : names) {
      const Figure* f = find(*r, n);
      s += f ? cell(*f, ctx) : "<td>-</td>";
    }
    if (any_failing) {
      std::string links;
      for (const FailingCase& f : r->failing)
        links += fmt::format("<a href=\"#{}\">{}: {}</a><br>", f.anchor, f.kind,
                             html_escape(f.classname + " / " + f.name));
      s += "<td class=\"l\">" + links + "</td>";
    }
    std::string raw = report_link(ctx, r->junit, "JUnit");
    if (!r->summary.empty()) raw += " · " + report_link(ctx, r->summary, "JSON");
    s += "<td class=\"l links\">" + raw + "</td></tr>\n";
  }
  return s + "</table></div>\n";
}

// The gate of an item: every testcase named "<item> ..." (shadow.excess "lmr depth 1-3=0.3").
std::string item_gate(const RunRow& r, const std::string& item) {
  int n = 0, bad = 0;
  for (const CaseResult& c : r.cases)
    if (c.name == item || c.name.starts_with(item + " "))
      ++n, bad += c.outcome == "failure" || c.outcome == "error";
  if (!n) return "";
  return bad ? fmt::format("<span class=\"outcome failure\">{} of {} gates failed</span>", bad, n)
         : n == 1 ? std::string("<span class=\"outcome passed\">its gate passed</span>")
                  : fmt::format("<span class=\"outcome passed\">all {} gates passed</span>", n);
}

// Items whose fields differ (accumulator checks count different things): one row per item, its
// figures as "label value" pairs.
std::string sparse_item_table(const RunRow& r, const std::vector<std::string>& items,
                              const std::vector<std::string>& labels, const PageContext& ctx) {
  std::string s = fmt::format(
      "<div class=\"scroll\"><table class=\"items\" id=\"items-{}\"><tr><th class=\"l\">check</th>"
      "<th class=\"l\">figures</th></tr>\n",
      html_escape(r.harness + "-" + r.config));
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string pairs;
    for (const Figure& f : r.figures)
      if (name_of(r, f).starts_with(items[i] + ".")) {
        const std::string c = cell(f, ctx);
        pairs += (pairs.empty() ? "" : " · ") + html_escape(after_colon(f.label)) + " " +
                 c.substr(4, c.size() - 9);  // the cell's content, without <td></td>
      }
    s += "<tr><td class=\"l\">" + html_escape(labels[i]) + "</td><td class=\"l\">" + pairs +
         "</td></tr>\n";
  }
  return s + "</table></div>\n";
}

// Items as rows, fields as columns; "x", "x_lo", "x_hi" share one cell "x [lo, hi]".
std::string item_table(const RunRow& r, const PageContext& ctx) {
  std::vector<std::string> items, item_labels, fields, field_labels;
  for (const Figure& f : r.figures) {
    const std::string n = name_of(r, f);
    const auto dot = n.rfind('.');
    if (dot == std::string::npos) continue;
    const std::string item = n.substr(0, dot), field = n.substr(dot + 1);
    if (std::find(items.begin(), items.end(), item) == items.end())
      items.push_back(item), item_labels.push_back(before_colon(f.label));
    const bool bound = field.ends_with("_lo") || field.ends_with("_hi");
    if (!bound && std::find(fields.begin(), fields.end(), field) == fields.end())
      fields.push_back(field), field_labels.push_back(after_colon(f.label));
  }
  if (items.empty()) return "";
  std::size_t filled = 0;
  for (const std::string& item : items)
    for (const std::string& field : fields) filled += find(r, item + "." + field) != nullptr;
  if (fields.size() > 4 && filled * 10 < items.size() * fields.size() * 6)
    return sparse_item_table(r, items, item_labels, ctx);
  bool gates = false;
  for (const std::string& item : items) gates = gates || !item_gate(r, item).empty();
  std::string s = fmt::format(
      "<div class=\"scroll\"><table class=\"items\" id=\"items-{}\"><tr><th class=\"l\"></th>",
      html_escape(r.harness + "-" + r.config));
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const bool interval = find(r, items[0] + "." + fields[i] + "_lo") != nullptr;
    s += "<th>" + html_escape(field_labels[i]) + (interval ? " [95% interval]" : "") + "</th>";
  }
  if (gates) s += "<th class=\"l\">gate</th>";
  s += "</tr>\n";
  for (std::size_t i = 0; i < items.size(); ++i) {
    s += "<tr><td class=\"l\">" + html_escape(item_labels[i]) + "</td>";
    for (const std::string& field : fields) {
      const Figure* f = find(r, items[i] + "." + field);
      const Figure *lo = find(r, items[i] + "." + field + "_lo"),
                   *hi = find(r, items[i] + "." + field + "_hi");
      if (!f) {
        s += "<td>-</td>";
        continue;
      }
      std::string c = cell(*f, ctx);
      if (lo && hi) c.insert(c.size() - 5, " [" + figure_span(*lo) + ", " + figure_span(*hi) + "]");
      s += c;
    }
    if (gates) s += "<td class=\"l\">" + item_gate(r, items[i]) + "</td>";
    s += "</tr>\n";
  }
  return s + "</table></div>\n";
}

// The plots the harness drew beside its summary (matplotlib: the one plotting path).
std::string charts(const RunRow& r, const ReviewData& d, const PageContext& ctx) {
  if (r.summary.empty()) return "";
  const std::string dir = r.summary.substr(0, r.summary.rfind('/') + 1);
  const std::string stem = r.summary.substr(dir.size(), r.summary.size() - dir.size() - 5);
  std::string s;
  for (const std::string& file : d.files)
    if (file.starts_with(dir) && (file.ends_with(".png") || file.ends_with(".svg")) &&
        (file.starts_with(dir + stem) || r.harness == "calibration"))
      s += fmt::format(
          "<figure><a href=\"{0}\"><img class=\"chart\" src=\"{0}\" alt=\"{1} chart: {2}\"></a>"
          "<figcaption class=\"meta\">{2}</figcaption></figure>\n",
          html_escape(ctx.link_prefix + file), html_escape(r.harness), html_escape(file));
  return s;
}

std::string section(const std::string& harness, const std::vector<const RunRow*>& runs,
                    const ReviewData& d, const PageContext& ctx) {
  const auto info = harness_info().find(harness);
  const std::string title = info == harness_info().end() ? harness : info->second.title;
  std::string s = fmt::format("<section class=\"harness\" id=\"h-{}\"><h2>{}</h2>\n",
                              html_escape(harness), html_escape(title));
  if (info != harness_info().end())
    s += "<p class=\"what\">Proves: " + html_escape(info->second.proves) + ".</p>\n";
  s += config_table(runs, ctx);
  if (is_mutant_report(harness))
    return s + "<p>Per module and per survivor: <a href=\"#mutants\">Mutants</a>.</p></section>\n";
  for (const RunRow* r : runs) {
    std::string body;
    for (const std::string& n : r->notes) body += "<p class=\"note\">" + html_escape(n) + "</p>\n";
    body += item_table(*r, ctx) + charts(*r, d, ctx);
    if (!body.empty())
      s += fmt::format("<h3>{}</h3>\n", html_escape(title + ": " + r->config)) + body;
  }
  if (harness == "calibration") s += calibration_tables(d, ctx);
  return s + "</section>\n";
}

}  // namespace

std::string harness_sections(const ReviewData& d, const PageContext& ctx,
                             const std::vector<std::string>& order) {
  std::string s;
  for (const std::string& h : order) {
    std::vector<const RunRow*> runs;
    for (const RunRow& r : d.runs)
      if (r.harness == h) runs.push_back(&r);
    if (!runs.empty()) s += section(h, runs, d, ctx);
  }
  return s;
}

}  // namespace stk::harness::review
