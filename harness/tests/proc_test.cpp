// The one way stk-harness starts programs (proc/): engine commands split into words like a shell
// quotes them and nothing more, and children started from an argument vector with a clean signal
// state, in their own process group, stdin /dev/null, with a working directory and a timeout.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>

#include "cli_support.h"
#include "proc/command_words.h"
#include "proc/process.h"
#include "uci_client/uci_process.h"

using namespace stk;
namespace proc = stk::harness::proc;
using Catch::Matchers::Contains;
using Words = std::vector<std::string>;

namespace {

// Words as a user might type them: any printable ASCII, the characters a shell treats specially,
// blanks, newlines and backslashes; empty words too.
rc::Gen<std::string> gen_word() {
  auto tricky = rc::gen::element<char>('\'', '"', '\\', ' ', '\t', '\n', '$', '`', ';', '|', '&',
                                       '*', '?', '~', '#', '(', ')', '<', '>', '-', '=');
  return rc::gen::container<std::string>(
      rc::gen::oneOf(rc::gen::inRange<char>(0x20, 0x7f), tricky));
}

// An independent model of the quoting rule: `word` written in one of four ways a shell user
// writes it (each must give the word back), chosen by `style`.
std::string write_word(const std::string& word, int style) {
  std::string out;
  switch (style) {
    case 0:  // backslash before every character; a newline goes in single quotes
      for (char c : word) out += c == '\n' ? std::string("'\n'") : std::string("\\") + c;
      return word.empty() ? "\"\"" : out;
    case 1:  // double quotes, escaping the four characters that need it
      for (char c : word)
        out += std::string("$`\"\\").find(c) != std::string::npos ? std::string("\\") + c
                                                                  : std::string(1, c);
      return "\"" + out + "\"";
    case 2:  // single quotes, each ' closed, escaped and reopened
      for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
      return "'" + out + "'";
    default:  // runs of single- and double-quoted pieces glued together
      for (std::size_t i = 0; i < word.size(); i += 3)
        out += write_word(word.substr(i, 3), i % 2 ? 1 : 2);
      return word.empty() ? "''" : out;
  }
}

// The words /bin/sh makes of `text` (NUL-separated by printf): the reference for texts without
// expansions.
Words shell_words(const std::string& text) {
  const proc::RunResult r = proc::run({"/bin/sh", "-c", "printf '%s\\0' " + text});
  Words out;
  std::istringstream in(r.output);
  for (std::string w; std::getline(in, w, '\0');) out.push_back(w);
  return out;
}

// A field of /proc/self/status of a child: "SigBlk", "SigIgn".
unsigned long long status_mask(const std::string& output, const std::string& field) {
  auto at = output.find(field + ":");
  REQUIRE(at != std::string::npos);
  return std::stoull(output.substr(at + field.size() + 1), nullptr, 16);
}

unsigned long long bit(int sig) { return 1ULL << (sig - 1); }

// Blocks SIGTERM and ignores SIGPIPE and SIGINT while alive, as the harness may do for its own
// signal handling; restores all on the way out.
struct HarnessSignals {
  sigset_t old_mask;
  struct sigaction old_pipe, old_int;
  HarnessSignals() {
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &term, &old_mask);
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old_pipe);
    sigaction(SIGINT, &ign, &old_int);
  }
  ~HarnessSignals() {
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    sigaction(SIGPIPE, &old_pipe, nullptr);
    sigaction(SIGINT, &old_int, nullptr);
  }
};

}  // namespace

TEST_CASE("proc: words written in any quoting style split back into the same words", "[proc]") {
  rc::prop("split_words inverts an independent quoting model", [] {
    const auto words = *rc::gen::container<Words>(gen_word());
    std::string text = *rc::gen::element<std::string>("", " ", "\t", "\n");
    for (const std::string& w : words) {
      text += write_word(w, *rc::gen::inRange(0, 4));
      text += *rc::gen::element<std::string>(" ", "  ", "\t", "\n", " \\\n ");
    }
    RC_LOG() << text;
    RC_ASSERT(proc::split_words(text) == words);
  });
  rc::prop("display_command is read back word for word", [] {
    const auto words = *rc::gen::nonEmpty(rc::gen::container<Words>(gen_word()));
    RC_ASSERT(proc::split_words(proc::display_command(words)) == words);
  });
}

TEST_CASE("proc: the words of a command are the ones /bin/sh makes, with nothing expanded",
          "[proc]") {
  for (const std::string text :
       {"a b", "  a\t b   c ", "'a b' \"c d\"", "a\\ b", "'it'\\''s'", "\"say \\\"hi\\\"\"",
        "\"back\\\\slash\" 'back\\slash'", "\"a\\b\"", "x'y'\"z\"", "'' \"\" a", "a\\\nb",
        "\"line\\\ncontinued\"", "\"\\x\\$\\`\"", "--flag=\"two words\"", "'\"' \"'\""}) {
    INFO(text);
    CHECK(proc::split_words(text) == shell_words(text));
  }
  // A newline separates words (to a shell it would end the command).
  CHECK(proc::split_words("a\nb \n") == Words{"a", "b"});
  // What a shell would expand or interpret stays literal.
  CHECK(proc::split_words("a $(touch PWNED) `x` $HOME ~ *.cpp > out; b | c &") ==
        Words{"a", "$(touch", "PWNED)", "`x`", "$HOME", "~", "*.cpp", ">", "out;", "b", "|", "c",
              "&"});
  CHECK(proc::split_words("\"$(touch PWNED)\" '$x'") == Words{"$(touch PWNED)", "$x"});
}

TEST_CASE("proc: an unbalanced quote or a trailing backslash is refused, saying which", "[proc]") {
  auto why = [](const std::string& text) {
    try {
      proc::split_words(text);
    } catch (const proc::CommandSyntaxError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(why("stk 'open") == "unbalanced single quote (opened at character 5)");
  CHECK(why("stk \"open 'x'") == "unbalanced double quote (opened at character 5)");
  CHECK(why("stk \"a\\\"") == "unbalanced double quote (opened at character 5)");
  CHECK(why("stk x\\") == "ends in a backslash that quotes nothing");
  CHECK_THROWS_AS(proc::command_argv("   "), proc::CommandSyntaxError);
}

TEST_CASE("proc: an existing executable path is one word, spaces and quotes included", "[proc]") {
  const auto dir = test::scratch_dir("proc-path") / "a b'c";
  std::filesystem::create_directories(dir);
  const auto exe = dir / "my engine";
  test::write_file(exe, "#!/bin/sh\necho hi\n");
  std::filesystem::permissions(exe, std::filesystem::perms::owner_all);
  CHECK(proc::command_argv(exe.string()) == Words{exe.string()});
  CHECK(proc::command_argv(proc::quote_word(exe.string()) + " -x") == Words{exe.string(), "-x"});
  // A bare name of a file here is that file, not one found in $PATH.
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  CHECK(proc::command_argv("my engine") == Words{"./my engine"});
  std::filesystem::current_path(cwd);
  CHECK(proc::command_argv("no-such-engine --x") == Words{"no-such-engine", "--x"});
}

TEST_CASE("proc: run passes arguments literally and reports exit, signal and output", "[proc]") {
  const std::string evil = "-x'; touch PWNED; echo '$(touch PWNED2)\" `touch PWNED3`";
  const auto dir = test::scratch_dir("proc-run");
  proc::RunOptions in_dir;
  in_dir.cwd = dir.string();
  auto r = proc::run({"/bin/sh", "-c", "printf '%s|' \"$@\"; pwd; echo err >&2; exit 3", "sh", evil,
                      "", "two words"},
                     in_dir);
  CHECK(r.exit_code == 3);
  CHECK(r.signal == 0);
  CHECK(r.output == evil + "||two words|" + std::filesystem::canonical(dir).string() + "\nerr\n");
  CHECK_FALSE(std::filesystem::exists(dir / "PWNED"));
  CHECK(r.describe() == "exit 3");

  proc::RunOptions quiet;
  quiet.stderr_to = proc::Stderr::Discarded;
  CHECK(proc::run({"/bin/sh", "-c", "echo out; echo err >&2"}, quiet).output == "out\n");

  auto killed = proc::run({"/bin/sh", "-c", "kill -SEGV $$"});
  CHECK(killed.signal == SIGSEGV);
  CHECK(killed.exit_code == -1);
  CHECK_THAT(killed.describe(), Contains("killed by signal 11"));

  auto missing = proc::run({"/nonexistent/program", "x"});
  CHECK(missing.exit_code == 127);
  CHECK_THAT(missing.output, Contains("cannot run '/nonexistent/program': No such file"));
  CHECK(proc::run({"cat"}).output.empty());  // stdin is /dev/null: cat ends at once
  CHECK(proc::why_not_runnable("sh") == "");
  CHECK(proc::why_not_runnable("no-such-program-anywhere") == "is not found in $PATH");
  CHECK_THAT(proc::why_not_runnable("/nonexistent/x"), Contains("is not an executable file"));
}

TEST_CASE("proc: a timeout kills the child's whole process group", "[proc]") {
  const auto dir = test::scratch_dir("proc-timeout");
  const auto marker = dir / "grandchild-survived";
  proc::RunOptions limit;
  limit.timeout = std::chrono::seconds(1);
  const auto t0 = std::chrono::steady_clock::now();
  // The grandchild would write the marker after 2 s unless it dies with its group.
  auto r = proc::run({"/bin/sh", "-c", "(sleep 2; touch \"$1\") & sleep 30", "sh", marker.string()},
                     limit);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.timed_out);
  CHECK(r.describe() == "timed out after 1 s");
  CHECK(s < 10);
  sleep(2);
  CHECK_FALSE(std::filesystem::exists(marker));
}

// The verdict is the child's life against its timeout, whenever its output closes: a child that
// closes stdout and lives on is waited for until its deadline (the mutation campaign: a wait that
// gave up at the first poll after the output closed still passed every test, since no child here
// outlived its output).
TEST_CASE("proc: timed_out holds exactly when the child outlives its timeout", "[proc]") {
  using namespace std::chrono;
  struct Life {
    const char* sleep;  // the child's lifetime, for sh's sleep
    double seconds;
  };
  for (const bool closes_output_first : {false, true})
    for (const Life life : {Life{"0.3", 0.3}, Life{"30", 30}})
      for (const std::optional<seconds> timeout :
           {std::optional<seconds>{}, std::optional<seconds>{1}}) {
        if (!timeout && life.seconds > 1) continue;  // no limit: it would run its full life
        proc::RunOptions limit;
        limit.timeout = timeout;
        const std::string script = std::string(closes_output_first ? "exec >&- 2>&-; " : "") +
                                   "sleep " + life.sleep + "; exit 7";
        const auto t0 = steady_clock::now();
        const auto r = proc::run({"/bin/sh", "-c", script}, limit);
        const double s = duration<double>(steady_clock::now() - t0).count();
        const bool outlives = timeout && life.seconds > double(timeout->count());
        INFO(script << ", timeout " << (timeout ? timeout->count() : -1) << " s: " << r.describe());
        CHECK(r.timed_out == outlives);
        CHECK(r.exit_code == (outlives ? -1 : 7));
        CHECK(r.signal == (outlives ? SIGKILL : 0));
        CHECK(s >= (outlives ? double(timeout->count()) : life.seconds) - 0.05);
        CHECK(s < (outlives ? double(timeout->count()) : life.seconds) + 10);
      }
}

TEST_CASE("proc: a child flooding its output is stopped at the cap, not kept", "[proc]") {
  proc::RunOptions cap;
  cap.max_output = std::size_t(1) << 20;
  cap.timeout = std::chrono::seconds(60);  // never reached: the cap ends it first
  const auto t0 = std::chrono::steady_clock::now();
  auto r = proc::run({"yes"}, cap);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.flooded);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code != 0);
  CHECK(r.output.size() == cap.max_output);
  CHECK(r.describe() == "stopped: wrote over 1 MiB (a flood)");
  CHECK(s < 30);
  // Output under the cap is kept whole.
  auto small = proc::run({"/bin/sh", "-c", "printf 'abc'"}, cap);
  CHECK_FALSE(small.flooded);
  CHECK(small.output == "abc");
}

TEST_CASE("proc: children start with no blocked or ignored signals, in their own group", "[proc]") {
  HarnessSignals harness_handling;
  const std::string masks = "grep -E '^Sig(Blk|Ign)' /proc/self/status";
  auto check_clean = [](const std::string& out) {
    INFO(out);
    for (int sig : {SIGTERM, SIGPIPE, SIGINT}) {
      CHECK((status_mask(out, "SigBlk") & bit(sig)) == 0);
      CHECK((status_mask(out, "SigIgn") & bit(sig)) == 0);
    }
  };
  // proc::run: grep is the child and reads its own masks.
  check_clean(proc::run(proc::split_words(masks)).output);
  // It leads its own process group: the group of cut (the shell's child) is the shell's pid.
  std::istringstream ids(
      proc::run({"/bin/sh", "-c", "cut -d' ' -f5 /proc/self/stat; echo $$"}).output);
  std::string pgrp, pid;
  ids >> pgrp >> pid;
  CHECK(pgrp == pid);

  // An engine started by UciProcess: the same clean start.
  harness::UciProcess engine(harness::UciProcess::NoHandshake{}, masks);
  std::string engine_out;
  while (auto line = engine.read_line(harness::SteadyClock::now() + std::chrono::seconds(10)))
    engine_out += line->text + "\n";
  check_clean(engine_out);
}

// MODEL proc-path-lookup
// checks: harness/src/proc/process.cpp  (which file a program name without '/' runs)
// contract: docs/uci.md#engine-commands-how-stk-harness-starts-another-engine
// planted: ci/mutants/proc-path-trailing-empty-entry-skipped.patch  (PATH's trailing empty entry not searched)
TEST_CASE("find_program takes the first PATH entry holding a runnable file, empty ones the cwd",
          "[proc][model]") {
  namespace fs = std::filesystem;
  const fs::path root = test::scratch_dir("proc-path-lookup"), cwd = fs::current_path();
  // Folders: the program runnable, not executable, a folder of its name, or absent.
  for (const char* d : {"run", "norun", "dir", "none", "here"}) fs::create_directories(root / d);
  for (const char* d : {"run", "here"}) {
    test::write_file(root / d / "prog", "#!/bin/sh\n");
    fs::permissions(root / d / "prog", fs::perms::owner_all);
  }
  test::write_file(root / "norun" / "prog", "#!/bin/sh\n");
  fs::permissions(root / "norun" / "prog", fs::perms::owner_read | fs::perms::owner_write);
  fs::create_directories(root / "dir" / "prog");
  const char* old_path = std::getenv("PATH");
  const std::string saved = old_path ? old_path : "";
  fs::current_path(root / "here");
  rc::prop("PATH of 0 to 5 entries, empty ones anywhere", [&] {
    const auto entries = *rc::gen::container<std::vector<std::string>>(
        *rc::gen::inRange<std::size_t>(0, 6),
        rc::gen::element<std::string>("", (root / "run").string(), (root / "norun").string(),
                                      (root / "dir").string(), (root / "none").string()));
    std::string path;
    for (std::size_t i = 0; i < entries.size(); ++i) path += (i ? ":" : "") + entries[i];
    // The model: split at every ':' (n entries give n - 1 colons; no entry at all is one empty
    // entry), an empty entry the current folder, the first with a runnable regular file wins.
    std::vector<std::string> split = entries.empty() ? std::vector<std::string>{""} : entries;
    std::string want;
    for (const std::string& e : split) {
      if (e == (root / "run").string() || e.empty()) {
        want = (e.empty() ? std::string(".") : e) + "/prog";
        break;
      }
    }
    ::setenv("PATH", path.c_str(), 1);
    RC_ASSERT(proc::find_program("prog") == want);
  });
  fs::current_path(cwd);
  ::setenv("PATH", saved.c_str(), 1);
  CHECK(proc::find_program("sh") != "");
}
