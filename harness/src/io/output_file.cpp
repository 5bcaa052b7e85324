#include "io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "cli/cli.h"
#include "io/file_kind.h"
#include "io/interruption.h"

namespace stk::harness::io {

namespace fs = std::filesystem;

namespace {

// The process's umask, read once before any thread starts (static initialisation).
const mode_t kUmask = [] {
  const mode_t m = ::umask(022);
  ::umask(m);
  return m;
}();

std::string reason(int err) { return std::strerror(err); }

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw InputError(path + ": " + what + ": " + reason(err));
}

bool write_all(int fd, std::string_view text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;
      return false;
    }
    done += std::size_t(n);
  }
  return true;
}

std::string parent_of(const std::string& path) {
  const fs::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : ".";
}

// The nearest folder above `path` that exists is a folder this process may write in.
void require_writable_folder_of(const std::string& path) {
  fs::path dir = fs::path(path).parent_path();
  for (;;) {
    const std::string d = dir.empty() ? "." : dir.string();
    struct stat st {};
    if (::stat(d.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) {
        const char* kind = S_ISREG(st.st_mode) ? "a regular file" : file_kind(st.st_mode);
        throw InputError(d + ": is " + kind + ", not a folder: cannot write " + path + " in it");
      }
      if (::access(d.c_str(), W_OK | X_OK) != 0)
        fail(d, "cannot write " + path + " in this folder", errno);
      return;
    }
    // Missing, or below a file (ENOTDIR): the nearest name above that exists says why.
    if (errno != ENOENT && errno != ENOTDIR) fail(d, "cannot inspect the folder of " + path, errno);
    struct stat lst {};
    if (errno == ENOENT && ::lstat(d.c_str(), &lst) == 0)  // a name stat cannot follow: dangling
      throw InputError(d + ": is a dangling symbolic link: cannot create the folder of " + path);
    if (dir.empty() || dir == dir.parent_path()) return;
    dir = dir.parent_path();
  }
}

}  // namespace

void require_regular_target(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    fail(path, "cannot inspect the output file", errno);
  }
  if (!S_ISREG(st.st_mode))
    throw InputError(path + ": is " + file_kind(st.st_mode) +
                     ", not a regular file: refusing to replace it");
}

void require_writable_target(const std::string& path) {
  require_writable_folder_of(path);
  require_regular_target(path);
}

void require_own_regular_target(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
    throw InputError(path +
                     ": is a symbolic link: a file appended to in place is never written through a "
                     "link (name the file itself, or link its folder)");
  require_regular_target(path);
}

unsigned plain_file_mode() { return 0666 & ~kUmask; }

void create_parent_dirs(const std::string& path) {
  const fs::path p(path);
  if (!p.has_parent_path()) return;
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  if (ec)
    throw InputError(p.parent_path().string() + ": cannot create the folder: " + ec.message());
}

void replace_file(const std::string& path, std::string_view content) {
  require_regular_target(path);
  create_parent_dirs(path);
  const std::string dir = parent_of(path);
  const WriteSection writing;  // an interrupted run waits for the rename (io/interruption.h)
  std::string tmpl = path + ".tmp.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) fail(path, "cannot create a temporary file in " + dir, errno);
  const std::string tmp(name.data());
  const RemoveOnInterrupt remove_tmp(tmp);
  // Every failure below: the reason first, then the temporary removed; the target untouched.
  auto abandon = [&](const std::string& what, int err, bool open) {
    if (open) ::close(fd);
    ::unlink(tmp.c_str());
    fail(path, what, err);
  };
  if (::fchmod(fd, plain_file_mode()) != 0) abandon("cannot set the mode of " + tmp, errno, true);
  if (!write_all(fd, content)) abandon("cannot write " + tmp, errno, true);
  if (::fsync(fd) != 0) abandon("cannot fsync " + tmp, errno, true);
  if (::close(fd) != 0) abandon("cannot close " + tmp, errno, false);
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    abandon("cannot rename " + tmp + " over it", errno, false);
  // The new name reaches the disk with the folder's entry; a file system that cannot fsync a
  // folder (EINVAL) has nothing more to do.
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) fail(path, "written, but its folder cannot be opened to fsync it", errno);
  if (::fsync(dfd) != 0 && errno != EINVAL) {
    const int err = errno;
    ::close(dfd);
    fail(path, "written, but its folder's entry cannot be fsync'd", err);
  }
  ::close(dfd);
}

std::string try_replace_file(const std::string& path, std::string_view content) {
  try {
    replace_file(path, content);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

AppendFile::~AppendFile() {
  if (fd_ >= 0) ::close(fd_);
}

void AppendFile::open(const std::string& path, std::optional<std::uint64_t> keep_bytes) {
  if (fd_ >= 0) close();
  const WriteSection opening;  // from the file's creation to its registration below
  path_ = path;
  require_own_regular_target(path);
  create_parent_dirs(path);
  // O_NONBLOCK: a FIFO put there since the check must not block the open; it is refused below.
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0666);
  if (fd_ < 0) fail(path, "cannot open for appending", errno);
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(path + ": is " + file_kind(st.st_mode) +
                     ", not a regular file: refusing to append to it");
  }
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
  // A failure before the first byte is appended leaves no 0-byte file (the one just created).
  auto abandon_open = [&](const std::string& what) {
    const int err = errno;
    if (st.st_size == 0) ::unlink(path.c_str());
    ::close(fd_);
    fd_ = -1;
    fail(path, what, err);
  };
  if (keep_bytes && ::ftruncate(fd_, off_t(*keep_bytes)) != 0)
    abandon_open("cannot cut the torn tail");
  const off_t end = ::lseek(fd_, 0, SEEK_END);
  if (end < 0) abandon_open("cannot seek to the end");
  if (end == 0) while_empty_ = std::make_unique<RemoveOnInterrupt>(path);
}

void AppendFile::append(std::string_view text) {
  if (fd_ < 0) throw InputError(path_ + ": not open for appending");
  const WriteSection writing;  // a record is whole when an interrupted run ends
  const off_t before = ::lseek(fd_, 0, SEEK_END);
  if (before < 0) fail(path_, "cannot seek to the end", errno);
  // A failed append: the file cut back to its length before it (a file that was empty is removed:
  // no 0-byte file is left), closed; the run stops.
  auto abandon = [&](const std::string& what) {
    const int err = errno;
    // Not cut back: a torn tail, which readers drop. A file that was empty goes either way.
    [[maybe_unused]] const bool cut = ::ftruncate(fd_, before) == 0;
    if (before == 0) ::unlink(path_.c_str());
    ::close(fd_);
    fd_ = -1;
    fail(path_, what, err);
  };
  if (!write_all(fd_, text)) abandon("cannot append");
  if (::fdatasync(fd_) != 0) abandon("cannot flush (fdatasync) the appended record");
  if (!text.empty()) while_empty_.reset();
}

void AppendFile::close() {
  while_empty_.reset();
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(path_, "cannot close", errno);
}

void append_to_file(const std::string& path, std::string_view text) {
  AppendFile f;
  f.open(path);
  f.append(text);
  f.close();
}

}  // namespace stk::harness::io
