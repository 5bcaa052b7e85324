// stk-harness review [--reports DIR] [--baseline-calibration F.json] [--out F] [--history-db F]
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "commands.h"
#include "common/cli.h"
#include "common/cli_app.h"
#include "report/build_info.h"
#include "report/summary_files.h"
#include "review/review.h"
#include "review/review_inputs.h"
#include "review/review_page.h"

namespace stk::harness {

namespace review {

int write_review_page(const ReviewOptions& o, std::ostream& log) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(o.reports)) throw InputError(o.reports + ": not a directory (no reports to review)");
  const std::string out = o.out.empty() ? o.reports + "/index.html" : o.out;
  ReviewData data = read_reports(o.reports, o.baseline_calibration);
  PageContext ctx;
  ctx.revision = build_info::git_revision();
  // Links are relative to the page's folder, so the page works wherever the reports are copied.
  const fs::path page_dir = fs::absolute(out).parent_path();
  std::string prefix = fs::absolute(o.reports).lexically_normal().lexically_relative(page_dir.lexically_normal()).generic_string();
  ctx.link_prefix = prefix == "." || prefix.empty() ? "" : prefix + "/";
  write_text_file(out, render_page(data, ctx));
  const int problems = data.problem_count();
  log << fmt::format("review: {} ({} runs, {} summary files, {} input problems)\n", out, data.runs.size(), data.files.size(),
                     problems);
  for (const std::string& p : data.problems) log << "review: " << p << "\n";
  for (const RunRow& r : data.runs)
    for (const std::string& p : r.problems) log << "review: " << p << "\n";
  return problems ? 1 : 0;
}

}  // namespace review

int run_review(int argc, char** argv) {
  CLI::App app{"The static review page over a reports directory: one row per JUnit file with its counts and\n"
               "failing testcases, each harness's headline figures, the calibration gates, the history.\n"
               "Exit 0: every input read; 1: a JUnit or JSON file missing or malformed (the page names it);\n"
               "2: usage, or the page could not be written.",
               "stk-harness review"};
  review::ReviewOptions o;
  app.add_option("--reports", o.reports, "reports directory")->capture_default_str();
  app.add_option("--baseline-calibration", o.baseline_calibration, "a previous calibration.json: change of every gate margin");
  app.add_option("--out", o.out, "the page (default <reports>/index.html)");
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    return review::write_review_page(o, std::cout);
  } catch (...) {
    return input_failure("stk-harness review");
  }
}

}  // namespace stk::harness
