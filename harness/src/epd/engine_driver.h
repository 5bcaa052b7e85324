// What the EPD harness needs from an engine: one fresh-state search of a position under a
// fixed depth or node budget, with its per-depth iterations. Two implementations: the
// in-process Searcher and any external UCI engine, so both go through the same harness code.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "position.h"

namespace stk::harness::epd {

// The command line's budget: fixed depth (`sd`, tests tree shape at fixed effort) or fixed
// nodes (`sn`, tests accuracy at fixed cost).
struct Budget {
  enum class Kind { Depth, Nodes } kind = Kind::Depth;
  std::uint64_t value = 0;
  std::string tag() const { return kind == Kind::Depth ? "sd" : "sn"; }
  std::string label() const { return tag() + " " + std::to_string(value); }
};

struct IterationInfo {
  int depth = 0;
  std::string score;  // UCI form: "cp 31" or "mate -3"
  std::uint64_t nodes = 0;
  std::vector<Move> pv;
};

struct SearchOutcome {
  Move best = Move::none();
  std::string best_text;  // the move as the engine gave it (kept when it is not legal)
  std::string score;      // UCI form of the final score, "" if none was reported
  int depth = 0;          // deepest iteration reported
  std::uint64_t nodes = 0;
  double time_s = 0;
  std::vector<Move> pv;
  std::vector<IterationInfo> iterations;  // in order of depth, one per depth
};

class EngineDriver {
 public:
  virtual ~EngineDriver() = default;
  // "stk (in-process)" or the UCI engine's "id name".
  virtual std::string name() const = 0;
  // Settings that matter for reproducing a result: hash, threads, options, path.
  virtual std::vector<std::pair<std::string, std::string>> settings() const = 0;
  // Clears all state (hash, histories), then searches `pos` within `budget`.
  // Throws std::runtime_error if the engine fails.
  virtual SearchOutcome search(const Position& pos, const std::string& fen,
                               const Budget& budget) = 0;
};

// The engine built into this binary (stk::search::Searcher), single thread.
// `options` are NAME=VALUE pairs; throws UsageError for options it does not know.
std::unique_ptr<EngineDriver> make_inprocess_engine(
    std::size_t hash_mb, const std::vector<std::pair<std::string, std::string>>& options);

// An external UCI engine at `path`, set to Threads 1, Hash `hash_mb`, then `options` in order.
std::unique_ptr<EngineDriver> make_uci_engine(
    const std::string& path, std::size_t hash_mb,
    const std::vector<std::pair<std::string, std::string>>& options);

}  // namespace stk::harness::epd
