// The helpers the checks share (fuzz_checks.h): the engine's checks (fen, uci) link them without
// the harness library (stk_fuzz_engine_checks).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz_checks.h"

namespace stk::fuzz {

void require(bool ok, const std::string& what) {
  if (!ok) throw CheckFailure(what);
}

std::vector<std::string> corpus_files(const std::string& dir) {
  std::vector<std::string> files;
  if (std::filesystem::is_directory(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.is_regular_file() && e.path().filename().string()[0] != '.')
        files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
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
