#include "io/interruption.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

namespace stk::harness::io {

namespace {

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP};

struct Registry {
  std::recursive_timed_mutex writes;
  std::mutex lists;
  std::vector<std::string> paths;
  std::vector<int> groups;
  std::function<void(const std::string&)> handler;
  bool stdout_closed_at_start = false;
  bool stopping = false;  // set once the run is being ended: a child started now is killed at once
  bool finished = false;  // set by finish_run: the outcome stands, a stop signal is too late
};

// Never destroyed: the watcher may still wait on it while static destructors run at exit.
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

// The watcher thread holds `writes` while it ends the run; what it writes itself must not wait.
thread_local bool on_watcher = false;
// The write sections this thread holds (nested ones take the recursive lock again).
thread_local int sections_held = 0;
// Set by the watcher as soon as a stop signal arrives: no new outermost write section starts from
// then on, so the run stops at the end of the write in flight, not after whichever thread wins
// the lock next (the watcher would otherwise race every following write for it).
std::atomic<bool> stop_pending{false};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
  }
}

sigset_t stop_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kStopSignals) sigaddset(&set, s);
  return set;
}

// An in-flight write gets this long to finish; a wedged one (a stuck disk) does not keep the run.
constexpr auto kWriteGrace = std::chrono::seconds(10);
constexpr auto kStopPoll = std::chrono::milliseconds(5);

// SIGTERM first, so that a child which is itself a harness run ends as this one does (its own
// reports, temporaries and locks); SIGKILL for whatever is left after the grace.
void stop_children(const std::vector<int>& children) {
  for (int g : children) ::kill(-g, SIGTERM), ::kill(g, SIGTERM);
  std::vector<int> left = children;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (!left.empty() && std::chrono::steady_clock::now() < until) {
    std::erase_if(left, [](int g) { return ::waitpid(g, nullptr, WNOHANG) == g; });
    if (!left.empty()) ::usleep(20000);
  }
  for (int g : left) ::kill(-g, SIGKILL), ::kill(g, SIGKILL);
  // Reaped before the run ends: a zombie handed to init still counts as a process of the group.
  const auto reap_until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (!left.empty() && std::chrono::steady_clock::now() < reap_until) {
    std::erase_if(left, [](int g) { return ::waitpid(g, nullptr, WNOHANG) == g; });
    if (!left.empty()) ::usleep(5000);
  }
}

bool run_finished() {
  std::lock_guard lock(registry().lists);
  return registry().finished;
}

// Returns only when the run finished first (finish_run): its outcome stands.
void end_run(int sig) {
  Registry& r = registry();
  on_watcher = true;
  stop_pending = true;
  if (run_finished()) {
    stop_pending = false;
    return;
  }
  const bool held = r.writes.try_lock_for(kWriteGrace);
  {
    std::lock_guard lock(r.lists);
    if (r.finished) {  // main took the writers (its outcome decided) while this one waited
      if (held) r.writes.unlock();
      stop_pending = false;
      return;
    }
    r.stopping = true;
    stop_children(r.groups);
  }
  const std::string why = std::string("interrupted by ") + signal_name(sig);
  std::function<void(const std::string&)> handler;
  {
    std::lock_guard lock(r.lists);
    handler = r.handler;
  }
  try {
    if (handler) handler(why);
  } catch (...) {  // the temporaries and locks still go
  }
  std::lock_guard lock(r.lists);
  for (const std::string& p : r.paths) ::unlink(p.c_str());
  std::fprintf(stderr, "stk-harness: %s: the run stopped, exit 2\n", why.c_str());
  std::fflush(stderr);
  (void)held;  // never released: no write may start between the <error> reports and the exit
  ::_exit(2);
}

void watch_stop_signals() {
  const sigset_t set = stop_signal_set();
  for (;;) {
    int sig = 0;
    while (::sigwait(&set, &sig) != 0) {
    }
    end_run(sig);  // returned: the run had finished; later signals are as late
  }
}

// A closed standard descriptor would be handed to the next file opened, which would then receive
// what is printed: /dev/null holds its place.
bool fill_if_closed(int fd, int flags) {
  if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) return false;
  const int got = ::open("/dev/null", flags);
  if (got >= 0 && got != fd) {
    ::dup2(got, fd);
    ::close(got);
  }
  return true;
}

}  // namespace

void install_signal_policy() {
  Registry& r = registry();
  fill_if_closed(0, O_RDONLY);
  r.stdout_closed_at_start = fill_if_closed(1, O_WRONLY);
  fill_if_closed(2, O_WRONLY);
  ::signal(SIGPIPE, SIG_IGN);
  const sigset_t set = stop_signal_set();
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(watch_stop_signals).detach();
}

int finish_run(int status) {
  Registry& r = registry();
  r.writes.lock();  // never released; blocks for good when the watcher is ending the run
  // Counted as held: what runs after (static destructors) nests in it and never waits on a stop
  // that arrived too late to be taken.
  ++sections_held;
  std::lock_guard lock(r.lists);
  r.finished = true;
  return status;
}

void reset_signals_in_child() {
  for (int s : kStopSignals) ::signal(s, SIG_DFL);
  ::signal(SIGPIPE, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::pthread_sigmask(SIG_SETMASK, &none, nullptr);
}

void set_interrupt_handler(std::function<void(const std::string& why)> handler) {
  std::lock_guard lock(registry().lists);
  registry().handler = std::move(handler);
}

WriteSection::WriteSection() {
  if (on_watcher) return;
  // A stop is pending: an outermost section waits here (the watcher ends the process, or finds the
  // run finished and lets it go on); a nested one belongs to the write in flight and goes on.
  while (sections_held == 0 && stop_pending.load()) std::this_thread::sleep_for(kStopPoll);
  registry().writes.lock();
  ++sections_held;
}

WriteSection::~WriteSection() {
  if (on_watcher) return;
  --sections_held;
  registry().writes.unlock();
}

RemoveOnInterrupt::RemoveOnInterrupt(std::string path) : path_(std::move(path)) {
  std::lock_guard lock(registry().lists);
  registry().paths.push_back(path_);
}

RemoveOnInterrupt::~RemoveOnInterrupt() {
  Registry& r = registry();
  std::lock_guard lock(r.lists);
  if (auto it = std::find(r.paths.begin(), r.paths.end(), path_); it != r.paths.end())
    r.paths.erase(it);
}

void add_child_group(int pgid) {
  Registry& r = registry();
  std::lock_guard lock(r.lists);
  // The run is ending (its other threads go on until _exit): a child started after the others
  // were stopped would outlive it. It has barely started, so nothing of it needs a clean end.
  if (r.stopping) {
    ::kill(-pgid, SIGKILL), ::kill(pgid, SIGKILL);
    ::waitpid(pgid, nullptr, 0);  // reaped here: the run's _exit must not leave a zombie
    return;
  }
  r.groups.push_back(pgid);
}

void remove_child_group(int pgid) {
  Registry& r = registry();
  std::lock_guard lock(r.lists);
  if (auto it = std::find(r.groups.begin(), r.groups.end(), pgid); it != r.groups.end())
    r.groups.erase(it);
}

std::string stdout_failure() {
  if (registry().stdout_closed_at_start)
    return "stdout was closed when the run started: what it prints would be lost";
  errno = 0;
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout;
  if (!failed) return "";
  const int err = errno;
  return std::string("stdout: write failed") + (err ? std::string(": ") + std::strerror(err) : "") +
         ": what the run printed was lost";
}

}  // namespace stk::harness::io
