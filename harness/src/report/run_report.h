// The one report model every harness fills: a run's JUnit suites (properties and testcases), its
// headline figures and its plot files. One writer turns it into the three files a run leaves:
//   reports/junit/<harness>-<config>.xml   (TinyXML2, the strict JUnit schema)
//   reports/<harness>/<config>.json        ({"report": envelope, ...figures}; docs/report-schema.md)
//   reports/<harness>/<config>.md          (outcome, failing testcases, the harness's own body, plots)
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/junit.h"
#include "report/report_paths.h"

namespace stk::report {

// Keys keep the order they were set in, so a report reads in the order the harness wrote it.
using Json = nlohmann::ordered_json;

inline constexpr const char* kSchema = "stk-report/1";

struct RunReport {
  RunReport(std::string harness_name, std::string config_name)
      : harness(std::move(harness_name)), config(std::move(config_name)) {}

  std::string harness;                   // "bench", "perft", ...
  std::string config;                    // "quick", "default", ...
  std::vector<junit::TestSuite> suites;  // usually one, named "<harness>.<config>"
  Json figures = Json::object();         // the harness's summary: the JSON's keys after "report"
  std::vector<std::string> plots;        // image files written beside the summary (paths as linked)
  std::string markdown;                  // the harness's own Markdown body (tables, notes)

  // Counts over every suite, as the JUnit file states them.
  int count(junit::Outcome o) const;
  int tests() const;
  bool passed() const {
    return count(junit::Outcome::Failed) == 0 && count(junit::Outcome::Error) == 0;
  }
};

// The exit status of a run whose report was built: 0 when it passed, else 1 (docs/reports.md).
// Commands return this rather than a flag of their own, so the status cannot disagree with the
// testcases the report records.
inline int exit_status(const RunReport& run) { return run.passed() ? 0 : 1; }

// {"schema", "harness", "config", "junit", "tests", "failures", "errors", "skipped", "passed", "plots"}:
// the envelope every summary JSON carries under "report". `junit_file` is written as given.
Json envelope(const RunReport& run, const std::string& junit_file);

// The JSON and Markdown texts the writer produces (exposed for tests).
std::string to_json_text(const RunReport& run, const std::string& junit_file);
std::string to_markdown(const RunReport& run, const std::string& junit_file);

// Writes the JUnit file, then the JSON, then the Markdown, each atomically (temporary + rename),
// creating folders. Throws harness::InputError naming the path when a file cannot be written or the
// JUnit report is refused (a duplicate testcase). The JSON/MD link the JUnit file relative to out_dir
// when `paths.junit` lies under it.
void write_run_report(const RunReport& run, const ReportPaths& paths);
void write_run_report(const RunReport& run, const std::string& out_dir);

// Reads a JSON file; throws harness::InputError "<path>: byte N: <reason>" when it is unreadable or
// malformed.
Json read_json_file(const std::string& path);
// Parses JSON text; `origin` names it in the error (a path, or "<string>").
Json parse_json_text(const std::string& text, const std::string& origin);

}  // namespace stk::report
