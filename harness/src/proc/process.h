// The one place stk-harness starts another program: always with an argument vector (fork +
// execvp), never through a shell, so a path or value holding quotes, spaces, $(...) or a leading
// '-' reaches the child as one literal argument (docs/faults.md, "No shell").
//
// The child starts clean of the harness's own signal handling: an empty signal mask and SIGPIPE,
// SIGTERM and SIGINT at their default actions (the harness may ignore or block them; exec keeps
// both). It leads its own process group unless told otherwise, so it and whatever it starts can
// be killed as a whole.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace stk::harness::proc {

struct SpawnOptions {
  int stdin_fd = -1;      // the child's stdin; -1: /dev/null
  int stdout_fd = -1;     // -1: the harness's own
  int stderr_fd = -1;     // -1: the harness's own
  std::string cwd;        // the child's working directory; "": the harness's
  bool own_group = true;  // the child leads a new process group (its pid is the group's id)
};

// Starts argv[0] (looked up in $PATH when it holds no '/') with the arguments argv; returns its
// pid, for the caller to reap. The file descriptors are duplicated onto 0, 1 and 2; every other
// descriptor the harness opened with O_CLOEXEC stays behind. A program that cannot be run writes
// "stk-harness: cannot run 'X': why" on its stderr and exits 127, as a shell reports it. Throws
// std::runtime_error for an empty argv or when fork fails.
pid_t spawn(const std::vector<std::string>& argv, const SpawnOptions& options = {});

// "" when `program` can be started: a path (holding a '/') of an executable file, or a name
// found as one in $PATH; else why not ("is not an executable file: No such file or directory").
std::string why_not_runnable(const std::string& program);
// The file `program` starts by the same rule (itself when it holds a '/', else the first
// executable match in $PATH), or "" when there is none.
std::string find_program(const std::string& program);

enum class Stderr { Merged, Inherited, Discarded };

struct RunOptions {
  std::string cwd;                              // "": the harness's
  std::optional<std::chrono::seconds> timeout;  // then the child's group is killed (SIGKILL)
  bool capture = true;                          // stdout into RunResult::output; else inherited
  Stderr stderr_to = Stderr::Merged;            // Merged: into the output when capturing
  bool own_group = true;
  // Captured output past this is a runaway child (an engine flooding its output): its group is
  // killed and RunResult::flooded set, instead of the harness growing without bound.
  std::size_t max_output = std::size_t(64) << 20;
};

struct RunResult {
  int exit_code = -1;  // the exit status; -1 when killed by a signal
  int signal = 0;      // the signal that ended it, 0 when it exited
  bool timed_out = false;
  bool flooded = false;  // stopped for writing more than RunOptions::max_output
  std::size_t max_output = 0;
  std::chrono::seconds timeout{0};  // the limit it ran under, when it had one
  std::string output;
  // "exit 0", "killed by signal 11 (...)", "timed out after 300 s", "stopped: wrote over 64 MiB"
  std::string describe() const;
};

// Runs argv to its end (stdin /dev/null), or until the timeout; see spawn.
RunResult run(const std::vector<std::string>& argv, const RunOptions& options = {});

}  // namespace stk::harness::proc
