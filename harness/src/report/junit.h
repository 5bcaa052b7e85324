// JUnit XML reporting shared by every harness (one <testsuite> per harness run).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stk::junit {

enum class Outcome { Passed, Failed, Error, Skipped };
// "passed", "failed", "error", "skipped": as summaries and tables name an outcome.
constexpr const char* to_string(Outcome o) {
  return o == Outcome::Failed    ? "failed"
         : o == Outcome::Error   ? "error"
         : o == Outcome::Skipped ? "skipped"
                                 : "passed";
}

struct TestCase {
  std::string classname;  // "<harness>.<suite>"
  std::string name;       // position id or check name
  double time_s = 0.0;
  Outcome outcome = Outcome::Passed;
  std::string message;     // short reason for failure/error/skipped
  std::string detail;      // element text: expected vs actual, bisected line, ...
  std::string system_out;  // per-case log
  // Case-level facts (expected/actual counts, ...) are written as lines of system-out,
  // because the strict schema allows no properties on a testcase.
  std::vector<std::pair<std::string, std::string>> facts;
};

struct TestSuite {
  std::string name;  // "<harness>.<config>"
  std::vector<std::pair<std::string, std::string>> properties;
  std::vector<TestCase> cases;
  std::string system_out;
  double time_s = 0.0;

  void property(const std::string& key, const std::string& value) {
    properties.emplace_back(key, value);
  }
  int count(Outcome o) const;
  bool all_passed() const { return count(Outcome::Failed) == 0 && count(Outcome::Error) == 0; }
};

// Adds git revision, build type, CPU features and harness version, in that order.
void add_build_properties(TestSuite& suite);

// Text as XML 1.0 can carry it. Valid UTF-8 made of XML characters passes unchanged; a byte that
// is not part of valid UTF-8 (a lone surrogate's, an overlong or truncated sequence's) becomes
// "\xNN", a forbidden character (controls other than tab/LF/CR, U+FFFE, U+FFFF) "\xNN" or "\uFFFE".
std::string xml_safe(std::string_view text);

// "" when every testcase name is unique within its classname across `suites`, else which repeats.
std::string duplicate_testcase(const std::vector<TestSuite>& suites);

// "" when every suite, testcase (class and name), property and fact has a name, else which has
// none: a report line "depth: 7" that lost its key would read ": 7" (a writer's slip, refused).
std::string unnamed_entry(const std::vector<TestSuite>& suites);

// Serialises suites in the order given (cases keep their insertion order: callers add them
// in a deterministic order); every text goes through xml_safe. Refuses (false, *error naming the
// path and the name) a report with a duplicate testcase or an unnamed entry. Writes atomically through io::replace_file (io/output_file.h:
// a non-regular target refused); on failure returns false and sets *error. Parent directories are created.
bool write_report(const std::string& path, const std::vector<TestSuite>& suites,
                  std::string* error);
std::string to_xml(const std::vector<TestSuite>& suites);

// Formats seconds as the schema's SUREFIRE_TIME (plain decimal, no exponent).
std::string format_time(double seconds);

}  // namespace stk::junit
