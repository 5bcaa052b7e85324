// An engine's stderr in a match, kept in a temporary file so that a failed game's reproducer can
// carry what the engine said about it (a sanitizer report, an assertion) instead of it scrolling
// past on the console. The file is removed when the log is destroyed.
#pragma once

#include <cstdint>
#include <string>

namespace stk::harness::selfplay {

class StderrLog {
 public:
  StderrLog();  // a file under the temporary directory; path() "" when none could be made
  ~StderrLog();
  StderrLog(const StderrLog&) = delete;
  StderrLog& operator=(const StderrLog&) = delete;

  const std::string& path() const { return path_; }
  // Called as a game starts: later text belongs to that game. A file past kMaxBytes is emptied
  // first (the engine appends, so it writes on from the new end).
  void mark();
  // What was written since mark(), its last kKeptBytes at most.
  std::string since_mark() const;

  static constexpr std::uintmax_t kMaxBytes = 1 << 20;
  static constexpr std::uintmax_t kKeptBytes = 64 << 10;

 private:
  std::string path_;
  std::uintmax_t mark_ = 0;
};

}  // namespace stk::harness::selfplay
