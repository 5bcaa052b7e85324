#include "file_bytes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace stk {

std::string regular_file_error(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);  // follows links
  if (ec || !std::filesystem::exists(status))
    return path + ": cannot open file: " + (ec ? ec.message() : "No such file or directory");
  if (std::filesystem::is_directory(status)) return path + ": is a directory";
  if (!std::filesystem::is_regular_file(status)) return path + ": not a regular file";
  return "";
}

namespace {

struct OwnedFd {
  int fd;
  ~OwnedFd() {
    if (fd >= 0) ::close(fd);
  }
};

// One read(2) into `at`, retried on EINTR: the bytes read, 0 at the end, -1 with errno.
ssize_t read_some(int fd, char* at, std::size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd, at, n);
    if (got >= 0 || errno != EINTR) return got;
  }
}

// Through read(2), not a stream: a failed read must say why (EIO), where a stream would only
// stop short.
template <class Buffer>
bool read_whole(const std::string& path, Buffer* out, std::string* error) {
  auto fail = [&](std::string why) {
    if (error) *error = std::move(why);
    return false;
  };
  if (std::string why = regular_file_error(path); !why.empty()) return fail(why);
  const OwnedFd file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  const int fd = file.fd;
  if (fd < 0) return fail(path + ": cannot open file: " + std::strerror(errno));  // EACCES
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return fail(path + ": cannot read the file size: " + std::strerror(errno));
  const auto size = std::uint64_t(st.st_size);
  Buffer data;
  try {
    data.resize(size);
  } catch (const std::exception&) {  // bad_alloc, length_error: no buffer for a file this big
    return fail(path + ": too large to read (" + std::to_string(size) + " bytes)");
  }
  auto* bytes = reinterpret_cast<char*>(data.data());
  std::uint64_t done = 0;
  for (ssize_t got = 1; done < size; done += std::uint64_t(got)) {
    got = read_some(fd, bytes + done, std::size_t(size - done));
    if (got < 0)
      return fail(path + ": read error after " + std::to_string(done) +
                  " bytes: " + std::strerror(errno));
    if (got == 0)
      return fail(path + ": ended after " + std::to_string(done) + " of " + std::to_string(size) +
                  " bytes (file changed?)");
  }
  char past_end = 0;  // the size was read once: a file that grew meanwhile is not this one
  const ssize_t more = read_some(fd, &past_end, 1);
  if (more < 0)
    return fail(path + ": read error after " + std::to_string(done) +
                " bytes: " + std::strerror(errno));
  if (more > 0) return fail(path + ": grew while read (file changed?)");
  *out = std::move(data);
  return true;
}

}  // namespace

bool read_file_bytes(const std::string& path, std::vector<std::uint8_t>* bytes,
                     std::string* error) {
  return read_whole(path, bytes, error);
}

bool read_file_text(const std::string& path, std::string* text, std::string* error) {
  return read_whole(path, text, error);
}

}  // namespace stk
