// during-search: every command a GUI may send while "go infinite" runs. isready is answered at
// once; stop gives exactly one legal bestmove; quit ends the process; position / setoption /
// ucinewgame / a second go must not wedge the engine (it may apply them after the search or
// refuse them with a message, but a later stop is answered and no unexpected bestmove comes);
// a mistyped go argument must not start a search that only stop ends.
#include <algorithm>

#include "notation.h"
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {

constexpr const char* kRootFen =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

int count_bestmoves(const std::vector<TimedLine>& lines) {
  return int(std::count_if(lines.begin(), lines.end(), [](const TimedLine& l) {
    return uci::parse_bestmove(l.text).has_value();
  }));
}

void append(std::vector<TimedLine>& to, const std::vector<TimedLine>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

// position + go infinite, then 200 ms of searching: a bestmove before stop fails.
bool begin_infinite(Session& s, ScenarioResult& r, std::vector<TimedLine>& lines) {
  s.send(std::string("position fen ") + kRootFen);
  s.send("go infinite");
  append(lines, s.listen(std::chrono::milliseconds(200)));
  if (count_bestmoves(lines) > 0)
    r.fail("bestmove during 'go infinite' before any stop", "early-bestmove");
  if (!s.alive()) {
    r.fail("the engine died during 'go infinite' (" + s.state() + ")", "crash");
    return false;
  }
  return true;
}

// stop, then up to `allowed` bestmoves in all (one per go sent), the first within kPrompt of stop,
// each legal; then isready must still be answered. False when the engine hung or died.
bool stop_and_settle(Session& s, ScenarioResult& r, const Position& root,
                     std::vector<TimedLine>& lines, int allowed) {
  auto sent = SteadyClock::now();
  s.send("stop");
  if (count_bestmoves(lines) == 0) {
    Reply reply = s.wait_bestmove(s.timeout(Timeouts::kPrompt), sent);
    append(lines, reply.lines);
    if (!reply.found) {
      r.fail(reply.closed
                 ? "the engine died after stop (" + s.state() + ")"
                 : "no bestmove within " + std::to_string(s.timeout(Timeouts::kPrompt).count()) +
                       " ms of stop: the engine is wedged",
             reply.closed ? "crash" : "hang");
      return false;
    }
    r.facts["stop_to_bestmove_ms"] = reply.ms;
  }
  append(lines, s.listen(s.timeout(Timeouts::kQuiet)));
  Reply ready = s.isready(s.timeout(Timeouts::kPrompt));
  append(lines, ready.lines);
  if (!ready.found) {
    r.fail("isready not answered after the search ended (" + s.state() + ")",
           ready.closed ? "crash" : "hang");
    return false;
  }
  const int n = count_bestmoves(lines);
  r.facts["bestmoves"] = n;
  if (n > allowed)
    r.fail(std::to_string(n) + " bestmoves where " + std::to_string(allowed) +
               " go command(s) were sent",
           "extra-bestmove");
  SearchRun run;
  run.lines = lines;
  for (const TimedLine& l : lines) {  // the first bestmove is checked with the PVs, the others here
    auto b = uci::parse_bestmove(l.text);
    if (!b) continue;
    if (!run.best) run.best = *b;
    else if (!legal_in(root, b->move))
      r.fail("a later bestmove '" + b->move + "' is illegal", "illegal-bestmove");
  }
  check_search(root, run, r, "search", CheckOptions{s.settings().strict_pv});
  return true;
}

// After a command was sent during the search: the engine still searches on request.
void search_again(Session& s, ScenarioResult& r, const Position& root) {
  s.send(std::string("position fen ") + root.fen());
  SearchRun run = run_go(s, "go depth 1", s.timeout(Timeouts::kHang));
  if (require_finished(run, r, "go depth 1 afterwards"))
    check_search(root, run, r, "go depth 1 afterwards", {});
}

// Sends `command` during go infinite and requires the engine to come back.
void command_during_search(Session& s, ScenarioResult& r, const std::string& command,
                           int allowed_bestmoves) {
  const Position root = position_of(kRootFen);
  std::vector<TimedLine> lines;
  if (!begin_infinite(s, r, lines)) return;
  s.send(command);
  if (stop_and_settle(s, r, root, lines, allowed_bestmoves)) search_again(s, r, root);
}

void isready_during_search(Session& s, ScenarioResult& r) {
  const Position root = position_of(kRootFen);
  std::vector<TimedLine> lines;
  if (!begin_infinite(s, r, lines)) return;
  Reply ready = s.isready(s.timeout(Timeouts::kPrompt));
  append(lines, ready.lines);
  if (!ready.found) {
    r.fail("isready during 'go infinite' not answered within " +
               std::to_string(s.timeout(Timeouts::kPrompt).count()) + " ms (" + s.state() + ")",
           ready.closed ? "crash" : "hang");
  } else {
    r.facts["readyok_during_search_ms"] = ready.ms;
  }
  stop_and_settle(s, r, root, lines, 1);
}

void stop_during_search(Session& s, ScenarioResult& r) {
  const Position root = position_of(kRootFen);
  std::vector<TimedLine> lines;
  if (begin_infinite(s, r, lines)) stop_and_settle(s, r, root, lines, 1);
}

void quit_during_search(Session& s, ScenarioResult& r) {
  std::vector<TimedLine> lines;
  if (!begin_infinite(s, r, lines)) return;
  auto sent = SteadyClock::now();
  s.send("quit");
  if (!s.wait_exit(s.timeout(Timeouts::kPrompt))) {
    r.fail("still running " + std::to_string(s.timeout(Timeouts::kPrompt).count()) +
               " ms after quit",
           "hang");
    return;
  }
  r.facts["quit_to_exit_ms"] = ms_between(sent, SteadyClock::now());
  r.facts["exit"] = s.exit_status().describe();
  if (s.exit_status().signal)
    r.fail("quit during the search ended the engine by a signal: " + s.exit_status().describe(),
           "crash");
}

void position_during_search(Session& s, ScenarioResult& r) {
  const Position root = position_of(kRootFen);
  Position next = root;
  next.make_move(*parse_uci(next, "e1g1"));
  std::vector<TimedLine> lines;
  if (!begin_infinite(s, r, lines)) return;
  const std::size_t before = lines.size();
  s.send(std::string("position fen ") + kRootFen + " moves e1g1");
  if (!stop_and_settle(s, r, root, lines, 1)) return;
  bool message = std::any_of(lines.begin() + std::ptrdiff_t(before), lines.end(),
                             [](const TimedLine& l) {
                               auto info = uci::parse_info(l.text);
                               return info && info->text;
                             });
  // The engine either applied the new position (now or after the search) or refused it with a message.
  SearchRun run = run_go(s, "go depth 1", s.timeout(Timeouts::kHang));
  if (!require_finished(run, r, "go depth 1 afterwards")) return;
  if (legal_in(next, run.best->move)) {
    r.facts["position_during_search"] = "applied";
    check_search(next, run, r, "go depth 1 afterwards", {});
  } else if (legal_in(root, run.best->move)) {
    r.facts["position_during_search"] = message ? "refused with a message" : "dropped silently";
    if (!message)
      r.fail(
          "the position sent during the search was dropped without a word: 'go depth 1' searched the old one",
          "position-dropped");
  } else {
    check_search(next, run, r, "go depth 1 afterwards", {});
  }
}

void mistyped_go(Session& s, ScenarioResult& r) {
  const Position root = position_of(kRootFen);
  s.send(std::string("position fen ") + kRootFen);
  auto sent = SteadyClock::now();
  s.send("go depht 5");
  Reply reply = s.wait_bestmove(s.timeout(Timeouts::kPrompt), sent);
  // An explicit refusal: an error message and 'bestmove 0000' (never a search of unknown limits).
  const bool refused = reply.found && reply.match()->text.starts_with("bestmove 0000") &&
                       std::any_of(reply.lines.begin(), reply.lines.end(), [](const TimedLine& l) {
                         return l.text.starts_with("info string") &&
                                l.text.find("error") != std::string::npos;
                       });
  if (refused) {
    r.facts["mistyped_go"] = "refused with an error message and bestmove 0000";
    r.facts["bestmove_ms"] = reply.ms;
    return search_again(s, r, root);
  }
  if (reply.found) {
    r.facts["mistyped_go"] = "searched with its defaults";
    r.facts["bestmove_ms"] = reply.ms;
    SearchRun run;
    run.lines = reply.lines;
    digest_search_lines(run, sent);
    check_search(root, run, r, "go depht 5", {});
    return;
  }
  if (reply.closed) return r.fail("the engine died on 'go depht 5' (" + s.state() + ")", "crash");
  Reply ready = s.isready(s.timeout(Timeouts::kPrompt));
  if (!ready.found)
    return r.fail("isready not answered after 'go depht 5' (" + s.state() + ")", "hang");
  s.send("stop");
  Reply after = s.wait_bestmove(s.timeout(Timeouts::kQuiet));
  if (after.found) {
    r.fail("'go depht 5' started a search without limits: its bestmove came only after stop, " +
               std::to_string(long(ms_between(sent, after.lines.back().at))) + " ms after the go",
           "searches-until-stop");
    return;
  }
  r.facts["mistyped_go"] = "refused, no search";
  search_again(s, r, root);
}

}  // namespace

void add_during_search_scenarios(std::vector<Scenario>& out, const Settings&) {
  auto add = [&](const char* name, const char* summary,
                 std::function<void(Session&, ScenarioResult&)> run) {
    out.push_back({"during-search", name, summary, std::move(run)});
  };
  add("isready", "isready during go infinite answered promptly", isready_during_search);
  add("stop", "stop during go infinite: exactly one legal bestmove, promptly", stop_during_search);
  add("quit", "quit during go infinite: the process exits promptly", quit_during_search);
  add("position", "position during go infinite: applied or refused with a message, never wedged",
      position_during_search);
  add("setoption",
      "setoption (an option at its default) during go infinite: a later stop is answered",
      [](Session& s, ScenarioResult& r) {
        std::string command = "setoption name Hash value 16";
        for (const uci::OptionLine& o : s.options())
          if (o.type == "spin" && o.default_value) {
            command = "setoption name " + o.name + " value " + *o.default_value;
            if (o.name == "Hash") break;
          }
        command_during_search(s, r, command, 1);
      });
  add("ucinewgame", "ucinewgame during go infinite: a later stop is answered",
      [](Session& s, ScenarioResult& r) { command_during_search(s, r, "ucinewgame", 1); });
  add("go", "a second go during go infinite: a later stop is answered, at most one bestmove per go",
      [](Session& s, ScenarioResult& r) { command_during_search(s, r, "go depth 1", 2); });
  add("mistyped-go",
      "'go depht 5' answers promptly or is refused; it never starts a search only stop ends",
      mistyped_go);
}

}  // namespace stk::harness::ucicheck
