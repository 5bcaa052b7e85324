// The reproducer's minimizer on the planted case of docs/reproducers.md: a fake engine whose crash
// (or illegal move) needs a position at ply 150, buried in the commands of a 200-ply game, shrinks
// to at most 5 commands that fail the same way; a correct engine passes the same commands.
#include <algorithm>
#include <iterator>
#include <optional>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli_support.h"
#include "common/splitmix.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "repro/bundle.h"
#include "repro/minimize.h"
#include "repro/sanitizer_report.h"

using namespace stk;
using namespace stk::harness::repro;

namespace {

std::string fake(const std::string& defect) {
  const std::string bin = test::env_or("STK_FAKE_UCI",
                                       test::binary_dir() + "/harness/stk-fake-uci");
  return defect.empty() ? bin : bin + " --defect " + defect;
}

// The commands a GUI sends through a game of random legal moves that lasts `plies` plies
// (seeds are tried in order until a game that long comes out).
std::vector<std::string> game_commands(int plies) {
  for (std::uint64_t seed = 1;; ++seed) {
    harness::SplitMix rng(seed);
    Position pos;
    pos.set(Position::kStartFen);
    std::vector<std::string> out{"uci", "isready", "ucinewgame", "isready"};
    std::string moves;
    int ply = 0;
    for (; ply < plies; ++ply) {
      MoveList list(pos);
      if (list.size() == 0 || pos.rule50() >= 100) break;
      out.push_back("position startpos" + (moves.empty() ? "" : " moves" + moves));
      out.push_back("go wtime 9000 btime 9000 winc 10 binc 10 movetime 5");
      const Move m = (list.begin() + long(rng.below(list.size())))->move;
      moves += " " + to_uci(m);
      pos.make_move(m);
    }
    if (ply == plies) return out;
  }
}

// Every list one unit smaller than `commands` (docs/reproducers.md "Minimizing"): without one
// command, or with one limit of a go left out (a limit is `infinite`, `ponder`, or a name and its
// value).
std::vector<std::vector<std::string>> one_unit_smaller(const std::vector<std::string>& commands) {
  std::vector<std::vector<std::string>> out;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    out.push_back(commands);
    out.back().erase(out.back().begin() + long(i));
    std::istringstream line(commands[i]);
    const std::vector<std::string> w{std::istream_iterator<std::string>(line), {}};
    if (w.empty() || w[0] != "go") continue;
    for (std::size_t at = 1; at < w.size();) {
      const bool flag = w[at] == "infinite" || w[at] == "ponder" || at + 1 == w.size();
      const std::size_t len = flag ? 1 : 2;
      std::string go = "go";
      for (std::size_t k = 1; k < w.size(); ++k)
        if (k < at || k >= at + len) go += " " + w[k];
      out.push_back(commands);
      out.back()[i] = go;
      at += len;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("reproducers: a failure at ply 150 of a 200-ply game shrinks to at most 5 commands",
          "[repro][harness]") {
  const std::vector<std::string> game = game_commands(200);
  REQUIRE(game.size() == 404);
  for (const auto& [defect, kind] :
       {std::pair{"crash-at-ply-150", "crash"}, std::pair{"illegal-at-ply-150", "illegal-move"}}) {
    INFO(defect);
    const Replay whole = replay_commands(fake(defect), game);
    REQUIRE(whole.symptom.kind == kind);
    CHECK(whole.sent == 4 + 2 * 150 + 1);  // the go of the 151st position fails
    const Minimized m = minimize_commands(fake(defect), game, whole.symptom);
    REQUIRE(m.reproduced);
    INFO(fmt::format("{}", fmt::join(m.commands, " | ")));
    CHECK(m.commands.size() <= 5);
    CHECK(m.minimal);
    CHECK(replay_commands(fake(defect), m.commands).symptom == whole.symptom);
    // 1-minimal as the contract defines it, checked by replay: one unit less (a command, or a
    // limit of a go) and the failure is gone (the campaign: a go-limits step that cut nothing
    // still passed the size bound).
    for (const auto& smaller : one_unit_smaller(m.commands)) {
      INFO("one unit less: " << fmt::format("{}", fmt::join(smaller, " | ")));
      CHECK_FALSE(replay_commands(fake(defect), smaller).symptom == whole.symptom);
    }
    // Both ways: the same commands against the engine without the defect fail nothing.
    CHECK_FALSE(replay_commands(fake(""), m.commands).symptom.failed());
    CHECK_FALSE(replay_commands(fake(""), game).symptom.failed());
  }
}

TEST_CASE("reproducers: a replay names a hang as no answer and keeps the transcript",
          "[repro][harness]") {
  ReplayLimits quick;
  quick.answer = std::chrono::milliseconds(500);
  const Replay r = replay_commands(fake("hang-after-0"),
                                   {"uci", "isready", "position startpos", "go nodes 10"}, quick);
  CHECK(r.symptom == Symptom{"no-answer", "bestmove"});
  CHECK(r.sent == 3);
  REQUIRE_FALSE(r.transcript.empty());
  CHECK(r.transcript.front().text == "uci");
  CHECK(r.transcript.back().direction == '#');
  CHECK(position_as_fen("position startpos moves e2e4") ==
        "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
}

TEST_CASE("reproducers: only the first failure of each engine and symptom is minimized (4 at most)",
          "[repro][harness]") {
  FirstOfEachSymptom first(4);
  const Symptom crash{"crash", "killed by signal 6 (Aborted)"}, hang{"no-answer", "bestmove"};
  CHECK(first.claim("a", crash, "g1") == "");
  CHECK(first.claim("a", crash, "g2") == "as g1");  // the same failure again
  CHECK(first.claim("b", crash, "g3") == "");       // another engine
  CHECK(first.claim("a", hang, "g4") == "");        // another symptom
  CHECK(first.claim("a", {"crash", "killed by signal 11 (Segmentation fault)"}, "g5") == "");
  CHECK(first.claim("a", {"illegal-move", "a1h8"}, "g6") == "the run's first 4");
  CHECK(first.claim("b", crash, "g7") == "as g3");
}

TEST_CASE("reproducers: a match whose every game fails alike minimizes the first game only",
          "[repro][harness]") {
  // Each minimization replays the engine tens of times (a disconnect waits 2 s in each); the
  // bundles of the other games keep every command and name the one minimized.
  const auto out = test::scratch_dir("repro-match-alike") / "o";
  const auto played = test::run_command(
      test::harness_bin() + " match --config f --out-dir '" + out.string() +
      "' --gate non-regression --min-elo-lower95 -100000 --quiet --pairs 2 --nodes 50 "
      "--engine 'cmd=" +
      fake("crash-after-2") + "' name=a --engine 'cmd=" + fake("") + "' name=b");
  INFO(played.output);
  REQUIRE(played.exit_code == 0);
  const auto repro = out / "repro";
  // Not minimized, a bundle's minimized.uci is its whole command list.
  const auto shrunk = [&](const char* id) {
    return test::read_file(repro / id / "minimized.uci").size() <
           test::read_file(repro / id / "commands.uci").size();
  };
  CHECK(shrunk("f-o0-g1"));
  for (const char* id : {"f-o0-g2", "f-o1-g1", "f-o1-g2"}) {
    CHECK_FALSE(shrunk(id));
    CHECK_THAT(played.output, Catch::Matchers::Contains((repro / id).string() +
                                                        " (crash (killed by signal 6 (Aborted)), "
                                                        "not minimized: as f-o0-g1)"));
  }
}

namespace {

// What one replay run says in each place it says it (docs/reproducers.md, report-schema.md): the
// JSON figures, the JUnit testcase and the printed lines agree with the bundle, the options and
// the exit status.
// The SHA-256 of a file, by coreutils (not the harness's own digest code).
std::string sha256sum(const std::string& file) {
  const auto r = test::run_command("sha256sum '" + file + "'");
  REQUIRE(r.exit_code == 0);
  return r.output.substr(0, 64);
}

// `same`: whether the replay ran the bundle's own engine (program digest and other words equal),
// nullopt where the bundle records no digest.
void check_replay_views(const std::filesystem::path& bundle, const std::filesystem::path& out,
                        bool full, const std::string& engine, const test::RunResult& run,
                        std::optional<bool> same) {
  INFO(run.output);
  const nlohmann::json b = nlohmann::json::parse(test::read_file(bundle / "bundle.json"));
  const std::string id = b.at("id"), expected = b.at("symptom").at("kind").get<std::string>();
  const nlohmann::json j = nlohmann::json::parse(test::read_file(out / "replay" / (id + ".json")));
  const bool again = run.exit_code == 1;
  CHECK(j.at("commands") == (full ? "all" : "minimized"));
  CHECK(j.at("bundle") == bundle.string());
  CHECK(j.at("engine") == (engine.empty() ? b.at("engine").get<std::string>() : engine));
  CHECK(j.at("expected").get<std::string>().starts_with(expected));
  CHECK(j.at("reproduced") == again);
  CHECK(j.at("report").at("passed") == !again);
  const std::string program = j.at("engine").get<std::string>();
  CHECK(j.at("engine_sha256") == sha256sum(program.substr(0, program.find(' '))));
  CHECK(j.at("bundle_engine_sha256") == b.value("engine_sha256", ""));
  CHECK(j.at("same_engine") == (same ? nlohmann::json(*same) : nlohmann::json()));
  const std::string on = !same   ? "replay: on an engine not known to be the bundle's"
                         : *same ? "replay: on the bundle's own engine"
                                 : "replay: on another engine than the bundle's";
  CHECK_THAT(run.output, Catch::Matchers::Contains(on));
  CHECK((run.output.find("did not happen again on the same engine") != std::string::npos) ==
        (same == true && !again));
  CHECK_THAT(run.output, Catch::Matchers::Contains(
                             fmt::format("replay: {} commands of {} against {}\n",
                                         b.at(full ? "commands" : "minimized").size(),
                                         bundle.string(), j.at("engine").get<std::string>())));
  CHECK_THAT(run.output,
             Catch::Matchers::Contains(
                 fmt::format("replay: expected {}, seen {}: {}\n",
                             j.at("expected").get<std::string>(), j.at("seen").get<std::string>(),
                             again ? "the failure happens again" : "not reproduced")));
  const std::string xml = test::read_file(out / "junit" / ("replay-" + id + ".xml"));
  CHECK_THAT(xml, Catch::Matchers::Contains("name=\"" + id + "\""));
  CHECK_THAT(xml, Catch::Matchers::Contains("<property name=\"engine_sha256\" value=\"" +
                                            j.at("engine_sha256").get<std::string>() + "\""));
  CHECK((xml.find("<failure") != std::string::npos) == again);
}

}  // namespace

// MODEL replay-verdict
// checks: harness/src/commands/replay/replay_command.cpp  (exit 1 only for the bundle's own failure)
// contract: docs/reproducers.md#stk-harness-replay-bundle
// planted: ci/mutants/model-replay-verdict.patch  (any failure counts as the bundle's)
TEST_CASE("reproducers: a crashed match game leaves a minimized bundle that replay reproduces",
          "[repro][harness]") {
  const auto dir = test::scratch_dir("repro-match");
  const auto out = dir / "o";
  const std::string match = test::harness_bin() + " match --config c --out-dir '" + out.string() +
                            "' --gate non-regression --min-elo-lower95 -100000 --quiet --pairs 1 "
                            "--nodes 2000 --engine 'cmd=" +
                            test::engine_bin() +
                            "' name=stk --engine 'cmd=" + fake("crash-at-ply-8") + "' name=fake";
  const auto played = test::run_command(match);
  INFO(played.output);
  REQUIRE(played.exit_code == 0);
  const auto bundle = out / "repro" / "c-o0-g1";
  CHECK_THAT(played.output, Catch::Matchers::Contains("match: reproducer " + bundle.string()));
  const std::string json = test::read_file(bundle / "bundle.json");
  CHECK_THAT(json, Catch::Matchers::Contains("\"side\": \"B (fake) as Black\""));
  CHECK_THAT(json, Catch::Matchers::Contains("\"reproduced\": true"));
  CHECK_THAT(test::read_file(bundle / "minimized.uci"),
             Catch::Matchers::StartsWith("position fen "));
  for (const char* f : {"transcript.txt", "commands.uci"})
    CHECK(std::filesystem::exists(bundle / f));
  // From another folder: exit 1 while the defect is there, 0 against the engine without it.
  const std::string replay = "cd / && " + test::harness_bin() + " replay '" + bundle.string() +
                             "' --out-dir '" + out.string() + "'";
  const auto again = test::run_command(replay);
  INFO(again.output);
  CHECK(again.exit_code == 1);
  CHECK_THAT(again.output, Catch::Matchers::Contains("the failure happens again"));
  CHECK(test::validate_junit((out / "junit" / "replay-c-o0-g1.xml").string()) == "");
  check_replay_views(bundle, out, false, "", again, true);
  const auto full = test::run_command(replay + " --full");
  CHECK(full.exit_code == 1);
  check_replay_views(bundle, out, true, "", full, true);
  const auto fixed = test::run_command(replay + " --engine '" + fake("") + "'");
  CHECK(fixed.exit_code == 0);
  CHECK_THAT(fixed.output, Catch::Matchers::Contains("not reproduced"));
  check_replay_views(bundle, out, false, fake(""), fixed, false);  // other arguments
  // An engine that fails otherwise (it hangs where the bundle's crashed) is not the bundle's
  // failure: exit 0, the report saying what was seen instead.
  const auto other = test::run_command(replay + " --full --answer-ms 300 --engine '" +
                                       fake("hang-after-0") + "'");
  INFO(other.output);
  CHECK(other.exit_code == 0);
  CHECK_THAT(other.output, Catch::Matchers::Contains("seen no-answer (bestmove): not reproduced"));
  check_replay_views(bundle, out, true, fake("hang-after-0"), other, false);
  // The same program at another path with the same arguments is the bundle's own engine.
  const auto copy = dir / "copied-fake-uci";
  std::filesystem::copy_file(fake(""), copy);
  std::filesystem::permissions(copy, std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  const std::string copied = copy.string() + " --defect crash-at-ply-8";
  const auto moved = test::run_command(replay + " --engine '" + copied + "'");
  CHECK(moved.exit_code == 1);
  check_replay_views(bundle, out, false, copied, moved, true);
}

TEST_CASE("reproducers: replay says whether it ran the bundle's own engine by its digest",
          "[repro][harness]") {
  // A bundle whose recorded failure does not happen again on its own engine (the fake without a
  // defect recorded as having crashed): intermittent, and said so; the same bundle with another
  // program's digest, or none, is not the bundle's own engine, or not known to be.
  const auto dir = test::scratch_dir("repro-same-engine");
  const auto out = dir / "o";
  const auto bundle = dir / "b";
  std::filesystem::create_directories(bundle);
  const std::string engine = fake("");
  nlohmann::json j = {{"schema", "stk-repro/1"},
                      {"id", "b"},
                      {"engine", engine},
                      {"engine_sha256", sha256sum(engine)},
                      {"symptom", {{"kind", "crash"}, {"detail", "killed by signal 6 (Aborted)"}}},
                      {"commands", {"uci", "isready"}},
                      {"minimized", {"uci", "isready"}}};
  const std::string replay = test::harness_bin() + " replay '" + bundle.string() + "' --out-dir '" +
                             out.string() + "'";
  const auto with = [&](const nlohmann::json& digest) {
    nlohmann::json k = j;
    if (digest.is_null()) k.erase("engine_sha256");
    else k["engine_sha256"] = digest;
    test::write_file(bundle / "bundle.json", k.dump());
    test::write_file(bundle / "commands.uci", "uci\nisready\n");
    test::write_file(bundle / "minimized.uci", "uci\nisready\n");
    return test::run_command(replay);
  };
  const auto own = with(j["engine_sha256"]);
  CHECK(own.exit_code == 0);
  check_replay_views(bundle, out, false, "", own, true);
  const auto other = with(std::string(64, '0'));
  CHECK(other.exit_code == 0);
  check_replay_views(bundle, out, false, "", other, false);
  const auto unknown = with(nullptr);
  CHECK(unknown.exit_code == 0);
  check_replay_views(bundle, out, false, "", unknown, std::nullopt);
  // A digest that is not a string is the bundle's fault, named.
  const auto bad = with(42);
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Matchers::Contains("engine_sha256"));
}

TEST_CASE("reproducers: replay refuses what is not a bundle, naming the file", "[repro][harness]") {
  const auto dir = test::scratch_dir("repro-bad");
  const auto r = test::run_command(test::harness_bin() + " replay '" + dir.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Matchers::Contains((dir / "bundle.json").string()));
  test::write_file(dir / "bundle.json", "{\"schema\": \"stk-repro/1\", \"id\": \"x\",");
  const auto broken = test::run_command(test::harness_bin() + " replay '" + dir.string() + "'");
  CHECK(broken.exit_code == 2);
  CHECK_THAT(broken.output, Catch::Matchers::Contains("byte"));
  test::write_file(dir / "bundle.json",
                   "{\"schema\": \"stk-repro/1\", \"id\": \"x\", \"engine\": \"e\", "
                   "\"symptom\": {\"kind\": \"\", \"detail\": \"\"}, \"commands\": [], "
                   "\"minimized\": []}");
  const auto none = test::run_command(test::harness_bin() + " replay '" + dir.string() + "'");
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.output, Catch::Matchers::Contains("the symptom names no failure"));
  // The id names the replay's report files: one that is not a name is the bundle's fault.
  test::write_file(dir / "bundle.json",
                   "{\"schema\": \"stk-repro/1\", \"id\": \"-x\", \"engine\": \"e\", "
                   "\"symptom\": {\"kind\": \"crash\", \"detail\": \"d\"}, \"commands\": [], "
                   "\"minimized\": []}");
  const auto unnamed = test::run_command(test::harness_bin() + " replay '" + dir.string() + "'");
  CHECK(unnamed.exit_code == 2);
  CHECK_THAT(unnamed.output,
             Catch::Matchers::Contains((dir / "bundle.json").string() + ": field 'id' must be"));
}

TEST_CASE("reproducers: a failed uci-check scenario leaves a bundle that replay reproduces",
          "[repro][harness]") {
  const auto out = test::scratch_dir("repro-uci-check") / "o";
  auto check = [&](const std::string& defect, const std::string& only) {
    return test::run_command(test::harness_bin() + " uci-check --config r --only " + only +
                             " --out-dir '" + out.string() + "' --engine '" + fake(defect) + "'");
  };
  auto replay = [&](const std::filesystem::path& bundle, const std::string& engine) {
    return test::run_command(test::harness_bin() + " replay '" + bundle.string() + "' --out-dir '" +
                             out.string() + "'" +
                             (engine.empty() ? "" : " --engine '" + engine + "'"));
  };
  // The scenario fails (exit 1) and leaves a bundle of symptom `kind`.
  auto failed_bundle = [&](const std::string& defect, const std::string& scenario,
                           const std::string& kind) {
    const auto run = check(defect, scenario);
    INFO(run.output);
    CHECK(run.exit_code == 1);
    std::string id = "uci-check-r-" + scenario;
    std::replace(id.begin(), id.end(), '.', '-');
    const auto bundle = out / "repro" / id;
    CHECK_THAT(test::read_file(bundle / "bundle.json"),
               Catch::Matchers::Contains("\"kind\": \"" + kind + "\""));
    return bundle;
  };
  SECTION("a crash on garbage: minimized to the one line that kills the engine") {
    const auto bundle = failed_bundle("crash-on-garbage", "garbage.binary-junk", "crash");
    // The junk may hold newline bytes: the command count is the JSON list's.
    const auto json = nlohmann::json::parse(test::read_file(bundle / "bundle.json"));
    CHECK(json["minimized"].size() == 1);
    CHECK(json["commands"].size() > 1);
    CHECK(replay(bundle, "").exit_code == 1);
    CHECK(replay(bundle, fake("")).exit_code == 0);
  }
  SECTION("a PV past the mate: a scenario bundle, replayed by running the scenario again") {
    const auto bundle = failed_bundle("pv-past-mate", "pv.mate1-scholar", "scenario");
    const auto again = replay(bundle, "");
    INFO(again.output);
    CHECK(again.exit_code == 1);
    CHECK(replay(bundle, fake("")).exit_code == 0);
  }
}

TEST_CASE(
    "reproducers: a sanitizer report in a match game fails --max-faults and its bundle keeps it",
    "[repro][harness]") {
  const auto dir = test::scratch_dir("repro-sanitizer");
  // The engine as the sanitizer match runs it: behind `env` with the sanitizer options.
  const std::string sanitized = sanitizer_env_words() + " " + fake("sanitizer-at-ply-8");
  auto play = [&](const std::filesystem::path& out, int max_faults) {
    return test::run_command(test::harness_bin() + " match --config s --out-dir '" + out.string() +
                             "' --gate non-regression --min-elo-lower95 -100000 --quiet --pairs 1 "
                             "--nodes 2000 --max-faults " +
                             std::to_string(max_faults) + " --engine 'cmd=" + test::engine_bin() +
                             "' name=stk --engine 'cmd=" + sanitized + "' name=fake");
  };
  // Both games end by the report: 2 faults fail a bound of 1 and keep a bound of 2.
  const auto out = dir / "strict";
  const auto failed = play(out, 1);
  INFO(failed.output);
  CHECK(failed.exit_code == 1);
  const std::string junit = test::read_file(out / "junit" / "match-s.xml");
  CHECK(test::validate_junit((out / "junit" / "match-s.xml").string()) == "");
  CHECK_THAT(junit, Catch::Matchers::Contains(
                        "message=\"2 of 2 games ended by a fault, at most 1 allowed: B (fake): 2 "
                        "crash\""));
  const auto kept = play(dir / "lenient", 2);
  INFO(kept.output);
  CHECK(kept.exit_code == 0);
  // The report leads the game's reason and is in the bundle, beside the program's own hash (not
  // env's).
  const auto bundle = out / "repro" / "s-o0-g1";
  const auto j = nlohmann::json::parse(test::read_file(bundle / "bundle.json"));
  CHECK_THAT(j["failure"].get<std::string>(),
             Catch::Matchers::Contains("after a sanitizer report: ==4242==ERROR: AddressSanitizer: "
                                       "heap-buffer-overflow"));
  CHECK(j["symptom"]["detail"] == "exit status 86");
  CHECK(j["engine_sha256"] == engine_sha256(fake("")));
  CHECK_THAT(test::read_file(bundle / "stderr.txt"),
             Catch::Matchers::Contains("SUMMARY: AddressSanitizer: heap-buffer-overflow"));
  const auto replay = test::run_command("cd / && " + test::harness_bin() + " replay '" +
                                        bundle.string() + "' --out-dir '" + out.string() + "'");
  INFO(replay.output);
  CHECK(replay.exit_code == 1);
}

TEST_CASE("reproducers: the sanitizer report line is found in each runtime's format",
          "[repro][harness]") {
  CHECK(sanitizer_report_line("info\n==7==ERROR: AddressSanitizer: SEGV on unknown address\n") ==
        "==7==ERROR: AddressSanitizer: SEGV on unknown address");
  CHECK(sanitizer_report_line("src/search.cpp:12:7: runtime error: shift exponent 64 is too large "
                              "\n#0 0x1 in f\n") ==
        "src/search.cpp:12:7: runtime error: shift exponent 64 is too large");
  CHECK(sanitizer_report_line("\n==9==ERROR: LeakSanitizer: detected memory leaks\n") ==
        "==9==ERROR: LeakSanitizer: detected memory leaks");
  CHECK(sanitizer_report_line("WARNING: ThreadSanitizer: data race (pid=3)") ==
        "WARNING: ThreadSanitizer: data race (pid=3)");
  // Not a report: an engine's own words about errors, and nothing at all.
  CHECK_FALSE(sanitizer_report_line("info string error: no such option\nruntime error\n"));
  CHECK_FALSE(sanitizer_report_line(""));
}
