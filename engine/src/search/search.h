// Single-threaded alpha-beta search: the public interface used by UCI, bench and harnesses.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "position.h"
#include "search/fhmodel.h"

namespace stk::nnue {
class Network;
}

namespace stk::search {

constexpr int kValueInfinite = 32001;
constexpr int kValueMate = 32000;
constexpr int kMaxPly = 128;
constexpr int kValueMateInMaxPly = kValueMate - kMaxPly;

// Limits of one "go". Zero means "not set", except for the clocks (-1: not given; 0: no time
// left). With nothing set the search runs to kMaxPly. The rules: time_budget() (time_budget.h).
struct Limits {
  int depth = 0;
  std::uint64_t nodes = 0;  // exact: the search stops after exactly this many nodes at most
  int movetime_ms = 0;
  int time_ms[2] = {-1, -1};  // wtime, btime
  int inc_ms[2] = {0, 0};     // winc, binc
  int movestogo = 0;
  bool infinite = false;
};

// One completed iteration (or the final, partial one when a limit hit mid-iteration).
struct Iteration {
  int depth = 0;
  int seldepth = 0;
  int score = 0;  // side-to-move relative centipawns, or mate scores near +-kValueMate
  std::uint64_t nodes = 0;
  double time_s = 0;
  int hashfull = 0;  // permille
  std::vector<Move> pv;
};

struct Result {
  Move best = Move::none();
  Move ponder = Move::none();
  int score = 0;
  int depth = 0;  // deepest completed iteration
  std::uint64_t nodes = 0;
  double time_s = 0;
  std::vector<Move> pv;
  std::vector<Iteration> iterations;  // every completed iteration, in order
};

struct Options {
  std::size_t hash_mb = 16;
  // "Use NNUE": the one switch between classical and NNUE evaluation. NNUE needs a network too;
  // without one the search evaluates classically.
  bool use_nnue = false;
  std::shared_ptr<const nnue::Network> network;  // the net the engine owns from the start
};

// UCI "score cp N" / "score mate N" text of a search score.
std::string score_to_uci(int score);

class Searcher {
 public:
  explicit Searcher(const Options& options = Options());
  ~Searcher();
  Searcher(const Searcher&) = delete;
  Searcher& operator=(const Searcher&) = delete;

  // Forgets everything learned (hash table, histories): "ucinewgame" / fresh state per position.
  void clear();
  // False when that much memory cannot be allocated: the previous table stays, intact.
  bool resize_hash(std::size_t mb);
  std::size_t hash_mb() const;
  void set_use_nnue(bool on);
  // The engine's network (UCI EvalFile): the searcher owns it and hands it to each search.
  // null unloads it. Not while go() runs.
  void set_network(std::shared_ptr<const nnue::Network> net);
  // Loads `path` as the network. On failure returns false, sets *error (file, field, byte offset,
  // value found) and keeps the previous network, untouched.
  bool load_network(const std::string& path, bool allow_trailing, std::string* error);
  const std::shared_ptr<const nnue::Network>& network() const;
  // Searches evaluate with the network: one is loaded and "Use NNUE" is on.
  bool nnue_active() const;
  // The fail-high predictor: on/off and thresholds (UCI FHPredictor, FHLmrTier1/2, FHStaticNull).
  fh::Settings& fh_settings();
  // Loads a model file ("" or "<builtin>": the built-in model). Transactional: on failure the
  // previous model stays and `error` says file:line and why.
  bool load_fh_model(const std::string& path, std::string* error);
  // The predictor's options as UCI names them: FHPredictor, FHModel, FHLmrTier1, FHLmrTier2,
  // FHStaticNull. set_fh_option returns "" or why the value was refused (nothing changed then).
  static bool is_fh_option(const std::string& name);
  std::string set_fh_option(const std::string& name, const std::string& value);

  // Searches `pos` (restored on return). `on_iteration` is called after each completed depth.
  // `stop`: the caller's stop flag, read instead of stop()'s and never reset by go() (so a stop
  // that arrives before the search starts is not lost).
  Result go(Position& pos, const Limits& limits,
            const std::function<void(const Iteration&)>& on_iteration = nullptr,
            const std::atomic<bool>* stop = nullptr);
  // Asks a running go() without a caller's stop flag to return as soon as possible (thread safe).
  void stop() { stop_requested_.store(true, std::memory_order_relaxed); }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::atomic<bool> stop_requested_{false};
};

}  // namespace stk::search
