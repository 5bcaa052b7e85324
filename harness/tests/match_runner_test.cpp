// stk-harness match end to end: colour reversal, faults that lose and restart, adjudication,
// bit-identical fixed-nodes replays, resuming a killed run, and bad input (exit 2, named).
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "stats/sprt.h"
#include "games/adjudication.h"
#include "commands/match/match_settings.h"

using namespace stk;
namespace fs = std::filesystem;

namespace {

std::string fake_bin() {
  return test::env_or("STK_FAKE_UCI", test::binary_dir() + "/harness/stk-fake-uci");
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The published result of a finished run (counts, pairs).
nlohmann::json state(const fs::path& dir, const std::string& config) {
  return nlohmann::json::parse(read_text(dir / "match" / (config + ".json")));
}

// Pairs recorded in a runner's journal: its whole lines after the header.
std::size_t journal_pairs(const fs::path& journal) {
  const std::string text = read_text(journal);
  const auto lines = std::count(text.begin(), text.end(), '\n');
  return lines > 1 ? std::size_t(lines - 1) : 0;
}

// A match in `dir` (its reports under dir), gate non-regression with a bar nothing fails by accident.
std::string match_command(const fs::path& dir, const std::string& config, const std::string& args) {
  return test::harness_bin() + " match --config " + config + " --out-dir " + dir.string() +
         " --gate non-regression --min-elo-lower95 -100000 --quiet " + args;
}

test::RunResult match(const fs::path& dir, const std::string& config, const std::string& args) {
  return test::run_command(match_command(dir, config, args));
}

std::string fake(const std::string& defect = "", const std::string& name = "") {
  std::string cmd = "--engine 'cmd=" + fake_bin() + (defect.empty() ? "" : " --defect " + defect) +
                    "'";
  return cmd + (name.empty() ? "" : " name=" + name);
}

std::vector<std::string> tag_values(const std::string& pgn, const std::string& tag) {
  std::vector<std::string> out;
  std::regex re("\\[" + tag + " \"([^\"]*)\"\\]");
  for (auto it = std::sregex_iterator(pgn.begin(), pgn.end(), re); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1]);
  return out;
}

}  // namespace

TEST_CASE("match: each opening is played twice with A White then A Black", "[matchrun][harness]") {
  const auto dir = test::scratch_dir("match-colours");
  // A answers every search with an illegal move: it must lose every game, so every pair is LL.
  // Playing A as White twice would turn the second loss into a recorded win.
  auto run = match(dir, "c",
                   fake("illegal-after-0", "a") + " " + fake("", "b") + " --nodes 50 --pairs 3");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const auto s = state(dir, "c");
  CHECK(s["counts"]["pentanomial"] == nlohmann::json({3, 0, 0, 0, 0}));
  const std::string pgn = read_text(dir / "match" / "c.pgn");
  CHECK(tag_values(pgn, "White") == std::vector<std::string>{"a", "b", "a", "b", "a", "b"});
  CHECK(tag_values(pgn, "Result") ==
        std::vector<std::string>{"0-1", "1-0", "0-1", "1-0", "0-1", "1-0"});
  const auto fens = tag_values(pgn, "FEN");
  REQUIRE(fens.size() == 6);
  for (std::size_t i = 0; i < 6; i += 2) CHECK(fens[i] == fens[i + 1]);
  CHECK(tag_values(pgn, "Termination") == std::vector<std::string>(6, "rules infraction"));
}

TEST_CASE("match: a crash or hang or illegal move loses with its reason and the engine restarts",
          "[matchrun][harness]") {
  struct Case {
    std::string defect, reason, termination;
  };
  const std::vector<Case> cases = {
      {"crash-after-2", "crash: A (a) crashed (killed by signal 6", "crash"},
      {"hang-after-2",
       "time forfeit: A (a) gave no bestmove within " + test::timeout_ms(300) + " ms", "time-loss"},
      {"illegal-after-2", "illegal move: A (a) played 'a1h8'", "illegal-move"},
      {"disconnect-after-2", "disconnect: A (a) closed its output (still running)", "disconnect"}};
  // Side by side: each match waits on the fake's faults (a hang, a disconnect), not the CPU.
  std::vector<fs::path> dirs;
  std::vector<std::string> commands;
  for (const auto& c : cases) {
    dirs.push_back(test::scratch_dir("match-fault-" + c.defect));
    commands.push_back(match_command(dirs.back(), "f",
                                     fake(c.defect, "a") + " " + fake("", "b") +
                                         " --nodes 50 --pairs 2 --timeout-ms " +
                                         test::timeout_ms(300)));
  }
  const auto runs = test::run_commands(commands);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& [defect, reason, termination] = cases[i];
    const auto& dir = dirs[i];
    const auto& run = runs[i];
    INFO(defect << "\n" << run.output);
    CHECK(run.exit_code == 0);
    const auto s = state(dir, "f");
    REQUIRE(s["pairs"].size() == 2);
    for (const auto& pair : s["pairs"])
      for (const auto& g : pair["games"]) {
        // Every game: A played its two good moves (so it was restarted after the previous fault), then lost.
        CHECK(g["reason"].get<std::string>().rfind(reason, 0) == 0);
        CHECK(g["termination"] == termination);
        CHECK(g["result"] == (g["a"] == "white" ? "0-1" : "1-0"));
        CHECK(g["plies"].get<int>() >= 4);
      }
    // Counted as that kind, for A, with each colour (a machine field, not the reason's text).
    const auto& row = s["diagnostics"]["terminations"][termination];
    CHECK(row["games"] == 4);
    CHECK(row["A"]["white"] == nlohmann::json({{"w", 0}, {"d", 0}, {"l", 2}}));
    CHECK(row["A"]["black"] == nlohmann::json({{"w", 0}, {"d", 0}, {"l", 2}}));
    CHECK(row["B"]["white"] == nlohmann::json({{"w", 2}, {"d", 0}, {"l", 0}}));
    CHECK(s["diagnostics"]["losses_by_fault"]["A"] ==
          nlohmann::json({{termination, 4}, {"total", 4}}));
    CHECK(s["diagnostics"]["losses_by_fault"]["B"] == nlohmann::json({{"total", 0}}));
    CHECK(run.output.find("games lost by a fault: A (a): 4 " + termination) != std::string::npos);
  }
}

TEST_CASE("match: terminations per engine and colour reach the JUnit message and properties",
          "[matchrun][harness]") {
  // B fails: the counts must name B, never A, and the colours B played.
  const auto dir = test::scratch_dir("match-terminations");
  auto run = match(dir, "e",
                   fake("", "a") + " " + fake("illegal-after-1", "b") + " --nodes 50 --pairs 2");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const std::string junit = read_text(dir / "junit" / "match-e.xml");
  // The testcase's output (a failed gate: its failure message and text) names them.
  CHECK(junit.find("ended: illegal-move 4\nfaults: B (b): 4 illegal-move\n") != std::string::npos);
  CHECK(junit.find("name=\"terminations.illegal-move\" value=\"A white 2-0-0, A black 2-0-0, B "
                   "white 0-0-2, B black 0-0-2\"") != std::string::npos);
  const std::string md = read_text(dir / "match" / "e.md");
  CHECK(md.find("| illegal-move | 2-0-0 | 2-0-0 | 0-0-2 | 0-0-2 |") != std::string::npos);
}

TEST_CASE("match: adjudication needs both engines for movecount moves each",
          "[matchrun][adjudication]") {
  harness::selfplay::Adjudication a;
  a.resign = harness::selfplay::Adjudication::Resign{3, 500};
  a.draw = harness::selfplay::Adjudication::Draw{10, 2, 5};
  harness::selfplay::Adjudicator adj(a);
  // White is winning by its own and by Black's account: 6 plies (3 moves each) are needed.
  for (int ply = 1; ply <= 5; ++ply) {
    const bool white = ply % 2 == 1;
    CHECK_FALSE(adj.after_move(white ? 600 : -600, white, 20, ply));
  }
  auto v = adj.after_move(600, true, 20, 6);
  REQUIRE(v);
  CHECK(v->result == "1-0");
  // One engine's optimism is not enough: Black disagrees every time.
  harness::selfplay::Adjudicator lone(a);
  for (int ply = 1; ply <= 20; ++ply)
    CHECK_FALSE(lone.after_move(ply % 2 ? 900 : 100, ply % 2 == 1, 20, ply));
  // Draw: within 5 cp for 2 moves each, only from move 10 on.
  harness::selfplay::Adjudicator early(a);
  for (int ply = 1; ply <= 6; ++ply) CHECK_FALSE(early.after_move(0, ply % 2 == 1, 5, ply));
  harness::selfplay::Adjudicator late(a);
  for (int ply = 1; ply <= 3; ++ply) CHECK_FALSE(late.after_move(0, ply % 2 == 1, 12, ply));
  auto d = late.after_move(0, false, 12, 4);
  REQUIRE(d);
  CHECK(d->result == "1/2-1/2");
}

TEST_CASE("match: the move cap adjudicates a draw, marked in the PGN",
          "[matchrun][adjudication][harness]") {
  const auto dir = test::scratch_dir("match-maxmoves");
  auto run = match(dir, "m",
                   fake("", "a") + " " + fake("", "b") + " --nodes 50 --pairs 2 --maxmoves 3");
  INFO(run.output);
  CHECK(run.exit_code == 0);
  const std::string pgn = read_text(dir / "match" / "m.pgn");
  CHECK(tag_values(pgn, "Termination") == std::vector<std::string>(4, "adjudication"));
  CHECK(pgn.find("{adjudication: draw (move cap of 3 moves)} 1/2-1/2") != std::string::npos);
}

TEST_CASE("match: a fixed-nodes match with stk replays bit for bit at any concurrency",
          "[matchrun][harness][stk]") {
  const auto one = test::scratch_dir("match-replay-1"), two = test::scratch_dir("match-replay-2");
  const std::string args = "--engine cmd=" + test::engine_bin() +
                           " name=x --engine cmd=" + test::engine_bin() +
                           " name=y option.Hash=8 --nodes 2000 --pairs 3 --maxmoves 40";
  auto r1 = match(one, "r", args + " --seed 7 --concurrency 1");
  auto r2 = match(two, "r", args + " --seed 7 --concurrency 2");
  INFO(r1.output << r2.output);
  REQUIRE(r1.exit_code == 0);
  REQUIRE(r2.exit_code == 0);
  CHECK(read_text(one / "match" / "r.pgn") == read_text(two / "match" / "r.pgn"));
  CHECK(state(one, "r")["pairs"] == state(two, "r")["pairs"]);
  CHECK(read_text(one / "match" / "r-openings.epd") == read_text(two / "match" / "r-openings.epd"));
  // The generated openings given back (in file order: a --seed would shuffle the book) reproduce
  // the match, each pair from the same position.
  const auto back = test::scratch_dir("match-replay-back");
  auto r3 = match(back, "r", args + " --openings " + (one / "match" / "r-openings.epd").string());
  REQUIRE(r3.exit_code == 0);
  CHECK(state(back, "r")["pairs"] == state(one, "r")["pairs"]);
}

TEST_CASE("match: a killed run resumes from its state and plays every pair once",
          "[matchrun][harness][stk]") {
  const auto fresh = test::scratch_dir("match-resume-fresh"),
             killed = test::scratch_dir("match-resume-killed");
  const std::string args = "--engine cmd=" + test::engine_bin() +
                           " name=x --engine cmd=" + test::engine_bin() +
                           " name=y --nodes 2000 --pairs 6 --seed 3 --maxmoves 40";
  REQUIRE(match(fresh, "k", args).exit_code == 0);
  // Start, wait for two recorded pairs, kill -9 (no chance to tidy up), then run the same command again.
  const std::string cmd = test::harness_bin() + " match --config k --out-dir " + killed.string() +
                          " --gate non-regression --min-elo-lower95 -100000 --quiet " + args;
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", ("exec " + cmd + " >/dev/null 2>&1").c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto journal = killed / "match" / "k-state.jsonl";
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::seconds(60 * test::kTimeScale);
  std::size_t seen = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(journal)) seen = journal_pairs(journal);
    if (seen >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  REQUIRE(seen >= 2);
  const std::size_t at_kill = journal_pairs(journal);
  REQUIRE(at_kill < 6);
  // As if the kill had also cut the next pair's line short: that line is dropped, the pair played again.
  std::ofstream(journal, std::ios::app) << "{\"opening\":" << at_kill << ",\"score\":2,\"ga";
  auto resumed = match(killed, "k", args);
  INFO(resumed.output);
  REQUIRE(resumed.exit_code == 0);
  CHECK(resumed.output.find("k-state.jsonl: dropped a torn last line") != std::string::npos);
  // Only the pairs the killed run had not recorded are played again.
  CHECK(resumed.output.find("this run: " + std::to_string(2 * (6 - at_kill)) + " games") !=
        std::string::npos);
  CHECK(state(killed, "k")["counts"] == state(fresh, "k")["counts"]);
  CHECK(state(killed, "k")["pairs"].size() == 6);
  CHECK(read_text(killed / "match" / "k.pgn") == read_text(fresh / "match" / "k.pgn"));
}

TEST_CASE("match: bad input is refused before the first game with its name and exit 2",
          "[matchrun][harness][input]") {
  const auto dir = test::scratch_dir("match-run-bad");
  auto expect = [&](const std::string& args, const std::string& message) {
    auto r = match(dir, "b", args + " --nodes 50 --pairs 1 --timeout-ms " + test::timeout_ms(300));
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "match" / "b.pgn"));
  };
  expect(fake("no-uciok", "a") + " " + fake(), "engine A (a)");
  expect(fake("no-uciok", "a") + " " + fake(),
         "did not answer 'uci' with 'uciok' within " + test::timeout_ms(300) + " ms");
  expect(fake() + " " + fake("no-readyok", "b"), "engine B (b)");
  expect(fake() + " " + fake("", "b") + " option.Foo=1",
         "option 'Foo' is not one the engine advertises");
  test::write_file(dir / "bad.epd",
                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nxx/yy w - -\n");
  expect(fake() + " " + fake() + " --openings " + (dir / "bad.epd").string(), "bad.epd:2:");
  test::write_file(dir / "bad.pgn",
                   "[Event \"x\"]\n\n1. e4 e5 *\n\n[Event \"y\"]\n\n1. e4 e5 2. Ke3 *\n");
  expect(fake() + " " + fake() + " --openings " + (dir / "bad.pgn").string(),
         "bad.pgn:7: 'Ke3' is not a legal move");
  expect(fake(), "exactly two --engine");
  expect(fake() + " " + fake() + " --engine cmd=x", "exactly two --engine");
}

TEST_CASE("match: an engine's nodes= and depth= take their whole range and nothing outside",
          "[matchrun][input]") {
  using harness::selfplay::parse_engine;
  auto limit = [](const std::string& kv) { return parse_engine({"cmd=x", kv}).limit; };
  CHECK(limit("nodes=1")->nodes == 1);
  CHECK(limit("nodes=1099511627776")->nodes == (std::uint64_t(1) << 40));
  CHECK(limit("depth=1")->depth == 1);
  CHECK(limit("depth=100")->depth == 100);
  for (const char* bad : {"nodes=0", "nodes=1099511627777", "depth=0", "depth=101"}) {
    INFO(bad);
    CHECK_THROWS_WITH(limit(bad),
                      Catch::Contains(std::string(bad).substr(0, std::string(bad).find('=') + 1)));
  }
  CHECK_THROWS_WITH(parse_engine({"cmd=x", "nodes=5", "depth=5"}),
                    Catch::Contains("give nodes= or depth=, not both"));
  CHECK_THROWS_WITH(parse_engine({"name=a"}), Catch::Contains("cmd=CMD is required"));
  CHECK_THROWS_WITH(parse_engine({"cmd=stk 'x"}),
                    Catch::Contains("--engine cmd=stk 'x: unbalanced single quote"));
}

TEST_CASE("match: an engine that overruns its clock loses on time and is not counted as crashed",
          "[matchrun][harness][clock]") {
  const auto dir = test::scratch_dir("match-clock");
  // A plays two moves within its clock, then answers 300 ms after its clock ran out (margin 100 ms).
  auto run = match(dir, "t",
                   fake("slow-after-2", "a") + " " + fake("", "b") + " --tc 1+0 --pairs 1");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const auto s = state(dir, "t");
  REQUIRE(s["pairs"].size() == 1);
  for (const auto& g : s["pairs"][0]["games"]) {
    CHECK(g["reason"].get<std::string>().rfind("time forfeit: A (a)", 0) == 0);
    CHECK(g["result"] == (g["a"] == "white" ? "0-1" : "1-0"));
    CHECK(g["plies"].get<int>() >= 4);
  }
  const std::string pgn = read_text(dir / "match" / "t.pgn");
  CHECK(tag_values(pgn, "Termination") == std::vector<std::string>(2, "time forfeit"));
  CHECK(pgn.find("{time forfeit: A (a)") != std::string::npos);
  CHECK(tag_values(pgn, "TimeControl") == std::vector<std::string>(2, "1+0"));
  // Counted as time forfeits, not crashes, in the output and the JUnit properties.
  CHECK(run.output.find("games lost by a fault: A (a): 2 time-loss") != std::string::npos);
  const std::string junit = read_text(dir / "junit" / "match-t.xml");
  CHECK(junit.find("name=\"run.faults\" value=\"A (a): 2 time-loss\"") != std::string::npos);
  CHECK(state(dir, "t")["diagnostics"]["terminations"]["time-loss"]["games"] == 2);
  // The same engine within its clock loses nothing.
  auto fine = match(test::scratch_dir("match-clock-fine"), "t",
                    fake("", "a") + " " + fake("", "b") + " --tc 1+0 --pairs 1");
  CHECK(fine.output.find("games lost by a fault: none") != std::string::npos);
}

TEST_CASE("match: two shards merged equal the unsharded run exactly",
          "[matchrun][harness][stk][shard]") {
  const auto dir = test::scratch_dir("match-shards");
  const std::string args =
      "--engine cmd=" + test::engine_bin() + " name=x --engine cmd=" + test::engine_bin() +
      " name=y option.Hash=8 --nodes 1500 --pairs 5 --seed 5 --maxmoves 40 --sprt elo0=-5 elo1=5";
  // A five-pair SPRT cannot decide: the gate falls back to the helper's bar (lower95 > -100000) and
  // passes, in each shard and in the merge alike; the counts are the point.
  auto whole = match(dir / "whole", "s", args);
  auto one = match(dir / "one", "s",
                   args + " --shard 1/2 --state " + (dir / "shard1.jsonl").string());
  auto two = match(dir / "two", "s",
                   args + " --shard 2/2 --state " + (dir / "shard2.jsonl").string());
  INFO(whole.output << one.output << two.output);
  REQUIRE(whole.exit_code == 0);
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  auto merged = test::run_command(
      test::harness_bin() + " match-merge " + (dir / "shard1.jsonl").string() + " " +
      (dir / "shard2.jsonl").string() + " --out-dir " + (dir / "merged").string());
  INFO(merged.output);
  REQUIRE(merged.exit_code == 0);
  CHECK(merged.output.find("SPRT undecided at the pair budget") != std::string::npos);
  const auto w = state(dir / "whole", "s"), m = state(dir / "merged", "s");
  CHECK(m["shards"] == nlohmann::json({1, 2}));
  CHECK(m["complete"] == true);
  CHECK(m["counts"] == w["counts"]);
  CHECK(m["pairs"] == w["pairs"]);  // pair by pair, in opening order
  CHECK(m["summary"]["sprt"] == w["summary"]["sprt"]);
  CHECK(m["summary"]["sprt"]["llr"].is_number());
}

TEST_CASE("match: a live SPRT stops the match at its bound before the planned pairs",
          "[matchrun][harness][stk][sprt]") {
  const auto dir = test::scratch_dir("match-sprt-stop");
  // A plays its first legal move (or a mate in one); B is stk: every pair is lost, H0 comes quickly.
  auto run = test::run_command(
      test::harness_bin() + " match --config stop --out-dir " + dir.string() + " " +
      fake("", "weak") + " --engine cmd=" + test::engine_bin() +
      " name=stk --nodes 500 --pairs 100 --maxmoves 80 --sprt elo0=0 elo1=10");
  INFO(run.output);
  CHECK(run.exit_code == 1);  // the gain gate fails: H0 accepted
  const auto s = state(dir, "stop");
  const std::size_t played = s["pairs"].size();
  CHECK(played < 100);
  CHECK(s["complete"] == false);
  CHECK(s["summary"]["sprt"]["verdict"] == "H0 accepted");
  const std::string stopped = "SPRT H0 accepted after " + std::to_string(played) +
                              " of 100 planned pairs";
  CHECK(run.output.find(stopped + ": the match stopped early") != std::string::npos);
  CHECK(
      read_text(dir / "junit" / "match-stop.xml").find("name=\"run.stopped\" value=\"" + stopped) !=
      std::string::npos);
  // One pair fewer and the SPRT had not decided: it stopped at the bound, not later.
  harness::match::PentanomialCounts before;
  for (std::size_t i = 0; i + 1 < played; ++i)
    before.n[s["pairs"][i]["score"].get<std::size_t>()]++;
  const harness::match::SprtParams p{0, 10, 0.05, 0.05, harness::match::EloModel::Normalized};
  CHECK(harness::match::sprt(before, p).verdict == harness::match::Verdict::Continue);
}

TEST_CASE("match: at a fixed budget the A/A control requires every pair mirrored",
          "[matchrun][harness][aa]") {
  const auto dir = test::scratch_dir("match-aa-fixed");
  auto aa = [&](const std::string& defect, const std::string& budget) {
    return test::run_command(test::harness_bin() +
                             " match --config aa --quiet --gate aa-control --out-dir " +
                             (dir / (defect + budget.substr(2, 2))).string() + " " +
                             fake(defect, "b") + " " + fake(defect, "b") + " --pairs 4 " + budget);
  };
  // A deterministic engine against itself: every pair is the same game with colours reversed.
  auto good = aa("", "--nodes 50");
  INFO(good.output);
  CHECK(good.exit_code == 0);
  CHECK(good.output.find("every one of 4 pairs mirrored (fixed budget)") != std::string::npos);
  // The fake keeps a game counter across ucinewgame: the second game of a pair is another game.
  auto leak = aa("games-leak", "--nodes 50");
  INFO(leak.output);
  CHECK(leak.exit_code == 1);
  CHECK(leak.output.find(
            "4 of 4 pairs not mirrored (openings 0, 1, 2, 3): non-determinism or state shared") !=
        std::string::npos);
  CHECK(leak.output.find("A/A pair 2 not mirrored: opening generated:2 (") != std::string::npos);
  // Under a clock the interval is the check (games differ with timing): no mirror requirement.
  auto clocked = aa("games-leak", "--tc 2+0.02");
  INFO(clocked.output);
  CHECK(clocked.exit_code == 0);
  CHECK(clocked.output.find("mirrored") == std::string::npos);
  CHECK(clocked.output.find("aa-control gate passed: Elo 95% [") != std::string::npos);
}

TEST_CASE("match: the A/A control of a fixed-nodes stk match is mirrored pair by pair",
          "[matchrun][harness][stk][aa]") {
  const auto dir = test::scratch_dir("match-aa-stk");
  auto run =
      match(dir, "m",
            "--engine cmd=" + test::engine_bin() + " name=x --engine cmd=" + test::engine_bin() +
                " name=y option.Hash=8 --nodes 2000 --pairs 3 --seed 7 --maxmoves 60 --ab-control");
  INFO(run.output << read_text(dir / "match" / "m-aa.md"));
  CHECK(run.exit_code == 0);
  CHECK(read_text(dir / "match" / "m-aa.md").find("every one of 3 pairs mirrored (fixed budget)") !=
        std::string::npos);
  CHECK(state(dir, "m-aa")["counts"]["pentanomial"] == nlohmann::json({0, 0, 3, 0, 0}));
  CHECK(run.output.find("A/A CONTROL FAILED") == std::string::npos);  // a passing control is quiet
}

TEST_CASE("match: a failing A/A control says so and fails the run, both ways",
          "[matchrun][harness][aa]") {
  // B crashes in every game, so its A/A control (B against itself) cannot mirror its pairs: the
  // run must say not to trust the A/B result and exit 1. The same run with a B that plays its
  // games passes its control and says nothing of the kind.
  const auto dir = test::scratch_dir("match-aa-fails");
  auto run = [&](const std::string& config, const std::string& b_defect) {
    return match(dir / config, config,
                 fake("", "a") + " " + fake(b_defect, "b") + " --nodes 50 --pairs 2 --ab-control");
  };
  const auto failing = run("f", "crash-after-2");
  INFO(failing.output);
  CHECK(failing.exit_code == 1);
  CHECK(failing.output.find("A/A CONTROL FAILED: ") != std::string::npos);
  CHECK(failing.output.find("; do not trust the A/B result\n") != std::string::npos);
  const auto passing = run("p", "");
  INFO(passing.output);
  CHECK(passing.exit_code == 0);
  CHECK(passing.output.find("A/A CONTROL FAILED") == std::string::npos);
}

TEST_CASE("match: --seed shuffles a book and without it the book is played in file order",
          "[matchrun][harness][openings]") {
  const auto dir = test::scratch_dir("match-book-seed");
  std::string epd;
  const std::vector<std::string> fens = {"rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR b KQkq -",
                                         "rnbqkbnr/pppppppp/8/8/8/1P6/P1PPPPPP/RNBQKBNR b KQkq -",
                                         "rnbqkbnr/pppppppp/8/8/8/2P5/PP1PPPPP/RNBQKBNR b KQkq -",
                                         "rnbqkbnr/pppppppp/8/8/8/3P4/PPP1PPPP/RNBQKBNR b KQkq -",
                                         "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq -",
                                         "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq -",
                                         "rnbqkbnr/pppppppp/8/8/8/6P1/PPPPPP1P/RNBQKBNR b KQkq -"};
  for (const std::string& f : fens) epd += f + "\n";
  test::write_file(dir / "book.epd", epd);
  // The FEN of each pair's first game, in pair order.
  auto order = [&](const std::string& name, const std::string& seed) {
    auto run = test::run_command(
        test::harness_bin() +
        " match --config o --gate non-regression --min-elo-lower95 -100000 "
        "--out-dir " +
        (dir / name).string() + " " + fake("", "a") + " " + fake("", "b") +
        " --nodes 50 --maxmoves 2 --openings " + (dir / "book.epd").string() + " " + seed);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    const auto all = tag_values(read_text(dir / name / "match" / "o.pgn"), "FEN");
    std::vector<std::string> firsts;
    for (std::size_t i = 0; i < all.size(); i += 2)
      firsts.push_back(all[i].substr(0, all[i].find(" b ")));
    return std::make_pair(firsts, run.output);
  };
  std::vector<std::string> file_order;
  for (const std::string& f : fens) file_order.push_back(f.substr(0, f.find(" b ")));
  const auto [plain, plain_out] = order("plain", "");
  CHECK(plain == file_order);
  CHECK(plain_out.find("book.epd: 7 openings, in file order (no --seed)") != std::string::npos);
  CHECK(state(dir / "plain", "o")["definition"]["settings"]["openings_order"] == "file order");
  const auto [five, five_out] = order("five", "--seed 5");
  const auto [again, again_out] = order("again", "--seed 5");
  const auto [six, six_out] = order("six", "--seed 6");
  CHECK(five_out.find("book.epd: 7 openings, shuffled with seed 5") != std::string::npos);
  CHECK(state(dir / "five", "o")["definition"]["settings"]["openings_order"] == "shuffled, seed 5");
  CHECK(state(dir / "five", "o")["definition"]["openings"]["seed"] == 5);
  CHECK(five == again);       // the same seed, the same order
  CHECK(five != file_order);  // shuffled...
  CHECK(five != six);         // ...by the seed
  auto sorted = five;
  std::sort(sorted.begin(), sorted.end());
  auto expected = file_order;
  std::sort(expected.begin(), expected.end());
  CHECK(sorted == expected);  // a permutation: every opening once
}
