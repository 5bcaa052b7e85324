// io/interruption.h in a child process: a stop signal ends the run with exit 2 and removes what
// was registered, here an appended file the run created and left empty (output_file.h: a stop
// never leaves a 0-byte file), while a file holding a record keeps it.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "cli_support.h"
#include "io/interruption.h"
#include "io/output_file.h"

namespace fs = std::filesystem;
using namespace stk::harness;

namespace {

// Runs `body` in a child under the signal policy, then stops it with SIGTERM; its exit status.
template <class Body>
int status_of_stopped_child(Body body) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    io::install_signal_policy();
    body();
    ::kill(::getpid(), SIGTERM);
    ::sleep(10);  // the watcher ends the process first
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("interruption: an appended file stopped before its first record is removed",
          "[io][faults]") {
  const fs::path dir = stk::test::scratch_dir("interruption-append");
  const std::string empty = (dir / "empty.pgn").string(), kept = (dir / "kept.pgn").string();
  CHECK(status_of_stopped_child([&] {
          static io::AppendFile f;  // still open when the stop comes
          f.open(empty);
        }) == 2);
  CHECK_FALSE(fs::exists(empty));
  CHECK(status_of_stopped_child([&] {
          static io::AppendFile f;
          f.open(kept);
          f.append("1. e4 *\n");
        }) == 2);
  REQUIRE(fs::exists(kept));
  CHECK(fs::file_size(kept) == 8);
}

TEST_CASE("interruption: a run finished while a stop waits on its write goes on without waiting",
          "[io][faults]") {
  // The stop arrives inside a write section, so the watcher waits for that write; the run then
  // finishes (its outcome stands) and writes once more, as static destructors may. That write must
  // not wait out the watcher's grace (10 s) for a stop that can no longer be taken.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    io::install_signal_policy();
    int status = 0;
    {
      io::WriteSection in_flight;
      ::kill(::getpid(), SIGTERM);
      ::usleep(200000);  // the watcher now waits for this section
      status = io::finish_run(0);
    }
    const auto start = std::chrono::steady_clock::now();
    { io::WriteSection after_finish; }
    const auto waited = std::chrono::steady_clock::now() - start;
    ::_exit(waited < std::chrono::seconds(5) ? status : 3);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
