// EngineDriver over an external UCI engine: "ucinewgame" + isready before each position,
// "go depth N" / "go nodes N", iterations read back from "info depth ... pv ..." lines.
#include <chrono>
#include <sstream>

#include "epd/engine_driver.h"
#include "notation.h"
#include "uci_client/uci_process.h"

namespace stk::harness::epd {

namespace {

// The legal prefix of a UCI move list, played from `pos`.
std::vector<Move> legal_prefix(const Position& start, const std::vector<std::string>& moves) {
  Position pos = start;
  std::vector<Move> out;
  for (const std::string& t : moves) {
    auto m = parse_uci(pos, t);
    if (!m) break;
    out.push_back(*m);
    pos.make_move(*m);
  }
  return out;
}

struct InfoLine {
  int depth = 0;
  std::string score;
  bool bound = false;  // lowerbound/upperbound: not the iteration's final word
  std::uint64_t nodes = 0;
  bool has_nodes = false;
  std::vector<std::string> pv;
};

InfoLine parse_info(const std::string& line) {
  InfoLine info;
  std::istringstream in(line);
  std::string tok;
  in >> tok;  // "info"
  while (in >> tok) {
    if (tok == "depth") {
      in >> info.depth;
    } else if (tok == "score") {
      std::string unit, value;
      in >> unit >> value;
      info.score = unit + " " + value;
    } else if (tok == "lowerbound" || tok == "upperbound") {
      info.bound = true;
    } else if (tok == "nodes") {
      in >> info.nodes;
      info.has_nodes = true;
    } else if (tok == "pv") {
      while (in >> tok) info.pv.push_back(tok);
    } else if (tok == "string") {
      break;  // free text to the end of the line
    }
  }
  return info;
}

class UciEngine : public EngineDriver {
 public:
  UciEngine(const std::string& path, std::size_t hash_mb,
            const std::vector<std::pair<std::string, std::string>>& options)
      : proc_(path) {
    settings_ = {{"engine_path", path}, {"Threads", "1"}, {"Hash", std::to_string(hash_mb)}};
    proc_.set_option("Threads", "1");
    proc_.set_option("Hash", std::to_string(hash_mb));
    for (const auto& [k, v] : options) {
      proc_.set_option(k, v);
      settings_.emplace_back(k, v);
    }
    proc_.sync();
  }

  std::string name() const override { return proc_.name().empty() ? proc_.path() : proc_.name(); }
  std::vector<std::pair<std::string, std::string>> settings() const override { return settings_; }

  SearchOutcome search(const Position& pos, const std::string& fen, const Budget& budget) override {
    proc_.send("ucinewgame");
    proc_.sync();
    proc_.send("position fen " + fen);
    proc_.sync();
    auto t0 = std::chrono::steady_clock::now();
    proc_.send(std::string(budget.kind == Budget::Kind::Depth ? "go depth " : "go nodes ") +
               std::to_string(budget.value));
    auto lines = proc_.read_until([](const std::string& l) { return l.starts_with("bestmove"); },
                                  std::chrono::seconds(3600));
    SearchOutcome out;
    out.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // One iteration per depth: its last exact-score line with a pv (a bound line only if the
    // depth had nothing else).
    std::vector<InfoLine> per_depth;
    for (const std::string& l : lines) {
      if (!l.starts_with("info ")) continue;
      InfoLine info = parse_info(l);
      if (info.has_nodes) out.nodes = std::max(out.nodes, info.nodes);
      if (info.depth <= 0 || info.pv.empty()) continue;
      if (!per_depth.empty() && per_depth.back().depth == info.depth) {
        if (!info.bound || per_depth.back().bound) per_depth.back() = info;
      } else {
        per_depth.push_back(info);
      }
    }
    for (const InfoLine& info : per_depth) {
      IterationInfo it;
      it.depth = info.depth;
      it.score = info.score;
      it.nodes = info.nodes;
      it.pv = legal_prefix(pos, info.pv);
      out.iterations.push_back(std::move(it));
    }

    std::istringstream last(lines.back());
    std::string word;
    last >> word >> out.best_text;
    if (auto m = parse_uci(pos, out.best_text)) out.best = *m;
    if (!out.iterations.empty()) {
      const IterationInfo& it = out.iterations.back();
      out.depth = it.depth;
      out.score = it.score;
      if (!it.pv.empty() && it.pv[0] == out.best) out.pv = it.pv;
    }
    if (out.pv.empty() && out.best != Move::none()) out.pv = {out.best};
    return out;
  }

 private:
  UciProcess proc_;
  std::vector<std::pair<std::string, std::string>> settings_;
};

}  // namespace

std::unique_ptr<EngineDriver> make_uci_engine(
    const std::string& path, std::size_t hash_mb,
    const std::vector<std::pair<std::string, std::string>>& options) {
  return std::make_unique<UciEngine>(path, hash_mb, options);
}

}  // namespace stk::harness::epd
