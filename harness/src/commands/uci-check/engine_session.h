// One run of the engine under test: the pipe driver plus a timestamped transcript of every line
// exchanged, the uci handshake, and waits that never block past their deadline.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/interruption.h"
#include "uci_client/uci_lines.h"
#include "uci_client/uci_process.h"
#include "commands/uci-check/check_settings.h"

namespace stk::harness::ucicheck {

struct TranscriptEntry {
  double t_ms;     // since the session started
  char direction;  // '>' sent to the engine, '<' read from it, '!' its stderr, '#' a harness note
  std::string text;
};

// The engine did not start, or did not answer uci/isready in time.
struct StartError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Reply {
  std::vector<TimedLine> lines;  // everything read while waiting, the match included
  bool found = false;
  bool closed = false;  // the engine closed its output (exited or crashed)
  double ms = 0;        // from `since` to the match (or to giving up)
  const TimedLine* match() const { return found ? &lines.back() : nullptr; }
};

class Session {
 public:
  // Launches the engine (its stderr captured into the transcript); start() performs the handshake.
  explicit Session(const Settings& settings);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // uci -> id/option lines -> uciok, then the --option values and isready -> readyok.
  // Throws StartError naming the engine and what it did instead.
  void start();
  // Kills the engine and starts it again (handshake included): after a crash, to go on.
  void restart();
  const std::vector<TimedLine>& uci_reply() const { return uci_reply_; }
  double uci_ms() const { return uci_ms_; }
  double readyok_ms() const { return readyok_ms_; }
  const std::string& id_name() const { return id_name_; }
  const std::vector<uci::OptionLine>& options() const { return options_; }

  const Settings& settings() const { return settings_; }
  std::chrono::milliseconds timeout(int base_ms) const { return scaled(settings_, base_ms); }

  // Sends a line; false (and a note) when the engine is gone or not reading.
  bool send(const std::string& line);
  // Reads until `match` or the timeout (measured from `since`, default now).
  Reply wait_for(const std::function<bool(const std::string&)>& match,
                 std::chrono::milliseconds timeout,
                 std::optional<SteadyClock::time_point> since = std::nullopt);
  Reply wait_bestmove(std::chrono::milliseconds timeout,
                      std::optional<SteadyClock::time_point> since = std::nullopt);
  // Sends isready and waits for readyok.
  Reply isready(std::chrono::milliseconds timeout);
  // Everything the engine prints during `quiet` (no early return).
  std::vector<TimedLine> listen(std::chrono::milliseconds quiet);

  bool alive();
  bool wait_exit(std::chrono::milliseconds timeout);
  ChildExit exit_status() const { return process_.exit_status(); }
  // "alive", or how the engine ended: for failure messages.
  std::string state();

  void note(const std::string& text);
  // The transcript, with what the engine wrote to stderr so far ('!' lines) appended.
  const std::vector<TranscriptEntry>& transcript();

 private:
  void record(char direction, const std::string& text, SteadyClock::time_point at);
  void collect_stderr();
  Settings settings_;
  std::string stderr_path_;
  io::RemoveOnInterrupt remove_stderr_file_;  // a /tmp file: gone with an interrupted run too
  std::size_t stderr_read_ = 0;
  UciProcess process_;
  SteadyClock::time_point start_;
  std::vector<TranscriptEntry> transcript_;
  std::vector<TimedLine> uci_reply_;
  std::vector<uci::OptionLine> options_;
  std::string id_name_;
  double uci_ms_ = 0, readyok_ms_ = 0;
};

double ms_between(SteadyClock::time_point from, SteadyClock::time_point to);

}  // namespace stk::harness::ucicheck
