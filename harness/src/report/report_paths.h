// Where a run's three report files go (report/run_report.h writes them):
//   <out_dir>/junit/<harness>-<config>.xml, <out_dir>/<harness>/<config>.{json,md}.
// Its own header: code that only names the places (cli's declare_report) needs no JSON library.
#pragma once

#include <string>

namespace stk::report {

struct ReportPaths {
  std::string junit;
  std::string json;
  std::string markdown;
};

// The JUnit file of a run: <out_dir>/junit/<harness>-<config>.xml. `harness` and `config` must be
// names, not paths (cli/file_names.h: UsageError otherwise); the file must lie under out_dir.
std::string junit_path(const std::string& out_dir, const std::string& harness,
                       const std::string& config);
// All three paths of a run; the summaries go to <out_dir>/<harness>/<config>.{json,md}.
ReportPaths report_paths(const std::string& out_dir, const std::string& harness,
                         const std::string& config);

}  // namespace stk::report
