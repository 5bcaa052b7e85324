// The target table and the helpers shared by the checks.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fuzz_checks.h"

namespace stk::fuzz {

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"fen", check_fen},         {"epd", check_epd}, {"uci", check_uci},
      {"netfile", check_netfile}, {"fhr", check_fhr},
  };
  return all;
}

void require(bool ok, const std::string& what) {
  if (!ok) throw CheckFailure(what);
}

namespace {

// One folder per process, so that parallel fuzzers and tests never share scratch files. Never
// destroyed, so that the exit hook can still read it (libFuzzer may also leave by _Exit:
// ci/fuzz.sh points TMPDIR at a folder of its own).
const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path* dir = [] {
    std::string tmpl = (std::filesystem::temp_directory_path() / "stk-fuzz-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
      throw std::runtime_error("cannot create a scratch folder under " + tmpl);
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_dir(), ignored);
    });
    return new std::filesystem::path(tmpl);
  }();
  return *dir;
}

}  // namespace

std::string scratch_file(const std::string& name, const std::string& content) {
  const std::filesystem::path path = scratch_dir() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), std::streamsize(content.size()));
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
  return path.string();
}

}  // namespace stk::fuzz
