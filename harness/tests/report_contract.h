// The contract every stk-harness run keeps between its exit status and the reports it leaves
// (docs/reports.md "Exit status and report files", docs/report-schema.md), checked from outside
// on every harness run a test starts through run_command (cli_support.h). Written from the docs,
// not from the writer: an exit status computed apart from the testcases it reports, an envelope
// whose counts drift from its JUnit file, a suite named for another harness, all fail whichever
// test happened to run the command.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace stk::test {

// What a file was before a run: a report is the run's own when it appeared or changed (the
// writers replace a file by renaming a new one over it: another inode). No clock is compared: the
// kernel stamps files from a coarse clock that can lag behind the one a test reads.
struct FileIdentity {
  std::uintmax_t inode = 0, size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

// A harness command line's report contract, taken before it runs (the state of the files it may
// write) and checked after (`violation`).
// The first figure printed as "nan" or "inf" in `text` with its surroundings, or "".
std::string non_finite_figure(const std::string& text);
// The first `stk-harness NAME: REASON` line whose reason is a library exception's own words (an
// unchecked std::stoi, .at() or json::get reached by bad input), with its surroundings, or "":
// such a run ends in exit 2 like a refusal but names neither the file nor the rule it broke
// (docs/reports.md).
std::string library_exception_text(const std::string& text);

class RunContract {
 public:
  // The JUnit files the command names: each `--junit PATH`, and every `*.xml` under
  // `--out-dir DIR/junit`. Words as /bin/sh splits them (proc::split_words).
  explicit RunContract(const std::string& command);

  // "" when the run kept the contract, else what broke it, naming the file. Over the reports
  // this run wrote (new or changed):
  // - exit 0: none records a failure or an error, and every --junit report was written;
  // - exit 1: every --junit report was written, and one records a failure or an error;
  // - each report's root counts are the sums of its suites', each suite's those of its testcases;
  // - a JSON summary written beside it (D/<harness>/<config>.json for D/junit/<harness>-<config>.xml)
  //   links back to it, states its counts and `passed`, and names the harness of every suite
  //   (`<harness>.<...>`) and the classname of every testcase;
  // - every testcase has a name and a classname, no two the same pair; every `input.<name>`
  //   property of an option the command gave holds a value it gave (docs/report-schema.md);
  // - every interval a report states runs low end first (`[A, B]` in its JUnit text and on its
  //   summary's Markdown page; `lo`/`hi`, `low`/`high`, `min`/`median`/`max`, `X_min`/
  //   `X_median`/`X_max` in its JSON);
  // - every property and JSON key has a name; no testcase time is negative or, for a command
  //   that runs what it reports, longer than the run (report-schema.md#names, #times);
  // - a stk-harness report's suite properties are its harness's row of "Suite properties by
  //   harness" (report-schema.md): no other name, every name it always writes, `<K>` in order.
  // Exit 2 (usage, input or write failure) and other statuses are left to the tests causing them.
  std::string violation(int exit_code) const;

 private:
  std::vector<std::string> words_;                        // the command line, split
  std::vector<std::filesystem::path> named_junit_;        // --junit paths
  std::vector<std::filesystem::path> out_dirs_;           // --out-dir folders
  std::map<std::filesystem::path, FileIdentity> before_;  // reports and summaries before the run
  std::chrono::steady_clock::time_point started_;         // taken just before the run

  std::vector<std::filesystem::path> candidates() const;  // files the run may have written
  bool written(const std::filesystem::path& file) const;
};

}  // namespace stk::test
