// invariance: what a search at a fixed node count must not depend on (any engine). Every search
// is "go nodes N" (Settings::invariance_nodes, 20000) on one thread (an advertised Threads or
// "Number of Threads" spin option is set to 1, an OwnBook check option to false), in a fresh
// engine process after ucinewgame + isready, unless the scenario is about what one process keeps.
// A search's outcome: its bestmove, the score, depth and node count of its last info line with a
// score, and the last node count it reported (a final "info nodes N" line may follow the score).
//   transposition: a position reached by "position startpos moves ...", given by its FEN, and
//     reached by another move order: the same outcome (fen-differs, move-order-differs).
//   repeat-after-ucinewgame: a search, another position's search, ucinewgame, the first search
//     again: the same outcome ("reprosearch"; state-survives-ucinewgame).
//   colour-mirror: a position and its colour mirror: the mirrored bestmove and the same score, both
//     from the side to move. A reproducible difference is recorded (not-mirror-symmetric: move
//     ordering by square index is legitimate), scores of opposite sign for a clear material edge
//     fail (score-not-side-to-move: UCI scores are from the side to move's view).
//   clear-hash: search A, search B, "setoption name Clear Hash", search A: the first outcome of A
//     (clear-hash-ignored: as without Clear Hash; clear-hash-incomplete: neither). Not applicable
//     without a Clear Hash button option.
// UCI does not ask an engine to be deterministic: whenever outcomes differ, the searches involved
// are repeated in fresh engines first, and when a repeat differs the scenario cannot judge and
// records "not-deterministic" with the figures (a documented difference for any engine,
// documented_differences.cpp), never a failure. An engine that ignores "go nodes" (an info line
// far past N) is stopped at once and the scenario is not applicable.
#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "notation.h"
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {
namespace invariance_impl {

// An info line reporting more than this many times N (plus a margin) shows an engine that does
// not take "go nodes N" as a limit: it is stopped at once instead of after the hang timeout.
constexpr std::uint64_t kIgnoredNodesFactor = 4;
// A score of opposite sign in a position and its mirror, both at least this far from 0 (or
// mates), is a score from a fixed colour's view (kMirrors: the side to move is a knight up).
constexpr int kSignCp = 100;

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Outcome {
  std::string bestmove;
  uci::InfoLine::Score kind = uci::InfoLine::Score::None;
  int score = 0;
  std::string bound;  // "lowerbound", "upperbound" or ""
  std::optional<int> depth;
  std::optional<std::uint64_t> nodes;         // the last node count reported
  std::optional<std::uint64_t> scored_nodes;  // that of the last info line with a score
  bool operator==(const Outcome&) const = default;

  std::string score_text() const {
    if (kind == uci::InfoLine::Score::None) return "no score";
    return fmt::format("{} {}{}", kind == uci::InfoLine::Score::Mate ? "mate" : "cp", score,
                       bound.empty() ? "" : " " + bound);
  }
  // "e8g8 cp -326 depth 9 nodes 20000", "... nodes 20000 (17312 at the score)"
  std::string text() const {
    auto count = [](const std::optional<std::uint64_t>& n) {
      return n ? std::to_string(*n) : std::string("?");
    };
    return fmt::format("{} {} depth {} nodes {}{}", bestmove, score_text(),
                       depth ? std::to_string(*depth) : "?", count(nodes),
                       scored_nodes == nodes || kind == uci::InfoLine::Score::None
                           ? ""
                           : " (" + count(scored_nodes) + " at the score)");
  }
};

// One search of a scenario: its label (a fact key), the position command and the position.
struct Probe {
  std::string label, position;
  Position root;
};

// The engine sessions of one scenario: the scenario's own engine for the first search, a restarted
// one after that (each set to one thread and no book, then ucinewgame + isready).
class InvarianceRunner {
 public:
  InvarianceRunner(Session& s, ScenarioResult& r) : s_(s), r_(r) {
    for (const uci::OptionLine& o : s.options()) {
      const std::string name = lower(o.name);
      if (o.type == "spin" && (name == "threads" || name.ends_with(" threads")))
        setup_.push_back("setoption name " + o.name + " value 1");
      if (o.type == "check" && name == "ownbook")
        setup_.push_back("setoption name " + o.name + " value false");
      if (o.type == "button" && name == "clear hash") clear_hash_ = o.name;
    }
    r_.facts["nodes"] = s.settings().invariance_nodes;
    r_.facts["options_sent"] = setup_;
  }

  const std::optional<std::string>& clear_hash_option() const { return clear_hash_; }

  // A fresh engine after ucinewgame + isready; false (a failure recorded) when it does not answer.
  bool fresh() {
    if (used_) s_.restart();
    used_ = true;
    for (const std::string& cmd : setup_) s_.send(cmd);
    return newgame();
  }
  bool newgame() {
    s_.send("ucinewgame");
    return ready("ucinewgame");
  }
  bool ready(const std::string& after) {
    Reply reply = s_.isready(s_.timeout(Timeouts::kPrompt));
    if (reply.found) return true;
    r_.fail("isready not answered after " + after + " (" + s_.state() + ")",
            reply.closed ? "crash" : "hang");
    return false;
  }

  // The probe's position, "go nodes N", the outcome (a fact under its label); nullopt when the
  // search failed (recorded) or the engine does not take go nodes as a limit (not applicable).
  std::optional<Outcome> search(const Probe& p) {
    const std::uint64_t n = s_.settings().invariance_nodes;
    const std::string go = "go nodes " + std::to_string(n);
    s_.send(p.position);
    SearchRun run;
    run.go = go;
    const std::uint64_t too_many = n * kIgnoredNodesFactor + 10000;
    bool ignores = false;
    const auto sent = SteadyClock::now();
    s_.send(go);
    Reply reply = s_.wait_for(
        [&](const std::string& l) {
          if (uci::parse_bestmove(l)) return true;
          auto info = uci::parse_info(l);
          ignores = info && info->nodes && *info->nodes > too_many;
          return ignores;
        },
        s_.timeout(Timeouts::kHang), sent);
    run.lines = reply.lines;
    if (ignores || (!reply.found && !reply.closed)) {
      run.stopped_by_harness = true;
      s_.note(ignores ? "far past the node limit: sending stop" : "no bestmove: sending stop");
      s_.send("stop");
      Reply after = s_.wait_bestmove(s_.timeout(Timeouts::kPrompt));
      run.lines.insert(run.lines.end(), after.lines.begin(), after.lines.end());
      reply.closed = after.closed;
    }
    run.crashed = reply.closed;
    digest_search_lines(run, sent);
    if (!run.best) run.ms = ms_between(sent, SteadyClock::now());
    if (!run.best || run.stopped_by_harness) run.end_state = s_.state();
    if (ignores) {
      r_.facts[p.label] = fmt::format("stopped at {} nodes", run.max_nodes);
      r_.skip(fmt::format(
          "the engine does not take '{}' as a limit (an info line reported {} nodes, {}): the "
          "invariances are judged at a fixed node count",
          go, run.max_nodes, p.label));
      return std::nullopt;
    }
    if (!require_finished(run, r_, p.label)) return std::nullopt;
    check_search(p.root, run, r_, p.label, {s_.settings().strict_pv});
    Outcome o;
    o.bestmove = run.best->move;
    o.nodes = run.last_nodes;
    for (const TimedLine& l : run.lines)
      if (auto info = uci::parse_info(l.text);
          info && info->score_kind != uci::InfoLine::Score::None) {
        o.kind = info->score_kind;
        o.score = info->score;
        o.bound = info->lowerbound ? "lowerbound" : info->upperbound ? "upperbound" : "";
        o.depth = info->depth;
        o.scored_nodes = info->nodes;
      }
    r_.facts[p.label] = o.text();
    return o;
  }

  // fresh() then search(): the outcome of the probe in a new engine.
  std::optional<Outcome> fresh_search(const Probe& p) {
    if (!fresh()) return std::nullopt;
    return search(p);
  }

  // Each probe searched again in a fresh engine: true when every repeat gives its first outcome.
  // Otherwise records "not-deterministic" (the scenario cannot judge) with the figures; false also
  // when a repeat failed (recorded).
  bool reproducible(const std::vector<std::pair<Probe, Outcome>>& first) {
    for (const auto& [p, o] : first) {
      Probe again = p;
      again.label = p.label + ".repeat";
      auto o2 = fresh_search(again);
      if (!o2) return false;
      if (*o2 == o) continue;
      r_.fail(fmt::format("not deterministic at a fixed node count, so this invariance cannot be "
                          "judged: '{}' + 'go nodes {}' in two fresh engines gave {} and {}",
                          p.position, s_.settings().invariance_nodes, o.text(), o2->text()),
              "not-deterministic");
      return false;
    }
    return true;
  }

 private:
  Session& s_;
  ScenarioResult& r_;
  bool used_ = false;
  std::vector<std::string> setup_;
  std::optional<std::string> clear_hash_;
};

Position after_moves(const std::string& moves) {
  Position pos = position_of(Position::kStartFen);
  std::istringstream is(moves);
  for (std::string m; is >> m;) {
    auto move = parse_uci(pos, m);
    if (!move) throw std::logic_error("built-in move list '" + moves + "': " + m + " is illegal");
    pos.make_move(*move);
  }
  return pos;
}

// A transposition: both move orders reach the same placement, side to move, castling rights and
// en passant square (the first four FEN fields: what makes it the same position). The halfmove
// clock may legitimately differ between move orders and change a search (an evaluation scaled
// towards the fifty-move rule), so each order here ends with a pawn move: the same clock, 0, and
// no earlier position can come back (no repetition through the moves list). Same number of
// plies: the same fullmove number.
struct Transposition {
  const char* id;
  const char* moves;
  const char* transposed;
};
constexpr Transposition kTranspositions[] = {
    {"knights-first", "g1f3 g8f6 d2d4 e7e6", "d2d4 g8f6 g1f3 e7e6"},
    {"en-passant", "e2e4 b8c6 g1f3 e7e6 e4e5 d7d5",  // exd6 e.p. is legal: FEN field 4 is d6
     "g1f3 e7e6 e2e4 b8c6 e4e5 d7d5"},
    {"castled", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d2d3 d7d6",  // castling rights kq
     "e2e4 e7e5 f1c4 g8f6 g1f3 f8c5 e1g1 b8c6 d2d3 d7d6"},
};

void transposition(Session& s, ScenarioResult& r) {
  InvarianceRunner run(s, r);
  for (const Transposition& t : kTranspositions) {
    const Position pos = after_moves(t.moves);
    if (after_moves(t.transposed).fen() != pos.fen())
      throw std::logic_error(std::string("built-in transposition '") + t.id + "' is none");
    const std::string id = t.id;
    const Probe moves{id + ".moves", std::string("position startpos moves ") + t.moves, pos};
    const Probe fen{id + ".fen", "position fen " + pos.fen(), pos};
    const Probe order{id + ".transposed", std::string("position startpos moves ") + t.transposed,
                      pos};
    auto a = run.fresh_search(moves);
    if (!a) return;
    auto b = run.fresh_search(fen);
    if (!b) return;
    auto c = run.fresh_search(order);
    if (!c) return;
    if (*b == *a && *c == *a) continue;
    std::vector<std::pair<Probe, Outcome>> involved = {{moves, *a}};
    if (*b != *a) involved.emplace_back(fen, *b);
    if (*c != *a) involved.emplace_back(order, *c);
    if (!run.reproducible(involved)) return;
    if (*b != *a)
      r.fail(fmt::format("{}: '{}' searches {}, the same position reached by '{}' searches {} "
                         "(each repeated in a fresh engine)",
                         id, fen.position, b->text(), moves.position, a->text()),
             "fen-differs");
    if (*c != *a)
      r.fail(fmt::format("{}: '{}' searches {}, the same position reached by '{}' searches {} "
                         "(each repeated in a fresh engine)",
                         id, order.position, c->text(), moves.position, a->text()),
             "move-order-differs");
  }
}

// The node-limit scenarios' middlegame: the repeated search, and A of clear-hash.
constexpr const char* kMiddlegameFen =
    "r2qk2r/ppp1bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R b KQkq - 0 6";

void repeat_after_ucinewgame(Session& s, ScenarioResult& r) {
  InvarianceRunner run(s, r);
  // Searched in between: the colour mirror (the same material on other squares, so what its
  // search leaves, table entries, histories, counters, is all new). Glaurung 2.2 shows state kept
  // across ucinewgame after this one, not after kiwipete.
  const Position root = position_of(kMiddlegameFen), mirror = root.mirrored();
  const Probe first{"first", std::string("position fen ") + kMiddlegameFen, root};
  const Probe other{"other-position", "position fen " + mirror.fen(), mirror};
  Probe again = first;
  again.label = "after-ucinewgame";
  auto s1 = run.fresh_search(first);
  if (!s1 || !run.search(other) || !run.newgame()) return;
  auto s2 = run.search(again);
  if (!s2 || *s2 == *s1) return;
  Probe fresh = first;
  fresh.label = "fresh-engine";
  auto s3 = run.fresh_search(fresh);
  if (!s3) return;
  if (*s3 != *s1)
    return r.fail(fmt::format("not deterministic at a fixed node count, so whether ucinewgame "
                              "resets the engine cannot be judged: '{}' + 'go nodes {}' gave {} "
                              "and {} in two fresh engines ({} after another search and "
                              "ucinewgame)",
                              first.position, s.settings().invariance_nodes, s1->text(), s3->text(),
                              s2->text()),
                  "not-deterministic");
  r.fail(fmt::format("after another search and ucinewgame, '{}' + 'go nodes {}' searched {}; a "
                     "fresh engine searches {} (twice): state of the earlier searches survives "
                     "ucinewgame",
                     first.position, s.settings().invariance_nodes, s2->text(), s1->text()),
         "state-survives-ucinewgame");
}

// The colour mirror of a move in UCI notation (ranks flipped; "0000" stays).
std::string mirror_move(std::string m) {
  if (m.size() >= 4 && m.size() <= 5)
    for (std::size_t i : {std::size_t(1), std::size_t(3)})
      if (m[i] >= '1' && m[i] <= '8') m[i] = char('1' + '8' - m[i]);
  return m;
}

// Middlegames where the side to move is a knight up and wins more (Ng5 at f7; dxc3): a score sign
// no engine doubts (the five measured score them +600 or more). Castling rights and an en passant
// square, mirrored with the colours. The side to move's king has exactly one move (Kh1 / Kh8) and
// there is no mate in one: a weak engine that plays its first generated move (stk's generator
// lists king moves first: the test fake) is colour-symmetric too.
struct MirrorCase {
  const char* id;
  const char* fen;
};
constexpr MirrorCase kMirrors[] = {
    {"castling-rights", "r1bqkb1r/ppp2ppp/2np4/4p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w kq - 0 6"},
    {"en-passant", "r2q1rk1/ppp1bppp/2n1bn2/8/3pP3/2N5/PPP2PPP/R1BQKB1R b KQ e3 0 8"},
};

// +1 / -1 for a clear advantage of the side to move / of the opponent, 0 otherwise.
int clear_sign(const Outcome& o) {
  if (o.kind == uci::InfoLine::Score::Mate) return o.score > 0 ? 1 : -1;
  if (o.kind != uci::InfoLine::Score::Cp || std::abs(o.score) < kSignCp) return 0;
  return o.score > 0 ? 1 : -1;
}

void colour_mirror(Session& s, ScenarioResult& r) {
  InvarianceRunner run(s, r);
  std::vector<std::string> asymmetric;
  for (const MirrorCase& c : kMirrors) {
    const Position pos = position_of(c.fen), mirror = pos.mirrored();
    const std::string id = c.id;
    const Probe p{id, std::string("position fen ") + c.fen, pos};
    const Probe m{id + ".mirror", "position fen " + mirror.fen(), mirror};
    auto op = run.fresh_search(p);
    if (!op) return;
    auto om = run.fresh_search(m);
    if (!om) return;
    if (clear_sign(*op) * clear_sign(*om) < 0)
      r.fail(fmt::format("{}: the position scores {} and its colour mirror {}: opposite signs for "
                         "the same side to move's position (a knight up); UCI scores are from "
                         "the side to move's view",
                         id, op->score_text(), om->score_text()),
             "score-not-side-to-move");
    const bool symmetric = mirror_move(om->bestmove) == op->bestmove && om->kind == op->kind &&
                           om->score == op->score && om->bound == op->bound;
    r.facts[id + ".symmetric"] = symmetric;
    if (symmetric) continue;
    if (!run.reproducible({{p, *op}, {m, *om}})) return;
    asymmetric.push_back(fmt::format("{}: {} for '{}', {} for its mirror (mirrored bestmove {})",
                                     id, op->text(), p.position, om->text(),
                                     mirror_move(om->bestmove)));
  }
  if (asymmetric.empty()) return;
  std::string text =
      "not colour-symmetric at a fixed node count (reproducibly, each search repeated in a fresh "
      "engine): ";
  for (std::size_t i = 0; i < asymmetric.size(); ++i) text += (i ? "; " : "") + asymmetric[i];
  r.fail(text, "not-mirror-symmetric");
}

// A: kMiddlegameFen; B: A after 6... O-O (A's search meets B's positions).
constexpr const char* kClearHashMove = "e8g8";

void clear_hash(Session& s, ScenarioResult& r) {
  InvarianceRunner run(s, r);
  if (!run.clear_hash_option())
    return r.skip("the engine does not advertise a Clear Hash button option");
  const std::string press = "setoption name " + *run.clear_hash_option();
  const Position a = position_of(kMiddlegameFen);
  Position b = a;
  b.make_move(*parse_uci(a, kClearHashMove));
  const Probe pa{"A", std::string("position fen ") + kMiddlegameFen, a};
  const Probe pb{"B", std::string("position fen ") + kMiddlegameFen + " moves " + kClearHashMove,
                 b};
  Probe cleared = pa, kept = pa;
  cleared.label = "A-after-B-and-clear-hash";
  kept.label = "A-after-B-without-clear-hash";
  auto ra = run.fresh_search(pa);
  if (!ra || !run.search(pb)) return;
  s.send(press);
  if (!run.ready("'" + press + "'")) return;
  auto rc = run.search(cleared);
  if (!rc || *rc == *ra) return;
  // Not the fresh search: is the engine deterministic, and what does A give without Clear Hash?
  Probe pa2 = pa;
  pa2.label = "A.repeat";
  auto ra2 = run.fresh_search(pa2);
  if (!ra2 || !run.search(pb)) return;
  auto rk = run.search(kept);
  if (!rk) return;
  if (*ra2 != *ra)
    return r.fail(fmt::format("not deterministic at a fixed node count, so Clear Hash cannot be "
                              "judged: '{}' + 'go nodes {}' gave {} and {} in two fresh engines",
                              pa.position, s.settings().invariance_nodes, ra->text(), ra2->text()),
                  "not-deterministic");
  if (*rk == *rc)
    return r.fail(fmt::format("after B and '{}', A searched {} where a fresh engine searches {}: "
                              "the same as without Clear Hash ({}): Clear Hash changed nothing",
                              press, rc->text(), ra->text(), rk->text()),
                  "clear-hash-ignored");
  r.fail(fmt::format("after B and '{}', A searched {} where a fresh engine searches {} (without "
                     "Clear Hash: {}): Clear Hash left part of what the searches had stored",
                     press, rc->text(), ra->text(), rk->text()),
         "clear-hash-incomplete");
}

}  // namespace invariance_impl
}  // namespace

void add_invariance_scenarios(std::vector<Scenario>& out, const Settings& settings) {
  using namespace invariance_impl;
  const std::string go = "go nodes " + std::to_string(settings.invariance_nodes);
  out.push_back({"invariance", "transposition",
                 go + ": a position by moves, by FEN and by another move order searches the "
                      "same (3 positions)",
                 transposition});
  out.push_back({"invariance", "repeat-after-ucinewgame",
                 go + ": a search repeated after another search and ucinewgame is identical",
                 repeat_after_ucinewgame});
  out.push_back({"invariance", "colour-mirror",
                 go + ": a position and its colour mirror give the mirrored bestmove and the "
                      "same score (a reproducible difference is recorded)",
                 colour_mirror});
  out.push_back({"invariance", "clear-hash",
                 go + ": search A, search B, Clear Hash, search A: the first search of A again",
                 clear_hash});
}

}  // namespace stk::harness::ucicheck
