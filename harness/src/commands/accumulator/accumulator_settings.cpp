#include <CLI/CLI.hpp>

#include "commands/accumulator/accumulator_settings.h"

#include "cli/cli.h"

namespace stk::harness::accumulator {

const std::vector<std::string> kPlants = {"none",          "king-refresh", "index-bit",
                                          "two-dirty",     "no-low-clamp", "white-relative",
                                          "no-file-mirror"};

GameCheckOptions AccumulatorSettings::default_walks() {
  GameCheckOptions opt;
  opt.games = 24;
  opt.walk.plies = 300;
  opt.seed = 1;
  return opt;
}

CLI::Option* add_accumulator_options(CLI::App& app, AccumulatorSettings& s) {
  GameCheckOptions& opt = s.walks;
  app.add_option("--games", opt.games, "random walks")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  app.add_option("--plies", opt.walk.plies, "forward steps per walk")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--seed", opt.seed, "walk and sample seed")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 62));
  app.add_option("--positions", s.positions, "sampled positions for the SIMD and mirror checks")
      ->capture_default_str()
      ->check(CLI::Range(0, 10000000));
  app.add_option("--search-depth", s.search_depth,
                 "depth of the audited search over the bench positions")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  CLI::Option* net_opt = app.add_option("--net", s.net_file,
                                        "net to check (default: a synthetic net of --hidden)");
  app.add_flag("--allow-trailing", s.allow_trailing, "accept bytes after the net (with --net)");
  CLI::Option* hidden_opt = app.add_option("--hidden", s.hidden, "synthetic net width: 128 or 1024")
                                ->capture_default_str()
                                ->check(CLI::IsMember({128, 1024}));
  net_opt->excludes(hidden_opt);
  app.add_option("--net-seed", s.net_seed, "synthetic net seed")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 62));
  app.add_option(
         "--plant", s.plant,
         "run with a planted defect to see the gates fail: king-refresh, index-bit, two-dirty (part a),\n"
         "no-low-clamp (c), white-relative, no-file-mirror (d)")
      ->capture_default_str()
      ->check(CLI::IsMember(kPlants));
  app.add_option("--config", s.config, "report name")->capture_default_str();
  app.add_option("--junit", s.junit_file,
                 "JUnit file (default <out-dir>/junit/accumulator-<config>.xml)");
  app.add_option("--out-dir", s.out_dir, "reports folder")->capture_default_str();
  return net_opt;
}

CheckedNets load_nets(const AccumulatorSettings& s) {
  CheckedNets nets;
  if (s.net_given) {
    std::string error;
    nets.net = nnue::Network::load(s.net_file, s.allow_trailing, &error);
    if (!nets.net) throw InputError(error);
  } else {
    nets.net = synthetic_network(s.hidden, s.net_seed);
  }
  nets.extreme = synthetic_network(nets.net->hidden(), s.net_seed, NetStyle::Extreme);
  return nets;
}

}  // namespace stk::harness::accumulator
