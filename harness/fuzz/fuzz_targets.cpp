#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fuzz_checks.h"

namespace stk::fuzz {

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"fen", check_fen}, {"epd", check_epd}, {"uci", check_uci}, {"netfile", check_netfile}, {"fhr", check_fhr}};
  return all;
}

void require(bool ok, const std::string& what) {
  if (!ok) throw CheckFailure(what);
}

std::string scratch_file(const std::string& name, const std::string& content) {
  namespace fs = std::filesystem;
  struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("stk-fuzz-" + std::to_string(::getpid()));
    Scratch() { fs::create_directories(dir); }
    ~Scratch() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  };
  static Scratch scratch;
  const fs::path path = scratch.dir / name;
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(content.data(), std::streamsize(content.size()));
  return path.string();
}

}  // namespace stk::fuzz
