#include "commands/uci-check/search_checks.h"

#include "notation.h"
#include "commands/uci-check/pv_consistency.h"

namespace stk::harness::ucicheck {

namespace {

std::string clip(const std::string& s, std::size_t n = 160) {
  return s.size() <= n ? s : s.substr(0, n) + "...";
}

}  // namespace

bool legal_in(const Position& pos, const std::string& text) {
  return parse_uci(pos, text).has_value();
}

void add_count(ScenarioResult& r, const std::string& key, long long n) {
  r.facts[key] = r.facts.value(key, 0LL) + n;
}

void digest_search_lines(SearchRun& run, SteadyClock::time_point sent) {
  for (const TimedLine& l : run.lines) {
    if (auto info = uci::parse_info(l.text); info && info->nodes) {
      run.last_nodes = *info->nodes;
      run.max_nodes = std::max(run.max_nodes, *info->nodes);
    }
    if (auto b = uci::parse_bestmove(l.text)) {
      run.best = *b;
      run.ms = ms_between(sent, l.at);
    }
  }
}

SearchRun run_go(Session& s, const std::string& go, std::chrono::milliseconds limit) {
  SearchRun run;
  run.go = go;
  auto sent = SteadyClock::now();
  s.send(go);
  Reply reply = s.wait_bestmove(limit, sent);
  run.lines = reply.lines;
  if (!reply.found && !reply.closed) {
    run.stopped_by_harness = true;
    s.note("no bestmove within " + std::to_string(limit.count()) + " ms: sending stop");
    s.send("stop");
    Reply after = s.wait_bestmove(s.timeout(Timeouts::kPrompt));
    run.lines.insert(run.lines.end(), after.lines.begin(), after.lines.end());
    reply.closed = after.closed;
  }
  run.crashed = reply.closed;
  digest_search_lines(run, sent);
  if (!run.best) run.ms = ms_between(sent, SteadyClock::now());
  if (!run.best || run.stopped_by_harness) run.end_state = s.state();
  return run;
}

bool require_finished(const SearchRun& run, ScenarioResult& r, const std::string& label) {
  if (run.crashed && !run.best) {
    r.fail(label + ": '" + run.go + "': the engine died before bestmove (" + run.end_state + ")",
           "crash");
    return false;
  }
  if (!run.best) {
    r.fail(label + ": '" + run.go + "': no bestmove, not even after stop (hang)", "hang");
    return false;
  }
  if (run.stopped_by_harness) {
    r.fail(label + ": '" + run.go +
               "' did not end by itself: bestmove came only after the harness sent stop (" +
               std::to_string(long(run.ms)) + " ms)",
           "searches-until-stop");
    return false;
  }
  return true;
}

void check_search(const Position& root, const SearchRun& run, ScenarioResult& r,
                  const std::string& label, const CheckOptions& options) {
  long long checked = 0, truncated = 0;
  bool reported = false;
  for (const TimedLine& l : run.lines) {
    auto info = uci::parse_info(l.text);
    if (!info) continue;
    if (!info->malformed.empty() && !reported)
      r.warn(label + ": info line with unparsable fields '" + info->malformed.front() +
             "': " + clip(l.text));
    if (!info->has_pv || info->pv.empty()) continue;
    ++checked;
    PvFindings f = check_pv(root, *info, options.strict_pv);
    truncated += f.truncated_mate;
    if (!f.errors.empty() && !reported) {
      reported = true;
      Failure e = f.errors.front();
      if (options.previous && e.behaviour == "illegal-pv" && f.plies == 0) {
        uci::InfoLine first_only = *info;
        if (check_pv(*options.previous, first_only, false).errors.empty()) {
          e.text += " (the whole pv is legal from the previous position: a stale pv)";
          e.behaviour = "stale-pv";
        }
      }
      r.fail(label + ": " + e.text + "; line: " + clip(l.text), e.behaviour);
    }
    if (!f.warnings.empty() && r.warnings.size() < 20)
      r.warn(label + ": " + f.warnings.front() + "; line: " + clip(l.text));
  }
  add_count(r, "pv_lines_checked", checked);
  if (truncated) add_count(r, "truncated_mate_pvs", truncated);

  if (!run.best) return;
  const std::string& bm = run.best->move;
  if (!has_legal_move(root)) {
    if (bm != "0000" && bm != "(none)")
      r.fail(label + ": bestmove '" + bm + "' in a position without legal moves (" + root.fen() +
                 ")",
             "illegal-bestmove");
    return;
  }
  auto best = parse_uci(root, bm);
  if (!best) {
    std::string text = label + ": bestmove " + why_illegal(root, bm);
    std::string behaviour = text.find("Chess960") != std::string::npos ? "castling-notation"
                                                                       : "illegal-bestmove";
    if (options.previous && legal_in(*options.previous, bm)) {
      text += " (legal in the previous position: a stale search)";
      behaviour = "stale-bestmove";
    }
    r.fail(text, behaviour);
    return;
  }
  if (run.best->ponder) {
    Position after = root;
    after.make_move(*best);
    if (!legal_in(after, *run.best->ponder))
      r.fail(label + ": ponder move " + why_illegal(after, *run.best->ponder), "illegal-ponder");
  }
}

}  // namespace stk::harness::ucicheck
