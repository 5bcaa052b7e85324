// stk-fault-inject: an LD_PRELOAD library that fails the Nth file-system call of a kind, the way
// SQLite's test suite fails its I/O, so that the tests can prove every writer of the harness
// (harness/src/io/output_file.h) under ENOSPC/EIO at every step of a run.
//
//   STK_FAULT_DIR    only calls on files under this folder count (stdout, stderr, pipes, the
//                    engines' own files do not), or on this one file when it names a file;
//                    required, else nothing is ever failed
//   STK_FAULT_OP     write (write, pwrite, pwrite64) | fsync (fsync, fdatasync) | rename | close |
//                    truncate (ftruncate, ftruncate64) | read (read, pread, pread64: an input's
//                    disk failing) | any (all but truncate, whose only callers cut a file back
//                    after another failure or take a lock, and read, which no writer makes), or
//                    several joined by '+' (write+truncate: an append that fails, then its cut
//                    back too)
//   STK_FAULT_N      the 1-based index of the counted call that fails (0 or unset: none fails,
//                    the calls are only counted)
//   STK_FAULT_ERRNO  ENOSPC (default) | EIO
//   STK_FAULT_STICKY 1: the Nth call and every counted call after it fail (a disk that stays full)
//   STK_FAULT_REPORT a file that receives "calls=C failed=F\n" at exit (written with the real write)
//   STK_FAULT_ACTION fail (default) | sigterm: the Nth counted call does not fail; the process sends
//                    itself SIGTERM just before it, waits STK_FAULT_PAUSE_MS (default 300) for the
//                    run's interruption watcher to act, then makes the call. The report is written
//                    at that moment (an interrupted run ends in _exit, which runs no destructor).
//
// Only the process started with LD_PRELOAD is injected: the variables are removed at load, so the
// programs it starts (the engines) run without the library.
//
// A close counts only for a descriptor open for writing; a failed close still closes it (as Linux
// does), then reports the error. Calls on a file already removed are not counted.
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <string>

namespace {

using write_fn = ssize_t (*)(int, const void*, size_t);
using pwrite_fn = ssize_t (*)(int, const void*, size_t, off_t);
using fd_fn = int (*)(int);
using rename_fn = int (*)(const char*, const char*);

enum Op { kWrite = 1, kSync = 2, kRename = 4, kClose = 8, kTruncate = 16, kRead = 32 };

// The operations STK_FAULT_OP names: one name, or several joined by '+'.
int parse_ops(const std::string& text) {
  int ops = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t plus = text.find('+', at);
    const std::string o = text.substr(at,
                                      plus == std::string::npos ? std::string::npos : plus - at);
    ops |= o == "write"      ? kWrite
           : o == "fsync"    ? kSync
           : o == "rename"   ? kRename
           : o == "close"    ? kClose
           : o == "truncate" ? kTruncate
           : o == "read"     ? kRead
                             : kWrite | kSync | kRename | kClose;
    if (plus == std::string::npos) break;
    at = plus + 1;
  }
  return ops;
}

struct Config {
  std::string dir;  // canonical, with a trailing '/' (a folder) or without (one file)
  int ops = 0;
  long n = 0;
  int err = ENOSPC;
  bool sticky = false;
  std::string report;
  bool signal = false;  // STK_FAULT_ACTION=sigterm
  long pause_ms = 300;
};

std::atomic<long> g_calls{0}, g_failed{0};

template <class F>
F real(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

const Config& config() {
  static const Config conf = [] {
    Config c;
    if (const char* d = getenv("STK_FAULT_DIR"); d && *d) {
      char buf[PATH_MAX];
      struct stat st {};
      if (realpath(d, buf))
        c.dir = std::string(buf) + (stat(buf, &st) == 0 && S_ISREG(st.st_mode) ? "" : "/");
    }
    const char* op = getenv("STK_FAULT_OP");
    c.ops = parse_ops(op ? op : "any");
    if (const char* n = getenv("STK_FAULT_N")) c.n = atol(n);
    if (const char* e = getenv("STK_FAULT_ERRNO"); e && std::string(e) == "EIO") c.err = EIO;
    if (const char* s = getenv("STK_FAULT_STICKY")) c.sticky = std::string(s) == "1";
    if (const char* r = getenv("STK_FAULT_REPORT")) c.report = r;
    if (const char* a = getenv("STK_FAULT_ACTION")) c.signal = std::string(a) == "sigterm";
    if (const char* ms = getenv("STK_FAULT_PAUSE_MS")) c.pause_ms = atol(ms);
    return c;
  }();
  return conf;
}

bool under_dir(const std::string& path) {
  const Config& c = config();
  if (c.dir.empty()) return false;
  return c.dir.back() == '/' ? path.compare(0, c.dir.size(), c.dir) == 0 : path == c.dir;
}

bool fd_under_dir(int fd) {
  if (config().dir.empty()) return false;
  char link[64], target[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const int saved = errno;
  const ssize_t n = readlink(link, target, sizeof target - 1);
  errno = saved;
  if (n <= 0) return false;
  target[n] = '\0';
  // A file already removed (a released lock file) holds nothing that a failure could lose.
  static constexpr char kDeleted[] = " (deleted)";
  if (std::size_t(n) >= sizeof kDeleted - 1 &&
      strcmp(target + n - (sizeof kDeleted - 1), kDeleted) == 0)
    return false;
  return under_dir(target);
}

bool path_under_dir(const char* path) {
  if (config().dir.empty() || !path) return false;
  // The file may not exist yet (a rename's target): its folder decides.
  std::string p(path);
  const auto slash = p.rfind('/');
  const std::string folder = slash == std::string::npos ? "."
                             : slash == 0               ? "/"
                                                        : p.substr(0, slash);
  char buf[PATH_MAX];
  const int saved = errno;
  const bool ok = realpath(folder.c_str(), buf) != nullptr;
  errno = saved;
  return ok && under_dir(std::string(buf) + "/");
}

// Only the process started under the injector is injected: its configuration is read at load, and
// the variables are removed so that the programs it starts (engines) run without it; a forked
// child (which keeps the library) never writes the report.
pid_t g_pid = 0;

void write_report();

// STK_FAULT_ACTION=sigterm: the signal a user or a scheduler sends, arriving just before this
// call; the pause lets the watcher end the run here unless a WriteSection holds it off.
void stop_here() {
  if (getpid() != g_pid) return;  // a forked child on its way to exec: not the run
  write_report();
  kill(getpid(), SIGTERM);
  const timespec pause{config().pause_ms / 1000, (config().pause_ms % 1000) * 1000000};
  nanosleep(&pause, nullptr);
}

// Whether this counted call fails.
bool fails(Op op, bool counted) {
  const Config& c = config();
  if (!counted || !(c.ops & op)) return false;
  const long k = ++g_calls;  // counted with N = 0 too: a clean run tells how many calls there are
  if (c.n > 0 && (k == c.n || (c.sticky && k > c.n))) {
    ++g_failed;
    if (!c.signal) return true;
    stop_here();
  }
  return false;
}

__attribute__((constructor)) void load() {
  config();
  g_pid = getpid();
  for (const char* v :
       {"LD_PRELOAD", "STK_FAULT_DIR", "STK_FAULT_OP", "STK_FAULT_N", "STK_FAULT_ERRNO",
        "STK_FAULT_STICKY", "STK_FAULT_REPORT", "STK_FAULT_ACTION", "STK_FAULT_PAUSE_MS"})
    unsetenv(v);
}

void write_report() {
  const Config& c = config();
  if (c.report.empty() || getpid() != g_pid) return;
  static const auto open_fn = real<int (*)(const char*, int, ...)>("open");
  const int saved = errno;
  const int fd = open_fn(c.report.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0) {
    char line[96];
    const int len = snprintf(line, sizeof line, "calls=%ld failed=%ld\n", g_calls.load(),
                             g_failed.load());
    static const auto w = real<write_fn>("write");
    static const auto cl = real<fd_fn>("close");
    w(fd, line, size_t(len));
    cl(fd);
  }
  errno = saved;
}

struct Reporter {
  ~Reporter() { write_report(); }
} g_reporter;

}  // namespace

extern "C" {

ssize_t write(int fd, const void* buf, size_t n) {
  static const auto f = real<write_fn>("write");
  if (fails(kWrite, fd > 2 && fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd, buf, n);
}

ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  static const auto f = real<pwrite_fn>("pwrite");
  if (fails(kWrite, fd > 2 && fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void* buf, size_t n, off_t off) {
  static const auto f = real<pwrite_fn>("pwrite64");
  if (fails(kWrite, fd > 2 && fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd, buf, n, off);
}

ssize_t read(int fd, void* buf, size_t n) {
  static const auto f = real<ssize_t (*)(int, void*, size_t)>("read");
  if (fails(kRead, fd > 2 && fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd, buf, n);
}

ssize_t pread(int fd, void* buf, size_t n, off_t off) {
  static const auto f = real<ssize_t (*)(int, void*, size_t, off_t)>("pread");
  if (fails(kRead, fd > 2 && fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd, buf, n, off);
}

ssize_t pread64(int fd, void* buf, size_t n, off64_t off) {
  static const auto f = real<ssize_t (*)(int, void*, size_t, off64_t)>("pread64");
  if (fails(kRead, fd > 2 && fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd, buf, n, off);
}

int fsync(int fd) {
  static const auto f = real<fd_fn>("fsync");
  if (fails(kSync, fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd);
}

int fdatasync(int fd) {
  static const auto f = real<fd_fn>("fdatasync");
  if (fails(kSync, fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd);
}

int ftruncate(int fd, off_t length) {
  static const auto f = real<int (*)(int, off_t)>("ftruncate");
  if (fails(kTruncate, fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd, length);
}

int ftruncate64(int fd, off64_t length) {
  static const auto f = real<int (*)(int, off64_t)>("ftruncate64");
  if (fails(kTruncate, fd_under_dir(fd))) return errno = config().err, -1;
  return f(fd, length);
}

int rename(const char* from, const char* to) {
  static const auto f = real<rename_fn>("rename");
  if (fails(kRename, path_under_dir(from) || path_under_dir(to))) return errno = config().err, -1;
  return f(from, to);
}

int close(int fd) {
  static const auto f = real<fd_fn>("close");
  // Only a descriptor open for writing: closing a read-only one (a folder fsync'd) cannot lose data.
  const int saved = errno;
  const int fl = fcntl(fd, F_GETFL);
  errno = saved;
  const bool counted = fd > 2 && fl >= 0 && (fl & O_ACCMODE) != O_RDONLY && fd_under_dir(fd);
  const bool fail = fails(kClose, counted);
  const int r = f(fd);
  if (fail) return errno = (config().err == ENOSPC ? EIO : config().err), -1;
  return r;
}

}  // extern "C"
