#include "uci_client/uci_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "io/interruption.h"
#include "proc/command_words.h"
#include "proc/process.h"

namespace stk::harness {

namespace {

int millis_until(SteadyClock::time_point deadline) {
  auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now()).count();
  return int(std::max<long long>(0, std::min<long long>(left, 1000)));
}

}  // namespace

std::string ChildExit::describe() const {
  if (!exited) return "still running";
  if (signal) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit status " + std::to_string(code);
}

namespace {

// The argument vector of an engine command (proc/command_words.h: an executable path whole, else
// its words); a command that does not split is an error naming it.
std::vector<std::string> engine_argv(const std::string& command) {
  try {
    return proc::command_argv(command);
  } catch (const proc::CommandSyntaxError& e) {
    throw std::runtime_error("UCI engine command '" + command + "': " + e.what());
  }
}

}  // namespace

UciProcess::UciProcess(const std::string& command, std::chrono::seconds timeout)
    : path_(command), argv_(engine_argv(command)) {
  if (std::string why = proc::why_not_runnable(argv_[0]); !why.empty())
    throw std::runtime_error("UCI engine '" + command + "': '" + argv_[0] + "' " + why);
  start();
  send("uci");
  for (const std::string& l :
       read_until([](const std::string& s) { return s == "uciok"; }, timeout))
    if (l.starts_with("id name ")) id_name_ = l.substr(8);
}

UciProcess::UciProcess(NoHandshake, const std::string& command, const std::string& stderr_path)
    : path_(command), argv_(engine_argv(command)), stderr_path_(stderr_path) {
  start();
}

void UciProcess::start() {
  int in[2], out[2];
  // Close-on-exec: a second engine (or a restart) must not inherit this one's pipe ends, or
  // neither would ever see end-of-file.
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe() failed");
  const int err = stderr_path_.empty()
                      ? -1
                      : open(stderr_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  proc::SpawnOptions options;
  options.stdin_fd = in[0];
  options.stdout_fd = out[1];
  options.stderr_fd = err;  // -1 (none asked, or it cannot be opened): the harness's stderr
  try {
    pid_ = proc::spawn(argv_, options);
  } catch (...) {
    for (int fd : {in[0], in[1], out[0], out[1], err})
      if (fd >= 0) close(fd);
    throw;
  }
  if (err >= 0) close(err);
  close(in[0]);
  close(out[1]);
  to_child_ = in[1];
  from_child_ = out[0];
  fcntl(to_child_, F_SETFL, fcntl(to_child_, F_GETFL) | O_NONBLOCK);
  fcntl(from_child_, F_SETFL, fcntl(from_child_, F_GETFL) | O_NONBLOCK);
  signal(SIGPIPE, SIG_IGN);
  eof_ = false;
  exit_ = ChildExit{};
  buffer_.clear();
}

void UciProcess::close_pipes() {
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  to_child_ = from_child_ = -1;
}

UciProcess::~UciProcess() {
  if (pid_ > 0 && running()) {
    send("quit", std::chrono::milliseconds(100));
    close(to_child_);
    to_child_ = -1;
    // Give the engine a moment to exit on its own, then make sure it is gone.
    wait_exit(SteadyClock::now() + std::chrono::milliseconds(500));
  }
  kill_child();
  close_pipes();
}

bool UciProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r != pid_) return true;
  io::remove_child_group(pid_);
  exit_.exited = true;
  exit_.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  exit_.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  kill(-pid_, SIGKILL);  // anything the engine left behind in its group
  pid_ = -1;
  return false;
}

bool UciProcess::wait_exit(SteadyClock::time_point deadline) {
  while (running()) {
    if (SteadyClock::now() >= deadline) return false;
    usleep(2000);
  }
  return true;
}

void UciProcess::kill_child() {
  if (pid_ <= 0) return;
  if (running()) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    io::remove_child_group(pid_);
    exit_.exited = true;
    exit_.code = -1;
    exit_.signal = SIGKILL;
    pid_ = -1;
  }
}

void UciProcess::restart() {
  kill_child();
  close_pipes();
  start();
}

bool UciProcess::send(const std::string& line, std::chrono::milliseconds timeout) {
  if (to_child_ < 0) return false;
  auto deadline = SteadyClock::now() + timeout;
  std::string l = line + "\n";
  const char* p = l.data();
  std::size_t left = l.size();
  while (left) {
    ssize_t n = write(to_child_, p, left);
    if (n > 0) {
      p += n, left -= std::size_t(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) return false;  // the engine died; the next read reports it
    if (SteadyClock::now() >= deadline) return false;
    pollfd pfd{to_child_, POLLOUT, 0};
    poll(&pfd, 1, millis_until(deadline));
  }
  return true;
}

std::optional<TimedLine> UciProcess::read_line(SteadyClock::time_point deadline) {
  while (true) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      TimedLine line{buffer_.substr(0, nl), chunk_time_};
      if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
      buffer_.erase(0, nl + 1);
      return line;
    }
    // No UCI line comes near this: an engine that floods without newlines gets its bytes back in
    // pieces of this size, and the harness's memory stays bounded.
    if (buffer_.size() >= kMaxLineBytes) {
      TimedLine line{buffer_.substr(0, kMaxLineBytes), chunk_time_};
      buffer_.erase(0, kMaxLineBytes);
      return line;
    }
    if (eof_) return std::nullopt;
    // The deadline holds whatever arrives: bytes without a newline do not extend it, and neither
    // does a flood of complete lines. Past it the pipe gets one last look (a line written in time
    // but not yet read counts) per deadline, not per call: a caller looping on the same deadline
    // ends however fast the engine writes, even when it reads slower than the engine floods.
    const bool late = SteadyClock::now() >= deadline;
    if (late) {
      if (late_look_ == deadline) return std::nullopt;
      late_look_ = deadline;
    }
    pollfd pfd{from_child_, POLLIN, 0};
    int r = poll(&pfd, 1, late ? 0 : millis_until(deadline));
    if (r < 0 && errno != EINTR) return std::nullopt;
    if (r > 0) {
      char buf[65536];
      ssize_t n = read(from_child_, buf, sizeof buf);
      if (n > 0) {
        chunk_time_ = SteadyClock::now();
        buffer_.append(buf, std::size_t(n));
        continue;
      }
      if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        eof_ = true;
        if (!buffer_.empty()) buffer_ += '\n';  // a last line without its newline
        continue;
      }
    }
    if (late) return std::nullopt;
  }
}

std::vector<TimedLine> UciProcess::read_available() {
  std::vector<TimedLine> lines;
  // One deadline for the whole drain (one look at the pipe): a fresh `now` per line would give a
  // flooding engine a look per line, and this would never return.
  const auto now = SteadyClock::now();
  while (auto l = read_line(now)) lines.push_back(std::move(*l));
  return lines;
}

std::vector<std::string> UciProcess::read_until(const std::function<bool(const std::string&)>& stop,
                                                std::chrono::seconds timeout) {
  const auto deadline = SteadyClock::now() + timeout;
  std::vector<std::string> lines;
  std::size_t bytes = 0;
  while (true) {
    const auto silent_until = SteadyClock::now() + kMaxSilence;
    auto line = read_line(std::min(deadline, silent_until));
    if (!line) {
      if (eof_) throw std::runtime_error("UCI engine '" + path_ + "' exited unexpectedly");
      if (SteadyClock::now() < deadline)
        throw std::runtime_error("UCI engine '" + path_ + "' wrote no complete line for " +
                                 std::to_string(kMaxSilence.count()) +
                                 " s while its answer was awaited (a stall)");
      throw std::runtime_error("UCI engine '" + path_ + "' did not answer within " +
                               std::to_string(timeout.count()) + " s");
    }
    bytes += line->text.size() + sizeof(std::string);
    if (bytes > kMaxReplyBytes)
      throw std::runtime_error("UCI engine '" + path_ + "' wrote more than " +
                               std::to_string(kMaxReplyBytes >> 20) +
                               " MiB without the line awaited (a flood)");
    lines.push_back(line->text);
    if (stop(line->text)) return lines;
  }
}

void UciProcess::set_option(const std::string& name, const std::string& value) {
  send("setoption name " + name + " value " + value);
}

void UciProcess::sync() {
  send("isready");
  read_until([](const std::string& s) { return s == "readyok"; }, std::chrono::seconds(60));
}

}  // namespace stk::harness
