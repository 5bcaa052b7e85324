// Drives an external UCI engine (e.g. Debian's stockfish) through pipes.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace stk::harness {

class UciProcess {
 public:
  // Starts `path` and performs the uci/uciok handshake. Throws std::runtime_error with the
  // path on failure (missing binary, no uciok within the timeout).
  explicit UciProcess(const std::string& path, std::chrono::seconds timeout = std::chrono::seconds(30));
  ~UciProcess();
  UciProcess(const UciProcess&) = delete;
  UciProcess& operator=(const UciProcess&) = delete;

  void send(const std::string& line);
  // Reads lines until `stop(line)` returns true; returns every line read, the last included.
  // Throws on timeout or if the engine exits.
  std::vector<std::string> read_until(const std::function<bool(const std::string&)>& stop,
                                      std::chrono::seconds timeout);
  void set_option(const std::string& name, const std::string& value);
  void sync();  // isready/readyok
  const std::string& name() const { return id_name_; }
  const std::string& path() const { return path_; }

 private:
  bool read_line(std::string& line, std::chrono::steady_clock::time_point deadline);
  std::string path_, id_name_, buffer_;
  int pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
};

}  // namespace stk::harness
