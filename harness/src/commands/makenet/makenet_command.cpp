// stk-harness makenet --hidden 128|1024 --seed S OUT.nnue: writes a deterministic synthetic net
// (the test vector of the NNUE harnesses) and prints its checksum and activation statistics.
#include <chrono>
#include <iostream>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/cli_app.h"
#include "commands.h"
#include "io/output_file.h"
#include "nets/synthetic_net.h"
#include "nnue/network.h"

namespace stk::harness {

namespace {

// Positions whose activations makenet prints (start, kiwipete, middlegames, endgames).
const std::vector<std::string> kSampleFens = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9",
};

}  // namespace

int run_makenet(int argc, char** argv) {
  CLI::App app{"Writes a deterministic synthetic net and prints its checksum.",
               "stk-harness makenet"};
  int hidden = 0;
  std::uint64_t seed = kDefaultNetSeed;
  std::string out_path;
  app.add_option("--hidden", hidden, "hidden width: 128 or 1024")
      ->required()
      ->check(CLI::IsMember({128, 1024}));
  app.add_option("--seed", seed, "weight seed")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 62));
  app.add_option("OUT", out_path, "the .nnue file to write")->required();
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::uint8_t> bytes = make_synthetic_net(hidden, seed);
    double gen_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    io::replace_file(out_path,
                     std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    std::string error;
    auto net = nnue::Network::parse(bytes, out_path, false, &error);
    if (!net) throw InputError("generated net rejected by the loader: " + error);
    std::cout
        << fmt::format(
               "wrote {} (hidden {}, seed {}, {} bytes, fnv1a64 {:016x}, generated in {:.3f} s)\n",
               out_path, hidden, seed, bytes.size(), net->checksum(), gen_s)
        << measure_activations(*net, kSampleFens).describe() << "\n";
    return 0;
  } catch (...) {
    return input_failure("stk-harness makenet", app.help().c_str());
  }
}

}  // namespace stk::harness
