// One run owns its state: an advisory lock (flock) on "<file>.lock" beside a run's state journal
// and beside its reports, held for the whole run. A second run on the same state (or config) is
// refused with InputError naming the lock file and the holder's pid (exit 2).
//
// The lock file holds "pid N\n" of its holder and is removed when the holder releases it (while
// still holding the lock; an acquirer checks that the file it locked is still the one at the path,
// so a removed lock file is never held by two runs). A run killed by a signal leaves the file; the
// kernel has dropped its lock, so the next run takes it over.
#pragma once

#include <string>

namespace stk::harness::io {

class RunLock {
 public:
  // Takes the lock on `path` (created with its folders), or throws InputError
  // "PATH: held by another run (pid N): ..." when another process holds it.
  explicit RunLock(std::string path);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace stk::harness::io
