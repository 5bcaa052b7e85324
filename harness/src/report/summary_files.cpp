#include "report/summary_files.h"

#include "io/output_file.h"

namespace stk::harness {

void write_text_file(const std::string& path, const std::string& content) {
  io::replace_file(path, content);
}

}  // namespace stk::harness
