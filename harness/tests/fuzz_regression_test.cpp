// Replays every seed of harness/fuzz/corpus/<target>/ and every input the fuzzer once crashed
// on, harness/fuzz/regressions/<target>/, through the fuzz targets' own checks (fuzz_checks.h).
// The debug preset runs this under ASan+UBSan too; `ci/fuzz.sh` does the fuzzing itself.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz_checks.h"

namespace fs = std::filesystem;

namespace {

// Files of `dir` in name order (a missing folder has none).
std::vector<fs::path> inputs(const fs::path& dir) {
  std::vector<fs::path> files;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

void replay(const char* folder) {
  for (const stk::fuzz::Target& t : stk::fuzz::targets()) {
    for (const fs::path& file : inputs(fs::path(STK_SOURCE_DIR) / "harness/fuzz" / folder / t.name)) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), {});
      INFO(t.name << ": " << file.string());
      CHECK_NOTHROW(t.check(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    }
  }
}

}  // namespace

TEST_CASE("fuzz regressions: every input that once failed passes its target's check", "[fuzz]") {
  replay("regressions");
}

TEST_CASE("fuzz seed corpus: every seed passes its target's check", "[fuzz]") {
  replay("corpus");
  // Every target has seeds (make-corpus.sh writes them).
  for (const stk::fuzz::Target& t : stk::fuzz::targets())
    CHECK(!inputs(fs::path(STK_SOURCE_DIR) / "harness/fuzz/corpus" / t.name).empty());
}

TEST_CASE("fuzz checks fail on broken promises", "[fuzz]") {
  // A check that cannot fail proves nothing: hand-made inputs whose parse is fine but whose
  // check must still run to completion, and a direct failure of require().
  CHECK_THROWS_AS(stk::fuzz::require(false, "planted"), stk::fuzz::CheckFailure);
}
