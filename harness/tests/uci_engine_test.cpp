// The UCI front end under real use: the stk binary driven through pipes (UciProcess), and the
// loop in-process (stk::uci_loop) where no timing is involved. Every wait is a hang detector of
// 10 s around an answer that takes milliseconds.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "cli_support.h"
#include "notation.h"
#include "position.h"
#include "uci.h"
#include "uci_client/uci_process.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

constexpr std::chrono::seconds kHang{10};

bool starts_with(const std::string& line, const char* prefix) { return line.rfind(prefix, 0) == 0; }

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// Reads up to the next "bestmove" line; returns the move text. `lines` receives what was read.
std::string await_bestmove(harness::UciProcess& e, std::vector<std::string>* lines = nullptr) {
  auto got = e.read_until([](const std::string& l) { return starts_with(l, "bestmove"); }, kHang);
  if (lines) *lines = got;
  std::istringstream is(got.back());
  std::string word, move;
  is >> word >> move;
  return move;
}

std::vector<std::string> await_readyok(harness::UciProcess& e) {
  e.send("isready");
  return e.read_until([](const std::string& l) { return l == "readyok"; }, kHang);
}

// `move` is legal in the position `fen` followed by `moves`.
bool legal_after(const std::string& fen, const std::vector<std::string>& moves,
                 const std::string& move) {
  Position pos;
  if (pos.set(fen)) return false;
  for (const std::string& m : moves) {
    auto parsed = parse_uci(pos, m);
    if (!parsed) return false;
    pos.make_move(*parsed);
  }
  return parse_uci(pos, move).has_value();
}

const std::string kBlackToMove = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2";

// An "engine" that is a shell script (`body` after the #! line), in a scratch folder of its own.
std::string script_engine(const std::string& name, const std::string& body) {
  const auto script = test::scratch_dir(name) / "engine";
  test::write_file(script, "#!/bin/sh\n" + body);
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script.string();
}

}  // namespace

TEST_CASE("uci: a zero limit answers at once with a legal move", "[uci]") {
  struct Case {
    std::string fen, go;
  };
  const Case cases[] = {
      {Position::kStartFen, "wtime 0 btime 0"},
      {Position::kStartFen, "wtime 0 btime 60000 winc 0 binc 0"},
      {kBlackToMove, "wtime 0 btime 0"},
      {kBlackToMove, "btime 0 wtime 60000"},
      {Position::kStartFen, "movetime 0"},
      {Position::kStartFen, "nodes 0"},
      {Position::kStartFen, "depth 0"},
      {kBlackToMove, "depth 0"},
  };
  harness::UciProcess engine(test::engine_bin());
  for (const Case& c : cases) {
    INFO("position fen " << c.fen << " / go " << c.go);
    engine.send("position fen " + c.fen);
    engine.send("go " + c.go);
    std::string best = await_bestmove(engine);
    CHECK(legal_after(c.fen, {}, best));
  }
}

TEST_CASE("uci: stop, isready and quit are read during a search, other commands wait for it",
          "[uci]") {
  const std::string fen =
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
  struct Case {
    std::string during;    // sent while "go infinite" runs
    std::string next_fen;  // the position the next "go" must search
    std::vector<std::string> next_moves;
  };
  const Case cases[] = {
      {"position startpos moves e2e4", Position::kStartFen, {"e2e4"}},
      {"ucinewgame", Position::kStartFen, {}},
      {"setoption name Hash value 8", fen, {}},
      {"setoption name Clear Hash", fen, {}},
  };
  for (const Case& c : cases) {
    INFO("during the search: " << c.during);
    harness::UciProcess engine(test::engine_bin());
    engine.send("position fen " + fen);
    engine.send("go infinite");
    engine.read_until([](const std::string& l) { return starts_with(l, "info depth"); }, kHang);
    engine.send(c.during);
    await_readyok(engine);  // answered at once, the search still running
    engine.send("stop");
    CHECK(
        legal_after(fen, {}, await_bestmove(engine)));  // the search of `fen`, not a later position
    // The deferred command took effect once the search ended.
    engine.send("go depth 1");
    CHECK(legal_after(c.next_fen, c.next_moves, await_bestmove(engine)));
  }

  SECTION("a go during a search runs after it: two answers, in order") {
    harness::UciProcess engine(test::engine_bin());
    engine.send("position fen " + fen);
    engine.send("go infinite");
    engine.read_until([](const std::string& l) { return starts_with(l, "info depth"); }, kHang);
    engine.send("position startpos moves e2e4");
    engine.send("go depth 2");
    await_readyok(engine);
    engine.send("stop");
    CHECK(legal_after(fen, {}, await_bestmove(engine)));
    CHECK(legal_after(Position::kStartFen, {"e2e4"}, await_bestmove(engine)));
  }

  SECTION("a stop sent right after go stops it, however soon") {
    harness::UciProcess engine(test::engine_bin());
    for (int i = 0; i < 20; ++i) {
      engine.send("go infinite");
      engine.send("stop");
      CHECK(legal_after(Position::kStartFen, {}, await_bestmove(engine)));
    }
  }

  SECTION("quit ends a running search and the process") {
    auto r = test::run_command(
        "printf 'go infinite\\nposition startpos moves e2e4\\nquit\\n' | timeout 10 '" +
        test::engine_bin() + "'");
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Contains("bestmove"));
  }
}

TEST_CASE("uci: a go with a mistyped or bad argument is refused, answered by bestmove 0000",
          "[uci]") {
  harness::UciProcess engine(test::engine_bin());
  for (const char* go : {"go dpeth 5", "go depth", "go depth x", "go nodes -5", "go movetime 1.5",
                         "go infinite 7", "go wtime 1000 btime"}) {
    INFO(go);
    engine.send("position startpos");
    engine.send(go);
    std::vector<std::string> lines;
    CHECK(await_bestmove(engine, &lines) == "0000");
    CHECK_THAT(joined(lines), Contains("info string error"));
  }
  engine.send("go depth 1");  // the engine is fine afterwards
  CHECK(legal_after(Position::kStartFen, {}, await_bestmove(engine)));
}

TEST_CASE("uci: a refused position is never searched", "[uci]") {
  harness::UciProcess engine(test::engine_bin());
  for (const char* bad : {"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                          "position fen 8/8/8 w - - 0 1", "position startpos moves e2e4 e7e5 e1e3",
                          "position startpos moves e2e5", "position sideways"}) {
    INFO(bad);
    engine.send(
        "position startpos moves d2d4");  // a good position first: never searched after `bad`
    engine.send(bad);
    engine.send("go depth 3");
    std::vector<std::string> lines;
    CHECK(await_bestmove(engine, &lines) == "0000");
    CHECK_THAT(joined(lines), Contains("info string error"));
    CHECK_FALSE(std::any_of(lines.begin(), lines.end(),
                            [](const std::string& l) { return starts_with(l, "info depth"); }));
  }
  engine.send("position startpos moves e2e4");  // a good position makes the engine search again
  engine.send("go depth 1");
  CHECK(legal_after(Position::kStartFen, {"e2e4"}, await_bestmove(engine)));
}

TEST_CASE("uci: a hash table that cannot be allocated is refused, the previous one stays",
          "[uci]") {
#if defined(__SANITIZE_ADDRESS__)
  WARN("skipped under AddressSanitizer: it cannot run under a virtual memory limit (ulimit -v)");
  return;
#endif
  // A wrapper that starts the engine under a 1 GiB address-space limit.
  const auto dir = test::scratch_dir("uci-hash-limit");
  const auto wrapper = dir / "stk-limited";
  test::write_file(wrapper, "#!/bin/sh\nulimit -v 1048576 || exit 3\nexec '" + test::engine_bin() +
                                "' \"$@\"\n");
  std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
  harness::UciProcess engine(wrapper.string());
  for (const char* mb : {"65536", "4096"}) {
    INFO("Hash " << mb);
    engine.send(std::string("setoption name Hash value ") + mb);
    auto lines = await_readyok(engine);
    CHECK_THAT(joined(lines), Contains("info string error") && Contains("Hash"));
    engine.send("position startpos");
    engine.send("go depth 4");
    CHECK(legal_after(Position::kStartFen, {}, await_bestmove(engine)));
  }
  engine.send("setoption name Hash value 64");  // within the limit: accepted
  auto lines = await_readyok(engine);
  CHECK_THAT(joined(lines), !Contains("error"));
}

// Faults round 2: an engine's output that never completes a line neither holds the reader past
// its deadline nor grows without bound (planted defect: the old reader returned nothing until a
// newline or end of file, so this read waited for the 3 MiB line to end).
TEST_CASE("uci process: output without newlines comes back in capped pieces, on time",
          "[uci][faults]") {
  harness::UciProcess engine(
      harness::UciProcess::NoHandshake{},
      script_engine("uci-no-newline", "head -c 3145728 /dev/zero | tr '\\0' x\nexec sleep 30\n"));
  const auto t0 = harness::SteadyClock::now();
  auto piece = engine.read_line(t0 + std::chrono::seconds(5));
  REQUIRE(piece);
  CHECK(piece->text.size() == harness::UciProcess::kMaxLineBytes);
  CHECK(piece->text.find_first_not_of('x') == std::string::npos);
  // Nothing more completes: the reader gives up at its deadline, not at the engine's pleasure.
  engine.read_line(harness::SteadyClock::now() + std::chrono::seconds(3));
  engine.read_line(harness::SteadyClock::now() + std::chrono::seconds(3));
  const auto late = harness::SteadyClock::now();
  CHECK(!engine.read_line(late + std::chrono::milliseconds(300)));
  CHECK(harness::SteadyClock::now() - late < std::chrono::seconds(2));
  engine.kill_child();
}

// An engine that floods complete lines faster than the harness reads them: the old reader looked
// at the pipe once per call even past the deadline, and every look found lines, so a caller
// looping on one deadline never ended (seen as the fault matrix's uci-check engine-flood cell
// hanging under the -O0 coverage build, which reads slower than `yes` writes). The reader here is
// slow by construction (a pause per line), so the test does not depend on the machine's speed.
TEST_CASE("uci process: a flood of lines read slowly still ends at the deadline", "[uci][faults]") {
  harness::UciProcess engine(harness::UciProcess::NoHandshake{},
                             script_engine("uci-flood",
                                           "exec yes 'info depth 1 score cp 0 nodes 1 pv e2e4'\n"));
  const auto t0 = harness::SteadyClock::now();
  const auto deadline = t0 + std::chrono::milliseconds(500);
  const auto give_up = t0 + std::chrono::seconds(20);  // the old reader: never ends
  std::size_t lines = 0;
  while (harness::SteadyClock::now() < give_up && engine.read_line(deadline)) {
    ++lines;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  const auto took = harness::SteadyClock::now() - t0;
  CHECK(lines > 0);
  // Past the deadline: what was buffered and one last look, at most two pipe-loads of lines.
  REQUIRE(took < std::chrono::seconds(5));  // (not on to read_available, which would not end)
  // read_available takes what is there now and returns, however the engine goes on writing.
  const auto drained = harness::SteadyClock::now();
  CHECK(engine.read_available().size() > 0);
  CHECK(harness::SteadyClock::now() - drained < std::chrono::seconds(2));
  engine.kill_child();
}

// The one look past the deadline: a line the engine wrote in time but the harness had not read
// yet (a loaded machine) is not lost to a false timeout.
TEST_CASE("uci process: a line written before the deadline is read after it", "[uci][faults]") {
  harness::UciProcess engine(harness::UciProcess::NoHandshake{},
                             script_engine("uci-late-read",
                                           "echo 'bestmove e2e4'\nexec sleep 30\n"));
  const auto deadline = harness::SteadyClock::now() + std::chrono::milliseconds(300);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // the line waits in the pipe
  auto line = engine.read_line(deadline);
  REQUIRE(line);
  CHECK(line->text == "bestmove e2e4");
  CHECK(!engine.read_line(deadline));  // nothing more: the one look is spent
  engine.kill_child();
}
