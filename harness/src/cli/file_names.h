// Names given on the command line that become parts of file names (--config, a merge's OUT_CONFIG,
// a harness name): one rule, checked in one place, so that no name is a path.
//
// A safe name is 1..200 characters of [A-Za-z0-9._-], holds no "..", and starts with neither '.'
// nor '-' (no hidden file, no option look-alike). Anything else (a '/', "..", a space, a NUL, an
// empty name) is refused with UsageError naming the option and the value: exit 2.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace stk::harness {

// The longest safe name, and the characters one may hold.
inline constexpr std::size_t kMaxNameLength = 200;
constexpr bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

bool is_safe_name(std::string_view name);

// Throws UsageError "--config '../x': not a name: ..." when `name` is not safe: the value as given,
// each byte outside printable ASCII (0x20..0x7e) shown as '?'.
void require_safe_name(std::string_view option, std::string_view name);

// Throws InputError when `path`, normalised lexically (no file system access), does not lie
// under `out_dir`: a file built from names never escapes the reports folder.
void require_under_out_dir(const std::string& out_dir, const std::string& path);

}  // namespace stk::harness
