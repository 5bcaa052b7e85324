// Independent model of io::input_file_error / io::read_input_file's size limit, written from
// docs/faults.md#files-read-ioread_input_file: a regular file of at most the limit is read, one
// byte more is refused before any byte is read, by a message that names the file, its size and
// the limit. Sparse files make sizes up to a terabyte cost nothing.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "cli/cli.h"
#include "cli_support.h"
#include "io/input_file.h"

namespace input_file_model_test {

namespace fs = std::filesystem;
using namespace stk::harness;

std::string refusal(const std::string& path, std::uint64_t size, std::uint64_t limit) {
  return path + ": is " + std::to_string(size) + " bytes, over the " + std::to_string(limit) +
         "-byte input limit";
}

// MODEL io-input-size-limit
// checks: harness/src/io/input_file.cpp  (a file read up to its limit, refused one byte past it)
// contract: docs/faults.md#files-read-ioread_input_file
// planted: ci/mutants/model-io-input-size-limit.patch  (a file of exactly the limit refused)
TEST_CASE("an input file is read up to its size limit and refused by name one byte past it",
          "[model][io]") {
  const fs::path dir = stk::test::scratch_dir("input-size-limit");
  const std::string path = (dir / "in.txt").string();
  stk::test::write_file(path, "");
  rc::prop("limits of every order of magnitude, sizes at the margin both ways", [&] {
    const int bits = *rc::gen::inRange(0, 41);
    const std::uint64_t limit = (std::uint64_t(1) << bits) +
                                *rc::gen::inRange<std::uint64_t>(0, 1000);
    const std::uint64_t size = limit + *rc::gen::element<std::uint64_t>(0, 1, 2, 4096) -
                               *rc::gen::element<std::uint64_t>(0, 0, 1);
    fs::resize_file(path, 0);
    fs::resize_file(path, size);
    const std::string why = io::input_file_error(path, limit);
    if (size <= limit) {
      RC_ASSERT(why.empty());
    } else {
      RC_ASSERT(why == refusal(path, size, limit));
      try {
        io::read_input_file(path, limit);
        RC_FAIL("read_input_file read a file over its limit");
      } catch (const InputError& e) {
        RC_ASSERT(std::string(e.what()) == refusal(path, size, limit));
      }
    }
    RC_TAG(size <= limit ? "kept" : "refused");
  });
  SECTION("the default limit is 1 GiB: a file of 1 GiB is taken, one byte more is not") {
    fs::resize_file(path, std::uint64_t(1) << 30);
    CHECK(io::input_file_error(path).empty());
    fs::resize_file(path, (std::uint64_t(1) << 30) + 1);
    CHECK(io::input_file_error(path) ==
          refusal(path, (std::uint64_t(1) << 30) + 1, std::uint64_t(1) << 30));
  }
  fs::remove_all(dir);
}

}  // namespace input_file_model_test
