#include "commands/match/game_play.h"

#include <fmt/format.h>

#include "positions/seeded_games.h"
#include "movegen.h"
#include "notation.h"
#include "games/adjudication.h"
#include "games/game_termination.h"
#include "repro/sanitizer_report.h"

namespace stk::harness::selfplay {

namespace {

const char* rules_reason(fhgen::GameEnd end) {
  switch (end) {
    case fhgen::GameEnd::Checkmate: return "checkmate";
    case fhgen::GameEnd::Stalemate: return "stalemate";
    case fhgen::GameEnd::Repetition: return "threefold repetition";
    case fhgen::GameEnd::FiftyMoves: return "fifty-move rule";
    case fhgen::GameEnd::InsufficientMaterial: return "insufficient material";
    case fhgen::GameEnd::MaxPlies: break;
  }
  return "?";
}

// The termination of a game lost by a fault that is not an illegal move.
match::Termination fault_termination(Fault::Kind k) {
  return k == Fault::Kind::Crash        ? match::Termination::Crash
         : k == Fault::Kind::Disconnect ? match::Termination::Disconnect
                                        : match::Termination::TimeLoss;
}

const char* fault_word(Fault::Kind k) {
  return k == Fault::Kind::Crash        ? "crash"
         : k == Fault::Kind::Disconnect ? "disconnect"
                                        : "timeout";
}

std::string score_text(const Thought& t) {
  if (t.mate) return fmt::format("{}M{}/{}", *t.mate > 0 ? "+" : "-", std::abs(*t.mate), t.depth);
  if (!t.score_cp) return fmt::format("?/{}", t.depth);
  return fmt::format("{:+.2f}/{}", *t.score_cp / 100.0, t.depth);
}

// The game lost by the side to move (`loser`, 0 White, 1 Black).
std::string loss_for(int loser) { return loser == 0 ? "0-1" : "1-0"; }

}  // namespace

PlayedGame play_game(const std::array<UciPlayer*, 2>& players, const Opening& opening,
                     const GameSettings& settings) {
  PlayedGame g;
  Position pos;
  pos.set(opening.fen);
  for (const std::string& u : opening.moves) {
    const Move m = *parse_uci(pos, u);
    g.moves.push_back({to_san(pos, m), std::nullopt});
    pos.make_move(m);
  }
  std::string position_cmd = opening.fen == Position::kStartFen ? "position startpos"
                                                                : "position fen " + opening.fen;
  position_cmd += " moves";
  for (const std::string& u : opening.moves) position_cmd += " " + u;

  auto end = [&](std::string result, std::string reason, std::string termination,
                 match::Termination ended) {
    g.result = std::move(result), g.reason = std::move(reason),
    g.termination = std::move(termination), g.ended = ended;
    return g;
  };
  // A player that fails loses and is restarted, so that the next game starts from a clean engine.
  auto forfeit = [&](int side, const std::string& reason, const char* termination,
                     match::Termination ended, const repro::Symptom& symptom) {
    const UciPlayer& p = *players[side];
    std::string stderr_text = p.game_stderr();
    // A sanitizer's report says why the engine ended: it leads the game's reason.
    const auto report = repro::sanitizer_report_line(stderr_text);
    const std::string why = report ? reason + " after a sanitizer report: " + *report : reason;
    g.failed = FailedEngine{side,    p.label(),  p.config().command,    why,
                            symptom, p.record(), std::move(stderr_text)};
    players[side]->restart();
    return end(loss_for(side), why, termination, ended);
  };
  for (int side = 0; side < 2; ++side)
    if (auto f = players[side]->new_game())
      return forfeit(side,
                     fmt::format("{}: {} {}", fault_word(f->kind), players[side]->label(), f->text),
                     "abandoned", fault_termination(f->kind), f->symptom);

  Adjudicator adjudicator(settings.adjudication);
  std::array<long, 2> clock_ms{settings.budget[0].base_ms, settings.budget[1].base_ms};
  while (true) {
    if (auto over = fhgen::game_over(pos)) {
      const std::string result = *over == fhgen::GameEnd::Checkmate
                                     ? loss_for(pos.side_to_move() == WHITE ? 0 : 1)
                                     : "1/2-1/2";
      return end(result, rules_reason(*over), "normal", rules_termination(*over));
    }
    const int side = pos.side_to_move() == WHITE ? 0 : 1;
    UciPlayer& p = *players[side];
    const TimeControl& tc = settings.budget[side];
    const bool clocked = tc.kind == TimeControl::Kind::Clock;
    const auto deadline = SteadyClock::now() +
                          (clocked
                               ? std::chrono::milliseconds(clock_ms[side] + settings.time_margin_ms)
                               : settings.move_timeout);
    auto answer = p.think(position_cmd, "go " + tc.go_args(int(clock_ms[0]), int(clock_ms[1])),
                          deadline);
    if (auto* f = std::get_if<Fault>(&answer)) {
      if (f->kind != Fault::Kind::Timeout)
        return forfeit(side, std::string(fault_word(f->kind)) + ": " + p.label() + " " + f->text,
                       "abandoned", fault_termination(f->kind), f->symptom);
      const long allowed = clocked ? clock_ms[side] + settings.time_margin_ms
                                   : long(settings.move_timeout.count());
      return forfeit(side,
                     fmt::format("time forfeit: {} gave no bestmove within {} ms", p.label(),
                                 allowed),
                     "time forfeit", match::Termination::TimeLoss, f->symptom);
    }
    const Thought& t = std::get<Thought>(answer);
    if (clocked) {
      if (t.elapsed_ms > clock_ms[side] + settings.time_margin_ms)
        return forfeit(side,
                       fmt::format("time forfeit: {} used {} ms with {} ms on its clock", p.label(),
                                   t.elapsed_ms, clock_ms[side]),
                       "time forfeit", match::Termination::TimeLoss, {"late-answer", "bestmove"});
      clock_ms[side] = std::max(0L, clock_ms[side] - t.elapsed_ms) + tc.inc_ms;
    }
    const auto move = parse_uci(pos, t.move);
    if (!move)
      return forfeit(side,
                     fmt::format("illegal move: {} played '{}' in {}", p.label(), t.move,
                                 pos.fen()),
                     "rules infraction", match::Termination::IllegalMove, {"illegal-move", t.move});
    std::string comment = score_text(t);
    if (clocked) comment += fmt::format(" {:.3f}s", t.elapsed_ms / 1000.0);
    if (t.nodes) comment += fmt::format(", n={}", *t.nodes);
    g.moves.push_back({to_san(pos, *move), comment});
    pos.make_move(*move);
    position_cmd += " " + t.move;
    ++g.engine_plies;
    const int fullmove = 1 + pos.game_ply() / 2;
    if (auto verdict = adjudicator.after_move(t.score_cp, side == 0, fullmove, g.engine_plies)) {
      if (fhgen::game_over(pos)) continue;  // the rules decide a finished game, not the scores
      return end(verdict->result, verdict->reason, "adjudication",
                 match::Termination::Adjudication);
    }
  }
}

}  // namespace stk::harness::selfplay
