// What the review page shows, read from a reports directory: one row per JUnit file with its
// counts and failing testcases, the headline figures of the harness's JSON summary, and every
// problem met on the way (a missing or malformed file names itself and says why).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace stk::harness::review {

// Which way a figure should move (docs/review.md#what-changed).
enum class Better { either, higher, lower };

// How much a figure moves by itself between two runs of the same code: an exact figure (a count
// from seeded, single-threaded work) not at all, so any change is signal; a timing by its spread
// across the history's earlier runs.
enum class Noise { exact, timing };

// One number shown on the page, traceable to the JSON value it came from.
struct Figure {
  std::string key;    // stable id: "<harness>.<config>.<name>" (history rows use it too)
  std::string label;  // what it is, for people
  double value = 0.0;
  int digits = 0;       // decimals shown
  std::string source;   // JSON file, relative to the reports directory
  std::string pointer;  // JSON pointer into it ("" for a value computed from several fields)
  Better better = Better::either;
  Noise noise = Noise::exact;
};

// A testcase's result as a CI system reads it (failure and error children, else skipped).
struct CaseResult {
  std::string classname, name;
  std::string outcome;  // "passed", "failure", "error" or "skipped"
  std::vector<std::string>
      reports;  // a tier step's JUnit files ("reports: <file> ..." output line)
};

struct FailingCase {
  std::string classname, name, kind, message, detail;  // kind: "failure" or "error"
  std::string anchor;                                  // id of its entry on the page
};

struct RunRow {
  std::string junit;            // JUnit file, relative to the reports directory
  std::string harness, config;  // from the first testsuite's name "<harness>.<config>"
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  std::vector<FailingCase> failing;
  std::vector<CaseResult> cases;   // every testcase, in file order
  std::string summary;             // its JSON summary, relative ("" when the harness writes none)
  std::vector<Figure> figures;     // headline figures from the summary
  std::vector<std::string> notes;  // text headlines (regressions by name, verdicts, ...)
  std::string decisive;  // the figure its verdict turns on, in words ("0 of 96 counts differ")
  std::vector<std::string> problems;  // "<file>: <why>"
};

// A mutant report (reports/mutants/ or reports/mutation/, stkmutation.report's format).
struct MutantRun {
  std::string source;           // its JSON summary, relative to the reports directory
  std::string harness, config;  // "mutants" (planted defects) or "mutation" (generated)
  nlohmann::json summary;
};

struct ReviewData {
  std::string reports_dir;
  std::vector<RunRow> runs;                   // sorted by JUnit file name
  std::vector<std::string> files;             // every summary file (json/md/png/svg), relative
  std::vector<MutantRun> mutant_runs;         // in the order of their JUnit files
  std::optional<nlohmann::json> calibration;  // reports/calibration/calibration.json
  std::string calibration_source;
  std::optional<nlohmann::json> baseline_calibration;
  std::string baseline_source;
  std::vector<std::string> problems;  // problems that belong to no row
  int problem_count() const;
};

// Whether a harness's summary is a mutant report (ci/check-mutants.sh's or ci/mutation.sh's).
bool is_mutant_report(const std::string& harness);

// Reads everything under reports_dir (never throws on a bad file: each becomes a problem).
ReviewData read_reports(const std::string& reports_dir, const std::string& baseline_calibration);

// A key as one JSON pointer token ('~' -> "~0", '/' -> "~1": slice "alpha/d1-2").
std::string pointer_token(const std::string& key);

// Gate margin of a calibration slice or flagged population: tolerance minus its worst log-odds
// error (positive: passes with that much room). nullopt for a skipped one (n_eff below the tier's minimum).
std::optional<double> slice_margin(const nlohmann::json& cell, double tolerance, double min_neff);

}  // namespace stk::harness::review
