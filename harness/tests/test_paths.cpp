// The only test file compiled with the trees' absolute paths (cli_support.h says why).
#include "cli_support.h"

namespace stk::test {

std::string source_dir() { return STK_SOURCE_DIR; }
std::string binary_dir() { return STK_BINARY_DIR; }

}  // namespace stk::test
