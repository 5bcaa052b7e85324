// What every harness command shares: its error kinds and exit-status contract, --shard, owed
// reports, line reading. Options are parsed with CLI11 (common/cli_app.h).
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace stk::report {
struct ReportPaths;
}

namespace stk::harness {

// A usage error: the harness prints it and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// An input error (unreadable file, malformed line): printed, exit 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "--shard K/N": this run takes items i with i % N == K-1 (1-based K).
struct Shard {
  int index = 1;
  int count = 1;
  bool takes(std::size_t item) const { return int(item % std::size_t(count)) == index - 1; }
  std::string label() const { return std::to_string(index) + "/" + std::to_string(count); }
};
Shard parse_shard(const std::string& text);

// Declares a JUnit report this run owes, as soon as its path is known (before the inputs are
// checked): any previous regular file there is removed at once, and input_failure replaces it by a
// report whose one testcase is an <error> with the reason, so a failed run never leaves an old
// passing report behind; when even that cannot be written, stderr says "no error report could be
// written: PATH: why" and no file is left at PATH. A device, FIFO or directory at the path is left
// alone and refused here, before the run's work, as is a place where the file cannot be written
// (io::require_writable_target; InputError naming it: call inside the harness's try). `suite_name` is "<harness>.<config>". A run may owe several reports.
void declare_report(const std::string& junit_path, const std::string& suite_name);
// The same for a run that writes the three files of report/run_report.h: the summaries' places are
// checked too (io::require_writable_target), since --junit may lie elsewhere than --out-dir.
void declare_report(const report::ReportPaths& paths, const std::string& suite_name);

// For a harness's outermost catch (...): prints the exception in flight as "<name>: <what>"
// (plus `usage` for a UsageError), writes the <error> report to every declared path, and
// returns exit status 2 (usage or input error).
int input_failure(const char* name, const char* usage = nullptr);

// Replaces every declared report by its <error> report (`why` in the detail, `message` as the
// testcase's message), or removes it when that cannot be written; the run then owes none.
void write_error_reports(const std::string& name, const std::string& why,
                         const std::string& message);

// Reads a whole text file into lines; throws InputError naming the file if unreadable.
std::vector<std::string> read_lines(const std::string& path);

// Root of the shared data (suites, schemas): $STK_SHARED, else ../shared beside the repository.
std::string shared_dir();

}  // namespace stk::harness
