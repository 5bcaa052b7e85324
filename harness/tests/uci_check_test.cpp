// uci-check: the parsers and the PV oracle on known lines, then the harness end to end: a
// correct fake engine passes, each planted defect of the fake fails its scenario (and only makes
// that scenario fail, never the run error out), and Debian's stockfish passes as the control
// with its documented differences.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "position.h"
#include "commands/uci-check/documented_differences.h"
#include "commands/uci-check/pv_consistency.h"
#include "commands/uci-check/ucicheck_report.h"
#include "uci_client/uci_lines.h"

using Catch::Matchers::Contains;
using namespace stk;
using namespace stk::harness;

namespace {

std::string fake_bin() {
  return test::env_or("STK_FAKE_UCI", test::binary_dir() + "/harness/stk-fake-uci");
}

Position pos(const std::string& fen) {
  Position p;
  REQUIRE_FALSE(p.set(fen));
  return p;
}

ucicheck::PvFindings pv_of(const std::string& fen, const std::string& info_line,
                           bool strict = false) {
  auto info = uci::parse_info(info_line);
  REQUIRE(info);
  return ucicheck::check_pv(pos(fen), *info, strict);
}

struct Run {
  test::RunResult result;
  nlohmann::json json;
  std::map<std::string, nlohmann::json> by_id;
};

std::string uci_check_command(const std::filesystem::path& dir, const std::string& args) {
  return test::harness_bin() + " uci-check --config t --out-dir " + dir.string() + " " + args;
}

// What a finished run in `dir` reported.
Run uci_check_run(const std::filesystem::path& dir, test::RunResult result) {
  Run run;
  run.result = std::move(result);
  std::ifstream in(dir / "uci-check" / "t.json");
  if (in) {
    in >> run.json;
    for (const auto& s : run.json["scenarios"]) run.by_id[s["id"].get<std::string>()] = s;
    CHECK(test::validate_junit((dir / "junit" / "uci-check-t.xml").string()) == "");
  }
  return run;
}

Run uci_check(const std::string& dir_name, const std::string& args) {
  const auto dir = test::scratch_dir(dir_name);
  return uci_check_run(dir, test::run_command(uci_check_command(dir, args)));
}

}  // namespace

TEST_CASE("uci-check parses option and info lines", "[uci-check]") {
  std::string problem;
  auto o = uci::parse_option("option name Clear Hash type button", &problem);
  REQUIRE(o);
  CHECK(o->name == "Clear Hash");
  CHECK(problem.empty());
  o = uci::parse_option("option name Debug Log File type string default ", &problem);
  CHECK((o && problem.empty() && o->default_value == ""));
  uci::parse_option("option name Hash type spin default 16 min 1 max 65536", &problem);
  CHECK(problem.empty());
  uci::parse_option("option name Hash type spin default 0 min 1 max 65536", &problem);
  CHECK_THAT(problem, Contains("outside [1, 65536]"));
  uci::parse_option("option name X type check default yes", &problem);
  CHECK_THAT(problem, Contains("not true or false"));
  uci::parse_option("option name Style type combo default Wild var Solid var Normal", &problem);
  CHECK_THAT(problem, Contains("combo default"));
  uci::parse_option("option name Y type slider default 1", &problem);
  CHECK_THAT(problem, Contains("type 'slider'"));
  CHECK_FALSE(uci::parse_option("info depth 1", &problem));

  auto info = uci::parse_info(
      "info depth 7 seldepth 10 multipv 1 score mate -3 upperbound nodes 897 nps 1 time 5 pv h8g8 a2a8");
  REQUIRE(info);
  CHECK(*info->depth == 7);
  CHECK(info->score_kind == uci::InfoLine::Score::Mate);
  CHECK(info->score == -3);
  CHECK(info->upperbound);
  CHECK(*info->nodes == 897);
  CHECK(info->pv == std::vector<std::string>{"h8g8", "a2a8"});
  auto text = uci::parse_info("info string error: bad fen pv e2e4");
  CHECK((text && text->text && *text->text == "error: bad fen pv e2e4" && !text->has_pv));
  CHECK(uci::parse_info("info nodes abc")->malformed.size() == 1);
  auto best = uci::parse_bestmove("bestmove e2e4 ponder e7e5");
  CHECK((best && best->move == "e2e4" && best->ponder == "e7e5"));
}

TEST_CASE("uci-check's PV oracle: moves after mate, mate lengths, notation mistakes",
          "[uci-check]") {
  // The reproducer: stk printed moves after the mate g5f7.
  const std::string fen = "r2q1rQk/2p1b1pp/p1n5/1p3bN1/4n3/1BP1B3/PP3PPP/R4RK1 b - - 1 1";
  auto past = pv_of(fen, "info depth 9 score mate -1 nodes 5 pv f8g8 g5f7 d8g8 g5e4 f5e4");
  REQUIRE(past.errors.size() == 1);
  CHECK(past.errors[0].behaviour == "pv-after-mate");
  CHECK_THAT(past.errors[0].text, Contains("pv move 3 'd8g8' comes after checkmate"));
  CHECK(pv_of(fen, "info depth 9 score mate -1 nodes 5 pv f8g8 g5f7").errors.empty());
  auto truncated = pv_of(fen, "info depth 9 score mate -1 nodes 5 pv f8g8");
  CHECK((truncated.errors.empty() && truncated.truncated_mate && truncated.warnings.size() == 1));
  CHECK(pv_of(fen, "info depth 9 score mate -1 nodes 5 pv f8g8", true).errors.at(0).behaviour ==
        "truncated-mate-pv");
  CHECK(pv_of(fen, "info depth 9 score mate -2 nodes 5 pv f8g8 g5f7").errors.at(0).behaviour ==
        "mate-pv-inconsistent");
  CHECK(pv_of(fen, "info depth 9 score mate -2 lowerbound nodes 5 pv f8g8 g5f7")
            .errors.empty());  // bounds: legality only
  const std::string m2 = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1";
  CHECK(pv_of(m2, "info score mate 2 pv b1b7 h8g8 a2a8").errors.empty());
  CHECK(pv_of(m2, "info score mate 2 pv b1b7 h8g8 a2a3").errors.at(0).behaviour ==
        "mate-pv-inconsistent");
  CHECK(pv_of(m2, "info score mate 2 pv b1b7 h8h7").errors.at(0).behaviour == "illegal-pv");

  const Position castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  CHECK_THAT(ucicheck::why_illegal(castle, "e1h1"),
             Contains("Chess960 notation); standard chess writes 'e1g1'"));
  CHECK_THAT(ucicheck::why_illegal(castle, "e1a1"), Contains("writes 'e1c1'"));
  const Position promo = pos("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1");
  CHECK_THAT(ucicheck::why_illegal(promo, "e7e8"), Contains("without its piece letter"));
  CHECK_THAT(ucicheck::why_illegal(promo, "e7e8N"), Contains("lower case ('e7e8n')"));
  CHECK_THAT(ucicheck::why_illegal(promo, "0000"), Contains("(no move)"));
}

TEST_CASE("uci-check documented differences excuse only the behaviours they name", "[uci-check]") {
  using ucicheck::find_documented_difference;
  CHECK(find_documented_difference("Stockfish 15.1", "limits.go-nodes-0", {"searches-until-stop"}));
  CHECK_FALSE(find_documented_difference("Stockfish 15.1", "limits.go-nodes-0",
                                         {"searches-until-stop", "hang"}));
  CHECK_FALSE(
      find_documented_difference("Stockfish 15.1", "limits.go-nodes-0", {"illegal-bestmove"}));
  CHECK_FALSE(find_documented_difference("stk 0.1", "limits.go-nodes-0", {"searches-until-stop"}));
  CHECK_FALSE(find_documented_difference("Stockfish 15.1", "during-search.stop", {"hang"}));
  CHECK(find_documented_difference("Stockfish 15.1", "garbage.position-garbage-move",
                                   {"prefix-search"}));
  CHECK_FALSE(find_documented_difference("Stockfish 15.1", "garbage.position-no-argument",
                                         {"prefix-search"}));
}

TEST_CASE("uci-check transcripts keep a crash's context and escape junk", "[uci-check]") {
  std::vector<ucicheck::TranscriptEntry> t;
  for (int i = 0; i < 300; ++i) t.push_back({double(i), '<', "info depth " + std::to_string(i)});
  t[150] = {150, '!', "terminate called"};
  t[151] = {151, '<', std::string("\x01\xff", 2)};
  auto lines = ucicheck::transcript_excerpt(t, 10, 10);
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  CHECK_THAT(all, Contains("! terminate called"));
  CHECK_THAT(all, Contains("< \\x01\\xff"));
  CHECK_THAT(all, Contains("info depth 142"));  // the window before the stderr line
  CHECK_THAT(all, Contains("lines omitted"));
  CHECK(lines.size() < 60);
}

TEST_CASE("uci-check: usage errors and an engine that does not start exit 2", "[uci-check]") {
  auto list = test::run_command(test::harness_bin() + " uci-check --list");
  CHECK(list.exit_code == 0);
  CHECK_THAT(list.output, Contains("pv.reproducer-mate-sequence"));
  CHECK(test::run_command(test::harness_bin() + " uci-check --only handshake").exit_code ==
        2);  // no --engine
  auto only = test::run_command(test::harness_bin() + " uci-check --engine x --only nosuch");
  CHECK(only.exit_code == 2);
  CHECK_THAT(only.output, Contains("--only 'nosuch' names no scenario"));
  CHECK(test::run_command(test::harness_bin() + " uci-check --engine x --option Hash").exit_code ==
        2);
  CHECK(test::run_command(test::harness_bin() + " uci-check --engine x --nodes-tolerance -1")
            .exit_code == 2);

  auto missing = test::run_command(test::harness_bin() +
                                   " uci-check --engine /nonexistent/engine --out-dir " +
                                   test::scratch_dir("uci-check-missing").string());
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.output, Contains("engine '/nonexistent/engine' did not answer 'uci'"));
  CHECK_THAT(missing.output, Contains("exit status 127"));
  auto silent = test::run_command(test::harness_bin() +
                                  " uci-check --engine 'sleep 30' --timeout-scale 0.1 --out-dir " +
                                  test::scratch_dir("uci-check-silent").string());
  CHECK(silent.exit_code == 2);
  CHECK_THAT(silent.output,
             Contains("engine 'sleep 30' did not answer 'uci' with 'uciok' within 1000 ms"));
}

TEST_CASE("uci-check: a correct fake engine passes every scenario", "[uci-check][harness]") {
  Run run = uci_check("uci-check-fake", "--engine " + fake_bin());
  INFO(run.result.output);
  CHECK(run.result.exit_code == 0);
  REQUIRE(run.by_id.size() > 80);
  for (const auto& [id, s] : run.by_id) {
    INFO(id << ": " << s.dump());
    CHECK(s["verdict"] == "pass");
    // Every entry carries the report's fields (planted: the "time_ms" key emptied).
    CHECK((s.contains("time_ms") && s["time_ms"].is_number() && s["time_ms"] >= 0));
    CHECK(s["failures"].is_array());
  }
}

TEST_CASE("uci-check: each planted defect of the fake engine fails its scenario",
          "[uci-check][harness]") {
  struct Planted {
    std::string defect, scenario, behaviour;
  };
  const std::vector<Planted> planted = {
      {"ignore-stop", "during-search.stop", "hang"},
      {"pv-past-mate", "pv.mate1-backrank", "pv-after-mate"},
      {"illegal-move", "games.vs-random", "illegal-pv"},
      {"illegal-move", "limits.go-depth-1", "illegal-bestmove"},
      {"opponent-clock", "time.white-own-10s-opponent-100ms", "opponent-clock"},
      {"opponent-clock", "time.black-own-100ms-opponent-10s", "time-loss"},
      {"nodes0-endless", "limits.go-nodes-0", "hang"},
      {"crash-on-garbage", "garbage.unknown-commands", "crash"},
      {"castle-e1h1", "notation.play-castle-kingside-white", "castling-notation"},
      {"stale-position", "garbage.position-illegal-move", "stale-search"},
      {"nodes-overshoot", "nodes.go-nodes-1000", "nodes-overshoot"},
      {"block-during-search", "during-search.position", "hang"},
      {"block-during-search", "during-search.quit", "hang"},
      {"no-author", "handshake.uci", "no-id"},
      {"setoption-error", "handshake.setoption-defaults", "setoption-error-claimed"},
      {"chatty-setoption", "handshake.setoption-defaults", "setoption-not-silent"},
      {"early-bestmove", "during-search.stop", "early-bestmove"},
      {"double-bestmove", "during-search.stop", "extra-bestmove"},
      {"drop-position", "during-search.position", "position-dropped"},
      {"illegal-ponder", "limits.go-depth-1", "illegal-ponder"},
      {"stale-pv", "games.self-play", "stale-pv"},
      {"prefix-position", "garbage.position-illegal-move", "prefix-search"},
      {"queen-promotion", "notation.play-underpromotion-black", "missed-special-move"},
  };
  // Side by side: each run waits on the fake's timeouts, not on the CPU.
  std::vector<std::filesystem::path> dirs;
  std::vector<std::string> commands;
  for (const Planted& p : planted) {
    // The defect's scenario plus one that must still pass: a defect never errors the run out.
    dirs.push_back(test::scratch_dir("uci-check-" + p.defect + "-" + std::to_string(dirs.size())));
    commands.push_back(uci_check_command(dirs.back(), "--engine '" + fake_bin() + " --defect " +
                                                          p.defect + "' --only " + p.scenario +
                                                          " --only handshake.uci"));
  }
  auto results = test::run_commands(commands);
  for (std::size_t i = 0; i < planted.size(); ++i) {
    const Planted& p = planted[i];
    Run run = uci_check_run(dirs[i], std::move(results[i]));
    INFO(p.defect << " / " << p.scenario << "\n" << run.result.output);
    CHECK(run.result.exit_code == 1);
    REQUIRE(run.by_id.count(p.scenario));
    const auto& s = run.by_id[p.scenario];
    CHECK(s["verdict"] == "fail");
    std::set<std::string> behaviours;
    for (const auto& f : s["failures"]) behaviours.insert(f["behaviour"].get<std::string>());
    CHECK(behaviours.count(p.behaviour));
    if (p.scenario != "handshake.uci") CHECK(run.by_id["handshake.uci"]["verdict"] == "pass");
    CHECK(s.contains("transcript"));
  }
}

// The audit's doubtful case, decided: an info string answering a valid setoption is legal UCI.
TEST_CASE("uci-check: an info string answering a setoption passes unless it claims an error",
          "[uci-check][harness]") {
  Run run = uci_check("uci-check-noisy-setoption", "--engine '" + fake_bin() +
                                                       " --defect noisy-setoption' --only "
                                                       "handshake.setoption-defaults");
  INFO(run.result.output);
  CHECK(run.result.exit_code == 0);
  REQUIRE(run.by_id.count("handshake.setoption-defaults"));
  CHECK(run.by_id["handshake.setoption-defaults"]["verdict"] == "pass");
}

TEST_CASE("uci-check: stockfish passes as the control, its differences documented and measured",
          "[uci-check][harness][uci]") {
  STK_SKIP_WITHOUT_STOCKFISH();
  const std::string sf = stk::test::kStockfish;
  Run run = uci_check("uci-check-stockfish", "--engine " + sf);
  INFO(run.result.output);
  CHECK(run.result.exit_code == 0);
  CHECK(run.json["counts"]["fail"] == 0);
  CHECK(run.json["counts"]["error"] == 0);
  CHECK(run.json["engine_id"] == "Stockfish 15.1");
  // What stockfish must still pass outright: the protocol a GUI relies on.
  for (const char* id :
       {"handshake.uci", "during-search.isready", "during-search.stop", "during-search.quit",
        "limits.go-nodes-1", "time.white-own-100ms-opponent-10s",
        "time.black-own-10s-opponent-100ms", "pv.reproducer-mate-sequence",
        "notation.play-castle-kingside-white", "games.self-play", "garbage.binary-junk"})
    CHECK(run.by_id[id]["verdict"] == "pass");
  // A documented difference still reports what was seen: the nodes overshoot is a number.
  for (const auto& [id, s] : run.by_id) {
    if (s["verdict"] != "documented difference") continue;
    INFO(id);
    CHECK(!s["failures"].empty());
    CHECK(s.contains("documented_difference"));
    if (id.rfind("nodes.", 0) == 0) CHECK(s["facts"]["overshoot_nodes"].get<long>() > 0);
  }
}
