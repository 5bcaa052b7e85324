#include "io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "cli/cli.h"
#include "io/file_kind.h"

namespace stk::harness::io {

std::string input_file_error(const std::string& path, std::uint64_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return path + ": cannot open file: " + std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return path + ": is a directory";
  if (!S_ISREG(st.st_mode))
    return fmt::format("{}: is {}, not a regular file", path, file_kind(st.st_mode));
  if (std::uint64_t(st.st_size) > max_bytes)
    return fmt::format("{}: is {} bytes, over the {}-byte input limit", path, st.st_size,
                       max_bytes);
  if (::access(path.c_str(), R_OK) != 0)
    return path + ": cannot open file: " + std::strerror(errno);
  return "";
}

std::string input_folder_error(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return path + ": cannot open the folder: " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode))
    return fmt::format("{}: is {}, not a folder", path, file_kind(st.st_mode));
  if (::access(path.c_str(), R_OK | X_OK) != 0)
    return path + ": cannot open the folder: " + std::strerror(errno);
  return "";
}

void require_input_folder(const std::string& path) {
  if (std::string why = input_folder_error(path); !why.empty()) throw InputError(why);
}

std::string read_input_file(const std::string& path, std::uint64_t max_bytes) {
  if (std::string why = input_file_error(path, max_bytes); !why.empty()) throw InputError(why);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot open file: " + std::strerror(errno));
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      throw InputError(path + ": read error: " + std::strerror(e));
    }
    text.append(buf, std::size_t(n));
    if (text.size() > max_bytes) {  // grew while read (a file being appended to)
      ::close(fd);
      throw InputError(fmt::format("{}: over the {}-byte input limit", path, max_bytes));
    }
  }
  ::close(fd);
  return text;
}

}  // namespace stk::harness::io
