// stk-harness review [--reports DIR] [--baseline-calibration F.json] [--out F] [--history-db F]
//                    [--base-revision REV] [--markdown F]
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "report/build_info.h"
#include "report/summary_files.h"
#include "commands/history/history.h"
#include "commands/review/review.h"
#include "commands/review/review_inputs.h"
#include "commands/review/review_markdown.h"
#include "commands/review/review_page.h"

namespace stk::harness {

namespace review {

std::vector<Figure> all_figures(const ReviewData& data) {
  std::vector<Figure> out;
  for (const RunRow& r : data.runs) out.insert(out.end(), r.figures.begin(), r.figures.end());
  return out;
}

int write_review_page(const ReviewOptions& o, std::ostream& log) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(o.reports, ec))
    throw InputError(o.reports + ": not a directory (no reports to review)");
  const std::string out = o.out.empty() ? o.reports + "/index.html" : o.out;
  ReviewData data = read_reports(o.reports, o.baseline_calibration);
  PageContext ctx;
  ctx.revision = build_info::git_revision();
  const std::string db = o.history_db.empty() ? o.reports + "/history.sqlite" : o.history_db;
  if (fs::exists(fs::symlink_status(db, ec))) {
    try {
      ctx.history = read_history(db);
      ctx.history_source = db;
      const std::vector<Figure> now = all_figures(data);
      const RunFacts here = current_run_facts("");
      ctx.previous = compare_with_history(now, ctx.history, o.current_run, here);
      if (!o.base_revision.empty())
        ctx.base = compare_with_history(now, ctx.history, o.current_run, here, o.base_revision);
    } catch (const InputError& e) {
      data.problems.push_back(e.what());
    }
  }
  // Links are relative to the page's folder, so the page works wherever the reports are copied.
  const fs::path page_dir = fs::absolute(out).parent_path();
  std::string prefix = fs::absolute(o.reports)
                           .lexically_normal()
                           .lexically_relative(page_dir.lexically_normal())
                           .generic_string();
  ctx.link_prefix = prefix == "." || prefix.empty() ? "" : prefix + "/";
  write_text_file(out, render_page(data, ctx));
  if (!o.markdown.empty()) write_text_file(o.markdown, render_markdown(data, ctx));
  const int problems = data.problem_count();
  log << fmt::format("review: {} ({} runs, {} summary files, {} input problems)\n", out,
                     data.runs.size(), data.files.size(), problems);
  for (const std::string& p : data.problems) log << "review: " << p << "\n";
  for (const RunRow& r : data.runs)
    for (const std::string& p : r.problems) log << "review: " << p << "\n";
  return problems ? 1 : 0;
}

int record_history(const std::string& reports, const std::string& db, const std::string& tier,
                   std::ostream& log, long long* run_id) {
  const ReviewData data = read_reports(reports, "");
  const std::vector<Figure> figures = all_figures(data);
  const long long id = append_history(db, current_run_facts(tier), figures);
  log << fmt::format("history: {} run {} ({} figures)\n", db, id, figures.size());
  if (run_id) *run_id = id;
  return data.problem_count() ? 1 : 0;
}

}  // namespace review

int run_review(int argc, char** argv) {
  CLI::App app{
      "The static review page over a reports directory: the verdict and one line per step first,\n"
      "what changed against the previous run (and the base revision), one designed table per\n"
      "harness, the failing testcases, the history. --markdown writes the pull-request summary.\n"
      "Exit 0: every input read; 1: a JUnit or JSON file missing or malformed (the page names it);\n"
      "2: usage, or the page could not be written.",
      "stk-harness review"};
  review::ReviewOptions o;
  app.add_option("--reports", o.reports, "reports directory")->capture_default_str();
  app.add_option("--baseline-calibration", o.baseline_calibration,
                 "a previous calibration.json: change of every gate margin");
  app.add_option("--out", o.out, "the page (default <reports>/index.html)");
  app.add_option("--history-db", o.history_db,
                 "history compared with (default <reports>/history.sqlite)");
  app.add_option("--base-revision", o.base_revision,
                 "also compare with the latest history run of this revision (a pre-merge base)");
  app.add_option("--markdown", o.markdown,
                 "also write the pull-request summary (GitHub-flavoured Markdown) here");
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    return review::write_review_page(o, std::cout);
  } catch (...) {
    return input_failure("stk-harness review");
  }
}

}  // namespace stk::harness
