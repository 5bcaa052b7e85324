// Independent models of io/: what a non-regular path is called, replace_file against a model file
// system under injected write failures (RLIMIT_FSIZE: a write past the limit fails with EFBIG),
// and RunLock's identity (two names conflict exactly when they reach the same file).
// Contract: docs/faults.md ("Whole files", "One run owns its state").
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "cli/cli.h"
#include "cli_support.h"
#include "io/file_kind.h"
#include "io/output_file.h"
#include "io/run_lock.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace io_model_test {

namespace fs = std::filesystem;
using namespace stk::harness;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every regular file under `dir` (relative names) with its bytes.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = read_all(e.path());
  return files;
}

// While alive: writes past `limit` bytes fail with EFBIG (SIGXFSZ ignored), for this process.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t limit) {
    getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit r = old_;
    r.rlim_cur = limit;
    setrlimit(RLIMIT_FSIZE, &r);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit old_{};
  void (*old_handler_)(int) = nullptr;
};

std::string model_kind(mode_t mode) {
  switch (mode & S_IFMT) {
    case S_IFDIR: return "a directory";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFIFO: return "a FIFO";
    case S_IFSOCK: return "a socket";
    default: return "not a regular file";
  }
}

std::optional<std::string> refusal(const std::string& path) {
  try {
    io::require_regular_target(path);
    return std::nullopt;
  } catch (const InputError& e) {
    return std::string(e.what());
  }
}

}  // namespace

// MODEL io-file-kind
// checks: harness/src/io/file_kind.cpp  (what a path that is not a regular file is called)
// contract: docs/faults.md#whole-files-ioreplace_file
// planted: ci/mutants/model-io-file-kind.patch  (a character device called a block device)
TEST_CASE("non-regular targets are refused by the name a model of the file type gives",
          "[model][io]") {
  rc::prop("file_kind of every file type with any permission bits", [] {
    const auto type = *rc::gen::elementOf(
        std::vector<mode_t>{S_IFDIR, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK, S_IFLNK, S_IFREG});
    const mode_t mode = type | (*rc::gen::inRange<mode_t>(0, 07777));
    RC_ASSERT(std::string(io::file_kind(mode)) == model_kind(mode));
  });
  const auto dir = stk::test::scratch_dir("io-model-kinds");
  const std::string fifo = (dir / "fifo").string(), sub = (dir / "sub").string(),
                    sock = (dir / "sock").string(), link = (dir / "link-to-fifo").string();
  REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
  fs::create_directory(sub);
  fs::create_symlink("fifo", link);
  const int s = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  REQUIRE(sock.size() < sizeof addr.sun_path);
  std::strcpy(addr.sun_path, sock.c_str());
  REQUIRE(bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  for (const auto& [path, kind] :
       std::vector<std::pair<std::string, std::string>>{{fifo, "a FIFO"},
                                                        {sub, "a directory"},
                                                        {sock, "a socket"},
                                                        {"/dev/null", "a character device"},
                                                        {link, "a FIFO"}}) {
    INFO(path);
    CHECK(refusal(path) == path + ": is " + kind + ", not a regular file: refusing to replace it");
    CHECK_THROWS_AS(io::replace_file(path, "x"), InputError);
  }
  CHECK(fs::is_fifo(fifo));
  CHECK(fs::is_directory(sub));
  CHECK(fs::is_empty(sub));
  CHECK_FALSE(refusal((dir / "missing").string()));
  ::close(s);
}

namespace {

// What stands at one level of a generated path: the folders above the target, then the target.
enum class Node { Missing, Folder, File, Fifo, Dangling };

// The refusal the contract gives for `levels` (the last is the target), as the name it starts
// with, or "" for none: the nearest name above the target that exists is a folder, and the target
// is missing or a regular file. (This process may write in every folder made here.)
std::string model_refused_name(const std::vector<Node>& levels,
                               const std::vector<std::string>& names) {
  const std::size_t target = levels.size() - 1;
  for (std::size_t i = target; i-- > 0;) {
    if (levels[i] == Node::Missing) continue;
    if (levels[i] != Node::Folder) return names[i];
    break;
  }
  if (levels[target] == Node::Fifo || levels[target] == Node::Folder) return names[target];
  return "";
}

// Every name under `dir`, links not followed: what a check that creates nothing leaves as it was.
std::set<std::string> names_under(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(dir)) names.insert(e.path().string());
  return names;
}

}  // namespace

// MODEL io-writable-target
// checks: harness/src/io/output_file.cpp  (an output's place, checked before a run's work)
// contract: docs/faults.md#refused-before-the-work-iorequire_writable_target
// planted: ci/mutants/model-io-writable-target.patch  (the walk stops at the first missing folder)
TEST_CASE(
    "an output's place is refused exactly when the contract's walk up says so, creating nothing",
    "[model][io]") {
  const auto root = stk::test::scratch_dir("io-model-writable");
  int n = 0;
  rc::prop("require_writable_target over generated paths", [&] {
    const auto kinds = std::vector<Node>{Node::Missing, Node::Folder, Node::File, Node::Fifo,
                                         Node::Dangling};
    const int depth = *rc::gen::inRange(1, 5);
    std::vector<Node> levels;
    bool below_folder = true;  // a name exists only inside a folder
    for (int i = 0; i < depth; ++i) {
      const Node k = below_folder ? *rc::gen::elementOf(kinds) : Node::Missing;
      levels.push_back(k);
      below_folder = k == Node::Folder;
    }
    const fs::path base = root / std::to_string(n++);
    fs::create_directory(base);
    std::vector<std::string> names;
    fs::path p = base;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      p /= "n" + std::to_string(i);
      names.push_back(p.string());
      switch (levels[i]) {
        case Node::Missing: break;
        case Node::Folder: fs::create_directory(p); break;
        case Node::File: std::ofstream(p) << "x"; break;
        case Node::Fifo: RC_ASSERT(mkfifo(p.c_str(), 0644) == 0); break;
        case Node::Dangling: fs::create_symlink(base / "nowhere", p); break;
      }
    }
    const auto before = names_under(base);
    const std::string expected = model_refused_name(levels, names);
    std::string got;
    try {
      io::require_writable_target(names.back());
    } catch (const InputError& e) {
      got = e.what();
      RC_ASSERT(!got.empty());
    }
    RC_TAG(expected.empty() ? "accepted" : "refused");
    if (expected.empty()) RC_ASSERT(got == "");
    else RC_ASSERT(got.rfind(expected + ": ", 0) == 0);
    RC_ASSERT(names_under(base) == before);
  });
}

// MODEL io-replace-file
// checks: harness/src/io/output_file.cpp  (whole-file replacement: the old file or the new, nothing else)
// contract: docs/faults.md#whole-files-ioreplace_file
// planted: ci/mutants/model-io-replace-file.patch  (a failed write leaves its temporary behind)
TEST_CASE("replace_file keeps a model file system under injected write failures", "[model][io]") {
  // Every replace fsyncs the file and its folder: in memory-backed /dev/shm when there is one.
  const auto dir = fs::is_directory("/dev/shm")
                       ? fs::path("/dev/shm") / ("stk-io-model-" + std::to_string(::getpid()))
                       : stk::test::scratch_dir("io-model-replace");
  rc::prop("after every replace, the folder holds exactly the model's files", [dir] {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::map<std::string, std::string> model;
    const int steps = *rc::gen::inRange(1, 7);
    for (int i = 0; i < steps; ++i) {
      const auto name = *rc::gen::elementOf(
          std::vector<std::string>{"a.xml", "b.json", "sub/c.md"});
      const auto size = *rc::gen::inRange<std::size_t>(0, 64);
      const auto content = std::string(size, char('a' + i));
      // No limit, or one a few bytes either side of the content's size.
      const std::optional<std::size_t> limit =
          *rc::gen::arbitrary<bool>()
              ? std::nullopt
              : std::optional<std::size_t>(
                    std::size_t(std::max<long>(0, long(size) + *rc::gen::inRange(-3, 3))));
      bool failed = false;
      {
        std::optional<FileSizeLimit> cap;
        if (limit) cap.emplace(rlim_t(*limit));
        try {
          io::replace_file((dir / name).string(), content);
        } catch (const InputError&) {
          failed = true;
        }
      }
      const bool must_fail = limit && content.size() > *limit;
      RC_ASSERT(failed == must_fail);
      if (!must_fail) model[name] = content;
      RC_ASSERT(tree(dir) == model);
    }
  });
  SECTION("both ways: a limit of exactly the size keeps the new file, one byte less the old") {
    fs::remove_all(dir);
    const std::string path = (dir / "r.xml").string();
    io::replace_file(path, "old");
    {
      const FileSizeLimit cap(10);
      CHECK_THROWS_AS(io::replace_file(path, "12345678901"), InputError);
    }
    CHECK(tree(dir) == std::map<std::string, std::string>{{"r.xml", "old"}});
    {
      const FileSizeLimit cap(10);
      CHECK_NOTHROW(io::replace_file(path, "1234567890"));
    }
    CHECK(tree(dir) == std::map<std::string, std::string>{{"r.xml", "1234567890"}});
  }
  fs::remove_all(dir);
}

// MODEL io-run-lock-identity
// checks: harness/src/io/run_lock.cpp  (a state's lock follows the file, not the name)
// contract: docs/faults.md#one-run-owns-its-state-iorunlock
// planted: ci/mutants/model-io-run-lock-identity.patch  (the state's own link not followed)
TEST_CASE("two RunLocks conflict exactly when their names reach the same state file",
          "[model][io]") {
  const auto dir = stk::test::scratch_dir("io-model-lock");
  // Names and the file each reaches (the model: identity by target).
  const std::vector<std::pair<std::string, std::string>> names = {
      {"f1", "f1"},        {"h1", "f1"},   {"s1", "f1"},     {"D/f1", "f1"},
      {"sub/../f1", "f1"}, {"./s1", "f1"}, {"f2", "f2"},     {"n3", "n3"},
      {"s3", "n3"},        {"D/s3", "n3"}, {"sub/n4", "n4"}, {"D/sub/n4", "n4"}};
  std::ofstream(dir / "f1") << "state 1\n";
  std::ofstream(dir / "f2") << "state 2\n";
  fs::create_hard_link(dir / "f1", dir / "h1");
  fs::create_symlink("f1", dir / "s1");
  fs::create_symlink("n3", dir / "s3");  // dangling: the first run has not written it yet
  fs::create_symlink(".", dir / "D");
  fs::create_directory(dir / "sub");
  const auto before = tree(dir);
  rc::prop("the second lock is refused as held exactly for the same file", [&] {
    const auto a = *rc::gen::elementOf(names);
    const auto b = *rc::gen::elementOf(names);
    bool held = false;
    {
      io::RunLock first(io::RunLock::OfFile{}, (dir / a.first).string());
      try {
        io::RunLock second(io::RunLock::OfFile{}, (dir / b.first).string());
      } catch (const io::HeldByAnotherRun&) {
        held = true;
      }
    }
    RC_ASSERT(held == (a.second == b.second));
    // Released: the lock files are gone, the states untouched, and b can be taken again.
    RC_ASSERT(tree(dir) == before);
    { io::RunLock again(io::RunLock::OfFile{}, (dir / b.first).string()); }
    RC_ASSERT(tree(dir) == before);
  });
  // Both ways: a dangling link and the file it names (not yet written) are one state; two
  // different missing files are not.
  {
    io::RunLock first(io::RunLock::OfFile{}, (dir / "s3").string());
    CHECK_THROWS_AS(io::RunLock(io::RunLock::OfFile{}, (dir / "n3").string()),
                    io::HeldByAnotherRun);
    CHECK_NOTHROW(io::RunLock(io::RunLock::OfFile{}, (dir / "n5").string()));
  }
}

}  // namespace io_model_test
