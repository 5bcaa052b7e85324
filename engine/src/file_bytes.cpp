#include "file_bytes.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

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

template <class Buffer>
bool read_whole(const std::string& path, Buffer* out, std::string* error) {
  auto fail = [&](std::string why) {
    if (error) *error = std::move(why);
    return false;
  };
  if (std::string why = regular_file_error(path); !why.empty()) return fail(why);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(path + ": cannot open file: " + std::strerror(errno));  // e.g. Permission denied
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return fail(path + ": cannot read the file size");
  Buffer data;
  try {
    data.resize(size);
  } catch (const std::exception&) {  // bad_alloc, length_error: no buffer for a file this big
    return fail(path + ": too large to read (" + std::to_string(size) + " bytes)");
  }
  if (size > 0) in.read(reinterpret_cast<char*>(data.data()), std::streamsize(size));
  if (!in || in.peek() != std::ifstream::traits_type::eof())
    return fail(path + ": read error after " + std::to_string(in.gcount()) +
                " bytes (file changed?)");
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
