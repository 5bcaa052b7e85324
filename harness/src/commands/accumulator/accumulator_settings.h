// The accumulator command's settings: the options as given (walks, sampled positions, the net
// under test, a planted defect) and the nets they resolve to.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_fwd.h"

#include "commands/accumulator/accumulator_checks.h"
#include "nets/synthetic_net.h"
#include "nnue/network.h"

namespace stk::harness::accumulator {

// The defects --plant may plant ("none": the real code).
extern const std::vector<std::string> kPlants;

struct AccumulatorSettings {
  GameCheckOptions walks = default_walks();
  int positions = 1000, search_depth = 8, hidden = 128;
  std::uint64_t net_seed = kDefaultNetSeed;
  std::string net_file, plant = "none", config = "default", junit_file, out_dir = "reports";
  bool allow_trailing = false;
  bool net_given = false;  // --net was given (else a synthetic net of --hidden); set after parsing

  static GameCheckOptions default_walks();
};

// Adds the options; returns --net, whose presence the caller records in net_given after parsing.
CLI::Option* add_accumulator_options(CLI::App& app, AccumulatorSettings& s);

// The net under test (--net, else synthetic) and the synthetic extreme net of the same width.
struct CheckedNets {
  std::shared_ptr<const nnue::Network> net, extreme;
};

// Loads or builds the nets; throws InputError when --net cannot be loaded.
CheckedNets load_nets(const AccumulatorSettings& s);

}  // namespace stk::harness::accumulator
