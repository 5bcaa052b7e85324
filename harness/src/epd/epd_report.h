// Turns EPD results into the harness's reports and gate verdict: JUnit XML, JSON and Markdown.
// Shared by `epd`, `merge` and `epd-compare`, so a merged run reports exactly like an unsharded one.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "epd/epd_results.h"

namespace stk::harness::epd {

struct Published {
  int exit_code = 0;    // 0 every gate passed, 1 a regression, an engine error or min-solved missed
  std::string summary;  // a few lines for the console
  std::string junit_path, json_path, md_path;
};

// Declares reports/junit/epd-<stem>.xml under `out_dir` (common/cli declare_report), suite "epd.<stem>".
void declare_junit_report(const std::string& out_dir, const std::string& stem);

// Judges `run` against `baseline` (may be null) and run.meta.min_solved (checked only on a
// complete run, shard 1/1), then writes reports/junit/epd-<stem>.xml and reports/epd/<stem>.json
// and .md under `out_dir` (report::write_run_report: the JSON is the results after the envelope).
// `properties` (inputs as given) go first into <properties>.
Published publish(const RunResults& run, const RunResults* baseline,
                  const std::vector<std::pair<std::string, std::string>>& properties,
                  const std::string& out_dir, const std::string& stem);

}  // namespace stk::harness::epd
