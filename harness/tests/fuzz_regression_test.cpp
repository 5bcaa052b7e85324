// Replays every seed of harness/fuzz/corpus/<target>/ and every input the fuzzer once crashed
// on, harness/fuzz/regressions/<target>/, through the fuzz targets' own checks (fuzz_checks.h).
// The debug preset runs this under ASan+UBSan too (the planted defect
// ci/mutants/fen-counters-read-past-fields.patch is caught there); `ci/fuzz.sh` does the fuzzing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli_support.h"
#include "fuzz_checks.h"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs(const fs::path& dir) {
  const std::vector<std::string> files = stk::fuzz::corpus_files(dir.string());
  return {files.begin(), files.end()};
}

std::string read_bytes(const fs::path& file) { return stk::fuzz::file_bytes(file.string()); }

bool run_check(const stk::fuzz::Target& t, const std::string& bytes) {
  return t.check(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

fs::path folder_of(const char* kind, const stk::fuzz::Target& t) {
  return fs::path(stk::test::source_dir()) / "harness/fuzz" / kind / t.name;
}

}  // namespace

TEST_CASE("fuzz regressions: every input that once failed passes its target's check", "[fuzz]") {
  for (const stk::fuzz::Target& t : stk::fuzz::targets())
    for (const fs::path& file : inputs(folder_of("regressions", t))) {
      INFO(t.name << ": " << file.string());
      CHECK_NOTHROW(run_check(t, read_bytes(file)));
    }
}

TEST_CASE("fuzz seed corpus: every seed passes its target's check, both verdicts are seeded",
          "[fuzz]") {
  for (const stk::fuzz::Target& t : stk::fuzz::targets()) {
    // The fuzzer reaches deep code only from seeds the parser accepts, and the error paths
    // from seeds it rejects: make-corpus.sh writes both for every target.
    int accepted = 0, rejected = 0;
    for (const fs::path& file : inputs(folder_of("corpus", t))) {
      INFO(t.name << ": " << file.string());
      bool past_parser = false;
      CHECK_NOTHROW(past_parser = run_check(t, read_bytes(file)));
      ++(past_parser ? accepted : rejected);
    }
    INFO(t.name << ": " << accepted << " seeds accepted, " << rejected << " rejected");
    CHECK(accepted > 0);
    CHECK(rejected > 0);
  }
}
