// Ponder in the UCI loop (engine/src/uci.cpp, docs/uci.md): "go ponder" never answers on its own,
// "ponderhit" turns the same search into a normal one whose clock counts from the ponderhit, and
// "stop" answers at once. The loop runs in-process on a thread, fed through a pipe-like stream;
// every line it prints is timestamped. The timing checks are orderings and one-sided bounds that
// load cannot break (a bestmove not before the budget counted from the ponderhit; a bestmove
// within seconds, where a correct engine needs milliseconds): they never flake on a busy machine.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "notation.h"
#include "position.h"
#include "search/time_budget.h"
#include "uci.h"

using namespace stk;

namespace {

using PonderClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// What the test writes, read by the loop's getline: blocks until a line comes or the pipe closes.
class PonderInput : public std::streambuf {
 public:
  void push(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ += line + "\n";
    cv_.notify_all();
  }
  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    cv_.notify_all();
  }

 protected:
  int_type underflow() override {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return !pending_.empty() || closed_; });
    if (pending_.empty()) return traits_type::eof();
    current_.swap(pending_);
    pending_.clear();
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::string pending_, current_;
  bool closed_ = false;
};

struct PonderLine {
  PonderClock::time_point at;
  std::string text;
};

// What the loop prints, line by line with the time each line was complete.
class PonderOutput : public std::streambuf {
 public:
  // The first line from index `from` on that satisfies `match`, waiting up to `limit`.
  std::optional<PonderLine> wait(const std::function<bool(const std::string&)>& match,
                                 std::size_t from, milliseconds limit, std::size_t* index) {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto deadline = PonderClock::now() + limit;
    for (std::size_t i = from;; ++i) {
      if (!cv_.wait_until(lock, deadline, [&] { return lines_.size() > i; })) return std::nullopt;
      if (match(lines_[i].text)) {
        if (index) *index = i;
        return lines_[i];
      }
    }
  }
  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_.size();
  }
  std::string all() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string s;
    for (const PonderLine& l : lines_) s += l.text + "\n";
    return s;
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    std::lock_guard<std::mutex> lock(mutex_);
    const char ch = traits_type::to_char_type(c);
    if (ch != '\n') {
      partial_ += ch;
      return c;
    }
    lines_.push_back({PonderClock::now(), partial_});
    partial_.clear();
    cv_.notify_all();
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize i = 0; i < n; ++i) overflow(traits_type::to_int_type(s[i]));
    return n;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<PonderLine> lines_;
  std::string partial_;
};

// uci_loop on its own thread, as main() runs it on stdin/stdout.
class PonderEngine {
 public:
  PonderEngine() : in_(&input_), out_(&output_) {
    loop_ = std::thread([this] { uci_loop(in_, out_); });
  }
  ~PonderEngine() {
    input_.push("quit");
    input_.close();
    loop_.join();
  }
  PonderClock::time_point send(const std::string& line) {
    const auto at = PonderClock::now();  // before the loop can read it
    input_.push(line);
    return at;
  }
  // The next bestmove line after the lines already seen (moves the mark past it).
  std::optional<PonderLine> bestmove(milliseconds limit) {
    return next([](const std::string& l) { return l.rfind("bestmove", 0) == 0; }, limit);
  }
  std::optional<PonderLine> next(const std::function<bool(const std::string&)>& match,
                                 milliseconds limit) {
    std::size_t at = 0;
    auto line = output_.wait(match, mark_, limit, &at);
    if (line) mark_ = at + 1;
    return line;
  }
  // Waits `quiet`: true when no bestmove came (the mark stays).
  bool no_bestmove_for(milliseconds quiet) {
    return !output_.wait([](const std::string& l) { return l.rfind("bestmove", 0) == 0; }, mark_,
                         quiet, nullptr);
  }
  std::string transcript() { return output_.all(); }

 private:
  PonderInput input_;
  PonderOutput output_;
  std::istream in_;
  std::ostream out_;
  std::thread loop_;
  std::size_t mark_ = 0;
};

// The hang detector: a correct engine answers in milliseconds, a defective one never.
constexpr milliseconds kPonderHang{10000};

bool starts_info_depth(const std::string& l) { return l.rfind("info depth", 0) == 0; }

// The move of a bestmove line, legal after 1. e4 e5 (the position every test ponders on).
bool legal_after_e4_e5(const std::string& bestmove_line) {
  std::istringstream is(bestmove_line);
  std::string word, move;
  is >> word >> move;
  Position pos;
  if (pos.set(Position::kStartFen)) return false;
  for (const char* m : {"e2e4", "e7e5"}) pos.make_move(*parse_uci(pos, m));
  return parse_uci(pos, move).has_value();
}

double ms_between(PonderClock::time_point from, PonderClock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

}  // namespace

TEST_CASE("uci ponder: ponderhit continues the search with the go's budget counted from it",
          "[uci][ponder]") {
  SECTION("go ponder movetime 300: silent for 900 ms of pondering then 300 ms after ponderhit") {
    PonderEngine e;
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder movetime 300");
    REQUIRE(e.next(starts_info_depth, kPonderHang));  // it searches
    // Three times its movetime: pondering never stops on its own.
    CHECK(e.no_bestmove_for(milliseconds(900)));
    const auto hit = e.send("ponderhit");
    auto best = e.bestmove(kPonderHang);
    INFO(e.transcript());
    REQUIRE(best);
    const double after_hit = ms_between(hit, best->at);
    INFO("bestmove " << after_hit << " ms after ponderhit");
    CHECK(after_hit >= 290);         // not at once: the movetime counts from the ponderhit
    CHECK(after_hit <= 300 + 5000);  // and it ends by itself (5 s: a loaded machine)
    CHECK(legal_after_e4_e5(best->text));
  }
  SECTION("go ponder wtime 3000 btime 3000: the clock budget starts at ponderhit") {
    Position pos;
    REQUIRE_FALSE(pos.set(Position::kStartFen));
    for (const char* m : {"e2e4", "e7e5"}) pos.make_move(*parse_uci(pos, m));
    search::Limits clock;
    clock.time_ms[WHITE] = clock.time_ms[BLACK] = 3000;
    const search::Budget budget = search::time_budget(pos, clock);
    REQUIRE(budget.soft_s > 0.02);
    REQUIRE(budget.hard_s < 0.5);
    PonderEngine e;
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 3000 btime 3000");
    REQUIRE(e.next(starts_info_depth, kPonderHang));
    // Past the whole hard limit: a search on its clock would have answered by now.
    CHECK(e.no_bestmove_for(milliseconds(int(budget.hard_s * 1000) + 400)));
    const auto hit = e.send("ponderhit");
    auto best = e.bestmove(kPonderHang);
    INFO(e.transcript());
    REQUIRE(best);
    const double after_hit = ms_between(hit, best->at);
    INFO("bestmove " << after_hit << " ms after ponderhit; soft " << budget.soft_s << " s, hard "
                     << budget.hard_s << " s");
    CHECK(after_hit >= budget.soft_s * 1000 - 1);  // at least the soft limit after ponderhit
    CHECK(after_hit <= budget.hard_s * 1000 + 5000);
    CHECK(legal_after_e4_e5(best->text));
  }
}

TEST_CASE("uci ponder: stop during ponder answers at once", "[uci][ponder]") {
  PonderEngine e;
  e.send("position startpos moves e2e4 e7e5");
  // Ten minutes on the clock: a budget of many seconds, were it counted.
  e.send("go ponder wtime 600000 btime 600000");
  REQUIRE(e.next(starts_info_depth, kPonderHang));
  CHECK(e.no_bestmove_for(milliseconds(200)));
  const auto stop = e.send("stop");
  auto best = e.bestmove(milliseconds(5000));
  INFO(e.transcript());
  REQUIRE(best);
  CHECK(best->at >= stop);
  CHECK(legal_after_e4_e5(best->text));
  // Exactly one answer: nothing more comes, and the engine answers the next command.
  CHECK(e.no_bestmove_for(milliseconds(200)));
  e.send("isready");
  CHECK(e.next([](const std::string& l) { return l == "readyok"; }, kPonderHang));
}

TEST_CASE("uci ponder: a ponder search that reaches its limit waits for ponderhit",
          "[uci][ponder]") {
  SECTION("go ponder depth 3") {
    PonderEngine e;
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder depth 3 wtime 600000 btime 600000");
    REQUIRE(
        e.next([](const std::string& l) { return l.rfind("info depth 3 ", 0) == 0; }, kPonderHang));
    CHECK(e.no_bestmove_for(milliseconds(500)));  // done, yet silent while pondering
    const auto hit = e.send("ponderhit");
    auto best = e.bestmove(milliseconds(5000));  // then at once (its depth is reached)
    INFO(e.transcript());
    REQUIRE(best);
    CHECK(best->at >= hit);
    CHECK(legal_after_e4_e5(best->text));
  }
  SECTION("go ponder nodes 3000") {
    PonderEngine e;
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder nodes 3000");
    CHECK(e.no_bestmove_for(milliseconds(500)));
    const auto hit = e.send("ponderhit");
    auto best = e.bestmove(milliseconds(5000));
    INFO(e.transcript());
    REQUIRE(best);
    CHECK(best->at >= hit);
    CHECK(legal_after_e4_e5(best->text));
  }
}

TEST_CASE("uci ponder: ponderhit never ends a search that does not ponder", "[uci][ponder]") {
  for (const char* go : {"go infinite", "go ponder infinite"}) {
    INFO(go);
    PonderEngine e;
    e.send("position startpos moves e2e4 e7e5");
    e.send(go);
    REQUIRE(e.next(starts_info_depth, kPonderHang));
    e.send("ponderhit");
    CHECK(e.no_bestmove_for(milliseconds(400)));  // infinite: only stop ends it
    const auto stop = e.send("stop");
    auto best = e.bestmove(milliseconds(5000));
    INFO(e.transcript());
    REQUIRE(best);
    CHECK(best->at >= stop);
    CHECK(legal_after_e4_e5(best->text));
  }
}

TEST_CASE("uci ponder: the Ponder option is advertised and set without a word", "[uci][ponder]") {
  PonderEngine e;
  e.send("uci");
  REQUIRE(e.next([](const std::string& l) { return l == "uciok"; }, kPonderHang));
  CHECK(e.transcript().find("option name Ponder type check default false\n") != std::string::npos);
  e.send("setoption name Ponder value true");
  e.send("setoption name Ponder value false");
  e.send("isready");
  // readyok is the very next line: both values accepted silently.
  auto next = e.next([](const std::string&) { return true; }, kPonderHang);
  REQUIRE(next);
  CHECK(next->text == "readyok");
  e.send("setoption name Ponder value maybe");
  auto refused = e.next([](const std::string&) { return true; }, kPonderHang);
  REQUIRE(refused);
  CHECK(refused->text == "info string error: Ponder must be true or false");
}
