#include "io/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "cli/cli.h"
#include "io/file_kind.h"
#include "io/interruption.h"
#include "io/output_file.h"

namespace stk::harness::io {

namespace fs = std::filesystem;

namespace {

std::string holder_of(int fd) {
  char buf[64] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string s = n > 0 ? std::string(buf, std::size_t(n)) : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s.empty() ? "pid unknown" : s;
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

[[noreturn]] void held_by_another(const std::string& path, const std::string& holder) {
  throw HeldByAnotherRun(
      path + ": held by another run (" + holder +
      "): one run owns a state and its reports; wait for it, or give this run another state or config");
}

// `path` with its folder resolved (symbolic links, "..") and its last name kept as it is.
std::string with_resolved_folder(const std::string& path) {
  const fs::path p(path);
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(p.has_parent_path() ? p.parent_path() : ".", ec);
  return ec ? path : (dir / p.filename()).string();
}

// `file` with every symbolic link followed, its own included even when it dangles (a journal the
// first run has not created yet is reached through the same link by the second).
fs::path resolve_links(const std::string& file) {
  fs::path p = fs::absolute(file);
  std::error_code ec;
  for (int hop = 0; hop < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hop) {
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  const fs::path resolved = fs::weakly_canonical(p, ec);
  return ec ? p : resolved;
}

// The lock file's descriptor, opened without following a link, refused unless a regular file.
int open_lock_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd < 0 && errno == ELOOP)
    throw InputError(
        path + ": is a symbolic link: a run's lock file must be a plain file (remove the link)");
  if (fd < 0) throw InputError(path + ": cannot open the run's lock file: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(path + ": is " + file_kind(st.st_mode) +
                     ", not a regular file: a run's lock file must be a plain file");
  }
  return fd;
}

}  // namespace

RunLock::RunLock(std::string path) { lock_file(path); }

RunLock::RunLock(OfFile, const std::string& file) {
  lock_file(resolve_links(file).string() + ".lock");
  try {
    lock_state(file);
  } catch (...) {
    release();  // the lock file goes with the refusal
    throw;
  }
}

void RunLock::lock_file(const std::string& given) {
  create_parent_dirs(given);
  path_ = with_resolved_folder(given);
  for (int attempt = 0; attempt < 100; ++attempt) {
    // From the file's creation to its registration for removal: a stop never leaves it behind.
    const WriteSection taking;
    const int fd = open_lock_file(path_);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string holder = err == EWOULDBLOCK ? holder_of(fd) : "";
      ::close(fd);
      if (err == EWOULDBLOCK) held_by_another(path_, holder);
      throw InputError(path_ + ": cannot lock: " + std::strerror(err));
    }
    // The file locked must still be the one at the path (a holder removes it on release).
    struct stat a {
    }, b{};
    if (::fstat(fd, &a) != 0 || ::lstat(path_.c_str(), &b) != 0 || !same_file(a, b)) {
      ::close(fd);
      continue;
    }
    const std::string line = "pid " + std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, line.data(), line.size(), 0) != ssize_t(line.size())) {
      const int err = errno;
      ::unlink(path_.c_str());
      ::close(fd);
      throw InputError(path_ + ": cannot write the run's lock file: " + std::strerror(err));
    }
    fd_ = fd;
    remove_on_interrupt_ = std::make_unique<RemoveOnInterrupt>(path_);
    return;
  }
  throw InputError(path_ + ": cannot lock: the lock file keeps being replaced");
}

void RunLock::lock_state(const std::string& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return;  // not there yet: the lock file alone guards its creation
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return;  // the run's own reader refuses it by name
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    held_by_another(file, "through another name: a link to the same file");
  }
  state_fd_ = fd;
}

RunLock::~RunLock() { release(); }

void RunLock::release() {
  if (state_fd_ >= 0) ::close(state_fd_);
  state_fd_ = -1;
  if (fd_ < 0) return;
  // While still holding it (see the header), and only if the path still names the file locked.
  struct stat a {
  }, b{};
  if (::fstat(fd_, &a) == 0 && ::lstat(path_.c_str(), &b) == 0 && same_file(a, b))
    ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
  remove_on_interrupt_.reset();
}

}  // namespace stk::harness::io
