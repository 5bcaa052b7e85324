// Whole-file reads for the loaders (net files, model files, batch inputs). A directory "opens"
// as a stream on Linux and reports a size near 2^63, which once became a bad_alloc: anything
// that is not a regular file is refused by name before it is opened.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stk {

// "" when `path` names a regular file (or a link to one); else "<path>: is a directory",
// "<path>: cannot open file: <why>" (No such file or directory, Permission denied) or
// "<path>: not a regular file".
std::string regular_file_error(const std::string& path);

// Reads the whole file. On failure returns false and sets *error to "<path>: <why>".
bool read_file_bytes(const std::string& path, std::vector<std::uint8_t>* bytes, std::string* error);
bool read_file_text(const std::string& path, std::string* text, std::string* error);

}  // namespace stk
