#include "search/search.h"

#include <cmath>
#include <string>

#include "eval/evaluate.h"
#include "nnue/network.h"
#include "search/worker.h"

namespace stk::search {

std::string score_to_uci(int score) {
  if (score >= kValueMateInMaxPly) return "mate " + std::to_string((kValueMate - score + 1) / 2);
  if (score <= -kValueMateInMaxPly) return "mate -" + std::to_string((kValueMate + score) / 2);
  return "cp " + std::to_string(score);
}

struct Searcher::Impl {
  TranspositionTable tt;
  Heuristics heuristics;
  eval::Evaluator evaluator;
  NoPolicy policy;
  PredictorPolicy predictor_policy;  // the search while FHPredictor is on
  Options options;
  fh::Settings fh;
  std::unique_ptr<fh::Model> fh_model;  // a loaded model; null: the built-in one

  // The evaluator gets the network only while "Use NNUE" is on.
  void configure_evaluator() {
    evaluator.set_network(options.use_nnue ? options.network : nullptr);
  }
};

Searcher::Searcher(const Options& options) : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->tt.resize(options.hash_mb);
  impl_->heuristics.clear();
  impl_->configure_evaluator();
}

Searcher::~Searcher() = default;

void Searcher::clear() {
  impl_->tt.clear();
  impl_->heuristics.clear();
}

bool Searcher::resize_hash(std::size_t mb) {
  if (!impl_->tt.resize(mb)) return false;
  impl_->options.hash_mb = mb;
  return true;
}

std::size_t Searcher::hash_mb() const { return impl_->options.hash_mb; }

void Searcher::set_use_nnue(bool on) {
  impl_->options.use_nnue = on;
  impl_->configure_evaluator();
}

void Searcher::set_network(std::shared_ptr<const nnue::Network> net) {
  impl_->options.network = std::move(net);
  impl_->configure_evaluator();
}

bool Searcher::load_network(const std::string& path, bool allow_trailing, std::string* error) {
  // Parsed into a new object; only a complete, valid network replaces the current one.
  std::shared_ptr<const nnue::Network> net = nnue::Network::load(path, allow_trailing, error);
  if (!net) return false;
  set_network(std::move(net));
  return true;
}

const std::shared_ptr<const nnue::Network>& Searcher::network() const {
  return impl_->options.network;
}

bool Searcher::nnue_active() const { return impl_->evaluator.nnue_active(); }

fh::Settings& Searcher::fh_settings() { return impl_->fh; }

bool Searcher::load_fh_model(const std::string& path, std::string* error) {
  if (path.empty() || path == "<builtin>") {
    impl_->fh.model = nullptr;
    impl_->fh_model.reset();
    return true;
  }
  try {
    auto m = std::make_unique<fh::Model>(fh::Model::load_file(path));
    impl_->fh_model = std::move(m);
    impl_->fh.model = impl_->fh_model.get();
    return true;
  } catch (const fh::ModelError& e) {
    if (error) *error = e.what();
    return false;
  }
}

bool Searcher::is_fh_option(const std::string& name) {
  return name == "FHPredictor" || name == "FHModel" || name == "FHLmrTier1" ||
         name == "FHLmrTier2" || name == "FHStaticNull";
}

std::string Searcher::set_fh_option(const std::string& name, const std::string& value) {
  fh::Settings& f = impl_->fh;
  if (name == "FHPredictor") {
    if (value != "true" && value != "false") return "FHPredictor must be true or false";
    f.enabled = value == "true";
  } else if (name == "FHModel") {
    std::string error;
    if (!load_fh_model(value, &error)) return "FHModel not loaded: " + error;
  } else if (is_fh_option(name)) {
    int v = -1;
    try {
      std::size_t used = 0;
      v = std::stoi(value, &used);
      if (used != value.size()) v = -1;
    } catch (...) {
    }
    if (v < 0 || v > 10000) return name + " must be 0..10000 (1/10000 of probability)";
    (name == "FHLmrTier1" ? f.lmr_tier1 : name == "FHLmrTier2" ? f.lmr_tier2 : f.static_null) = v;
  } else {
    return "'" + name + "' is not a fail-high predictor option";
  }
  return "";
}

Result Searcher::go(Position& pos, const Limits& limits,
                    const std::function<void(const Iteration&)>& on_iteration,
                    const std::atomic<bool>* stop) {
  if (!stop) {
    stop_requested_.store(false, std::memory_order_relaxed);
    stop = &stop_requested_;
  }
  if (impl_->fh.enabled) {
    Worker<PredictorPolicy> worker(impl_->tt, impl_->heuristics, impl_->evaluator,
                                   impl_->predictor_policy);
    worker.set_fh(impl_->fh);
    return worker.run(pos, time_budget(pos, limits), *stop, on_iteration);
  }
  Worker<NoPolicy> worker(impl_->tt, impl_->heuristics, impl_->evaluator, impl_->policy);
  return worker.run(pos, time_budget(pos, limits), *stop, on_iteration);
}

}  // namespace stk::search
