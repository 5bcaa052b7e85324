// The one way the harness reads an input file (suites, summaries, result files, journals): the
// path is checked before it is opened, so that a device such as /dev/zero, a FIFO or a directory
// is refused by name instead of being read without end, and every refusal says why.
#pragma once

#include <cstdint>
#include <string>

namespace stk::harness::io {

// Larger inputs are refused: no file the harness reads comes near it, and /proc-like files that
// claim a huge size fail fast.
inline constexpr std::uint64_t kMaxInputBytes = std::uint64_t(1) << 30;

// "" when `path` is a readable regular file of at most `max_bytes`, else "<path>: <why>": "cannot
// open file: No such file or directory" (or Permission denied), "is a directory", "is a character
// device, not a regular file", "is 2147483648 bytes, over the 1073741824-byte input limit".
std::string input_file_error(const std::string& path, std::uint64_t max_bytes = kMaxInputBytes);

// The whole file; InputError "<path>: <why>" (as above, or "read error: <reason>").
std::string read_input_file(const std::string& path, std::uint64_t max_bytes = kMaxInputBytes);

// "" when `path` is a folder that can be listed (a symbolic link to one is fine), else
// "<path>: <why>": "cannot open the folder: No such file or directory" (a dangling link too; a loop
// says "Too many levels of symbolic links"), "is a FIFO, not a folder".
std::string input_folder_error(const std::string& path);
// Throws InputError with input_folder_error's text.
void require_input_folder(const std::string& path);

}  // namespace stk::harness::io
