// Runs a piece of work on the engine in a forked child, so that a crash or a hang of the subject
// (a move generator that segfaults or loops) becomes a result instead of taking the harness down.
#pragma once

#include <functional>
#include <string>

namespace stk::harness {

// The child's answer. `output` is whatever the child wrote before it ended, so markers written
// before a crash survive it (writes go straight to the pipe, unbuffered).
struct ChildResult {
  enum class Kind { Ok, Crashed, TimedOut, Failed };
  Kind kind = Kind::Ok;
  std::string output;
  int signal = 0;     // Crashed: the signal that ended the child
  int exit_code = 0;  // Failed: the child's nonzero exit status (e.g. a sanitizer's report)
  double timeout_s = 0;
  bool ok() const { return kind == Kind::Ok; }
  // "killed by signal 11 (Segmentation fault)", "timed out after 5 s", "exited with status 1".
  std::string describe() const;
};

// A child's way to answer: appends `text` to the pipe at once (no buffering to lose in a crash).
using ChildWriter = std::function<void(const std::string& text)>;

// Forks; the child (the engine is already initialised: fork copies it) runs work(write) with core
// dumps off and exits 0, or 3 after printing an exception's message. The parent collects the
// output until the child ends or `timeout_s` passes (then kills it with SIGKILL).
ChildResult run_isolated(const std::function<void(const ChildWriter&)>& work, double timeout_s);

}  // namespace stk::harness
