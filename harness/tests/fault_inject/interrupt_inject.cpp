// stk-interrupt-inject: an LD_PRELOAD library that gives the harness the operating system's rare
// but legal answers on its pipes and children, so that a test can show a run under them equals
// the run without (docs/faults.md "Interrupted calls"):
//   - of the calls of each kind (read or write on a pipe or socket, poll, waitpid) the first
//     and then every STK_INTERRUPT_EVERY-th (default 2: every other one, the first
//     included) fails with EINTR without doing anything, as when a signal arrives before
//     the call transferred a byte;
//   - with STK_INTERRUPT_SHORT=1, every such write that is not interrupted and is longer than
//     one byte writes only its first half, as a pipe with room for less does.
//   STK_INTERRUPT_REPORT  a file that receives "calls=C interrupted=I short=S\n" at exit
// Files are left alone (their writers have their own fault tests: fault_inject.cpp). Only the
// process started under the library is injected: the variables are removed at load.
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <string>

namespace {

using rw_fn = ssize_t (*)(int, void*, size_t);
using write_fn = ssize_t (*)(int, const void*, size_t);
using poll_fn = int (*)(pollfd*, nfds_t, int);
using waitpid_fn = pid_t (*)(pid_t, int*, int);

template <class F>
F real(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

enum Kind { kRead, kWrite, kPoll, kWait, kKinds };

struct Config {
  long every = 0;  // 0 or 1: nothing injected
  bool short_writes = false;
  std::string report;
};

Config g_config;
pid_t g_pid = 0;
std::atomic<long> g_calls{0}, g_interrupted{0}, g_short{0};
std::atomic<long> g_kind_calls[kKinds] = {};

bool is_pipe_or_socket(int fd) {
  struct stat st {};
  const int saved = errno;
  const bool yes = fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
  errno = saved;
  return yes;
}

// Whether this counted call is one to interrupt (only in the process started under the library:
// a forked child on its way to exec is left alone).
bool interrupt_now(Kind kind) {
  if (g_config.every <= 1 || getpid() != g_pid) return false;
  ++g_calls;
  if (g_kind_calls[kind]++ % g_config.every != 0) return false;
  ++g_interrupted;
  errno = EINTR;
  return true;
}

void write_report() {
  if (g_config.report.empty() || getpid() != g_pid) return;
  char line[128];
  const int n = snprintf(line, sizeof line, "calls=%ld interrupted=%ld short=%ld\n", g_calls.load(),
                         g_interrupted.load(), g_short.load());
  const int fd = open(g_config.report.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  static const auto real_write = real<write_fn>("write");
  (void)!real_write(fd, line, size_t(n));
  close(fd);
}

// Configured when the library loads and reporting when the process exits: an object defined
// after the configuration, so that it is initialized after it (a constructor function may run
// before the globals it sets are initialized, and see them reset).
struct Loader {
  Loader() {
    g_pid = getpid();
    const char* e = getenv("STK_INTERRUPT_EVERY");
    g_config.every = e ? atol(e) : 2;
    if (const char* s = getenv("STK_INTERRUPT_SHORT")) g_config.short_writes = strcmp(s, "1") == 0;
    if (const char* r = getenv("STK_INTERRUPT_REPORT")) g_config.report = r;
    for (const char* v :
         {"LD_PRELOAD", "STK_INTERRUPT_EVERY", "STK_INTERRUPT_SHORT", "STK_INTERRUPT_REPORT"})
      unsetenv(v);
  }
  ~Loader() { write_report(); }
} g_loader;

}  // namespace

extern "C" {

ssize_t read(int fd, void* buf, size_t count) {
  static const auto real_read = real<rw_fn>("read");
  if (is_pipe_or_socket(fd) && interrupt_now(kRead)) return -1;
  return real_read(fd, buf, count);
}

ssize_t write(int fd, const void* buf, size_t count) {
  static const auto real_write = real<write_fn>("write");
  if (!is_pipe_or_socket(fd)) return real_write(fd, buf, count);
  if (interrupt_now(kWrite)) return -1;
  if (g_config.short_writes && count > 1 && getpid() == g_pid) {
    ++g_short;
    return real_write(fd, buf, count / 2);
  }
  return real_write(fd, buf, count);
}

int poll(pollfd* fds, nfds_t n, int timeout) {
  static const auto real_poll = real<poll_fn>("poll");
  if (interrupt_now(kPoll)) return -1;
  return real_poll(fds, n, timeout);
}

pid_t waitpid(pid_t pid, int* status, int options) {
  static const auto real_waitpid = real<waitpid_fn>("waitpid");
  if (interrupt_now(kWait)) return -1;
  return real_waitpid(pid, status, options);
}

}  // extern "C"
