// ponder: "go ponder" as a GUI that ponders sends it, after "setoption name Ponder value true".
// UCI: the engine searches the position after the expected move and never answers on its own,
// even past its time budget; "ponderhit" (the expected move was played) makes the same search a
// normal one on the go's clock, so a bestmove follows within that clock; "stop" (another move was
// played) answers at once. For an engine that does not advertise the Ponder option the group is
// not applicable (JUnit <skipped>). Failures: answers-during-ponder (a bestmove before ponderhit
// or stop), ponderhit-stops (a bestmove within kPonderhitAtOnceMs of a ponderhit that left a
// 10 s clock: ponderhit taken as stop), ponderhit-late / ponderhit-ignored (no bestmove within
// the clock plus a margin after ponderhit), slow-stop / hang after stop, illegal moves.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "notation.h"
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {

// 1. e4 e5, white to move: what a GUI ponders on after the engine's 1. e4 with 1... e5 expected.
constexpr const char* kPonderMoves = "e2e4 e7e5";
// A bestmove this soon after a ponderhit that left seconds on the clock is ponderhit taken as
// stop: the engines measured go on for 200 ms or more (docs/harnesses/uci-check.md). Not scaled
// by --timeout-scale (a slower build answers later, never sooner).
constexpr double kPonderhitAtOnceMs = 50;

bool ponder_advertised(const Session& s) {
  return std::any_of(s.options().begin(), s.options().end(), [](const uci::OptionLine& o) {
    std::string name = o.name;
    for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
    return name == "ponder";
  });
}

int ponder_bestmove_count(const std::vector<TimedLine>& lines) {
  return int(std::count_if(lines.begin(), lines.end(), [](const TimedLine& l) {
    return uci::parse_bestmove(l.text).has_value();
  }));
}

void ponder_append(std::vector<TimedLine>& to, const std::vector<TimedLine>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

Position ponder_root() {
  Position root = position_of(Position::kStartFen);
  for (const char* m : {"e2e4", "e7e5"}) root.make_move(*parse_uci(root, m));
  return root;
}

// Not applicable without the option; else Ponder on, the position, and isready. False when the
// scenario ends here.
bool ponder_setup(Session& s, ScenarioResult& r) {
  if (!ponder_advertised(s)) {
    r.skip("the engine does not advertise the Ponder option, so a GUI never sends it go ponder");
    return false;
  }
  s.send("setoption name Ponder value true");
  s.send(std::string("position startpos moves ") + kPonderMoves);
  if (!s.isready(s.timeout(Timeouts::kPrompt)).found) {
    r.fail("isready not answered before go ponder (" + s.state() + ")", "hang");
    return false;
  }
  return true;
}

// Sends `go` (a go ponder) and listens `ponder_ms`: a bestmove meanwhile fails. False when the
// engine answered or died.
bool ponder_for(Session& s, ScenarioResult& r, const std::string& go, int ponder_ms,
                std::vector<TimedLine>& lines) {
  const auto sent = SteadyClock::now();
  s.send(go);
  ponder_append(lines, s.listen(std::chrono::milliseconds(ponder_ms)));
  r.facts["go"] = go;
  r.facts["pondered_ms"] = ponder_ms;
  for (const TimedLine& l : lines)
    if (uci::parse_bestmove(l.text)) {
      r.fail(
          "'" + l.text + "' " + std::to_string(long(ms_between(sent, l.at))) + " ms into '" + go +
              "', before any ponderhit or stop: an engine must not answer while it ponders, even past its time budget",
          "answers-during-ponder");
      return false;
    }
  if (!s.alive()) {
    r.fail("the engine died during '" + go + "' (" + s.state() + ")", "crash");
    return false;
  }
  return true;
}

// After the answer: isready must come back with no second bestmove; then the search is checked
// (bestmove, ponder move and every PV legal in the pondered position).
void ponder_settle(Session& s, ScenarioResult& r, const Position& root,
                   std::vector<TimedLine>& lines, SteadyClock::time_point sent,
                   const std::string& label) {
  Reply ready = s.isready(s.timeout(Timeouts::kPrompt));
  ponder_append(lines, ready.lines);
  if (!ready.found)
    r.fail("isready not answered after the bestmove (" + s.state() + ")",
           ready.closed ? "crash" : "hang");
  if (int n = ponder_bestmove_count(lines); n > 1)
    r.fail(std::to_string(n) + " bestmoves for one go ponder", "extra-bestmove");
  SearchRun run;
  run.lines = lines;
  digest_search_lines(run, sent);
  for (const TimedLine& l : lines)  // the first bestmove is the answer
    if (auto b = uci::parse_bestmove(l.text)) {
      run.best = *b;
      break;
    }
  check_search(root, run, r, label, CheckOptions{s.settings().strict_pv});
}

// ponderhit after `ponder_ms` of "go ponder wtime C btime C": a legal bestmove within C plus a
// margin, and (when `at_once_fails`) not within kPonderhitAtOnceMs.
void ponderhit_after(Session& s, ScenarioResult& r, int clock_ms, int ponder_ms,
                     bool at_once_fails) {
  if (!ponder_setup(s, r)) return;
  const Position root = ponder_root();
  const std::string go = "go ponder wtime " + std::to_string(clock_ms) + " btime " +
                         std::to_string(clock_ms);
  std::vector<TimedLine> lines;
  const auto go_sent = SteadyClock::now();
  if (!ponder_for(s, r, go, ponder_ms, lines)) return;
  const auto hit = SteadyClock::now();
  s.send("ponderhit");
  const auto allowed = std::chrono::milliseconds(clock_ms) + s.timeout(Timeouts::kQuiet);
  Reply reply = s.wait_bestmove(allowed, hit);
  ponder_append(lines, reply.lines);
  if (!reply.found && !reply.closed) {  // late, or never: how late
    Reply later = s.wait_bestmove(s.timeout(Timeouts::kPrompt));
    ponder_append(lines, later.lines);
    if (later.found) {
      r.facts["ponderhit_to_bestmove_ms"] = ms_between(hit, later.lines.back().at);
      r.fail("bestmove " + std::to_string(long(ms_between(hit, later.lines.back().at))) +
                 " ms after ponderhit with " + std::to_string(clock_ms) +
                 " ms on its clock (allowed: the clock + " +
                 std::to_string(s.timeout(Timeouts::kQuiet).count()) +
                 " ms): the clock must count from ponderhit, and it would have lost on time",
             "ponderhit-late");
      return ponder_settle(s, r, root, lines, go_sent, go + ", ponderhit");
    }
    const auto stop = SteadyClock::now();
    s.send("stop");
    Reply after = s.wait_bestmove(s.timeout(Timeouts::kPrompt), stop);
    ponder_append(lines, after.lines);
    r.fail("no bestmove within " + std::to_string(long(ms_between(hit, stop))) +
               " ms of ponderhit with " + std::to_string(clock_ms) +
               " ms on its clock: ponderhit was ignored (" +
               (after.found ? "a stop then answered after " + std::to_string(long(after.ms)) + " ms"
                            : "a stop was not answered either: " + s.state()) +
               ")",
           "ponderhit-ignored");
    return;
  }
  if (!reply.found) {
    r.fail("the engine died after ponderhit (" + s.state() + ")", "crash");
    return;
  }
  r.facts["ponderhit_to_bestmove_ms"] = reply.ms;
  if (at_once_fails && reply.ms < kPonderhitAtOnceMs)
    r.fail(
        "bestmove " + fmt::format("{:.1f}", reply.ms) + " ms after ponderhit, with " +
            std::to_string(clock_ms) + " ms on its clock and only " + std::to_string(ponder_ms) +
            " ms pondered: ponderhit was taken as stop (UCI: the search goes on, now on the go's clock)",
        "ponderhit-stops");
  ponder_settle(s, r, root, lines, go_sent, go + ", ponderhit");
}

void ponder_stop(Session& s, ScenarioResult& r) {
  if (!ponder_setup(s, r)) return;
  const Position root = ponder_root();
  const std::string go = "go ponder wtime 10000 btime 10000";
  std::vector<TimedLine> lines;
  const auto go_sent = SteadyClock::now();
  if (!ponder_for(s, r, go, 100, lines)) return;
  const auto stop = SteadyClock::now();
  s.send("stop");
  Reply reply = s.wait_bestmove(s.timeout(Timeouts::kPrompt), stop);
  ponder_append(lines, reply.lines);
  if (!reply.found) {
    r.fail(reply.closed
               ? "the engine died after stop during go ponder (" + s.state() + ")"
               : "no bestmove within " + std::to_string(s.timeout(Timeouts::kPrompt).count()) +
                     " ms of stop during go ponder: the engine is wedged",
           reply.closed ? "crash" : "hang");
    return;
  }
  r.facts["stop_to_bestmove_ms"] = reply.ms;
  const double gate = s.settings().stop_max_ms * s.settings().timeout_scale;
  if (reply.ms > gate)
    r.fail("bestmove " + fmt::format("{:.1f}", reply.ms) +
               " ms after stop during go ponder (gate: " + fmt::format("{}", gate) + " ms)",
           "slow-stop");
  ponder_settle(s, r, root, lines, go_sent, go + ", stop");
}

}  // namespace

void add_ponder_scenarios(std::vector<Scenario>& out, const Settings&) {
  out.push_back(
      {"ponder", "ponderhit-after-budget",
       "go ponder with 100 ms clocks: no bestmove in 300 ms of pondering, then a legal one "
       "within the clock of ponderhit",
       [](Session& s, ScenarioResult& r) { ponderhit_after(s, r, 100, 300, false); }});
  out.push_back({"ponder", "ponderhit-continues",
                 "go ponder with 10 s clocks, ponderhit after 100 ms: the search goes on (no "
                 "bestmove at once), a legal bestmove within the clock",
                 [](Session& s, ScenarioResult& r) { ponderhit_after(s, r, 10000, 100, true); }});
  out.push_back(
      {"ponder", "stop", "go ponder then stop: one legal bestmove, promptly", ponder_stop});
}

}  // namespace stk::harness::ucicheck
