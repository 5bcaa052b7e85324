// time: clock use for both colours with asymmetric clocks. The move must come before the side to
// move's remaining time runs out (else a loss on time), and an engine must budget from its own
// clock: with 10 s of its own and 100 ms on the opponent's, it moves about as slowly as with
// 10 s on both; far faster (under 1/8 of that) means it read the opponent's clock.
#include "notation.h"
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {

struct Clock {
  int own = 0, opp = 0, inc = 0, movestogo = 0;
};

struct Side {
  const char* name;
  const char* moves;  // from the start position: who is to move after them
  Color colour;
};

std::string go_for(const Side& side, const Clock& c) {
  const int w = side.colour == WHITE ? c.own : c.opp, b = side.colour == WHITE ? c.opp : c.own;
  std::string go = "go wtime " + std::to_string(w) + " btime " + std::to_string(b);
  if (c.inc) go += " winc " + std::to_string(c.inc) + " binc " + std::to_string(c.inc);
  if (c.movestogo) go += " movestogo " + std::to_string(c.movestogo);
  return go;
}

// One timed move: the elapsed time to bestmove and the margin left on the mover's clock.
// Returns the elapsed milliseconds, or a negative value when the search did not finish.
double timed_move(Session& s, ScenarioResult& r, const Side& side, const Clock& c,
                  const std::string& key) {
  s.send("ucinewgame");
  s.send(std::string("position startpos moves ") + side.moves);
  if (!s.isready(s.timeout(Timeouts::kPrompt)).found) {
    r.fail("isready not answered before the timed move (" + s.state() + ")", "hang");
    return -1;
  }
  Position root = position_of(Position::kStartFen);
  for (const char* p = side.moves; *p;) {
    std::string m(p, 4);
    root.make_move(*parse_uci(root, m));
    p += 4;
    while (*p == ' ') ++p;
  }
  const std::string go = go_for(side, c);
  SearchRun run = run_go(s, go, std::chrono::milliseconds(c.own) + s.timeout(Timeouts::kHang));
  r.facts[key + "_go"] = go;
  r.facts[key + "_elapsed_ms"] = run.ms;
  r.facts[key + "_own_time_ms"] = c.own;
  r.facts[key + "_margin_ms"] = c.own - run.ms;
  if (!require_finished(run, r, go)) return -1;
  check_search(root, run, r, go, {s.settings().strict_pv});
  if (run.ms > c.own)
    r.fail("'" + go + "': bestmove after " + std::to_string(long(run.ms)) + " ms with " +
               std::to_string(c.own) + " ms on its clock: lost on time (overrun " +
               std::to_string(long(run.ms - c.own)) + " ms)",
           "time-loss");
  return run.ms;
}

void add_for_side(std::vector<Scenario>& out, const Side& side) {
  const std::string colour = side.name;
  out.push_back(
      {"time", colour + "-own-10s-opponent-100ms",
       colour + " to move, 10 s against 100 ms: moves about as slowly as with equal clocks",
       [side](Session& s, ScenarioResult& r) {
         double equal = timed_move(s, r, side, {10000, 10000}, "equal_clocks");
         double asym = timed_move(s, r, side, {10000, 100}, "asymmetric");
         if (equal < 0 || asym < 0) return;
         // An engine that moves at once anyway (a tiny equal-clock time) tells nothing.
         if (equal >= 40 && asym * 8 < equal)
           r.fail("with 10 s on its own clock and 100 ms on the opponent's it moved in " +
                      std::to_string(long(asym)) + " ms, " + std::to_string(long(equal)) +
                      " ms with equal clocks: it budgets from the opponent's clock",
                  "opponent-clock");
       }});
  out.push_back({"time", colour + "-own-100ms-opponent-10s",
                 colour + " to move, 100 ms against 10 s: moves within its own 100 ms",
                 [side](Session& s, ScenarioResult& r) {
                   timed_move(s, r, side, {100, 10000}, "move");
                 }});
  out.push_back({"time", colour + "-increment",
                 colour + " to move, 1 s + 100 ms increment each: within 1 s",
                 [side](Session& s, ScenarioResult& r) {
                   timed_move(s, r, side, {1000, 1000, 100}, "move");
                 }});
  out.push_back({"time", colour + "-movestogo-1", colour + " to move, 1 s for 1 move: within 1 s",
                 [side](Session& s, ScenarioResult& r) {
                   timed_move(s, r, side, {1000, 1000, 0, 1}, "move");
                 }});
}

}  // namespace

void add_time_use_scenarios(std::vector<Scenario>& out, const Settings&) {
  add_for_side(out, {"white", "e2e4 e7e5", WHITE});
  add_for_side(out, {"black", "e2e4 e7e5 g1f3", BLACK});
}

}  // namespace stk::harness::ucicheck
