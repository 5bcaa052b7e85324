// Runs the built binaries from tests and captures their output.
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "report_contract.h"

// A sanitizer build starts and runs child processes several times slower: a wall-clock limit a
// test gives a child (a handshake, a per-move timeout) is multiplied by this, so that a limit met
// by the release build does not fail there for no defect. CMake sets it (STK_SANITIZE: 10).
#ifndef STK_TEST_TIME_SCALE
#define STK_TEST_TIME_SCALE 1
#endif

namespace stk::test {

inline constexpr int kTimeScale = STK_TEST_TIME_SCALE;
// `ms` milliseconds as a test passes them to a child's timeout option, scaled by kTimeScale.
inline std::string timeout_ms(int ms) { return std::to_string(ms * kTimeScale); }

struct RunResult {
  int exit_code;
  std::string output;  // stdout and stderr together
};

// Runs `cmd` through /bin/sh. A command running stk-harness is held to the report contract
// (report_contract.h): a run whose exit status and reports disagree throws, failing whichever test
// ran it, so every test that runs a command also checks what its reports say.
inline RunResult run_command(const std::string& cmd) {
  std::optional<RunContract> contract;
  if (cmd.find("stk-harness") != std::string::npos) contract.emplace(cmd);
  RunResult r{-1, ""};
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) r.output.append(buf.data(), n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (contract) {
    std::string broken = contract->violation(r.exit_code);
    // docs/reports.md: a run that ends by itself ends every line it printed, the last included.
    if (broken.empty() && WIFEXITED(status) && !r.output.empty() && r.output.back() != '\n')
      broken = "the last line printed has no newline";
    if (std::string near = non_finite_figure(r.output); broken.empty() && !near.empty())
      broken = "a figure printed as nan or inf: ..." + near + "...";
    if (std::string near = library_exception_text(r.output); broken.empty() && !near.empty())
      broken = "a reason printed in a library exception's words: ..." + near + "...";
    if (!broken.empty())
      throw std::runtime_error(
          "report contract (docs/reports.md): " + broken + "\ncommand: " + cmd +
          "\noutput: " + r.output.substr(r.output.size() > 2000 ? r.output.size() - 2000 : 0));
  }
  return r;
}

// Runs the commands side by side, `at_once` at a time, their results in the order given: for a
// test of several runs that each wait on an engine's timeouts, not on the CPU (the 23 planted
// defects of uci-check: 40 s of waiting, under 1 s of CPU). A run that breaks the report
// contract throws here, on the calling thread (Catch2's assertions stay on it too).
std::vector<RunResult> run_commands(const std::vector<std::string>& cmds, std::size_t at_once = 4);

// The source and build trees, compiled into test_paths.cpp alone: no other test file holds an
// absolute path, so the scratch clones of ci/mutation.sh and ci/check-mutants.sh (other paths)
// share ccache entries for every test file instead of compiling each anew.
std::string source_dir();  // the repository checkout (CMAKE_SOURCE_DIR)
std::string binary_dir();  // the build tree (CMAKE_BINARY_DIR)

inline std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
// The binaries under test: this build's own under CTest (STK_TEST_OWN_BINARIES, set by
// harness/CMakeLists.txt, so that an STK_ENGINE or STK_HARNESS exported for another build never
// reaches its tests), else STK_ENGINE / STK_HARNESS where set.
inline std::string binary_under_test(const char* variable, const std::string& own) {
  return std::getenv("STK_TEST_OWN_BINARIES") ? own : env_or(variable, own);
}
inline std::string harness_bin() {
  return binary_under_test("STK_HARNESS", binary_dir() + "/harness/stk-harness");
}
inline std::string engine_bin() {
  return binary_under_test("STK_ENGINE", binary_dir() + "/engine/stk");
}
inline std::string shared_dir() { return env_or("STK_SHARED", source_dir() + "/../shared"); }
inline std::string junit_xsd() { return shared_dir() + "/schemas/junit.xsd"; }

// A fresh scratch directory per call under the build tree, or under STK_TEST_SCRATCH: the
// mutation tool runs one test for two mutants side by side on one build (docs/mutation.md).
inline std::filesystem::path scratch_dir(const std::string& name) {
  auto p = std::filesystem::path(env_or("STK_TEST_SCRATCH", binary_dir() + "/test-scratch")) / name;
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

inline void write_file(const std::filesystem::path& p, const std::string& content) {
  std::ofstream(p) << content;
}

// The whole file, "" when it cannot be read.
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// xmllint schema validation; returns "" when valid, else xmllint's complaint.
inline std::string validate_junit(const std::string& xml_path) {
  if (!std::filesystem::exists(junit_xsd()))
    return "schema not found: " + junit_xsd() + " (set STK_SHARED)";
  auto r = run_command("xmllint --noout --schema '" + junit_xsd() + "' '" + xml_path + "'");
  return r.exit_code == 0 ? "" : r.output;
}

// An executable /bin/sh script `name` in `dir` running `body`; its path.
inline std::string write_script(const std::filesystem::path& dir, const std::string& name,
                                const std::string& body) {
  const auto path = dir / name;
  write_file(path, "#!/bin/sh\n" + body + "\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path.string();
}

// The reference engine the tests run beside stk: Debian's stockfish.
inline constexpr const char* kStockfish = "/usr/games/stockfish";

}  // namespace stk::test

// In a test that needs the reference engine: skipped, with a warning, where it is not installed.
#define STK_SKIP_WITHOUT_STOCKFISH()                                \
  if (!std::filesystem::exists(stk::test::kStockfish)) {            \
    WARN("skipped: " << stk::test::kStockfish << " not installed"); \
    return;                                                         \
  }                                                                 \
  static_assert(true)
