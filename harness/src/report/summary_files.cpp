#include "report/summary_files.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli/cli.h"

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

}  // namespace stk::harness
