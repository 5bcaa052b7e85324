#include "io/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "cli/cli.h"
#include "io/output_file.h"

namespace stk::harness::io {

namespace {

std::string holder_of(int fd) {
  char buf[64] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string s = n > 0 ? std::string(buf, std::size_t(n)) : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s.empty() ? "pid unknown" : s;
}

}  // namespace

RunLock::RunLock(std::string path) : path_(std::move(path)) {
  require_regular_target(path_);
  create_parent_dirs(path_);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      throw InputError(path_ + ": cannot open the run's lock file: " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string holder = err == EWOULDBLOCK ? holder_of(fd) : "";
      ::close(fd);
      if (err == EWOULDBLOCK)
        throw InputError(
            path_ + ": held by another run (" + holder +
            "): one run owns a match's state and reports; wait for it or give another --config/--state");
      throw InputError(path_ + ": cannot lock: " + std::strerror(err));
    }
    // The file locked must still be the one at the path (a holder removes it on release).
    struct stat a {
    }, b{};
    if (::fstat(fd, &a) != 0 || ::stat(path_.c_str(), &b) != 0 || a.st_ino != b.st_ino ||
        a.st_dev != b.st_dev) {
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
    return;
  }
  throw InputError(path_ + ": cannot lock: the lock file keeps being replaced");
}

RunLock::~RunLock() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // while still holding it: see the header
  ::close(fd_);
}

}  // namespace stk::harness::io
