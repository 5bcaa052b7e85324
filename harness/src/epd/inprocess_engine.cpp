// EngineDriver over the engine built into this binary: stk::search::Searcher, one thread,
// cleared before every position.
#include <chrono>

#include "cli/cli.h"
#include "epd/engine_driver.h"
#include "search/search.h"

namespace stk::harness::epd {

namespace {

class InProcessEngine : public EngineDriver {
 public:
  InProcessEngine(std::size_t hash_mb,
                  const std::vector<std::pair<std::string, std::string>>& options)
      : hash_mb_(hash_mb), options_(options) {
    search::Options o;
    o.hash_mb = hash_mb;
    searcher_ = std::make_unique<search::Searcher>(o);
    for (const auto& [name, value] : options) {
      if (!search::Searcher::is_fh_option(name))
        throw UsageError(
            "the in-process engine takes no --option '" + name +
            "' (it takes FHPredictor, FHModel, FHLmrTier1, FHLmrTier2, FHStaticNull; --hash for Hash)");
      if (std::string error = searcher_->set_fh_option(name, value); !error.empty())
        throw UsageError("--option " + error);
    }
  }

  std::string name() const override {
    std::string n = "stk (in-process";
    for (const auto& [k, v] : options_) n += ", " + k + "=" + v;
    return n + ")";
  }
  std::vector<std::pair<std::string, std::string>> settings() const override {
    std::vector<std::pair<std::string, std::string>> s = {{"Threads", "1"},
                                                          {"Hash", std::to_string(hash_mb_)}};
    s.insert(s.end(), options_.begin(), options_.end());
    return s;
  }

  SearchOutcome search(const Position& start, const std::string&, const Budget& budget) override {
    searcher_->clear();
    search::Limits limits;
    if (budget.kind == Budget::Kind::Depth) limits.depth = int(budget.value);
    else limits.nodes = budget.value;
    Position pos = start;
    auto t0 = std::chrono::steady_clock::now();
    search::Result r = searcher_->go(pos, limits);
    SearchOutcome out;
    out.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.best = r.best;
    out.best_text = r.best == Move::none() ? "(none)" : "";
    out.score = search::score_to_uci(r.score);
    out.depth = r.depth;
    out.nodes = r.nodes;
    out.pv = r.pv;
    if (out.pv.empty() && r.best != Move::none()) out.pv = {r.best};
    for (const search::Iteration& it : r.iterations)
      out.iterations.push_back({it.depth, search::score_to_uci(it.score), it.nodes, it.pv});
    return out;
  }

 private:
  std::size_t hash_mb_;
  std::vector<std::pair<std::string, std::string>> options_;
  std::unique_ptr<search::Searcher> searcher_;
};

}  // namespace

std::unique_ptr<EngineDriver> make_inprocess_engine(
    std::size_t hash_mb, const std::vector<std::pair<std::string, std::string>>& options) {
  return std::make_unique<InProcessEngine>(hash_mb, options);
}

}  // namespace stk::harness::epd
