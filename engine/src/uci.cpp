#include "uci.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "nnue/embedded_net.h"
#include "notation.h"
#include "perft.h"
#include "position.h"
#include "search/search.h"
#include "search/time_budget.h"
#include "uci/go_command.h"
#include "uci/options.h"
#include "uci/position_command.h"

namespace stk {

namespace {

// Two threads. The input thread (the caller of loop()) reads every line and answers "stop",
// "ponderhit", "uci" and "quit" at once, whatever runs. A "go" runs on the search thread; while
// that thread is busy, every other command (position, ucinewgame, setoption, go, ...) is
// deferred: queued and run in order on the search thread once the search has answered.
// A "stop" stops the running search and every "go" queued before it (each still answers).
// "isready" is answered at once while a search runs or waits in the queue (UCI: readyok without
// stopping it), otherwise once every command read before it is done.
//
// Ponder. "go ponder ..." searches the position after the expected move with no clock: it never
// stops on its own and never answers before "ponderhit" or "stop" (a depth or node limit reached
// while pondering waits for one of them, like "go infinite"). "stop" answers at once. "ponderhit"
// (read by the input thread like "stop") turns the same search into a normal one: the go's own
// limits hold from then on, its clock budget (search::time_budget of the go's wtime/btime/inc/
// movestogo/movetime) counted from the ponderhit; the time spent pondering is not charged (the
// GUI's clock did not run for us while the opponent thought). A limit already reached answers at
// once. While a "go ponder" (not "go ponder infinite") runs, the search thread owns a third,
// short-lived thread, the ponder clock: it sleeps until ponderhit, then until the budget's hard
// limit, and does nothing but raise the stop flag; the soft limit is checked after each iteration
// on the search thread. The search itself never knows it ponders (search/ is unchanged).
// A "ponderhit" applies to the running search and to every "go" queued before it; for any search
// that is not a "go ponder" it does nothing.
class UciEngine {
 public:
  UciEngine(std::istream& in, std::ostream& out) : in_(in), out_(out) {
    pos_.set(Position::kStartFen);
  }
  ~UciEngine() { shut_down(); }
  int loop();

 private:
  using Clock = std::chrono::steady_clock;
  struct Deferred {
    std::string line;
    bool go = false;         // a "go" command
    bool stopped = false;    // a "stop" came after it was read
    bool ponderhit = false;  // a "ponderhit" came after it was read (at ponderhit_at)
    Clock::time_point ponderhit_at;
  };

  void say(const std::string& s) {
    std::lock_guard<std::mutex> lock(out_mutex_);
    out_ << s << std::endl;
  }
  void request_stop();
  void request_ponderhit();
  // The ponder clock's thread: stops the search once the go's budget runs out after ponderhit.
  void ponder_clock(const search::Budget& budget, const int& depth_done, const bool& done);
  bool queued_go() const {  // with mutex_ held
    return std::any_of(queue_.begin(), queue_.end(), [](const Deferred& d) { return d.go; });
  }
  void shut_down();
  void search_thread_main(std::string line);
  // Commands that touch the engine's state: only ever run by one thread at a time (the input
  // thread while no search thread runs, else the search thread). Returns a "go"'s answer (its
  // last lines, "bestmove" included), which the caller prints.
  std::string execute(const std::string& line);
  void cmd_position(std::istringstream& is);
  std::string cmd_go(std::istringstream& is);

  std::istream& in_;
  std::ostream& out_;
  std::mutex out_mutex_;

  std::mutex mutex_;  // guards busy_, queue_ and the stop protocol
  std::condition_variable stop_cv_;
  bool busy_ = false;       // the search thread runs
  bool searching_ = false;  // ... and is inside a search (not a deferred command)
  std::deque<Deferred> queue_;
  std::atomic<bool> stop_{false};  // the running search's stop flag (Searcher::go never resets it)
  bool ponderhit_ = false;         // the running search's "ponderhit" came (at ponderhit_at_)
  Clock::time_point ponderhit_at_;
  std::thread search_thread_;

  Position pos_;
  bool pos_valid_ = true;  // false after a refused "position": nothing to search until a good one
  // "Use NNUE" on: the built-in net from the start in a -nnue build, else once EvalFile loads one.
  search::Searcher searcher_{search::Options{16, true, nnue::embedded_network()}};
};

void UciEngine::request_stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  stop_ = true;
  for (Deferred& d : queue_) d.stopped = true;
  stop_cv_.notify_all();
}

void UciEngine::request_ponderhit() {
  std::lock_guard<std::mutex> lock(mutex_);
  const Clock::time_point now = Clock::now();
  if (!ponderhit_) ponderhit_ = true, ponderhit_at_ = now;
  for (Deferred& d : queue_)
    if (d.go && !d.ponderhit) d.ponderhit = true, d.ponderhit_at = now;
  stop_cv_.notify_all();
}

void UciEngine::ponder_clock(const search::Budget& budget, const int& depth_done,
                             const bool& done) {
  std::unique_lock<std::mutex> lock(mutex_);
  stop_cv_.wait(lock, [&] { return done || stop_.load() || ponderhit_; });
  if (done || stop_) return;
  if (search::last_iteration(budget, depth_done, 0.0)) {  // deep enough (our clock at 0: depth 1)
    stop_ = true;
    return;
  }
  if (budget.hard_s <= 0) return;  // no time limit: depth, nodes or nothing ends the search
  const auto deadline = ponderhit_at_ + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(budget.hard_s));
  if (!stop_cv_.wait_until(lock, deadline, [&] { return done || stop_.load(); })) stop_ = true;
}

void UciEngine::shut_down() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.clear();
    stop_ = true;
    stop_cv_.notify_all();
  }
  if (search_thread_.joinable()) search_thread_.join();
}

void UciEngine::search_thread_main(std::string line) {
  while (true) {
    const std::string answer = execute(line);
    std::lock_guard<std::mutex> lock(mutex_);
    // Printed under the lock, with busy_ updated: a command sent after the GUI read the
    // bestmove finds the engine idle (an "isready" then follows what came before it).
    if (!answer.empty()) say(answer);
    if (queue_.empty()) {
      busy_ = false;
      return;
    }
    line = queue_.front().line;
    stop_ = queue_.front().stopped;         // under the lock: a later "stop" cannot be lost
    ponderhit_ = queue_.front().ponderhit;  // ... nor a later "ponderhit"
    ponderhit_at_ = queue_.front().ponderhit_at;
    queue_.pop_front();
  }
}

void UciEngine::cmd_position(std::istringstream& is) {
  Position next;
  if (auto err = uci::parse_position(is, next)) {
    pos_valid_ = false;
    say("info string error: " + *err + "; no position until a valid 'position' command");
    return;
  }
  pos_ = next;
  pos_valid_ = true;
}

// Every "go" but "go perft" is answered by exactly one "bestmove" line: "bestmove 0000" when
// the command is refused or there is no position to search.
std::string UciEngine::cmd_go(std::istringstream& is) {
  const uci::GoCommand go = uci::parse_go(is);
  const std::string refused = !go.error.empty() ? go.error
                              : !pos_valid_
                                  ? "no position to search: the last 'position' command was refused"
                                  : "";
  if (!refused.empty()) {
    say("info string error: " + refused + "; go ignored");
    return go.perft_depth < 0 ? "bestmove 0000" : "";
  }
  if (go.perft_depth >= 0) {
    std::uint64_t total = 0;
    std::ostringstream o;
    for (auto& [m, n] : perft_divide(pos_, std::max(go.perft_depth, 1))) {
      o << to_uci(m) << ": " << n << "\n";
      total += n;
    }
    o << "\nNodes searched: " << (go.perft_depth == 0 ? 1 : total) << "\n";
    return o.str();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    searching_ = true;
  }
  // A "go ponder" searches without its clock (limits.infinite; movetime dropped too); from
  // ponderhit its own limits count, enforced here: `budget` from ponderhit by the ponder clock
  // (hard limit) and after each iteration (soft and depth limits). Nodes and depth are the go's.
  search::Limits limits = go.limits;
  if (go.ponder) limits.movetime_ms = 0;
  const bool clocked_ponder = go.ponder && !go.infinite;
  const search::Budget budget = clocked_ponder
                                    ? search::time_budget(pos_, uci::limits_after_ponderhit(go))
                                    : search::Budget{};
  int depth_done = 0;        // guarded by mutex_: the last completed iteration
  bool search_done = false;  // guarded by mutex_
  std::thread clock;
  if (clocked_ponder)
    clock = std::thread(&UciEngine::ponder_clock, this, std::cref(budget), std::cref(depth_done),
                        std::cref(search_done));
  Position pos = pos_;
  search::Result r = searcher_.go(
      pos, limits,
      [&](const search::Iteration& it) {
        if (clocked_ponder) {
          std::lock_guard<std::mutex> lock(mutex_);
          depth_done = it.depth;
          const double since_hit =
              std::chrono::duration<double>(Clock::now() - ponderhit_at_).count();
          if (ponderhit_ && search::last_iteration(budget, it.depth, since_hit))
            stop_ = true;  // no new iteration (the search sees it within 1024 nodes)
        }
        std::ostringstream o;
        std::uint64_t nps = it.time_s > 0 ? std::uint64_t(double(it.nodes) / it.time_s) : 0;
        o << "info depth " << it.depth << " seldepth " << it.seldepth << " score "
          << search::score_to_uci(it.score) << " nodes " << it.nodes << " nps " << nps
          << " hashfull " << it.hashfull << " time " << std::uint64_t(it.time_s * 1000) << " pv";
        for (Move m : it.pv) o << " " << to_uci(m);
        say(o.str());
      },
      &stop_);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    // UCI: after "go infinite" the best move waits for "stop"; after "go ponder", for "stop" or
    // "ponderhit" (then "go ponder infinite" waits for "stop").
    stop_cv_.wait(lock,
                  [&] { return stop_.load() || !(go.infinite || (go.ponder && !ponderhit_)); });
    searching_ = false;
    search_done = true;
    stop_cv_.notify_all();
  }
  if (clock.joinable()) clock.join();
  // The whole search, partial last iteration included (exact under "go nodes N").
  std::string answer = "info depth " + std::to_string(r.depth) + " score " +
                       search::score_to_uci(r.score) + " nodes " + std::to_string(r.nodes) +
                       " time " + std::to_string(std::uint64_t(r.time_s * 1000)) + "\nbestmove " +
                       to_uci(r.best);
  if (r.ponder != Move::none()) answer += " ponder " + to_uci(r.ponder);
  return answer;
}

std::string UciEngine::execute(const std::string& line) {
  std::istringstream is(line);
  std::string cmd;
  is >> cmd;
  if (cmd == "go") return cmd_go(is);
  if (cmd == "isready") {  // deferred behind commands that were not done yet
    say("readyok");
  } else if (cmd == "ucinewgame") {
    searcher_.clear();
    pos_.set(Position::kStartFen);
    pos_valid_ = true;
  } else if (cmd == "position") {
    cmd_position(is);
  } else if (cmd == "setoption") {
    if (std::string report = uci::set_option(is, searcher_); !report.empty()) say(report);
  } else if (cmd == "d") {
    say(pos_valid_ ? pos_.pretty()
                   : "info string no position (the last 'position' command was refused)");
  } else {
    say("info string unknown command: " + line);
  }
  return "";
}

int UciEngine::loop() {
  std::string line;
  while (std::getline(in_, line)) {
    std::istringstream is(line);
    std::string cmd;
    if (!(is >> cmd)) continue;
    // Answered at once, even during a search.
    if (cmd == "quit") break;
    if (cmd == "stop") {
      request_stop();
      continue;
    }
    if (cmd == "ponderhit") {  // the expected move was played: pondering becomes searching
      request_ponderhit();
      continue;
    }
    if (cmd == "uci") {
      say("id name stk 0.1\nid author stk developers\n" + uci::option_lines() + "\nuciok");
      continue;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (cmd == "isready" && (!busy_ || searching_ || queued_go())) {
      say("readyok");
      continue;
    }
    if (busy_) {  // deferred until the search thread has answered
      queue_.push_back({line, cmd == "go", false, false, Clock::time_point{}});
      continue;
    }
    if (cmd == "go") {
      if (search_thread_.joinable()) search_thread_.join();  // finished: it cleared busy_
      busy_ = true;
      stop_ = false;
      ponderhit_ = false;
      search_thread_ = std::thread(&UciEngine::search_thread_main, this, line);
      continue;
    }
    lock.unlock();
    execute(line);  // no search thread runs: this thread owns the engine's state (never a "go")
  }
  shut_down();  // "quit" or end of input: stop the search, drop what was deferred
  return 0;
}

}  // namespace

int uci_loop(std::istream& in, std::ostream& out) {
  UciEngine engine(in, out);
  return engine.loop();
}

}  // namespace stk
