// What a path that is not a regular file is, in words, for the readers' and writers' refusals.
#pragma once

#include <sys/types.h>

namespace stk::harness::io {

// "a directory", "a character device", "a block device", "a FIFO", "a socket", else
// "not a regular file".
const char* file_kind(mode_t mode);

}  // namespace stk::harness::io
