// One run owns its state: an advisory lock (flock) on "<file>.lock" beside a run's state journal
// and beside its reports, held for the whole run. A second run on the same state (or config) is
// refused with InputError naming the lock file and the holder's pid (exit 2).
//
// Locks follow the file's identity, not the string that names it: the lock file's folder is
// resolved (a folder reached through a symbolic link takes the same lock), a state file reached
// through a symbolic link takes the lock of the file it points to, and an existing state file is
// itself flock'ed (a hard link to it is held too). The lock file is opened with O_NOFOLLOW: a
// symbolic link, FIFO or folder at a lock path is refused by name and its target never written.
//
// The lock file holds "pid N\n" of its holder and is removed when the holder releases it (while
// still holding the lock; an acquirer checks that the file it locked is still the one at the path,
// so a removed lock file is never held by two runs). A run killed by SIGKILL leaves the file; the
// kernel has dropped its lock, so the next run takes it over. A run stopped by SIGTERM removes it
// (io/interruption.h).
#pragma once

#include <memory>
#include <string>

#include "cli/cli.h"

namespace stk::harness::io {

class RemoveOnInterrupt;

// The lock is held by another live run: its reports are its own, so this run leaves them alone
// (a lock refused for any other reason, such as a symbolic link at its path, is this run's error).
class HeldByAnotherRun : public InputError {
 public:
  using InputError::InputError;
};

class RunLock {
 public:
  // Takes the lock file `path` (created with its folders), or throws InputError
  // "PATH: held by another run (pid N): ..." when another process holds it.
  explicit RunLock(std::string path);
  // Locks the state file `file`: "<file resolved>.lock" as above, and `file` itself when it exists.
  struct OfFile {};
  RunLock(OfFile, const std::string& file);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  const std::string& path() const { return path_; }

 private:
  void lock_file(const std::string& given);
  void lock_state(const std::string& file);
  void release();
  std::string path_;
  int fd_ = -1;
  int state_fd_ = -1;
  std::unique_ptr<RemoveOnInterrupt> remove_on_interrupt_;
};

}  // namespace stk::harness::io
