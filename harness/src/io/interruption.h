// How a run ends when the world stops it: a closed stdout, SIGTERM, SIGINT or SIGHUP.
//
// install_signal_policy (first thing in main) ignores SIGPIPE, so a write to a closed pipe is a
// failed write the run reports (stdout_failure), never a silent death; and it blocks SIGTERM,
// SIGINT and SIGHUP in every thread, handing them to one watcher thread. The watcher waits for any
// whole-file write or record append in flight (WriteSection), kills the engines the run started
// (ChildGroup), writes the run's <error> reports (the handler set by set_interrupt_handler), removes
// the temporaries and lock files registered below, and ends the process with exit status 2. Code
// that is not interrupted this way (tests) pays nothing: the registries are only read by the watcher.
#pragma once

#include <functional>
#include <string>

namespace stk::harness::io {

// Installs the policy above. Call once, before any thread starts (threads inherit the mask).
void install_signal_policy();

// The run's outcome is decided: called by main with the status it is about to return. It waits
// for any write in flight, then holds every writer for good, so a stop signal arriving from now on
// changes nothing (the watcher finds the run finished) and one being handled ends the process
// with exit 2 first (this call never returns then): exit's destructors never race the watcher.
int finish_run(int status);

// Restores default dispositions and an empty mask: for a forked child before it execs or runs on.
void reset_signals_in_child();

// The run's own last words: writes its <error> reports with `why` ("interrupted by SIGTERM").
// Runs on the watcher thread while every writer is held (WriteSection).
void set_interrupt_handler(std::function<void(const std::string& why)> handler);

// Held while a file is being written (from its temporary's creation to its rename, or one record's
// append): the watcher never ends the process in the middle of one. Once a stop signal has
// arrived, no new outermost section starts (it waits for the watcher): the run stops at the end of
// the write in flight, deterministically, not after a race for the next one.
class WriteSection {
 public:
  WriteSection();
  ~WriteSection();
  WriteSection(const WriteSection&) = delete;
  WriteSection& operator=(const WriteSection&) = delete;
};

// A path removed when the run is interrupted (a temporary, a lock file) for as long as it lives.
class RemoveOnInterrupt {
 public:
  explicit RemoveOnInterrupt(std::string path);
  ~RemoveOnInterrupt();
  RemoveOnInterrupt(const RemoveOnInterrupt&) = delete;
  RemoveOnInterrupt& operator=(const RemoveOnInterrupt&) = delete;

 private:
  std::string path_;
};

// A child (its process group, or the child alone when it leads none), killed (SIGKILL) when the
// run is interrupted.
void add_child_group(int pgid);
void remove_child_group(int pgid);

// "" when everything written to stdout reached it (flushed now), else why not ("stdout: write
// failed: Broken pipe", "stdout was closed when the run started").
std::string stdout_failure();

}  // namespace stk::harness::io
