#include "cli/file_names.h"

#include <filesystem>

#include "cli/cli.h"

namespace stk::harness {

bool is_safe_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength || name.front() == '.' || name.front() == '-')
    return false;
  if (name.find("..") != std::string_view::npos) return false;
  for (const char c : name)
    if (!is_name_char(c)) return false;
  return true;
}

void require_safe_name(std::string_view option, std::string_view name) {
  if (is_safe_name(name)) return;
  std::string shown;
  for (const char c : name) shown += (c >= 0x20 && c < 0x7f) ? std::string(1, c) : "?";
  throw UsageError(
      std::string(option) + " '" + shown +
      "': not a name (it becomes a file name): use 1 to 200 of the letters, digits, '.', '_' and '-', "
      "no '..', not starting with '.' or '-'");
}

void require_under_out_dir(const std::string& out_dir, const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path base = fs::absolute(out_dir.empty() ? "." : out_dir).lexically_normal();
  const fs::path p = fs::absolute(path).lexically_normal();
  const fs::path rel = p.lexically_relative(base);
  if (rel.empty() || *rel.begin() == ".." || rel == ".")
    throw InputError(path + ": an output file outside --out-dir " + out_dir + ": refused");
}

}  // namespace stk::harness
