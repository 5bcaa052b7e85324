// The engine's fuzz targets (fen, uci) replayed without the harness library: every seed of
// corpus/<target>/ and every input the fuzzer once crashed on, regressions/<target>/, through the
// targets' own checks. ci/sanitizers.sh engine runs it under ASan+UBSan on every commit (the
// planted defect ci/mutants/fen-counters-read-past-fields.patch is caught there); stk-tests replays
// every target (harness/tests/fuzz_regression_test.cpp). STK_FUZZ_DIR names this folder.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_checks.h"

namespace fs = std::filesystem;

namespace {

fs::path fuzz_dir() {
  const char* dir = std::getenv("STK_FUZZ_DIR");
  if (!dir || !*dir) FAIL("STK_FUZZ_DIR is not set (CTest sets it to harness/fuzz)");
  return dir;
}

}  // namespace

TEST_CASE("engine fuzz targets: every seed and regression passes its check", "[fuzz]") {
  const std::vector<stk::fuzz::Target> engine_targets = {{"fen", stk::fuzz::check_fen},
                                                         {"uci", stk::fuzz::check_uci}};
  for (const stk::fuzz::Target& t : engine_targets) {
    const std::vector<std::string> seeds = stk::fuzz::corpus_files(
        (fuzz_dir() / "corpus" / t.name).string());
    CHECK(!seeds.empty());  // a moved corpus must not pass as an empty replay
    std::vector<std::string> all = seeds;
    for (const std::string& f :
         stk::fuzz::corpus_files((fuzz_dir() / "regressions" / t.name).string()))
      all.push_back(f);
    for (const std::string& file : all) {
      INFO(t.name << ": " << file);
      const std::string bytes = stk::fuzz::file_bytes(file);
      CHECK_NOTHROW(t.check(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    }
  }
}
