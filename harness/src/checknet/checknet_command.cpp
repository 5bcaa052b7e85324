// stk-harness checknet FILE [--allow-trailing]: validates a net file (header fields, exact size,
// full parse) and prints its header, size and FNV-1a 64 checksum. Exit 0 valid, 2 invalid.
// stk-harness makenet --hidden 128|1024 --seed S OUT.nnue: writes a deterministic synthetic net.
#include <chrono>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "checknet/synthetic_net.h"
#include "commands.h"
#include "common/cli.h"
#include "file_bytes.h"
#include "nnue/network.h"
#include "report/junit.h"

namespace stk::harness {

namespace {

constexpr const char* kCheckUsage =
    "usage: stk-harness checknet FILE [--allow-trailing] [--junit FILE]\n"
    "  validates a STKHALFKA .nnue file; prints header, size and FNV-1a 64 checksum\n"
    "  exit 0 valid, 2 invalid (the reason names the field and byte offset, or the sizes)\n";

constexpr const char* kMakeUsage =
    "usage: stk-harness makenet --hidden 128|1024 [--seed S] OUT.nnue\n"
    "  writes a deterministic synthetic net (default seed 20240601) and prints its checksum\n";

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::vector<std::uint8_t> bytes;
  std::string error;
  if (!read_file_bytes(path, &bytes, &error)) throw InputError(error);
  return bytes;
}

const std::vector<std::string> kSampleFens = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9",
};

}  // namespace

int run_checknet(int argc, char** argv) {
  try {
    Args args(argc, argv, {"junit"}, {"allow-trailing", "help"});
    if (args.has("help")) return std::cout << kCheckUsage, 0;
    if (args.positional().size() != 1) throw UsageError("expected exactly one net file");
    const std::string path = args.positional()[0];
    const bool allow_trailing = args.has("allow-trailing");
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::uint8_t> bytes = read_bytes(path);
    std::string error;
    nnue::NetHeader header;
    bool ok = nnue::Network::parse_header(bytes, path, allow_trailing, &header, &error);
    std::unique_ptr<nnue::Network> net;
    if (ok) ok = (net = nnue::Network::parse(bytes, path, allow_trailing, &error)) != nullptr;
    const std::uint64_t checksum = nnue::fnv1a64(bytes.data(), bytes.size());
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::string report = fmt::format("file {}\nsize {} bytes\nfnv1a64 {:016x}\n", path, bytes.size(), checksum);
    if (ok) {
      report += fmt::format(
          "magic STKHALFKA\nversion {}\nfeatures {}\nhidden {}\nbuckets {}\nexpected_size {}\n",
          header.version, header.features, header.hidden, header.buckets,
          nnue::net_file_size(header.hidden));
      if (bytes.size() > nnue::net_file_size(header.hidden))
        report += fmt::format("trailing {} bytes (accepted: --allow-trailing)\n",
                              bytes.size() - nnue::net_file_size(header.hidden));
      report += "valid yes\n";
    } else {
      report += "valid no\nerror " + error + "\n";
    }
    std::cout << report;
    if (!ok) std::cerr << "stk-harness checknet: " << error << "\n";

    if (args.has("junit")) {
      junit::TestSuite suite;
      suite.name = "checknet.default";
      for (auto& [k, v] : args.echo()) suite.property("input." + k, v);
      suite.property("fnv1a64", fmt::format("{:016x}", checksum));
      junit::add_build_properties(suite);
      junit::TestCase tc;
      tc.classname = "checknet.file";
      tc.name = path;
      tc.time_s = secs;
      tc.system_out = report;
      if (!ok) tc.outcome = junit::Outcome::Failed, tc.message = "invalid net file", tc.detail = error;
      suite.cases.push_back(tc);
      suite.time_s = secs;
      std::string err;
      if (!junit::write_report(args.get("junit"), {suite}, &err)) throw InputError(err);
    }
    return ok ? 0 : 2;
  } catch (...) {
    return input_failure("stk-harness checknet", kCheckUsage);
  }
}

int run_makenet(int argc, char** argv) {
  try {
    Args args(argc, argv, {"hidden", "seed"}, {"help"});
    if (args.has("help")) return std::cout << kMakeUsage, 0;
    if (args.positional().size() != 1) throw UsageError("expected exactly one output file");
    if (!args.has("hidden")) throw UsageError("--hidden 128|1024 is required");
    const int hidden = int(args.get_int("hidden", 0, 1, 1 << 20));
    if (!nnue::hidden_supported(hidden)) throw UsageError("--hidden must be 128 or 1024");
    const auto seed = std::uint64_t(args.get_int("seed", std::int64_t(kDefaultNetSeed), 0, 1LL << 62));
    const std::string out_path = args.positional()[0];
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::uint8_t> bytes = make_synthetic_net(hidden, seed);
    double gen_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::ofstream out(out_path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    out.close();
    if (!out) throw InputError(out_path + ": cannot write file");
    std::string error;
    auto net = nnue::Network::parse(bytes, out_path, false, &error);
    if (!net) throw InputError("generated net rejected by the loader: " + error);
    std::cout << fmt::format("wrote {} (hidden {}, seed {}, {} bytes, fnv1a64 {:016x}, generated in {:.3f} s)\n",
                             out_path, hidden, seed, bytes.size(), net->checksum(), gen_s)
              << measure_activations(*net, kSampleFens).describe() << "\n";
    return 0;
  } catch (...) {
    return input_failure("stk-harness makenet", kMakeUsage);
  }
}

}  // namespace stk::harness
