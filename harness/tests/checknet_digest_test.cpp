// checknet --sha256 / --manifest: the golden net's digest is recorded beside it
// (golden/nets/manifest.json, net_sha256) and a flipped weight byte fails the check (exit 1)
// naming the file and both digests.
#include <catch2/catch.hpp>

#include <fstream>

#include "cli_support.h"
#include "report/run_report.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

const std::string kGoldenNet = test::source_dir() + "/golden/nets/stk-h128-seed1.nnue";
const std::string kManifest = test::source_dir() + "/golden/nets/manifest.json";

// net_sha256 as recorded in the manifest (read as text: the test does not trust the code under test).
std::string recorded_digest() {
  std::ifstream in(kManifest);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = text.find("\"net_sha256\": \"");
  return at == std::string::npos ? "" : text.substr(at + 15, 64);
}

}  // namespace

TEST_CASE("checknet --sha256 and --manifest catch a flipped weight byte", "[nnue][checknet][cli]") {
  auto dir = test::scratch_dir("checknet-digest");
  const std::string digest = recorded_digest();
  REQUIRE(digest.size() == 64);
  const auto copy = dir / "stk-h128-seed1.nnue";
  std::filesystem::copy_file(kGoldenNet, copy);
  std::filesystem::copy_file(kManifest, dir / "manifest.json");
  const std::string h = test::harness_bin() + " checknet " + copy.string();

  auto ok = test::run_command(h + " --sha256 " + digest);
  INFO(ok.output);
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.output, Contains("sha256 " + digest));
  CHECK(test::run_command(h + " --manifest " + (dir / "manifest.json").string()).exit_code == 0);
  // The summary beside the JUnit report carries the file's figures under their own names.
  auto reported = test::run_command(h + " --sha256 " + digest + " --junit " +
                                    (dir / "ok" / "junit" / "checknet-ok.xml").string());
  INFO(reported.output);
  CHECK(reported.exit_code == 0);
  const auto figures = report::read_json_file((dir / "ok" / "checknet" / "ok.json").string());
  CHECK(figures.at("file") == copy.string());
  CHECK(figures.at("size") == std::filesystem::file_size(copy));
  CHECK(figures.at("hidden") == 128);  // the h128 golden net
  CHECK(figures.at("sha256") == digest);
  CHECK(figures.at("expected_sha256") == digest);
  CHECK(figures.at("digest_matches") == true);
  CHECK(figures.at("fnv1a64").get<std::string>().size() == 16);

  // Planted defect: one weight byte flipped in the copy; the net still loads.
  {
    std::fstream f(copy, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(std::streamoff(std::filesystem::file_size(copy) / 2));
    char b = 0;
    f.read(&b, 1);
    f.seekp(std::streamoff(std::filesystem::file_size(copy) / 2));
    b = char(b ^ 0x01);
    f.write(&b, 1);
  }
  for (const std::string& expect :
       {" --sha256 " + digest, " --manifest " + (dir / "manifest.json").string()}) {
    auto r = test::run_command(h + expect + " --junit " +
                               (dir / "junit" / "checknet.xml").string());
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Contains(copy.string()) && Contains("expected sha256 " + digest) &&
                             Contains("actual sha256 "));
    CHECK_THAT(r.output, Contains("valid yes"));
    CHECK(test::validate_junit((dir / "junit" / "checknet.xml").string()) == "");
  }
}

TEST_CASE("checknet rejects a malformed digest or a manifest without the file",
          "[nnue][checknet][cli]") {
  auto dir = test::scratch_dir("checknet-digest-bad");
  const std::string h = test::harness_bin() + " checknet " + kGoldenNet;
  auto r = test::run_command(h + " --sha256 abc");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("--sha256 must be 64 hex digits"));
  test::write_file(dir / "m.json", "{\"net\": \"other.nnue\", \"net_sha256\": \"00\"}");
  r = test::run_command(h + " --manifest " + (dir / "m.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("m.json: no net_sha256 for stk-h128-seed1.nnue"));
  // A digest of another length or alphabet, by the smallest margins: refused naming F and why;
  // 64 hex digits of either case read (then a digest that differs: exit 1, not 2).
  const std::string hex63(63, 'a');
  for (const std::string& digest : {hex63, hex63 + "aa", hex63 + "g", hex63 + "/", std::string()}) {
    INFO("digest '" << digest << "'");
    test::write_file(dir / "m.json",
                     "{\"net\": \"stk-h128-seed1.nnue\", \"net_sha256\": \"" + digest + "\"}");
    r = test::run_command(h + " --manifest " + (dir / "m.json").string());
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("m.json: net_sha256 is not 64 hex digits"));
  }
  for (const char* well_formed : {"f", "F"}) {
    test::write_file(dir / "m.json", "{\"net\": \"stk-h128-seed1.nnue\", \"net_sha256\": \"" +
                                         hex63 + well_formed + "\"}");
    CHECK(test::run_command(h + " --manifest " + (dir / "m.json").string()).exit_code == 1);
  }
  test::write_file(dir / "m.json", "{\"net\": ");
  r = test::run_command(h + " --manifest " + (dir / "m.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("m.json: not JSON"));
}
