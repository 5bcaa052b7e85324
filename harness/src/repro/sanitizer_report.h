// Sanitizer reports in an engine's stderr (docs/reproducers.md "Sanitizer match"): the line that
// names what AddressSanitizer, LeakSanitizer, UndefinedBehaviorSanitizer, ThreadSanitizer or
// MemorySanitizer found, so that a failed game says why the engine ended.
#pragma once

#include <optional>
#include <string>

namespace stk::harness::repro {

// The first report line in `text` ("==12==ERROR: AddressSanitizer: heap-buffer-overflow on ...",
// "src/x.cpp:10:5: runtime error: index 64 out of bounds ..."), trimmed; nullopt when none.
std::optional<std::string> sanitizer_report_line(const std::string& text);

// The environment words a sanitized engine runs under in a sanitizer match: every report ends the
// process with exit status kSanitizerExitCode, so that a replay sees the same symptom.
inline constexpr int kSanitizerExitCode = 86;
std::string sanitizer_env_words();  // "env ASAN_OPTIONS=... UBSAN_OPTIONS=..."

}  // namespace stk::harness::repro
