// Independent model of checknet's verdicts (docs/harnesses/checknet.md, docs/cli.md#stk-harness-checknet,
// SPEC-NNUE's file layout): nets generated here, digests from sha256sum and an FNV-1a 64 written
// from its published definition, each rule broken and kept by the smallest margin.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "common/splitmix.h"
#include "nets/synthetic_net.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace checknet_model_test {

namespace fs = std::filesystem;
using stk::test::run_command;

namespace {

std::uint64_t model_fnv1a64(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ULL;
  return h;
}

void write(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::string sha256sum(const fs::path& p) {
  const auto r = run_command("sha256sum '" + p.string() + "'");
  REQUIRE(r.exit_code == 0);
  return r.output.substr(0, 64);
}

stk::test::RunResult checknet(const fs::path& net, const std::string& args) {
  return run_command("'" + stk::test::harness_bin() + "' checknet '" + net.string() + "' " + args);
}

}  // namespace

// MODEL checknet-command-verdicts
// checks: harness/src/commands/checknet/checknet_command.cpp  (exit 0/1/2 and the figures of a net file)
// contract: docs/harnesses/checknet.md#what-it-proves
// planted: ci/mutants/model-checknet-command-verdicts.patch  (the expected digest compared without folding its case)
TEST_CASE("checknet's verdicts and figures equal a model of the net file with each rule both ways",
          "[model][checknet]") {
  const auto dir = stk::test::scratch_dir("checknet-model");
  stk::harness::SplitMix rng(99);
  const std::uint64_t seed = rng.next() >> 2;
  const auto bytes = stk::harness::make_synthetic_net(128, seed);
  const fs::path net = dir / "net.nnue";
  write(net, bytes);
  const std::string digest = sha256sum(net);
  std::string upper = digest;
  for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  std::string off_by_one = digest;
  off_by_one.back() = off_by_one.back() == '0' ? '1' : '0';

  SECTION("the digest: equal (either case) passes, one hex digit off fails with exit 1") {
    const auto ok = checknet(net, "--sha256 " + digest + " --junit '" +
                                      (dir / "r/junit/checknet-m.xml").string() + "'");
    CHECK(ok.exit_code == 0);
    const auto j = nlohmann::json::parse(std::ifstream(dir / "r/checknet/m.json"));
    CHECK(j.at("size") == bytes.size());
    CHECK(j.at("hidden") == 128);
    CHECK(j.at("sha256") == digest);
    CHECK(j.at("fnv1a64") == fmt::format("{:016x}", model_fnv1a64(bytes)));
    CHECK(j.at("digest_matches") == true);
    CHECK(ok.output.find("fnv1a64 " + fmt::format("{:016x}", model_fnv1a64(bytes))) !=
          std::string::npos);
    CHECK(checknet(net, "--sha256 " + upper).exit_code == 0);
    const auto bad = checknet(net, "--sha256 " + off_by_one);
    CHECK(bad.exit_code == 1);
    CHECK(bad.output.find(off_by_one) != std::string::npos);
    CHECK(bad.output.find(digest) != std::string::npos);
  }
  SECTION("the size: exact passes, one byte short or one trailing byte is exit 2") {
    auto shorter = bytes;
    shorter.pop_back();
    write(dir / "short.nnue", shorter);
    const auto s = checknet(dir / "short.nnue", "");
    CHECK(s.exit_code == 2);
    CHECK(s.output.find(std::to_string(bytes.size())) != std::string::npos);
    CHECK(s.output.find(std::to_string(bytes.size() - 1)) != std::string::npos);
    auto longer = bytes;
    longer.push_back(0);
    write(dir / "long.nnue", longer);
    CHECK(checknet(dir / "long.nnue", "").exit_code == 2);
    const auto allowed = checknet(dir / "long.nnue", "--allow-trailing");
    CHECK(allowed.exit_code == 0);
    CHECK(allowed.output.find("trailing 1 bytes") != std::string::npos);
  }
  SECTION("the header: hidden 128 passes, 129 is exit 2 naming the field and its offset 17") {
    auto bad = bytes;
    bad[17] = 129;
    write(dir / "hidden.nnue", bad);
    const auto r = checknet(dir / "hidden.nnue", "");
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("hidden") != std::string::npos);
    CHECK(r.output.find("17") != std::string::npos);
  }
}

// MODEL makenet-file
// checks: harness/src/commands/makenet/makenet_command.cpp  (the net makenet writes and the checksum it prints)
// contract: docs/harnesses/makenet.md#the-net
// planted: ci/mutants/model-makenet-file.patch  (--seed parsed but the default seed used)
TEST_CASE("makenet writes the synthetic net of its seed and prints its FNV-1a 64",
          "[model][makenet]") {
  const auto dir = stk::test::scratch_dir("makenet-model");
  stk::harness::SplitMix rng(5);
  for (const std::uint64_t seed : {std::uint64_t(0), rng.next() >> 3}) {
    INFO("seed " << seed);
    const fs::path out = dir / ("n" + std::to_string(seed) + ".nnue");
    const auto r = run_command("'" + stk::test::harness_bin() + "' makenet --hidden 128 --seed " +
                               std::to_string(seed) + " '" + out.string() + "'");
    REQUIRE(r.exit_code == 0);
    std::ifstream in(out, std::ios::binary);
    const std::vector<std::uint8_t> file((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
    // Compared as one bool: Catch would print both 6.5 MB vectors.
    CHECK((file == stk::harness::make_synthetic_net(128, seed)));
    CHECK(file.size() == 6510649u);
    CHECK(r.output.find("fnv1a64 " + fmt::format("{:016x}", model_fnv1a64(file))) !=
          std::string::npos);
  }
}

}  // namespace checknet_model_test
