#include "commands/match/stderr_log.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

namespace stk::harness::selfplay {

namespace fs = std::filesystem;

StderrLog::StderrLog() {
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "stk-engine-stderr-XXXXXX").string();
  if (ec) return;
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return;  // the engine's stderr stays the harness's own
  ::close(fd);
  path_ = name.data();
}

StderrLog::~StderrLog() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove(path_, ec);
}

void StderrLog::mark() {
  if (path_.empty()) return;
  std::error_code ec;
  mark_ = fs::file_size(path_, ec);
  if (ec) mark_ = 0;
  if (mark_ > kMaxBytes) {
    fs::resize_file(path_, 0, ec);
    mark_ = 0;
  }
}

std::string StderrLog::since_mark() const {
  if (path_.empty()) return "";
  std::ifstream in(path_, std::ios::binary);
  if (!in) return "";
  in.seekg(0, std::ios::end);
  const auto end = std::uintmax_t(in.tellg());
  if (end <= mark_) return "";
  const std::uintmax_t from = end - mark_ > kKeptBytes ? end - kKeptBytes : mark_;
  in.seekg(std::streamoff(from));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace stk::harness::selfplay
