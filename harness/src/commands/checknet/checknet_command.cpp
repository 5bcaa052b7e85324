// stk-harness checknet FILE [--allow-trailing] [--sha256 HEX | --manifest FILE]: validates a net
// file (header fields, exact size, full parse), prints its header, size, FNV-1a 64 checksum and
// SHA-256, and compares the SHA-256 with the expected digest. Exit 0 valid (and the digest
// matches), 1 the digest differs, 2 invalid.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "nets/synthetic_net.h"
#include "commands.h"
#include "cli/cli.h"
#include "io/input_file.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "cli/file_names.h"
#include "common/sha256.h"
#include "file_bytes.h"
#include "nnue/network.h"
#include "report/junit.h"
#include "report/run_report.h"

namespace stk::harness {

namespace {

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::vector<std::uint8_t> bytes;
  std::string error;
  if (!read_file_bytes(path, &bytes, &error)) throw InputError(error);
  return bytes;
}

// The expected digest of `net_path` in a golden manifest (stkref.golden writes golden/nets/manifest.json).
std::string manifest_digest(const std::string& manifest_path, const std::string& net_path) {
  const std::string text = io::read_input_file(manifest_path);  // a FIFO or device refused
  nlohmann::json m;
  try {
    m = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(manifest_path + ": not JSON: " + e.what());
  }
  const std::string name = std::filesystem::path(net_path).filename().string();
  if (!m.is_object() || m.value("net", "") != name || !m.contains("net_sha256") ||
      !m["net_sha256"].is_string())
    throw InputError(manifest_path + ": no net_sha256 for " + name);
  const std::string digest = m["net_sha256"];
  if (!is_sha256_hex(digest)) throw InputError(manifest_path + ": net_sha256 is not 64 hex digits");
  return digest;
}

// The digest FILE must have: --sha256, --manifest, or "" when neither is given.
std::string expected_digest(const std::string& sha256, const std::string& manifest,
                            const std::string& net_path) {
  std::string digest = !manifest.empty() ? manifest_digest(manifest, net_path) : sha256;
  if (!sha256.empty() && !is_sha256_hex(digest))
    throw UsageError("--sha256 must be 64 hex digits, got '" + digest + "'");
  std::transform(digest.begin(), digest.end(), digest.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return digest;
}

// The report of a --junit FILE run. FILE = <D>/junit/checknet-<C>.xml (the layout the tiers use)
// names the run C and puts its summaries at <D>/checknet/<C>.{json,md}, where the review page
// looks; any other FILE gets them beside it.
report::ReportPaths checknet_paths(const std::string& junit_file, std::string* config) {
  namespace fs = std::filesystem;
  const fs::path file(junit_file), dir = file.parent_path();
  const std::string stem = file.stem().string();
  if (config->empty()) *config = stem.starts_with("checknet-") ? stem.substr(9) : "default";
  report::ReportPaths paths;
  if (dir.filename() == "junit") {
    paths = report::report_paths(dir.parent_path().empty() ? "." : dir.parent_path().string(),
                                 "checknet", *config);
  } else {
    const std::string base = (dir / stem).string();
    paths = {junit_file, base + ".json", base + ".md"};
  }
  paths.junit = junit_file;
  return paths;
}

// One net file as checknet checked it.
struct CheckedNet {
  std::string path, expected, digest;  // expected: "" when no digest was asked for
  std::string text;                    // what checknet printed about the file
  std::uint64_t checksum = 0;
  std::size_t size = 0;
  std::uint32_t hidden = 0;
  double secs = 0;

  bool digest_differs() const { return !expected.empty() && digest != expected; }
  std::string mismatch() const {
    return fmt::format("{}: SHA-256 differs: expected sha256 {}, actual sha256 {}", path, expected,
                       digest);
  }
};

// The run's report: the file's testcase, and the digest's when one was expected.
report::RunReport checknet_report(const CheckedNet& f, const std::string& config,
                                  const std::vector<std::pair<std::string, std::string>>& options) {
  report::RunReport run{"checknet", config};
  junit::TestSuite& suite = run.suites.emplace_back();
  suite.name = "checknet." + config;
  for (auto& [k, v] : options) suite.property("input." + k, v);
  suite.property("fnv1a64", fmt::format("{:016x}", f.checksum));
  suite.property("sha256", f.digest);
  junit::add_build_properties(suite);
  junit::TestCase tc;
  tc.classname = "checknet.file";
  tc.name = f.path;
  tc.time_s = f.secs;
  tc.system_out = f.text;
  suite.cases.push_back(tc);
  if (!f.expected.empty()) {
    junit::TestCase dc;
    dc.classname = "checknet.sha256";
    dc.name = f.path;
    dc.facts = {{"expected", f.expected}, {"actual", f.digest}};
    if (f.digest_differs())
      dc.outcome = junit::Outcome::Failed, dc.message = "SHA-256 differs", dc.detail = f.mismatch();
    suite.cases.push_back(dc);
  }
  suite.time_s = f.secs;
  run.figures["file"] = f.path;
  run.figures["size"] = f.size;
  run.figures["hidden"] = f.hidden;
  run.figures["fnv1a64"] = fmt::format("{:016x}", f.checksum);
  run.figures["sha256"] = f.digest;
  run.figures["expected_sha256"] = f.expected.empty() ? report::Json(nullptr)
                                                      : report::Json(f.expected);
  run.figures["digest_matches"] = f.expected.empty() ? report::Json(nullptr)
                                                     : report::Json(!f.digest_differs());
  run.markdown = "```\n" + f.text + "```\n";
  return run;
}

}  // namespace

int run_checknet(int argc, char** argv) {
  CLI::App app{
      "Validates a STKHALFKA .nnue file; prints its header, size, FNV-1a 64 checksum and SHA-256 and compares\n"
      "the SHA-256 with the expected digest. Exit 0 valid (the digest matches), 1 the digest differs,\n"
      "2 invalid (the reason names the field and byte offset, or the sizes). With --junit FILE, also\n"
      "the summaries (FILE = D/junit/checknet-C.xml: D/checknet/C.{json,md}).",
      "stk-harness checknet"};
  std::string path, sha256, manifest, junit_file, config;
  bool allow_trailing = false;
  app.add_option("FILE", path, "the net file");
  app.add_flag("--allow-trailing", allow_trailing, "accept bytes after the net");
  CLI::Option* sha_opt = app.add_option("--sha256", sha256,
                                        "the expected SHA-256 of FILE (64 hex digits)");
  app.add_option("--manifest", manifest,
                 "take it from a golden manifest (JSON with \"net\" = FILE's name, \"net_sha256\")")
      ->excludes(sha_opt);
  app.add_option("--junit", junit_file, "write a JUnit report (and the JSON/Markdown summaries)");
  app.add_option("--config", config,
                 "report name (default: C of --junit .../checknet-C.xml, else 'default')");
  // Options that do not parse still replace the report a given --junit names (docs/reports.md).
  auto declare_given = [&] {
    std::string junit = given_value(app, "--junit", ""),
                given_config = given_value(app, "--config", "");
    if (junit.empty() || (!given_config.empty() && !is_safe_name(given_config))) return;
    declare_report(checknet_paths(junit, &given_config), "checknet." + given_config);
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    report::ReportPaths paths;
    if (!junit_file.empty()) {
      paths = checknet_paths(junit_file, &config);
      declare_report(paths, "checknet." + config);
    }
    if (config.empty()) config = "default";
    if (path.empty()) throw UsageError("expected exactly one net file");
    const std::string expected = expected_digest(sha256, manifest, path);
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::uint8_t> bytes = read_bytes(path);
    std::string error;
    nnue::NetHeader header;
    bool ok = nnue::Network::parse_header(bytes, path, allow_trailing, &header, &error);
    std::unique_ptr<nnue::Network> net;
    if (ok) ok = (net = nnue::Network::parse(bytes, path, allow_trailing, &error)) != nullptr;
    const std::uint64_t checksum = nnue::fnv1a64(bytes.data(), bytes.size());
    const std::string digest = sha256_hex(bytes);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::string report = fmt::format("file {}\nsize {} bytes\nfnv1a64 {:016x}\nsha256 {}\n", path,
                                     bytes.size(), checksum, digest);
    if (!ok) {
      std::cout << report << "valid no\n";
      throw InputError(error);  // an invalid net is an input error: exit 2, <error> report
    }
    report += fmt::format(
        "magic STKHALFKA\nversion {}\nfeatures {}\nhidden {}\nbuckets {}\nexpected_size {}\n",
        header.version, header.features, header.hidden, header.buckets,
        nnue::net_file_size(header.hidden));
    if (bytes.size() > nnue::net_file_size(header.hidden))
      report += fmt::format("trailing {} bytes (accepted: --allow-trailing)\n",
                            bytes.size() - nnue::net_file_size(header.hidden));
    report += "valid yes\n";
    std::cout << report;
    const CheckedNet net_file{path,     expected,     digest,        report,
                              checksum, bytes.size(), header.hidden, secs};
    if (net_file.digest_differs())
      std::cerr << "stk-harness checknet: " << net_file.mismatch() << "\n";
    // The verdict is the report's: the exit status is read from its testcases, never decided
    // beside them (a digest check whose testcase passed could not exit 1).
    const report::RunReport run = checknet_report(net_file, config, given_options(app));
    if (!junit_file.empty()) report::write_run_report(run, paths);
    return report::exit_status(run);
  } catch (...) {
    return input_failure("stk-harness checknet", app.help().c_str());
  }
}

}  // namespace stk::harness
