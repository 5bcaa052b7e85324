// What a uci-check run was asked to do, and its timeouts (hang detectors, scaled together).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stk::harness::ucicheck {

struct Settings {
  std::string engine;                                        // a path or a command line
  std::vector<std::pair<std::string, std::string>> options;  // --option NAME=VALUE, sent first
  std::uint64_t seed = 1;
  double nodes_tolerance = 0;  // allowed "go nodes N" overshoot, as a fraction of N
  bool strict_pv = false;      // a truncated mate PV fails instead of warning
  bool documented_differences = true;
  double timeout_scale = 1;  // slow machines and sanitizer builds
  // Gates of the latency scenarios, in ms before --timeout-scale (a slow build answers slowly):
  // stop -> bestmove during go infinite (ponder.stop: its max too), and the overrun of go
  // movetime (bestmove after movetime + overrun). p99: the nearest-rank 99th percentile.
  double stop_p99_ms = 50, stop_max_ms = 250;
  double overrun_p99_ms = 50, overrun_max_ms = 250;
  // The node count of every search of the invariance scenarios ("go nodes N").
  std::uint64_t invariance_nodes = 20000;
};

// Base timeouts in milliseconds, before --timeout-scale. Each is a hang detector: a correct
// engine answers in a few milliseconds, so they are generous for a loaded 2-core machine.
struct Timeouts {
  static constexpr int kStart = 10000;  // uci -> uciok, isready -> readyok when starting
  static constexpr int kPrompt =
      2000;                            // readyok, bestmove after stop, exit after quit, tiny limits
  static constexpr int kHang = 10000;  // a bounded search with no bestmove by then hangs
  static constexpr int kQuiet = 300;   // silence that shows nothing more is coming
};

inline std::chrono::milliseconds scaled(const Settings& s, int base_ms) {
  return std::chrono::milliseconds(static_cast<long long>(base_ms * s.timeout_scale));
}

}  // namespace stk::harness::ucicheck
