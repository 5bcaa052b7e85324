#include "commands/review/review_markdown.h"

#include <fmt/format.h>

#include "commands/review/review_verdict.h"

namespace stk::harness::review {

namespace {

// Table cells: a '|' would end the cell and a newline the row.
std::string md_cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out.size() > 160 ? out.substr(0, 157) + "..." : out;
}

std::string more(std::size_t shown, std::size_t total) {
  return total > shown ? fmt::format("\n_... and {} more (see the review page)_\n", total - shown)
                       : "";
}

std::string comparison_lines(const Comparison& cmp) {
  if (!cmp.run_id) return fmt::format("No {} in the history to compare with.\n", cmp.against);
  const auto notable = cmp.notable();
  std::string s = fmt::format(
      "Against the {} (run {}, revision `{}`, {}): {} changed beyond noise.\n", cmp.against,
      *cmp.run_id, md_cell(cmp.run.revision), cmp.run.date, notable.size());
  if (notable.empty()) return s;
  s += "\n| | figure | now | was | change |\n|---|---|--:|--:|--:|\n";
  std::size_t n = 0;
  for (const Change* c : notable) {
    if (n++ == std::size_t(kMarkdownItems)) break;
    const int d = c->figure.digits;
    s += fmt::format("| {} | {} | {:.{}f} | {:.{}f} | {:+.{}f} |\n",
                     c->direction > 0   ? "better"
                     : c->direction < 0 ? "**worse**"
                                        : "changed",
                     md_cell(c->figure.label), c->figure.value, d, *c->earlier, d, c->delta, d);
  }
  return s + more(std::min<std::size_t>(n, kMarkdownItems), notable.size());
}

}  // namespace

std::string render_markdown(const ReviewData& d, const PageContext& ctx) {
  const Verdict v = verdict_of(d);
  const int steps = int(v.steps.size());
  const int passed = v.count("passed") + v.count("skipped");
  std::string s = fmt::format("## stk review: {}\n\n{} of {} steps passed",
                              v.overall == "passed" ? "passed" : "**" + v.overall + "**", passed,
                              steps);
  if (ctx.previous && ctx.previous->run_id)
    s += fmt::format("; {} figures worse than the previous run", ctx.previous->worse());
  s += fmt::format(" (revision `{}`).\n\n", md_cell(ctx.revision));
  if (passed < steps) {
    s += "| outcome | step | the figure it turns on |\n|---|---|---|\n";
    int n = 0;
    for (const StepLine& line : v.steps)
      if (line.outcome != "passed" && line.outcome != "skipped" && n++ < kMarkdownItems)
        s += fmt::format("| **{}** | {} | {} |\n", line.outcome, md_cell(line.name),
                         md_cell(line.decisive));
    s += more(std::min(n, kMarkdownItems), std::size_t(n)) + "\n";
  }
  s += "### What changed\n\n";
  if (ctx.base) s += comparison_lines(*ctx.base) + "\n";
  s += ctx.previous ? comparison_lines(*ctx.previous) : "No history database.\n";
  std::vector<std::pair<const RunRow*, const FailingCase*>> failing;
  for (const RunRow& r : d.runs)
    for (const FailingCase& f : r.failing) failing.push_back({&r, &f});
  if (!failing.empty()) {
    s += "\n### Failing testcases\n\n";
    for (std::size_t i = 0; i < failing.size() && i < std::size_t(kMarkdownItems); ++i)
      s += fmt::format("- **{}** `{} / {}` ({}): {}\n", failing[i].second->kind,
                       md_cell(failing[i].second->classname), md_cell(failing[i].second->name),
                       md_cell(failing[i].first->junit), md_cell(failing[i].second->message));
    s += more(std::min<std::size_t>(failing.size(), kMarkdownItems), failing.size());
  }
  if (d.problem_count())
    s += fmt::format("\n{} input problems: see the review page.\n", d.problem_count());
  return s;
}

}  // namespace stk::harness::review
