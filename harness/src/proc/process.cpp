#include "proc/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "io/interruption.h"

namespace stk::harness::proc {

namespace {

using Clock = std::chrono::steady_clock;

// Makes `fd` the child's descriptor `target`, without close-on-exec (dup2 onto itself would keep
// the flag).
void place(int fd, int target) {
  if (fd == target) fcntl(fd, F_SETFD, 0);
  else dup2(fd, target);
}

// Writes `text` whole to the child's stderr (async-signal-safe).
void say(const char* text) {
  for (std::size_t left = std::strlen(text); left > 0;) {
    ssize_t n = write(2, text, left);
    if (n <= 0 && errno != EINTR) return;
    if (n > 0) text += n, left -= std::size_t(n);
  }
}

// The child, between fork and exec: only async-signal-safe calls (the harness may have threads).
[[noreturn]] void exec_child(char* const* args, const SpawnOptions& o, int null_fd,
                             const char* cannot_run) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int sig : {SIGPIPE, SIGTERM, SIGINT}) sigaction(sig, &dfl, nullptr);
  if (o.own_group) setpgid(0, 0);
  place(o.stdin_fd >= 0 ? o.stdin_fd : null_fd, 0);
  if (o.stdout_fd >= 0) place(o.stdout_fd, 1);
  if (o.stderr_fd >= 0) place(o.stderr_fd, 2);
  if (!o.cwd.empty() && chdir(o.cwd.c_str()) != 0) {
    const char* why = strerrordesc_np(errno);
    say(cannot_run), say("cannot change to its directory: "), say(why ? why : "?"), say("\n");
    _exit(127);
  }
  execvp(args[0], args);
  const char* why = strerrordesc_np(errno);
  say(cannot_run), say(why ? why : "?"), say("\n");
  _exit(127);
}

int millis_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return int(std::max<long long>(0, std::min<long long>(left.count(), 1000)));
}

// Reads `fd` to its end into `out`; false when the deadline came first.
enum class ReadEnd { Closed, Deadline, Flooded };

// Reads `fd` to its end into `out`, until the deadline or until `out` holds over `max` bytes.
ReadEnd read_all(int fd, std::optional<Clock::time_point> deadline, std::size_t max,
                 std::string& out) {
  char buf[65536];
  while (true) {
    if (deadline && Clock::now() >= *deadline) return ReadEnd::Deadline;
    if (out.size() > max) return ReadEnd::Flooded;
    pollfd p{fd, POLLIN, 0};
    int r = poll(&p, 1, deadline ? millis_until(*deadline) : -1);
    if (r < 0 && errno != EINTR) return ReadEnd::Closed;
    if (r <= 0) continue;
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) out.append(buf, std::size_t(n));
    else if (n == 0 || (errno != EINTR && errno != EAGAIN)) return ReadEnd::Closed;
  }
}

// A wait status that says neither "exited" nor "signalled": the child could not be waited for.
constexpr int kNotWaited = 0x7f;  // what WIFSTOPPED reads

// Waits for `pid` until the deadline; the wait status, or nullopt at the deadline.
std::optional<int> wait_for(pid_t pid, std::optional<Clock::time_point> deadline) {
  int status = 0;
  while (true) {
    pid_t r = waitpid(pid, &status, deadline ? WNOHANG : 0);
    if (r == pid) {
      io::remove_child_group(pid);
      return status;
    }
    if (r < 0 && errno != EINTR) return kNotWaited;
    if (r == 0) {
      if (Clock::now() >= *deadline) return std::nullopt;
      usleep(5000);
    }
  }
}

}  // namespace

pid_t spawn(const std::vector<std::string>& argv, const SpawnOptions& options) {
  if (argv.empty() || argv[0].empty()) throw std::runtime_error("no program to start");
  // Everything the child needs is made before fork: it must not allocate.
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string cannot_run = "stk-harness: cannot run '" + argv[0] + "': ";
  const int null_fd = options.stdin_fd >= 0 ? -1 : open("/dev/null", O_RDONLY | O_CLOEXEC);
  const pid_t pid = fork();
  if (pid == 0) exec_child(args.data(), options, null_fd, cannot_run.c_str());
  const int fork_errno = errno;
  if (null_fd >= 0) close(null_fd);
  if (pid < 0)
    throw std::runtime_error("cannot start '" + argv[0] + "': fork: " + std::strerror(fork_errno));
  if (options.own_group) setpgid(pid, pid);  // also here: no race with the child's own call
  io::add_child_group(pid);                  // an interrupted run kills it (io/interruption.h)
  return pid;
}

namespace {

bool runnable(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return runnable(program) ? program : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (std::size_t at = 0; at <= dirs.size();) {
    std::size_t end = std::min(dirs.find(':', at), dirs.size());
    std::string dir = dirs.substr(at, end - at);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (runnable(candidate)) return candidate;
    at = end + 1;
  }
  return "";
}

std::string why_not_runnable(const std::string& program) {
  if (!find_program(program).empty()) return "";
  if (program.find('/') == std::string::npos) return "is not found in $PATH";
  const int e = access(program.c_str(), X_OK) == 0 ? EISDIR : errno;
  return std::string("is not an executable file: ") + std::strerror(e);
}

std::string RunResult::describe() const {
  if (timed_out) return "timed out after " + std::to_string(timeout.count()) + " s";
  if (flooded) return "stopped: wrote over " + std::to_string(max_output >> 20) + " MiB (a flood)";
  if (signal) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

RunResult run(const std::vector<std::string>& argv, const RunOptions& options) {
  int out[2] = {-1, -1};
  if (options.capture && pipe2(out, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const int discard = options.stderr_to == Stderr::Discarded
                          ? open("/dev/null", O_WRONLY | O_CLOEXEC)
                          : -1;
  SpawnOptions s;
  s.cwd = options.cwd;
  s.own_group = options.own_group;
  s.stdout_fd = out[1];
  s.stderr_fd = options.stderr_to == Stderr::Merged ? out[1] : discard;
  pid_t pid = -1;
  try {
    pid = spawn(argv, s);
  } catch (...) {
    for (int fd : {out[0], out[1], discard})
      if (fd >= 0) close(fd);
    throw;
  }
  for (int fd : {out[1], discard})
    if (fd >= 0) close(fd);
  RunResult r;
  std::optional<Clock::time_point> deadline;
  if (options.timeout) deadline = Clock::now() + *options.timeout, r.timeout = *options.timeout;
  const ReadEnd end = out[0] < 0 ? ReadEnd::Closed
                                 : read_all(out[0], deadline, options.max_output, r.output);
  std::optional<int> status = end == ReadEnd::Closed ? wait_for(pid, deadline) : std::nullopt;
  if (end == ReadEnd::Flooded) {
    r.flooded = true;
    r.max_output = options.max_output;
    r.output.resize(options.max_output);
  }
  if (!status) {
    r.timed_out = !r.flooded;
    kill(options.own_group ? -pid : pid, SIGKILL);
    status = wait_for(pid, std::nullopt);
  }
  if (out[0] >= 0) close(out[0]);
  r.exit_code = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
  r.signal = WIFSIGNALED(*status) ? WTERMSIG(*status) : 0;
  return r;
}

}  // namespace stk::harness::proc
