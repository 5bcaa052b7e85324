// Match result files: the runner's resumable state, exact merging of shards, the gate and its JUnit,
// and the `sprt` / `match-merge` / `merge` commands.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <set>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "cli/cli.h"
#include "match_results/match_journal.h"
#include "match_results/match_merge.h"
#include "match_results/match_report.h"
#include "match_results/match_result_file.h"

using namespace stk;
using namespace stk::harness::match;
using Catch::Matchers::Contains;
using stk::harness::InputError;

namespace {

MatchDefinition definition(int shard_count = 1, std::uint64_t pairs = 40) {
  MatchDefinition d;
  d.config = "candidate-vs-main";
  d.engines[0] = {"candidate", "/bin/stk-new", {{"Hash", "16"}, {"Threads", "1"}}};
  d.engines[1] = {"main", "/bin/stk-old", {{"Hash", "16"}, {"Threads", "1"}}};
  d.time_control = "10+0.1";
  d.settings = {{"adjudication", "none"}};
  d.openings_file = "books/8moves.epd";
  d.openings_seed = 7;
  d.pairs_planned = pairs;
  d.shard_count = shard_count;
  d.sprt = SprtParams{0, 10, 0.05, 0.05, EloModel::Normalized};
  d.gate.mode = GateMode::Gain;
  return d;
}

GameRecord game(Color a, GameScore s) {
  const bool white_won = (s == GameScore::Win) == (a == Color::White);
  return {a,
          s == GameScore::Draw ? "1/2-1/2"
          : white_won          ? "1-0"
                               : "0-1",
          s == GameScore::Draw ? "threefold repetition" : "checkmate", 60};
}

PairRecord pair(std::uint64_t opening, GameScore first, GameScore second) {
  return {opening, {game(Color::White, first), game(Color::Black, second)}};
}

// A deterministic mix of outcomes: pair i scores pattern[i % size] half points.
GameScore first_of(int score) {
  return score >= 3 ? GameScore::Win : score >= 1 ? GameScore::Draw : GameScore::Loss;
}
GameScore second_of(int score) { return GameScore(score - int(first_of(score))); }

MatchResult played(const MatchDefinition& d, std::set<int> shards,
                   const std::vector<int>& pattern) {
  MatchResult r(d, shards);
  for (std::uint64_t i : r.remaining()) {
    const int s = pattern[i % pattern.size()];
    r.add_pair(pair(i, first_of(s), second_of(s)));
  }
  return r;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string stk_harness(const std::string& args) { return test::harness_bin() + " " + args; }

}  // namespace

TEST_CASE("match counts follow the pairs, from engine A's side", "[match]") {
  CHECK(game(Color::Black, GameScore::Win).result == "0-1");
  CHECK(game(Color::Black, GameScore::Win).score_for_a() == GameScore::Win);
  CHECK(GameRecord{Color::White, "0-1", "", 0}.score_for_a() == GameScore::Loss);
  CHECK_THROWS_AS((GameRecord{Color::White, "1-1", "", 0}.score_for_a()), std::invalid_argument);
  MatchResult r(definition(), {1});
  r.add_pair(pair(3, GameScore::Win, GameScore::Draw));
  r.add_pair(pair(5, GameScore::Loss, GameScore::Win));
  CHECK(r.counts().penta == PentanomialCounts{{0, 0, 1, 1, 0}});
  CHECK(r.counts().wdl == WdlCounts{2, 1, 1});
  CHECK(r.pairs()[0].score() == 3);
  CHECK_THROWS_WITH(r.add_pair(pair(3, GameScore::Win, GameScore::Win)),
                    Contains("already recorded"));
  CHECK_THROWS_WITH(r.add_pair(pair(40, GameScore::Win, GameScore::Win)), Contains("not planned"));
  PairRecord same = pair(6, GameScore::Win, GameScore::Win);
  same.games[1].a_color = Color::White;
  CHECK_THROWS_WITH(r.add_pair(same), Contains("same colour"));
  CHECK(r.counts().penta.pairs() == 2);  // refused pairs changed nothing
  CHECK(r.remaining().size() == 38);
  // A statistic that cannot be computed (a bound no pair score can express) does not stop the saving.
  MatchDefinition far = definition();
  far.sprt = SprtParams{0, 300, 0.05, 0.05, EloModel::Normalized};
  MatchResult f(far, {1});
  f.add_pair(pair(0, GameScore::Win, GameScore::Draw));
  CHECK_THAT(to_json_text(f), Contains("\"error\": \"SPRT bound nElo 300 is out of reach"));
  CHECK(parse_match_result(to_json_text(f), "far.json").counts() == f.counts());
}

TEST_CASE("a killed run resumes from its state file without double counting", "[match]") {
  auto dir = test::scratch_dir("match-resume");
  const std::string state = (dir / "state.jsonl").string();
  const MatchDefinition d = definition(2, 20);  // this runner is shard 2 of 2: pairs 1, 3, .., 19
  std::vector<PairRecord> recorded;
  {
    MatchJournal j(state, d, 2);
    CHECK(j.result().remaining().front() == 1);
    for (int k = 0; k < 4; ++k)
      j.record(pair(j.result().remaining().front(), GameScore::Win, GameScore::Draw));
    recorded = j.result().pairs();
  }
  const std::string text = read(state);
  CHECK(std::count(text.begin(), text.end(), '\n') == 5);  // the header and one line per pair
  // "Killed" here: a new process starts from the file.
  {
    MatchJournal resumed(state, d, 2);
    CHECK(resumed.result().pairs() == recorded);
    CHECK(resumed.result().remaining().front() == 9);
    CHECK_THROWS_WITH(resumed.record(pair(1, GameScore::Win, GameScore::Win)),
                      Contains("already recorded"));
  }
  CHECK(read_match_journal(state).result.pairs() == recorded);  // the refused pair wrote nothing
  // A journal that holds a pair twice (two runners on one file) is refused, naming the line.
  const std::string twice = (dir / "twice.jsonl").string();
  test::write_file(twice,
                   text + text.substr(text.find('\n') + 1,
                                      text.find('\n', text.find('\n') + 1) - text.find('\n')));
  CHECK_THROWS_WITH(read_match_journal(twice),
                    Contains("twice.jsonl:6: pair is refused") && Contains("already recorded"));
  // A different match or shard is refused, naming what differs.
  MatchDefinition other = d;
  other.engines[0].options["Hash"] = "64";
  CHECK_THROWS_WITH(MatchJournal(state, other, 2),
                    Contains("engines[0].options.Hash: '16' vs '64'"));
  CHECK_THROWS_WITH(MatchJournal(state, d, 1), Contains("not shard 1"));

  // Killed while writing a line: the torn line is dropped with a message, the file cut back to the
  // last whole line, and the pair, played again, counts once.
  test::write_file(state, text + "{\"opening\":9,\"sco");
  {
    std::string notice;
    MatchJournal j(state, d, 2, &notice);
    CHECK_THAT(notice, Contains("state.jsonl: dropped a torn last line (17 bytes at byte") &&
                           Contains("line 6"));
    CHECK(j.result().pairs() == recorded);
    j.record(pair(9, GameScore::Loss, GameScore::Draw));
    recorded = j.result().pairs();
  }
  std::string notice = "unset";
  MatchJournal again(state, d, 2, &notice);
  CHECK(notice.empty());
  CHECK(again.result().pairs() == recorded);
  CHECK(again.result().counts().penta == PentanomialCounts{{0, 1, 0, 4, 0}});
  // Any other line that does not parse is an error naming the line, not a silent skip.
  test::write_file(twice, text.substr(0, text.rfind('\n', text.size() - 2) + 1) +
                              "{\"opening\": 7}\n" +
                              text.substr(text.rfind('\n', text.size() - 2) + 1));
  CHECK_THROWS_WITH(read_match_journal(twice),
                    Contains("twice.jsonl:5: field 'pair.games' is missing"));
  // The header's version is the integer 1, as a result file's is: 1.0 or "1" is another writer.
  const std::string header = text.substr(0, text.find('\n'));
  for (const char* v : {"1.0", "\"1\"", "2"}) {
    std::string h = header;
    h.replace(h.find("\"version\":1"), 11, std::string("\"version\":") + v);
    test::write_file(twice, h + text.substr(text.find('\n')));
    CHECK_THROWS_WITH(read_match_journal(twice),
                      Contains("twice.jsonl:1: field 'version' is not 1"));
  }
  // The journal is a match result for merging and reporting.
  CHECK(is_match_result_file(state));
  CHECK(read_match_result(state).counts() == again.result().counts());
  // The result file still round-trips exactly.
  save_match_result((dir / "state.json").string(), again.result());
  CHECK(to_json_text(read_match_result((dir / "state.json").string())) == read(dir / "state.json"));
}

TEST_CASE("reading a match result refuses bad files, naming file and field", "[match]") {
  auto dir = test::scratch_dir("match-bad");
  const MatchResult good = played(definition(), {1}, {0, 2, 3, 4, 1});
  const std::string text = to_json_text(good);
  auto refused = [&](const std::string& bad) {
    try {
      parse_match_result(bad, "f.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  CHECK_THAT(refused(text.substr(0, 100)), Contains("f.json: not valid JSON at byte"));
  CHECK_THAT(refused("{\"kind\": \"epd\"}"), Contains("not a match result file"));
  CHECK_THAT(refused(replaced("\"time_control\"", "\"tc\"")),
             Contains("field 'definition.time_control' is missing"));
  nlohmann::json edited = nlohmann::json::parse(text);
  edited["counts"]["pentanomial"][0] = 1;
  CHECK_THAT(
      refused(edited.dump()),
      Contains(
          "field 'counts' (W 24 D 32 L 24, ptnml 1,8,8,8,8) differ from the 40 pairs listed (W 24 D 32 L 24, ptnml 8,8,8,8,8)"));
  CHECK_THAT(refused(replaced("{\"opening\":1,", "{\"opening\":0,")),
             Contains("field 'pairs[1]' is refused: opening pair 0 is already recorded"));
  CHECK_THAT(refused(replaced("{\"opening\":1,", "{\"opening\":99,")), Contains("not planned"));
  CHECK_THAT(refused(replaced("\"a\":\"black\"", "\"a\":\"white\"")), Contains("same colour"));
  CHECK_THAT(refused(replaced("\"model\": \"normalized\"", "\"model\": \"bayes\"")),
             Contains("definition.sprt.model"));
  CHECK_THAT(refused(replaced("\"mode\": \"gain\"", "\"mode\": \"gain\", \"x\": 1")),
             Contains("accepted"));  // extra fields ok
  CHECK(refused(text) == "accepted");
  CHECK_THROWS_WITH(read_match_result((dir / "missing.json").string()),
                    Contains("missing.json: cannot open file"));
}

TEST_CASE("merging shards adds their pairs exactly, in any order", "[match]") {
  const MatchDefinition d = definition(3, 30);
  const std::vector<int> pattern{2, 3, 1, 4, 2, 0, 3, 2};
  const MatchResult whole(played(d, {1, 2, 3}, pattern));
  const MatchResult s1 = played(d, {1}, pattern), s2 = played(d, {2}, pattern),
                    s3 = played(d, {3}, pattern);
  const MatchResult m = merge_match_results({{"s1.json", s1}, {"s2.json", s2}, {"s3.json", s3}});
  CHECK(m.counts() == whole.counts());
  CHECK(m.counts() == MatchCounts(s1.counts()) + s2.counts() + s3.counts());
  CHECK(m.complete());
  CHECK(to_json_text(m) ==
        to_json_text(merge_match_results({{"s3.json", s3}, {"s1.json", s1}, {"s2.json", s2}})));
  // Associative: merging a merge gives the same.
  const MatchResult m12 = merge_match_results({{"s1.json", s1}, {"s2.json", s2}});
  CHECK(to_json_text(merge_match_results({{"m12.json", m12}, {"s3.json", s3}})) == to_json_text(m));
  // Refusals name both files.
  CHECK_THROWS_WITH(merge_match_results({{"a.json", s1}, {"b.json", s1}}),
                    Contains("b.json: shard 1/3 is also in a.json"));
  MatchDefinition slower = d;
  slower.time_control = "60+0.6";
  const MatchResult other = played(slower, {2}, pattern);
  CHECK_THROWS_WITH(
      merge_match_results({{"a.json", s1}, {"b.json", other}}),
      Contains("b.json: not a shard of the match in a.json (time_control: '10+0.1' vs '60+0.6'"));
  MatchDefinition book = d;
  book.openings_seed = 8;
  CHECK_THROWS_WITH(merge_match_results({{"a.json", s1}, {"b.json", played(book, {2}, pattern)}}),
                    Contains("openings.seed"));
  // Overlapping pairs cannot come from valid shards; a merged file and one of its shards can overlap.
  CHECK_THROWS_WITH(merge_match_results({{"m12.json", m12}, {"s2.json", s2}}),
                    Contains("shard 2/3 is also in m12.json"));
}

TEST_CASE("the gate decides on the SPRT or the Elo interval recorded in the definition",
          "[match]") {
  MatchDefinition d = definition(1, 400);
  const MatchResult strong = played(d, {1}, {3, 4, 2, 3});  // A wins clearly
  const MatchResult weak = played(d, {1}, {1, 0, 2, 1});
  const MatchResult even = played(d, {1}, {2, 1, 3, 2});
  CHECK(evaluate_gate(strong).passed);
  CHECK(evaluate_gate(strong).verdict == "SPRT H1 accepted");
  CHECK_FALSE(evaluate_gate(weak).passed);
  CHECK(evaluate_gate(weak).verdict == "SPRT H0 accepted");
  MatchResult few(d, {1});
  few.add_pair(pair(0, GameScore::Win, GameScore::Draw));
  CHECK(evaluate_gate(few).verdict == "SPRT undecided");
  CHECK_THROWS_AS(evaluate_gate(MatchResult(d, {1})), InputError);

  // Non-regression on a pair budget: the SPRT when it decided, else the Elo bar.
  d.gate = {GateMode::NonRegression, -60.0};
  CHECK(evaluate_gate(few).verdict == "SPRT undecided");  // `few` was defined with the gain gate
  MatchResult few_nr(d, {1});
  few_nr.add_pair(pair(0, GameScore::Win, GameScore::Draw));
  few_nr.add_pair(pair(1, GameScore::Draw, GameScore::Loss));
  CHECK_THAT(evaluate_gate(few_nr).verdict,
             Contains("SPRT undecided at the pair budget, Elo lower95"));
  d.gate = {GateMode::NonRegression,
            1000.0};  // a bar no result reaches: the SPRT's H1 still passes
  CHECK(evaluate_gate(played(d, {1}, {3, 4, 2, 3})).passed);
  d.gate = {GateMode::NonRegression,
            -1000.0};  // a bar every result reaches: the SPRT's H0 still fails
  CHECK_FALSE(evaluate_gate(played(d, {1}, {1, 0, 2, 1})).passed);

  d.sprt.reset();
  d.gate = {GateMode::NonRegression, -20.0};
  CHECK(evaluate_gate(played(d, {1}, {2, 1, 3, 2})).passed);
  CHECK_THAT(evaluate_gate(played(d, {1}, {1, 0, 2, 1})).verdict, Contains("Elo lower95"));
  CHECK_FALSE(evaluate_gate(played(d, {1}, {1, 0, 2, 1})).passed);
  d.gate = {GateMode::AAControl, std::nullopt};
  CHECK(evaluate_gate(played(d, {1}, {2, 1, 3, 2})).passed);
  CHECK_FALSE(evaluate_gate(played(d, {1}, {3, 4, 2, 3})).passed);
  MatchDefinition no_sprt = definition();
  no_sprt.sprt.reset();
  CHECK_THROWS_WITH(MatchResult(no_sprt, {1}), Contains("the gain gate needs SPRT parameters"));
  (void)even;
}

TEST_CASE("stk-harness merge dispatches match result files and writes a valid JUnit",
          "[match][harness]") {
  auto dir = test::scratch_dir("match-merge-cli");
  const MatchDefinition d = definition(2, 200);
  for (int s = 1; s <= 2; ++s)
    save_match_result((dir / ("shard" + std::to_string(s) + ".json")).string(),
                      played(d, {s}, {3, 4, 2, 3, 1}));
  const std::string files = (dir / "shard1.json").string() + " " + (dir / "shard2.json").string();
  auto r = test::run_command(
      stk_harness("merge gain-test " + files + " --out-dir " + dir.string()));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("gain gate passed: SPRT H1 accepted"));
  CHECK_THAT(r.output, Contains("200 pairs"));
  const auto junit = dir / "junit" / "match-gain-test.xml";
  CHECK(test::validate_junit(junit.string()).empty());
  CHECK_THAT(read(junit), Contains("classname=\"match.gain-test\""));
  // The merged report is itself a match result: the same counts as the shards.
  const MatchResult merged = read_match_result((dir / "match" / "gain-test.json").string());
  CHECK(merged.counts() == read_match_result((dir / "shard1.json").string()).counts() +
                               read_match_result((dir / "shard2.json").string()).counts());

  // A losing match fails the gate: exit 1, the failure message carries counts, Elo and LLR.
  const MatchDefinition d2 = definition(1, 200);
  save_match_result((dir / "losing.json").string(), played(d2, {1}, {1, 0, 2, 1}));
  r = test::run_command(
      stk_harness("match-merge " + (dir / "losing.json").string() + " --out-dir " + dir.string()));
  CHECK(r.exit_code == 1);
  const std::string xml = read(dir / "junit" / "match-candidate-vs-main.xml");
  CHECK(test::validate_junit((dir / "junit" / "match-candidate-vs-main.xml").string()).empty());
  CHECK_THAT(xml, Contains("failure message=\"SPRT H0 accepted: 200 pairs (ptnml"));
  CHECK_THAT(xml, Contains("Elo -"));
  CHECK_THAT(xml, Contains("LLR -"));
  // `merge` with the match file as its only argument is the same match-merge (any position).
  r = test::run_command(
      stk_harness("merge " + (dir / "losing.json").string() + " --out-dir " + dir.string()));
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("SPRT H0 accepted"));

  // Bad input: exit 2 naming the files.
  r = test::run_command(stk_harness("match-merge " + (dir / "shard1.json").string() + " " +
                                    (dir / "shard1.json").string()));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("shard 1/2 is also in"));
  r = test::run_command(stk_harness("match-merge " + (dir / "shard1.json").string() + " " +
                                    (dir / "losing.json").string()));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("not a shard of the match in"));
}

// docs/harnesses/match-merge.md: which report a merge owes when its inputs fail, and that a lone
// argument is a result file, never the report's name.
TEST_CASE("match-merge replaces the report it owes on bad input, a lone argument is a file",
          "[match][harness]") {
  auto dir = test::scratch_dir("match-merge-owed");
  save_match_result((dir / "shard1.json").string(), played(definition(2, 200), {1}, {3, 4, 2}));
  const std::string stale =
      "<?xml version=\"1.0\"?>\n<testsuites tests=\"1\" failures=\"0\" errors=\"0\"><testsuite "
      "name=\"stale\" tests=\"1\" failures=\"0\" errors=\"0\"><testcase classname=\"stale.x\" "
      "name=\"passed long ago\"/></testsuite></testsuites>\n";
  auto run_in = [&](const std::string& name, const std::string& args,
                    const std::vector<std::string>& owed) {
    const auto out = dir / name;
    std::filesystem::create_directories(out / "junit");
    for (const std::string& report : owed) test::write_file(out / "junit" / report, stale);
    const auto r = test::run_command(
        stk_harness("match-merge " + args + " --out-dir " + out.string()));
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    std::set<std::string> found;
    for (const auto& f : std::filesystem::directory_iterator(out / "junit"))
      found.insert(f.path().filename().string());
    CHECK(found == std::set<std::string>(owed.begin(), owed.end()));
    for (const std::string& report : owed) {
      CHECK_THAT(read(out / "junit" / report),
                 Contains("<error message=") && !Contains("passed long ago"));
      CHECK(test::validate_junit((out / "junit" / report).string()).empty());
    }
    return r;
  };
  const std::string good = (dir / "shard1.json").string(), missing = (dir / "gone.json").string();
  // No OUT_CONFIG: the match's config, from the file that reads; then OUT_CONFIG's own name.
  run_in("by-config", good + " " + missing, {"match-candidate-vs-main.xml"});
  run_in("by-name", "named " + good + " " + missing, {"match-named.xml"});
  // Nothing readable, no OUT_CONFIG: no report. A lone word is a file, never the name.
  run_in("none", missing, {});
  const auto lone = run_in("lone", "gone", {});
  CHECK_THAT(lone.output, Contains("gone"));
}

TEST_CASE("stk-harness sprt rechecks a report from its counts", "[match][harness][stats]") {
  auto r = test::run_command(
      stk_harness("sprt --pentanomial 200,4860,10023,4742,175 --elo0 0 --elo1 2"));
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("Elo          -1.46 +- 1.79"));
  CHECK_THAT(r.output, Contains("nElo         -2.77 +- 3.40"));
  CHECK_THAT(r.output, Contains("LLR          -2.50  bounds [-2.94, 2.94]"));
  CHECK_THAT(r.output, Contains("verdict      continue"));
  r = test::run_command(
      stk_harness("sprt --pentanomial 1,1941,6275,2194,2 --elo0 0 --elo1 2 --json"));
  CHECK_THAT(r.output, Contains("\"verdict\": \"H1 accepted\""));
  r = test::run_command(stk_harness("sprt --wdl 36433,68692,36027 --elo0 0 --elo1 2"));
  CHECK_THAT(r.output, Contains("trinomial GSPRT"));
  CHECK_THAT(r.output, Contains("LLR          0.92"));
  const std::pair<const char*, const char*> bad[] = {
      {"sprt --pentanomial=-1,2,3,4,5", "non-negative integer counts"},
      {"sprt --pentanomial 1,2,3,4", "takes 5 counts LL,LD,DD,DW,WW, got 4"},
      {"sprt --wdl 1,2", "takes 3 counts W,D,L, got 2"},
      {"sprt --pentanomial 1,2,3,4,5 --elo0 2 --elo1 1", "elo0 must be below elo1"},
      {"sprt --pentanomial 1,2,3,4,5 --elo0 0 --elo1 1 --alpha 1", "alpha must be in (0, 1)"},
      {"sprt --pentanomial 1,2,3,4,5 --elo0 0 --elo1 1 --beta 0", "beta must be in (0, 1)"},
      {"sprt --pentanomial 1,2,3,4,5 --elo0 0", "give both --elo0 and --elo1"},
      {"sprt --pentanomial 1,2,3,4,5 --elo0 0 --elo1 1 --model bayes",
       "'normalized' or 'logistic'"},
      {"sprt --pentanomial 0,0,0,0,0", "no pairs"},
      {"sprt --pentanomial 1,2,3,4,5 --elo0 0 --elo1 300",
       "SPRT bound nElo 300 is out of reach of these counts"},
      {"sprt --pentanomial 1,2,3,4,5 --wdl 1,2,3", "the pentanomial counts hold 30 games"},
      {"sprt", "give --pentanomial"},
      {"sprt --elo", "--elo"},
  };
  for (const auto& [args, message] : bad) {
    r = test::run_command(stk_harness(args));
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains(message));
  }
}

namespace {

// Pair scores 0..4 drawn from `law` by a fixed LCG: shards of one law differ only by chance.
std::vector<int> drawn_scores(const std::array<double, 5>& law, std::uint64_t seed, int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = double(seed >> 11) / 9007199254740992.0, acc = 0;
    int k = 0;
    while (k < 4 && u >= (acc += law[std::size_t(k)])) ++k;
    out.push_back(k);
  }
  return out;
}

}  // namespace

TEST_CASE("match-merge flags the one shard played from another law and names its file",
          "[match][harness]") {
  auto dir = test::scratch_dir("match-merge-homogeneity");
  const std::array<double, 5> honest = {0.02, 0.18, 0.50, 0.25, 0.05},
                              bad = {0.20, 0.40, 0.30, 0.08, 0.02};
  MatchDefinition d = definition(4, 4 * 150);
  d.gate = {GateMode::NonRegression, -1000.0};
  auto merge = [&](const std::string& name, int bad_shard) {
    std::string files;
    for (int s = 1; s <= 4; ++s) {
      const auto file = dir / (name + std::to_string(s) + ".json");
      // played() takes pair i's score from entry i: one entry per planned pair.
      save_match_result(file.string(), played(d, {s},
                                              drawn_scores(s == bad_shard ? bad : honest,
                                                           std::uint64_t(s) * 7919, 600)));
      files += " " + file.string();
    }
    return test::run_command(
        stk_harness("match-merge " + name + files + " --out-dir " + dir.string()));
  };
  // Honest shards: consistent, and the gate decides as without the test (exit 0 at this bar).
  auto ok = merge("honest", 0);
  INFO(ok.output);
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.output, Contains("homogeneity of 4 files: chi2 "));
  CHECK_THAT(ok.output, Contains("consistent (alpha 0.01)"));
  const auto ok_json = nlohmann::json::parse(read(dir / "match" / "honest.json"));
  CHECK(ok_json["homogeneity"]["flagged"] == false);
  CHECK(ok_json["homogeneity"]["seed"] == 20261204);
  // Shard 3 from a losing law: flagged, named, and still exit 0 (it informs, it is not the gate).
  auto flagged = merge("one-bad", 3);
  INFO(flagged.output);
  CHECK(flagged.exit_code == 0);
  CHECK_THAT(flagged.output,
             Contains("FLAGGED (p < 0.01), most out of line: " + (dir / "one-bad3.json").string()));
  const auto junit = dir / "junit" / "match-one-bad.xml";
  CHECK(test::validate_junit(junit.string()).empty());
  CHECK_THAT(read(junit), Contains("name=\"homogeneity.flagged\" value=\"true\""));
  const auto j = nlohmann::json::parse(read(dir / "match" / "one-bad.json"));
  CHECK(j["homogeneity"]["worst"] == (dir / "one-bad3.json").string());
  CHECK(j["homogeneity"]["p_value"].get<double>() < 0.01);
  // The review page names the flagged shard beside the match's figures.
  const auto page = test::run_command(stk_harness("review --reports " + dir.string()));
  INFO(page.output);
  CHECK(page.exit_code == 0);
  const std::string html = read(dir / "index.html");
  CHECK_THAT(html, Contains("shard homogeneity p-value (match-merge)") &&
                       Contains("shards not homogeneous (p ") &&
                       Contains("most out of line " + (dir / "one-bad3.json").string()));
}
