// garbage: empty lines, unknown commands, bad setoption, very long lines and binary junk leave
// the engine alive and answering isready (a crash is recorded, the engine restarted, the rest
// still sent). After a malformed "position" the next go must not search a position the GUI did
// not ask for: refusing (no bestmove, an info string if it likes) or a null bestmove (0000 /
// (none)) passes; a bestmove of the previous, stale position, of the legal prefix before a bad
// move, or an illegal one fails.
#include "common/splitmix.h"
#include "notation.h"
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {

std::string shown(const std::string& input) {
  std::string s;
  for (unsigned char c : input.substr(0, 60))
    s += c >= 0x20 && c < 0x7f ? std::string(1, char(c)) : "?";
  return input.size() > 60 ? s + "... (" + std::to_string(input.size()) + " bytes)" : s;
}

// The engine still plays from the start position.
void still_searches(Session& s, ScenarioResult& r) {
  s.send("position startpos");
  SearchRun run = run_go(s, "go depth 1", s.timeout(Timeouts::kHang));
  if (require_finished(run, r, "go depth 1 afterwards"))
    check_search(position_of(Position::kStartFen), run, r, "go depth 1 afterwards", {});
}

// Sends each input, then isready; a dead or silent engine fails and is restarted.
void survive(Session& s, ScenarioResult& r, const std::vector<std::string>& inputs) {
  int survived = 0;
  for (const std::string& input : inputs) {
    s.send(input);
    Reply ready = s.isready(s.timeout(Timeouts::kPrompt));
    if (ready.found) {
      ++survived;
      continue;
    }
    if (ready.closed || !s.alive())
      r.fail("the engine died on '" + shown(input) + "' (" + s.state() + ")", "crash");
    else r.fail("isready not answered after '" + shown(input) + "'", "hang");
    s.restart();
  }
  r.facts["inputs"] = inputs.size();
  r.facts["survived"] = survived;
  still_searches(s, r);
}

std::vector<std::string> bad_setoptions(Session& s) {
  std::vector<std::string> v = {"setoption",
                                "setoption name",
                                "setoption name NoSuchOption value 1",
                                "setoption value 3",
                                "setoption name Hash",
                                "setoption name Hash value",
                                "setoption name Hash value abc",
                                "setoption name Hash value -1",
                                "setoption name Hash value 99999999999999999999"};
  for (const uci::OptionLine& o : s.options())
    if (o.type == "check") v.push_back("setoption name " + o.name + " value maybe");
  return v;
}

std::string binary_junk(std::uint64_t seed) {
  SplitMix rng(seed);
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += char(rng.below(256));
  return junk;
}

struct BadPosition {
  const char* name;
  const char* command;
  const char* prefix_moves;  // moves from the start position before the bad one, or nullptr
};

// The previous, good position: black to move, none of its moves legal in any prefix below.
constexpr const char* kPreviousFen = "4k3/8/8/8/8/8/8/R3K3 b - - 0 1";

void bad_position(Session& s, ScenarioResult& r, const BadPosition& c) {
  const Position previous = position_of(kPreviousFen);
  s.send(std::string("position fen ") + kPreviousFen);
  SearchRun first = run_go(s, "go depth 1", s.timeout(Timeouts::kHang));
  if (!require_finished(first, r, "go depth 1 before")) return;
  s.send(c.command);
  Reply ready = s.isready(s.timeout(Timeouts::kPrompt));
  if (!ready.found)
    return r.fail(std::string(ready.closed ? "the engine died on '"
                                           : "isready not answered after '") +
                      c.command + "' (" + s.state() + ")",
                  ready.closed ? "crash" : "hang");
  // go, then isready: a search of depth 1 ends within kQuiet of readyok, a refusal prints nothing.
  auto sent = SteadyClock::now();
  s.send("go depth 1");
  Reply after = s.isready(s.timeout(Timeouts::kPrompt));
  const std::vector<TimedLine>& lines = after.lines;
  if (!after.found && after.closed)
    return r.fail(std::string("the engine died on 'go depth 1' after '") + c.command + "' (" +
                      s.state() + ")",
                  "crash");
  SearchRun run;
  run.lines = lines;
  digest_search_lines(run, sent);
  if (!run.best) {
    Reply bm = s.wait_bestmove(s.timeout(Timeouts::kQuiet));
    run.lines.insert(run.lines.end(), bm.lines.begin(), bm.lines.end());
    digest_search_lines(run, sent);
  }
  if (!run.best) {
    s.send("stop");
    Reply stopped = s.wait_bestmove(s.timeout(Timeouts::kQuiet));
    run.lines.insert(run.lines.end(), stopped.lines.begin(), stopped.lines.end());
    digest_search_lines(run, sent);
    run.stopped_by_harness = run.best.has_value();
    if (stopped.closed && !run.best)
      return r.fail("the engine died after 'go depth 1' (" + s.state() + ")", "crash");
  }
  for (const TimedLine& l : run.lines)
    if (auto info = uci::parse_info(l.text); info && info->text) r.facts["message"] = *info->text;
  if (!run.best) {
    r.facts["outcome"] = "refused: no bestmove";
    return;
  }
  const std::string& bm_text = run.best->move;
  r.facts["bestmove"] = bm_text;
  r.facts["bestmove_ms"] = run.ms;
  if (bm_text == "0000" || bm_text == "(none)") {
    r.facts["outcome"] = "searched nothing: null bestmove";
    return;
  }
  if (c.prefix_moves) {
    Position prefix = position_of(Position::kStartFen);
    for (const char* p = c.prefix_moves; *p; p += *(p + 4) ? 5 : 4)
      prefix.make_move(*parse_uci(prefix, std::string(p, 4)));
    if (legal_in(prefix, bm_text)) {
      r.facts["outcome"] = "searched the legal prefix";
      return r.fail(std::string("after '") + c.command +
                        "' the engine searched the moves before the bad one: bestmove '" + bm_text +
                        "' (refuse the command instead)",
                    "prefix-search");
    }
  }
  if (legal_in(previous, bm_text)) {
    r.facts["outcome"] = "searched the previous position";
    return r.fail(std::string("after '") + c.command +
                      "' the engine searched the previous, stale position: bestmove '" + bm_text +
                      "'",
                  "stale-search");
  }
  // Say only what was checked: the previous position and, for a moves list, its legal prefix. A
  // malformed command has no position of its own to check against (the audit found the old
  // wording, "nor in any the command could mean", claiming more than that).
  r.facts["outcome"] = "bestmove legal in neither position checked";
  r.fail(std::string("after '") + c.command + "' bestmove '" + bm_text +
             "' is legal neither in the previous position" +
             (c.prefix_moves ? " nor after the command's legal prefix of moves" : "") +
             " (the only positions the refused command leaves to search)",
         "illegal-bestmove");
}

}  // namespace

void add_garbage_scenarios(std::vector<Scenario>& out, const Settings& settings) {
  out.push_back(
      {"garbage", "empty-lines", "empty and blank lines", [](Session& s, ScenarioResult& r) {
         survive(s, r, {"", "   ", "\t\t", "\r", "", ""});
       }});
  out.push_back(
      {"garbage", "unknown-commands", "unknown commands", [](Session& s, ScenarioResult& r) {
         survive(s, r,
                 {"foo", "hello world", "isready2", "go2 depth 1", "stopp", "ucinewgamex",
                  "POSITION startpos", "12345", "info depth 1", "bestmove e2e4"});
       }});
  out.push_back({"garbage", "setoption",
                 "setoption with unknown names, missing parts and bad values",
                 [](Session& s, ScenarioResult& r) { survive(s, r, bad_setoptions(s)); }});
  out.push_back(
      {"garbage", "long-lines", "100 KB lines; a 1001-ply 'position startpos moves' is searched",
       [](Session& s, ScenarioResult& r) {
         survive(s, r,
                 {std::string(100000, 'x'),
                  "setoption name " + std::string(20000, 'y') + " value 1"});
         std::string command = "position startpos moves";
         Position pos = position_of(Position::kStartFen);
         const char* shuffle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
         for (int i = 0; i < 1001; ++i) {
           command += std::string(" ") + shuffle[i % 4];
           pos.make_move(*parse_uci(pos, shuffle[i % 4]));
         }
         s.send(command);
         SearchRun run = run_go(s, "go depth 1", s.timeout(Timeouts::kHang));
         if (require_finished(run, r, "go depth 1 after 1001 plies"))
           check_search(position_of(pos.fen()), run, r, "go depth 1 after 1001 plies", {});
       }});
  out.push_back({"garbage", "binary-junk", "4 KB of seeded random bytes",
                 [seed = settings.seed](Session& s, ScenarioResult& r) {
                   r.facts["seed"] = seed;
                   survive(s, r, {binary_junk(seed)});
                 }});
  static const BadPosition kBad[] = {
      {"position-no-argument", "position", nullptr},
      {"position-unknown-keyword", "position foo", nullptr},
      {"position-fen-missing", "position fen", nullptr},
      {"position-fen-garbage", "position fen xyz", nullptr},
      {"position-fen-no-kings", "position fen 8/8/8/8/8/8/8/8 w - - 0 1", nullptr},
      {"position-fen-bad-side",
       "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", nullptr},
      {"position-fen-nine-files",
       "position fen rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", nullptr},
      {"position-illegal-move", "position startpos moves e2e4 e7e5 e1e3 g8f6", "e2e4 e7e5"},
      {"position-garbage-move", "position startpos moves e2e4 xyz", "e2e4"},
  };
  for (const BadPosition& c : kBad)
    out.push_back({"garbage", c.name,
                   std::string("'") + c.command + "': refused, never a stale search",
                   [c](Session& s, ScenarioResult& r) { bad_position(s, r, c); }});
}

}  // namespace stk::harness::ucicheck
