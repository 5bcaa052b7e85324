#include "report/run_report.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "io/input_file.h"
#include "cli/cli.h"
#include "cli/file_names.h"
#include "io/output_file.h"

namespace stk::report {

namespace fs = std::filesystem;
using harness::InputError;

// The names become file names: checked (cli/file_names.h), and the files they make stay under out_dir.
std::string junit_path(const std::string& out_dir, const std::string& harness,
                       const std::string& config) {
  harness::require_safe_name("harness", harness);
  harness::require_safe_name("--config", config);
  std::string path = out_dir + "/junit/" + harness + "-" + config + ".xml";
  harness::require_under_out_dir(out_dir, path);
  return path;
}

ReportPaths report_paths(const std::string& out_dir, const std::string& harness,
                         const std::string& config) {
  const std::string junit = junit_path(out_dir, harness, config);
  const std::string stem = out_dir + "/" + harness + "/" + config;
  harness::require_under_out_dir(out_dir, stem + ".json");
  return {junit, stem + ".json", stem + ".md"};
}

int RunReport::count(junit::Outcome o) const {
  int n = 0;
  for (const junit::TestSuite& s : suites) n += s.count(o);
  return n;
}

int RunReport::tests() const {
  int n = 0;
  for (const junit::TestSuite& s : suites) n += int(s.cases.size());
  return n;
}

Json envelope(const RunReport& run, const std::string& junit_file) {
  using junit::Outcome;
  Json e = Json::object();
  e["schema"] = kSchema;
  e["harness"] = run.harness;
  e["config"] = run.config;
  e["junit"] = junit_file;
  e["tests"] = run.tests();
  e["failures"] = run.count(Outcome::Failed);
  e["errors"] = run.count(Outcome::Error);
  e["skipped"] = run.count(Outcome::Skipped);
  e["passed"] = run.passed();
  e["plots"] = run.plots;
  return e;
}

namespace {

// The path ("a.b[2]") of the first object key in `j` that is empty, "" when there is none.
std::string empty_key_path(const Json& j, const std::string& at) {
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string here = at.empty() ? it.key() : at + "." + it.key();
      if (it.key().empty()) return at.empty() ? "(top level)" : at;
      if (std::string found = empty_key_path(it.value(), here); !found.empty()) return found;
    }
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i)
      if (std::string found = empty_key_path(j[i], fmt::format("{}[{}]", at, i)); !found.empty())
        return found;
  return "";
}

}  // namespace

std::string to_json_text(const RunReport& run, const std::string& junit_file) {
  if (std::string at = empty_key_path(run.figures, ""); !at.empty())
    throw InputError(run.harness + ": a figure with no name under " + at);
  Json doc = Json::object();
  doc["report"] = envelope(run, junit_file);
  for (auto it = run.figures.begin(); it != run.figures.end(); ++it) {
    if (it.key() == "report")
      throw InputError(run.harness + ": the figure key 'report' is reserved for the envelope");
    doc[it.key()] = it.value();
  }
  // error_handler::replace: a figure carrying bytes that are not UTF-8 is written with U+FFFD
  // instead of aborting the report.
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string to_markdown(const RunReport& run, const std::string& junit_file) {
  using junit::Outcome;
  std::string md = fmt::format("# {} ({})\n\n", run.harness, run.config);
  md += fmt::format("**{}**: {} tests, {} failures, {} errors, {} skipped ([JUnit]({}))\n\n",
                    run.passed() ? "passed" : "FAILED", run.tests(), run.count(Outcome::Failed),
                    run.count(Outcome::Error), run.count(Outcome::Skipped), junit_file);
  std::string failing;
  for (const junit::TestSuite& s : run.suites)
    for (const junit::TestCase& c : s.cases)
      if (c.outcome == Outcome::Failed || c.outcome == Outcome::Error)
        failing += fmt::format("- {} `{}` / `{}`: {}\n",
                               c.outcome == Outcome::Failed ? "failure" : "error", c.classname,
                               c.name, c.message);
  if (!failing.empty()) md += "## Failing testcases\n\n" + failing + "\n";
  md += run.markdown;
  if (!run.markdown.empty() && run.markdown.back() != '\n') md += "\n";
  if (!run.plots.empty()) {
    md += "\n## Plots\n\n";
    for (const std::string& p : run.plots)
      md += fmt::format("![{}]({})\n", fs::path(p).filename().string(), p);
  }
  return md;
}

namespace {

void write_atomically(const std::string& path, const std::string& content) {
  harness::io::replace_file(path, content);
}

// `target` as linked from a file in `from_dir`: relative when both lie on one tree.
std::string link_from(const std::string& from_dir, const std::string& target) {
  std::error_code ec;
  fs::path rel = fs::relative(fs::absolute(target), fs::absolute(from_dir), ec);
  return ec || rel.empty() ? target : rel.generic_string();
}

}  // namespace

void write_run_report(const RunReport& run, const ReportPaths& paths) {
  std::string err;
  if (!junit::write_report(paths.junit, run.suites, &err)) throw InputError(err);
  const std::string summary_dir = fs::path(paths.json).parent_path().string();
  const std::string junit_link = link_from(summary_dir.empty() ? "." : summary_dir, paths.junit);
  write_atomically(paths.json, to_json_text(run, junit_link));
  write_atomically(paths.markdown, to_markdown(run, junit_link));
}

void write_run_report(const RunReport& run, const std::string& out_dir) {
  write_run_report(run, report_paths(out_dir, run.harness, run.config));
}

Json parse_json_text(const std::string& text, const std::string& origin) {
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based: the byte at which parsing stopped.
    std::string what = e.what();
    if (auto colon = what.rfind(": "); colon != std::string::npos) what = what.substr(colon + 2);
    throw InputError(fmt::format("{}: byte {}: {}", origin, e.byte, what));
  }
}

Json read_json_file(const std::string& path) {
  return parse_json_text(harness::io::read_input_file(path), path);
}

}  // namespace stk::report
