#include "repro/sanitizer_report.h"

#include <array>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

namespace stk::harness::repro {

std::optional<std::string> sanitizer_report_line(const std::string& text) {
  // The markers each runtime prints on the line that names the defect.
  constexpr std::array<std::string_view, 6> kMarkers = {
      "ERROR: AddressSanitizer",  "ERROR: LeakSanitizer",     "runtime error:",
      "WARNING: ThreadSanitizer", "WARNING: MemorySanitizer", "ERROR: MemorySanitizer"};
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    for (std::string_view m : kMarkers) {
      if (line.find(m) == std::string::npos) continue;
      const auto b = line.find_first_not_of(" \t");
      const auto e = line.find_last_not_of(" \t\r");
      return line.substr(b, e - b + 1);
    }
  }
  return std::nullopt;
}

std::string sanitizer_env_words() {
  // halt_on_error: UBSan goes on after a report by default; one report must end the game.
  // detect_leaks=0: a leak is reported at exit, after the match has no game left to lose (the
  // sanitizer ctest run covers leaks).
  return fmt::format(
      "env ASAN_OPTIONS=halt_on_error=1:exitcode={0}:detect_leaks=0 "
      "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode={0}",
      kSanitizerExitCode);
}

}  // namespace stk::harness::repro
