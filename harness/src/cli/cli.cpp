#include "cli/cli.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>

#include "io/input_file.h"
#include "io/output_file.h"
#include "report/junit.h"
#include "report/report_paths.h"

namespace stk::harness {

Shard parse_shard(const std::string& text) {
  Shard s;
  auto slash = text.find('/');
  try {
    // K and N are decimal digits only: std::stoi alone would take " 1" and "+1" too.
    if (slash == std::string::npos || text.find_first_not_of("0123456789/") != std::string::npos)
      throw 0;
    std::size_t p1 = 0, p2 = 0;
    s.index = std::stoi(text.substr(0, slash), &p1);
    s.count = std::stoi(text.substr(slash + 1), &p2);
    if (p1 != slash || p2 != text.size() - slash - 1) throw 0;
  } catch (...) {
    throw UsageError("--shard must be K/N, got '" + text + "'");
  }
  if (s.count < 1 || s.index < 1 || s.index > s.count)
    throw UsageError("--shard K/N needs 1 <= K <= N, got '" + text + "'");
  return s;
}

namespace {

struct DeclaredReport {
  std::string path, suite_name;
};
std::vector<DeclaredReport>& declared_reports() {
  static std::vector<DeclaredReport> reports;
  return reports;
}
// The interruption watcher (io/interruption.h) writes the reports from its own thread.
std::timed_mutex& declared_reports_mutex() {
  static std::timed_mutex m;
  return m;
}

// The report of a run that could not run or finish: one <error> testcase in class
// "<harness>.input"; `message` says which ("usage or input error: the harness did not run").
junit::TestSuite input_error_suite(const std::string& suite_name, const std::string& why,
                                   const std::string& message) {
  junit::TestSuite suite;
  suite.name = suite_name;
  suite.property("exit_status", "2");
  junit::add_build_properties(suite);
  junit::TestCase tc;
  tc.classname = suite_name.substr(0, suite_name.find('.')) + ".input";
  tc.name = "inputs";
  tc.outcome = junit::Outcome::Error;
  tc.message = message;
  tc.detail = why;
  suite.cases.push_back(std::move(tc));
  return suite;
}

}  // namespace

void declare_report(const std::string& junit_path, const std::string& suite_name) {
  // Refused now, before the run's work: a device, FIFO or directory named as the report, or a place
  // it cannot be written, is left as it is and named (io/output_file.h).
  io::require_writable_target(junit_path);
  std::error_code ec;
  if (std::filesystem::is_regular_file(std::filesystem::symlink_status(junit_path, ec)))
    std::filesystem::remove(junit_path, ec);
  std::lock_guard lock(declared_reports_mutex());
  declared_reports().push_back({junit_path, suite_name});
}

void declare_report(const report::ReportPaths& paths, const std::string& suite_name) {
  declare_report(paths.junit, suite_name);  // first: a refusal of the others is reported there
  io::require_writable_target(paths.json);
  io::require_writable_target(paths.markdown);
}

void write_error_reports(const std::string& name, const std::string& why,
                         const std::string& message) {
  // Bounded: a run interrupted while its main thread writes these reports must still end.
  std::unique_lock lock(declared_reports_mutex(), std::defer_lock);
  if (!lock.try_lock_for(std::chrono::seconds(5))) return;
  for (const DeclaredReport& r : declared_reports()) {
    std::string err;
    if (junit::write_report(r.path, {input_error_suite(r.suite_name, why, message)}, &err))
      std::cerr << name << ": error report " << r.path << "\n";
    else {
      // This run may have written a passing report there before it failed: none is better than that.
      std::error_code ec;
      if (std::filesystem::is_regular_file(std::filesystem::symlink_status(r.path, ec)))
        std::filesystem::remove(r.path, ec);
      std::cerr << name << ": no error report could be written: " << err << "\n";
    }
  }
  declared_reports().clear();
}

int input_failure(const char* name, const char* usage) {
  std::string why;
  try {
    throw;
  } catch (const UsageError& e) {
    why = e.what();
    std::cerr << name << ": " << why << "\n" << (usage ? usage : "");
  } catch (const std::exception& e) {
    why = e.what();
    std::cerr << name << ": " << why << "\n";
  } catch (...) {
    why = "unknown error";
    std::cerr << name << ": " << why << "\n";
  }
  write_error_reports(name, why, "usage or input error: the harness did not run");
  return 2;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::istringstream in(io::read_input_file(path));
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  return lines;
}

std::string shared_dir() {
  if (const char* env = std::getenv("STK_SHARED"); env && *env) return env;
  return "../shared";
}

}  // namespace stk::harness
