#include "commands/perft/isolated.h"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>

#include "io/interruption.h"

namespace stk::harness {

namespace {

void write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(4);  // the parent is gone
    done += std::size_t(n);
  }
}

[[noreturn]] void child_main(int fd, const std::function<void(const ChildWriter&)>& work) {
  rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // a planted crash must not write a core file per position
  ChildWriter write = [fd](const std::string& text) { write_all(fd, text); };
  try {
    work(write);
  } catch (const std::exception& e) {
    write_all(fd, std::string("\nexception: ") + e.what() + "\n");
    _exit(3);
  }
  _exit(0);
}

// Reads the child's output until EOF or the deadline; false when the deadline passed.
bool collect(int fd, double timeout_s, std::string* out) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  char buf[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, int(std::min<long long>(left.count(), 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    if (r == 0) continue;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;  // EOF: the child closed its end (it ended)
    out->append(buf, std::size_t(n));
  }
}

}  // namespace

std::string ChildResult::describe() const {
  switch (kind) {
    case Kind::Ok: return "ran to completion";
    case Kind::Crashed: return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
    case Kind::TimedOut: return fmt::format("timed out after {} s (killed)", timeout_s);
    case Kind::Failed: return fmt::format("exited with status {}", exit_code);
  }
  return "?";
}

ChildResult run_isolated(const std::function<void(const ChildWriter&)>& work, double timeout_s) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::cout.flush(), std::cerr.flush();  // the child must not inherit unwritten buffers
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    io::reset_signals_in_child();  // the parent's watcher thread is not in the child
    ::close(fds[0]);
    child_main(fds[1], work);
  }
  io::add_child_group(pid);  // killed with the run when it is interrupted
  ::close(fds[1]);
  ChildResult r;
  r.timeout_s = timeout_s;
  const bool ended = collect(fds[0], timeout_s, &r.output);
  ::close(fds[0]);
  if (!ended) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  io::remove_child_group(pid);
  if (!ended) r.kind = ChildResult::Kind::TimedOut;
  else if (WIFSIGNALED(status)) r.kind = ChildResult::Kind::Crashed, r.signal = WTERMSIG(status);
  else if (WEXITSTATUS(status) != 0)
    r.kind = ChildResult::Kind::Failed, r.exit_code = WEXITSTATUS(status);
  return r;
}

}  // namespace stk::harness
