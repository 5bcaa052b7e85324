#include "report/summary_files.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/cli.h"

namespace stk::harness {

void write_text_file(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  fs::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out) throw InputError(path + ": cannot write file");
}

std::string json_str(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      case '\r': o += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}

}  // namespace stk::harness
