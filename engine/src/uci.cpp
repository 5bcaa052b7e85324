#include "uci.h"

#include <atomic>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "nnue/evaluate.h"
#include "notation.h"
#include "perft.h"
#include "position.h"
#include "search/search.h"

namespace stk {

namespace {

class UciEngine {
 public:
  UciEngine(std::istream& in, std::ostream& out) : in_(in), out_(out) {
    pos_.set(Position::kStartFen);
    searcher_.set_use_nnue(true);  // "Use NNUE" defaults on; it takes effect once EvalFile loads
  }
  ~UciEngine() { wait_search(); }
  int loop();

 private:
  void say(const std::string& s) {
    std::lock_guard<std::mutex> lock(out_mutex_);
    out_ << s << std::endl;
  }
  void wait_search() {
    if (search_thread_.joinable()) {
      searcher_.stop();
      stop_received_ = true;
      search_thread_.join();
    }
  }
  void cmd_position(std::istringstream& is);
  void cmd_go(std::istringstream& is);
  void cmd_setoption(std::istringstream& is);

  std::istream& in_;
  std::ostream& out_;
  std::mutex out_mutex_;
  Position pos_;
  search::Searcher searcher_;
  std::thread search_thread_;
  std::atomic<bool> stop_received_{false};
};

// "position startpos|fen <6 fields> [moves m1 m2 ...]". On any error the previous position
// stays and the reason is reported as an info string.
void UciEngine::cmd_position(std::istringstream& is) {
  std::string token, fen;
  is >> token;
  if (token == "startpos") {
    fen = Position::kStartFen;
    is >> token;
  } else if (token == "fen") {
    while (is >> token && token != "moves") fen += token + " ";
  } else {
    say("info string error: expected 'startpos' or 'fen', got '" + token + "'");
    return;
  }
  Position next;
  if (auto err = next.set(fen)) {
    say("info string error: bad FEN: " + *err);
    return;
  }
  if (token == "moves") {
    while (is >> token) {
      auto m = parse_uci(next, token);
      if (!m) {
        say("info string error: illegal move '" + token + "' in " + next.fen());
        return;
      }
      next.make_move(*m);
    }
  }
  pos_ = next;
}

void UciEngine::cmd_go(std::istringstream& is) {
  search::Limits limits;
  std::string token;
  auto read_int = [&](auto& target) {
    long long v;
    if (is >> v && v >= 0) {
      target = static_cast<std::remove_reference_t<decltype(target)>>(v);
      return true;
    }
    say("info string error: 'go " + token + "' needs a non-negative integer");
    return false;
  };
  while (is >> token) {
    bool ok = true;
    if (token == "perft") {
      int depth = 0;
      if (!read_int(depth)) return;
      std::uint64_t total = 0;
      std::ostringstream o;
      for (auto& [m, n] : perft_divide(pos_, std::max(depth, 1))) {
        o << to_uci(m) << ": " << n << "\n";
        total += n;
      }
      o << "\nNodes searched: " << (depth == 0 ? 1 : total) << "\n";
      say(o.str());
      return;
    }
    if (token == "depth") ok = read_int(limits.depth);
    else if (token == "nodes") ok = read_int(limits.nodes);
    else if (token == "movetime") ok = read_int(limits.movetime_ms);
    else if (token == "wtime") ok = read_int(limits.time_ms[WHITE]);
    else if (token == "btime") ok = read_int(limits.time_ms[BLACK]);
    else if (token == "winc") ok = read_int(limits.inc_ms[WHITE]);
    else if (token == "binc") ok = read_int(limits.inc_ms[BLACK]);
    else if (token == "movestogo") ok = read_int(limits.movestogo);
    else if (token == "infinite") limits.infinite = true;
    else if (token == "ponder") limits.infinite = true;
    else say("info string warning: ignoring unknown go parameter '" + token + "'");
    if (!ok) return;
  }
  stop_received_ = false;
  search_thread_ = std::thread([this, limits, pos = pos_]() mutable {
    search::Result r = searcher_.go(pos, limits, [this](const search::Iteration& it) {
      std::ostringstream o;
      std::uint64_t nps = it.time_s > 0 ? std::uint64_t(double(it.nodes) / it.time_s) : 0;
      o << "info depth " << it.depth << " seldepth " << it.seldepth << " score "
        << search::score_to_uci(it.score) << " nodes " << it.nodes << " nps " << nps
        << " hashfull " << it.hashfull << " time " << std::uint64_t(it.time_s * 1000) << " pv";
      for (Move m : it.pv) o << " " << to_uci(m);
      say(o.str());
    });
    // UCI: after "go infinite" the best move is only sent once "stop" has arrived.
    while (limits.infinite && !stop_received_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    // The whole search, partial last iteration included (exact under "go nodes N").
    say("info depth " + std::to_string(r.depth) + " score " + search::score_to_uci(r.score) + " nodes " +
        std::to_string(r.nodes) + " time " + std::to_string(std::uint64_t(r.time_s * 1000)));
    std::string line = "bestmove " + to_uci(r.best);
    if (r.ponder != Move::none()) line += " ponder " + to_uci(r.ponder);
    say(line);
  });
}

void UciEngine::cmd_setoption(std::istringstream& is) {
  std::string token, name, value;
  is >> token;  // "name"
  while (is >> token && token != "value") name += (name.empty() ? "" : " ") + token;
  while (is >> token) value += (value.empty() ? "" : " ") + token;
  if (name == "Hash") {
    int mb = 0;
    try {
      mb = std::stoi(value);
    } catch (...) {
    }
    if (mb < 1 || mb > 65536) return say("info string error: Hash must be 1..65536 MB");
    searcher_.resize_hash(std::size_t(mb));
  } else if (name == "Threads") {
    if (value != "1") say("info string error: only Threads 1 is supported");
  } else if (name == "Clear Hash") {
    searcher_.clear();
  } else if (name == "Use NNUE") {
    if (value != "true" && value != "false") return say("info string error: Use NNUE must be true or false");
    searcher_.set_use_nnue(value == "true");
  } else if (search::Searcher::is_fh_option(name)) {
    // Transactional: a refused value (a bad model file included) changes nothing.
    if (std::string error = searcher_.set_fh_option(name, value); !error.empty())
      say("info string error: " + error);
    else if (name == "FHModel")
      say("info string fail-high model: " + (value.empty() ? std::string("<builtin>") : value));
  } else if (name == "EvalFile") {
    // Transactional: a bad file leaves the previous network active and intact.
    std::string error;
    if (value.empty() || value == "<empty>") {
      nnue::set_network(nullptr);
      say("info string NNUE network unloaded: classical evaluation");
    } else if (!nnue::load_network(value, false, &error)) {
      say("info string error: EvalFile not loaded: " + error);
    } else {
      say("info string NNUE network loaded: " + value);
    }
  } else {
    say("info string error: unknown option '" + name + "'");
  }
}

int UciEngine::loop() {
  std::string line;
  while (std::getline(in_, line)) {
    std::istringstream is(line);
    std::string cmd;
    if (!(is >> cmd)) continue;
    if (cmd == "quit") break;
    if (cmd == "stop") {
      searcher_.stop();
      stop_received_ = true;
      continue;
    }
    if (cmd == "isready") {
      say("readyok");
      continue;
    }
    if (cmd == "uci") {
      say("id name stk 0.1\nid author stk developers\n"
          "option name Hash type spin default 16 min 1 max 65536\n"
          "option name Threads type spin default 1 min 1 max 1\n"
          "option name Clear Hash type button\n"
          "option name Use NNUE type check default true\n"
          "option name EvalFile type string default <empty>\n"
          "option name FHPredictor type check default " + std::string(search::fh::Settings{}.enabled ? "true" : "false") + "\n"
          "option name FHModel type string default <builtin>\n"
          "option name FHLmrTier1 type spin default " + std::to_string(search::fh::Settings{}.lmr_tier1) + " min 0 max 10000\n"
          "option name FHLmrTier2 type spin default " + std::to_string(search::fh::Settings{}.lmr_tier2) + " min 0 max 10000\n"
          "option name FHStaticNull type spin default " + std::to_string(search::fh::Settings{}.static_null) + " min 0 max 10000\n"
          "uciok");
      continue;
    }
    // Anything else waits for a running search to finish first.
    if (cmd == "go" || cmd == "position" || cmd == "ucinewgame" || cmd == "setoption") {
      if (search_thread_.joinable()) search_thread_.join();
    }
    if (cmd == "ucinewgame") {
      searcher_.clear();
      pos_.set(Position::kStartFen);
    } else if (cmd == "position") {
      cmd_position(is);
    } else if (cmd == "go") {
      cmd_go(is);
    } else if (cmd == "setoption") {
      cmd_setoption(is);
    } else if (cmd == "d") {
      say(pos_.pretty());
    } else {
      say("info string unknown command: " + line);
    }
  }
  wait_search();
  return 0;
}

}  // namespace

int uci_loop(std::istream& in, std::ostream& out) {
  UciEngine engine(in, out);
  return engine.loop();
}

}  // namespace stk
