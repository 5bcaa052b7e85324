// Drives an external UCI engine (e.g. Debian's stockfish) through pipes.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stk::harness {

using SteadyClock = std::chrono::steady_clock;

// One line of engine output and when the harness read it from the pipe.
struct TimedLine {
  std::string text;
  SteadyClock::time_point at;
};

// How the child ended, once it has (waitpid): an exit code or a signal.
struct ChildExit {
  bool exited = false;
  int code = -1;                 // exit status when it exited normally
  int signal = 0;                // the terminating signal, 0 when it exited normally
  std::string describe() const;  // "exit status 0", "killed by signal 11 (Segmentation fault)"
};

class UciProcess {
 public:
  // The longest line returned whole; longer output without a newline comes back in pieces.
  static constexpr std::size_t kMaxLineBytes = std::size_t(1) << 20;
  // read_until gives up (throws) when the engine writes more than this before the awaited line
  // (each line counted with its bookkeeping, so a flood of empty lines is bounded too)...
  static constexpr std::size_t kMaxReplyBytes = std::size_t(64) << 20;
  // ...or writes no complete line for this long while it is awaited: a searching engine reports
  // every iteration, so silence this long is a stall, whatever the caller's overall deadline.
  static constexpr std::chrono::seconds kMaxSilence{60};
  // Starts `command` (as below) and performs the uci/uciok handshake. Throws std::runtime_error
  // naming the command on failure (a command that does not split, a program that is not there,
  // no uciok within the timeout).
  explicit UciProcess(const std::string& command,
                      std::chrono::seconds timeout = std::chrono::seconds(30));
  // Starts `command` and sends nothing: an executable path taken whole, else a command line split
  // into words like a shell quotes them, but never run by one ("python3 fake.py --defect x";
  // proc/command_words.h). The child gets its own process group (killed as a whole); its stderr
  // goes to `stderr_path` (appended) when one is given, else it is inherited. A program that
  // cannot be run exits 127, as under a shell.
  struct NoHandshake {};
  UciProcess(NoHandshake, const std::string& command, const std::string& stderr_path = "");
  ~UciProcess();
  UciProcess(const UciProcess&) = delete;
  UciProcess& operator=(const UciProcess&) = delete;

  // Writes one line. False when the engine is gone or has not read its input within `timeout`
  // (a child that stops reading must not wedge the harness).
  bool send(const std::string& line, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Reads lines until `stop(line)` returns true; returns every line read, the last included.
  // Throws on timeout, kMaxSilence without a line, kMaxReplyBytes, or if the engine exits.
  std::vector<std::string> read_until(const std::function<bool(const std::string&)>& stop,
                                      std::chrono::seconds timeout);
  // The next line, or nullopt at the deadline or once the engine closed its output (then
  // output_closed() is true). Never throws. The deadline holds however the engine writes: output
  // that never completes a line does not keep the caller past it.
  std::optional<TimedLine> read_line(SteadyClock::time_point deadline);
  // Every complete line readable now, without waiting.
  std::vector<TimedLine> read_available();
  bool output_closed() const { return eof_; }
  // False once the child has exited (reaped without waiting; exit_status() then says how).
  bool running();
  // Waits for the child to exit until the deadline; true if it has.
  bool wait_exit(SteadyClock::time_point deadline);
  const ChildExit& exit_status() const { return exit_; }
  // Kills the child's process group (SIGKILL) and reaps it.
  void kill_child();
  // Kills the child if it is still there and starts the same command again (no handshake).
  void restart();

  void set_option(const std::string& name, const std::string& value);
  void sync();  // isready/readyok
  const std::string& name() const { return id_name_; }
  const std::string& path() const { return path_; }

 private:
  void start();
  void close_pipes();
  std::string path_;
  std::vector<std::string> argv_;  // what path_ runs
  std::string id_name_, buffer_, stderr_path_;
  bool eof_ = false;
  ChildExit exit_;
  SteadyClock::time_point chunk_time_;  // when the bytes now in buffer_ were read
  // The deadline whose one look past it read_line has taken (read_line says why).
  std::optional<SteadyClock::time_point> late_look_;
  int pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
};

}  // namespace stk::harness
