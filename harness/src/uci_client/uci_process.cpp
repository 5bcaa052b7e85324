#include "uci_client/uci_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace stk::harness {

UciProcess::UciProcess(const std::string& path, std::chrono::seconds timeout) : path_(path) {
  if (access(path.c_str(), X_OK) != 0)
    throw std::runtime_error("UCI engine '" + path + "' is not an executable file: " +
                             std::strerror(errno));
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe() failed");
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork() failed");
  if (pid_ == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[1]);
    close(out[0]);
    execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  to_child_ = in[1];
  from_child_ = out[0];
  signal(SIGPIPE, SIG_IGN);
  send("uci");
  for (const std::string& l :
       read_until([](const std::string& s) { return s == "uciok"; }, timeout))
    if (l.rfind("id name ", 0) == 0) id_name_ = l.substr(8);
}

UciProcess::~UciProcess() {
  if (pid_ > 0) {
    send("quit");
    close(to_child_);
    // Give the engine a moment to exit on its own, then make sure it is gone.
    for (int i = 0; i < 50; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      usleep(10000);
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(from_child_);
  }
}

void UciProcess::send(const std::string& line) {
  std::string l = line + "\n";
  const char* p = l.data();
  std::size_t left = l.size();
  while (left) {
    ssize_t n = write(to_child_, p, left);
    if (n <= 0) {
      if (errno == EINTR) continue;
      return;  // the engine died; the next read reports it
    }
    p += n, left -= std::size_t(n);
  }
}

bool UciProcess::read_line(std::string& line, std::chrono::steady_clock::time_point deadline) {
  while (true) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, nl + 1);
      return true;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd pfd{from_child_, POLLIN, 0};
    int r = poll(&pfd, 1, int(std::min<long long>(left.count(), 1000)));
    if (r < 0 && errno != EINTR) return false;
    if (r <= 0) continue;
    char buf[65536];
    ssize_t n = read(from_child_, buf, sizeof buf);
    if (n <= 0) throw std::runtime_error("UCI engine '" + path_ + "' exited unexpectedly");
    buffer_.append(buf, std::size_t(n));
  }
}

std::vector<std::string> UciProcess::read_until(
    const std::function<bool(const std::string&)>& stop, std::chrono::seconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<std::string> lines;
  std::string line;
  while (true) {
    if (!read_line(line, deadline))
      throw std::runtime_error("UCI engine '" + path_ + "' did not answer within " +
                               std::to_string(timeout.count()) + " s");
    lines.push_back(line);
    if (stop(line)) return lines;
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
