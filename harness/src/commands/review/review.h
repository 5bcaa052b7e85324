// stk-harness review: the static review page (reports/index.html) over a reports directory.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

namespace stk::harness::review {

struct ReviewOptions {
  std::string reports = "reports";
  std::string baseline_calibration;  // a previous calibration.json: the change of every gate margin
  std::string out;                   // default <reports>/index.html
  std::string history_db;  // compared with when it exists; default <reports>/history.sqlite
  std::optional<long long> current_run;  // this run's id in the history (not compared with itself)
  std::string base_revision;  // a pre-merge run: also compare with the base revision's latest run
  std::string markdown;       // also write the pull-request summary here ("" for none)
};

// Writes the page. Returns 0 when every input was read, 1 when some JUnit or JSON file was
// missing or malformed (the page is still written and names each; they are printed to `log`).
// Throws InputError when the page itself cannot be written.
int write_review_page(const ReviewOptions& options, std::ostream& log);

// Appends the headline figures now under `reports` to the history database `db` as one run of
// `tier`, in one transaction. Returns 0, or 1 when an input was missing or malformed (what was
// read is appended); throws InputError naming the database when it is not usable (nothing appended).
int record_history(const std::string& reports, const std::string& db, const std::string& tier,
                   std::ostream& log, long long* run_id = nullptr);

}  // namespace stk::harness::review
