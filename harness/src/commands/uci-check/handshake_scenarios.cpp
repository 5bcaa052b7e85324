// handshake: uci -> id name, id author, well-formed options, uciok; isready -> readyok; every
// advertised spin/check option set to its own default is accepted: silently, or with info strings
// that claim no error.
#include <algorithm>
#include <cctype>

#include "commands/uci-check/scenario.h"

namespace stk::harness::ucicheck {

namespace {

void check_uci_reply(Session& s, ScenarioResult& r) {
  r.facts["uci_ms"] = s.uci_ms();
  r.facts["id_name"] = s.id_name();
  bool author = false;
  int options = 0;
  for (const TimedLine& l : s.uci_reply()) {
    if (l.text.starts_with("id author ") && l.text.size() > 10) author = true;
    std::string problem;
    if (auto o = uci::parse_option(l.text, &problem)) {
      ++options;
      if (!problem.empty())
        r.fail("malformed option line (" + problem + "): '" + l.text + "'", "malformed-option");
    }
  }
  r.facts["options"] = options;
  if (s.id_name().empty()) r.fail("no 'id name' line before uciok", "no-id");
  if (!author) r.fail("no 'id author' line before uciok", "no-id");
}

void check_isready(Session& s, ScenarioResult& r) {
  r.facts["first_readyok_ms"] = s.readyok_ms();
  double worst = 0;
  for (int i = 0; i < 3; ++i) {
    Reply ready = s.isready(s.timeout(Timeouts::kPrompt));
    if (!ready.found) {
      r.fail("isready not answered with readyok within " +
                 std::to_string(s.timeout(Timeouts::kPrompt).count()) + " ms (engine " + s.state() +
                 ")",
             ready.closed ? "crash" : "hang");
      return;
    }
    worst = std::max(worst, ready.ms);
    for (const TimedLine& l : ready.lines)
      if (l.text != "readyok")
        r.fail("unexpected line before readyok: '" + l.text + "'", "unexpected-output");
  }
  r.facts["readyok_ms_max_of_3"] = worst;
}

// UCI lets an engine say anything in "info string" (decided for the audit's doubtful case: an
// info string answering a setoption is legal); it fails only when it claims an error.
bool claims_an_error(const std::string& line) {
  std::string lower(line);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  for (const char* word : {"error", "invalid", "illegal", "unknown", "refus", "fail"})
    if (lower.find(word) != std::string::npos) return true;
  return false;
}

void check_default_options(Session& s, ScenarioResult& r) {
  int sent = 0;
  for (const uci::OptionLine& o : s.options()) {
    if ((o.type != "spin" && o.type != "check") || !o.default_value) continue;
    s.send("setoption name " + o.name + " value " + *o.default_value);
    ++sent;
  }
  r.facts["options_set_to_default"] = sent;
  Reply ready = s.isready(s.timeout(Timeouts::kPrompt));
  if (!ready.found) {
    r.fail("no readyok after setting the options to their defaults (engine " + s.state() + ")",
           ready.closed ? "crash" : "hang");
    return;
  }
  for (const TimedLine& l : ready.lines) {
    if (l.text == "readyok") continue;
    if (!l.text.starts_with("info string"))
      r.fail("setoption at an advertised default answered a line that is not UCI: '" + l.text + "'",
             "setoption-not-silent");
    else if (claims_an_error(l.text))
      r.fail("setoption at an advertised default was refused: '" + l.text + "'",
             "setoption-error-claimed");
  }
}

}  // namespace

void add_handshake_scenarios(std::vector<Scenario>& out, const Settings&) {
  out.push_back({"handshake", "uci",
                 "uci answered with id name, id author, well-formed options and uciok",
                 check_uci_reply});
  out.push_back({"handshake", "isready", "isready answered with readyok (3 times, nothing else)",
                 check_isready});
  out.push_back({"handshake", "setoption-defaults",
                 "every spin/check option set to its default, accepted (no error claimed)",
                 check_default_options});
}

}  // namespace stk::harness::ucicheck
