// stk-fake-uci [--defect NAME]: a tiny UCI engine for the uci-check tests. Without a defect it
// is a correct (and very weak) engine: it plays a mate in one when there is one, else the first
// legal move, budgets time from its own clock, ponders (go ponder waits for ponderhit, whose
// clock budget starts then, or stop), answers everything at any time (one thread, poll on stdin)
// and refuses bad input with an info string. Each --defect plants one misbehaviour
// that one uci-check scenario must catch:
//   ignore-stop        stop during go infinite is ignored (the search never ends)
//   pv-past-mate       a mating PV goes on after the mate
//   illegal-move       bestmove is the chosen move reversed (to-square first)
//   opponent-clock     the time budget comes from the opponent's clock
//   nodes0-endless     go nodes 0 searches forever, stop included
//   crash-on-garbage   an unknown command aborts the process
//   castle-e1h1        castling written king-takes-rook (e1h1)
//   stale-position     a bad position command keeps the previous position for the next go
//   nodes-overshoot    info lines report N/2 + 2000 nodes more than go nodes N allows
//   block-during-search  commands other than isready/stop wait for the search to end (so stop
//                      sent after them is never read: the engine wedges)
//   no-author          no "id author" line
//   noisy-setoption    every setoption, even a valid one, answers an info string (legal UCI)
//   setoption-error    a valid setoption answers "info string error: ..." (claims an error)
//   chatty-setoption   a valid setoption answers a bare line that is not UCI ("Hash set")
//   early-bestmove     go infinite answers bestmove at once, without waiting for stop
//   double-bestmove    stop answers bestmove twice
//   drop-position      a position command during a search is dropped without a word
//   illegal-ponder     bestmove carries "ponder a1a1"
//   stale-pv           each search first prints the previous search's PV
//   prefix-position    a moves list stops at its first illegal move (the legal prefix is kept)
//   queen-promotion    every promotion is played as a queen
//   answers-during-ponder  go ponder is searched as a plain go: it answers when its budget runs out
//   ponderhit-stops    ponderhit answers at once, like stop
//   slow-stop          stop waits 400 ms before its bestmove
//   movetime-overrun   go movetime N answers 300 ms after N
//   no-ponder-option   no Ponder option (not a defect: the ponder scenarios do not apply)
// For the match runner (N = the number of searches answered normally before the defect):
//   crash-after-N      the (N+1)th go aborts the process
//   illegal-after-N    the (N+1)th go answers at once with an illegal move (a1h8)
//   hang-after-N       the (N+1)th go never answers (stop included)
//   disconnect-after-N the (N+1)th go closes the engine's output; the process runs on
// Defects of a position, not of a count (the reproducer tests: a minimized command list needs
// only the position, written as a FEN, and one go):
//   crash-at-ply-N     a go in a position at game ply N or later (the FEN's move counters plus
//                      the moves played) aborts the process
//   illegal-at-ply-N   such a go answers at once with an illegal move (a1h8)
//   sanitizer-at-ply-N such a go writes an AddressSanitizer report on stderr and exits with status
//                      86, as a sanitized engine under the sanitizer match's options does
//   slow-after-N       from the (N+1)th go on, each search takes its whole clock plus 300 ms (it answers late)
//   games-leak         each game's moves depend on the games seen before (state kept across ucinewgame)
//   no-uciok           uci is never answered
//   no-readyok         isready is never answered
// Invariance defects (the fake is deterministic; its Clear Hash has nothing to clear):
//   fen-differs        a position given by "position fen" reports one node more than the same
//                      position reached by moves
//   nondeterministic   every search reports a random node count
//   clear-hash-ignored a "table" (the searches since ucinewgame, added to the node count) that
//                      Clear Hash does not clear
//   score-white-view   the score is the material from white's view, not the side to move's
//   no-clear-hash-option  no Clear Hash option (not a defect: clear-hash does not apply)
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "movegen.h"
#include "notation.h"
#include "position.h"

namespace {

using Clock = std::chrono::steady_clock;
std::string defect;

bool has(const char* d) { return defect == d; }
int gos = 0;    // searches started
int games = 0;  // ucinewgame commands seen
int table = 0;  // clear-hash-ignored: searches since ucinewgame
bool after(const char* prefix) {
  const std::string p = prefix;
  return defect.rfind(p, 0) == 0 && gos > std::atoi(defect.c_str() + p.size());
}
bool at_ply(const char* prefix, const stk::Position& pos) {
  const std::string p = prefix;
  return defect.rfind(p, 0) == 0 && pos.game_ply() >= std::atoi(defect.c_str() + p.size());
}

void say(const std::string& s) { std::cout << s << std::endl; }

// "cp 0" (side to move's view); score-white-view: the material from white's view.
std::string cp_text(const stk::Position& pos) {
  if (!has("score-white-view")) return "cp 0";
  const int value[] = {100, 300, 300, 500, 900};
  int cp = 0;
  for (stk::PieceType pt : {stk::PAWN, stk::KNIGHT, stk::BISHOP, stk::ROOK, stk::QUEEN})
    cp += value[pt] *
          (stk::popcount(pos.pieces(stk::WHITE, pt)) - stk::popcount(pos.pieces(stk::BLACK, pt)));
  return "cp " + std::to_string(cp);
}

std::string move_text(const stk::Position& pos, stk::Move m) {
  std::string t = stk::to_uci(m);
  if (has("castle-e1h1") && m.kind() == stk::CASTLING)
    t = t.substr(0, 2) + std::string(1, m.to() > m.from() ? 'h' : 'a') + t[3];
  if (has("illegal-move")) t = t.substr(2, 2) + t.substr(0, 2);
  (void)pos;
  return t;
}

struct Search {
  stk::Position root;
  bool infinite = false;
  bool endless = false;    // ignores stop (planted defects)
  bool pondering = false;  // go ponder before ponderhit: no deadline yet
  long budget_ms = 0;      // what ponderhit gives (go ponder without infinite)
  std::optional<Clock::time_point> deadline;
  std::uint64_t nodes_limit = 0;
  bool nodes_set = false;
  Clock::time_point started;
};

class FakeEngine {
 public:
  FakeEngine() { pos_.set(stk::Position::kStartFen); }
  int run();

 private:
  void command(const std::string& line);
  void position(std::istringstream& is);
  void go(std::istringstream& is);
  void finish();
  stk::Position pos_;
  bool pos_valid_ = true;
  bool from_fen_ = false;  // fen-differs: the position came from "position fen"
  std::optional<Search> search_;
  std::string previous_pv_;       // stale-pv
  std::deque<std::string> held_;  // block-during-search: commands waiting for the search
};

void FakeEngine::finish() {
  Search s = *search_;
  search_.reset();
  stk::MoveList list(s.root);
  std::uint64_t nodes = list.size() + 1;
  if (s.nodes_set)
    nodes = std::min<std::uint64_t>(nodes, std::max<std::uint64_t>(s.nodes_limit, 1));
  if (has("nodes-overshoot") && s.nodes_set) nodes = s.nodes_limit + s.nodes_limit / 2 + 2000;
  if (has("fen-differs") && from_fen_) ++nodes;
  if (has("clear-hash-ignored")) nodes += std::uint64_t(table++);
  if (has("nondeterministic")) nodes += std::random_device{}() % 20000;
  long ms = long(
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - s.started).count());
  if (list.size() == 0) {
    say("info depth 0 score " + std::string(s.root.in_check() ? "mate 0" : "cp 0") +
        " nodes 1 time " + std::to_string(ms));
    say("bestmove 0000");
    return;
  }
  stk::Move best = (list.begin() + (has("games-leak") ? games % int(list.size()) : 0))->move;
  bool mate = false;
  for (const stk::ExtMove& e : list) {
    stk::Position p = s.root;
    p.make_move(e.move);
    if (p.in_check() && stk::MoveList(p).size() == 0) {
      best = e.move, mate = true;
      break;
    }
  }
  if (has("queen-promotion") && best.kind() == stk::PROMOTION)
    best = stk::Move(best.from(), best.to(), stk::PROMOTION, stk::QUEEN);
  std::string pv = move_text(s.root, best);
  if (mate && has("pv-past-mate")) pv += " " + move_text(s.root, list.begin()->move);
  if (has("stale-pv") && !previous_pv_.empty())
    say("info depth 1 score cp 0 nodes 1 time 0 pv " + previous_pv_);
  previous_pv_ = pv;
  say("info depth 1 score " + (mate ? std::string("mate 1") : cp_text(s.root)) + " nodes " +
      std::to_string(nodes) + " time " + std::to_string(ms) + " pv " + pv);
  say("bestmove " + move_text(s.root, best) + (has("illegal-ponder") ? " ponder a1a1" : ""));
}

void FakeEngine::position(std::istringstream& is) {
  std::string token, fen;
  is >> token;
  const bool by_fen = token == "fen";
  auto refuse = [&](const std::string& why) {
    say("info string error: " + why);
    if (!has("stale-position")) pos_valid_ = false;
  };
  if (token == "startpos") {
    fen = stk::Position::kStartFen;
    is >> token;
  } else if (token == "fen") {
    while (is >> token && token != "moves") fen += token + " ";
  } else {
    return refuse("expected startpos or fen");
  }
  stk::Position next;
  if (auto err = next.set(fen)) return refuse("bad fen: " + *err);
  if (token == "moves")
    while (is >> token) {
      auto m = stk::parse_uci(next, token);
      if (!m && has("prefix-position")) break;
      if (!m) return refuse("illegal move " + token);
      next.make_move(*m);
    }
  pos_ = next;
  pos_valid_ = true;
  from_fen_ = by_fen;
}

void FakeEngine::go(std::istringstream& is) {
  if (search_) return say("info string error: already searching");
  if (!pos_valid_) return say("info string error: no valid position");
  ++gos;
  if (after("crash-after-")) std::abort();
  if (after("illegal-after-")) return say("info depth 1 score cp 0\nbestmove a1h8");
  if (after("disconnect-after-")) {
    std::cout.flush();
    ::close(STDOUT_FILENO);
    return;
  }
  if (at_ply("crash-at-ply-", pos_)) std::abort();
  if (at_ply("illegal-at-ply-", pos_)) return say("info depth 1 score cp 0\nbestmove a1h8");
  if (at_ply("sanitizer-at-ply-", pos_)) {
    std::cerr << "=================================================================\n"
                 "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000050 "
                 "at pc 0x55d0c0ffee00 bp 0x7ffc00000000 sp 0x7ffc00000000\n"
                 "READ of size 4 at 0x602000000050 thread T0\n"
                 "    #0 0x55d0c0ffee00 in stk::fake::go fake_uci_engine.cpp:230\n"
                 "SUMMARY: AddressSanitizer: heap-buffer-overflow fake_uci_engine.cpp:230\n"
              << std::flush;
    std::_Exit(86);
  }
  if (after("hang-after-")) {
    Search endless;
    endless.infinite = endless.endless = true;
    search_ = endless;
    return;
  }
  Search s;
  s.root = pos_;
  s.started = Clock::now();
  long t[2] = {-1, -1}, inc[2] = {0, 0}, movetime = -1, togo = 0;
  std::string token;
  while (is >> token) {
    long v = 0;
    if (token == "infinite") s.infinite = true;
    else if (token == "ponder") s.pondering = !has("answers-during-ponder");
    else if (!(is >> v) || v < 0) return say("info string error: bad go parameter " + token);
    else if (token == "wtime") t[stk::WHITE] = v;
    else if (token == "btime") t[stk::BLACK] = v;
    else if (token == "winc") inc[stk::WHITE] = v;
    else if (token == "binc") inc[stk::BLACK] = v;
    else if (token == "movestogo") togo = v;
    else if (token == "movetime") movetime = v;
    else if (token == "nodes") s.nodes_limit = std::uint64_t(v), s.nodes_set = true;
    else if (token == "depth") {
    } else return say("info string error: unknown go parameter " + token);
  }
  int us = pos_.side_to_move();
  if (has("opponent-clock")) us = 1 - us;
  long budget = 0;
  if (movetime >= 0) budget = movetime;
  else if (t[us] >= 0) budget = std::min(t[us] / 2, t[us] / (togo ? togo + 1 : 20) + inc[us] / 2);
  if (has("nodes0-endless") && s.nodes_set && s.nodes_limit == 0) s.infinite = s.endless = true;
  if (after("slow-after-") && t[us] >= 0) budget = t[us] + 300;
  if (has("movetime-overrun") && movetime >= 0) budget = movetime + 300;
  s.budget_ms = budget;
  if (!s.infinite && !s.pondering) s.deadline = s.started + std::chrono::milliseconds(budget);
  search_ = s;
  if (has("early-bestmove") && s.infinite) finish();
}

void FakeEngine::command(const std::string& line) {
  std::istringstream is(line);
  std::string cmd;
  if (!(is >> cmd)) return;
  if (search_ && has("block-during-search") && cmd != "isready" && cmd != "stop") {
    held_.push_back(line);
    return;
  }
  if (!held_.empty() && has("block-during-search")) {  // stop is read only after what is held
    held_.push_back(line);
    return;
  }
  if ((cmd == "uci" && has("no-uciok")) || (cmd == "isready" && has("no-readyok"))) return;
  if (cmd == "uci") {
    say("id name fake-uci" + (defect.empty() ? std::string() : " (defect " + defect + ")"));
    if (!has("no-author")) say("id author stk tests");
    say("option name Hash type spin default 16 min 1 max 1024");
    say("option name Threads type spin default 1 min 1 max 1");
    if (!has("no-ponder-option")) say("option name Ponder type check default false");
    if (!has("no-clear-hash-option")) say("option name Clear Hash type button");
    say("uciok");
  } else if (cmd == "isready") {
    say("readyok");
  } else if (cmd == "setoption") {
    std::string token, name, value;
    is >> token;
    while (is >> token && token != "value") name += (name.empty() ? "" : " ") + token;
    while (is >> token) value += (value.empty() ? "" : " ") + token;
    char* end = nullptr;
    long v = std::strtol(value.c_str(), &end, 10);
    bool ok = (name == "Hash" && !value.empty() && *end == 0 && v >= 1 && v <= 1024) ||
              (name == "Threads" && value == "1") ||
              (name == "Ponder" && (value == "true" || value == "false")) ||
              (name == "Clear Hash" && value.empty());
    if (!ok) say("info string error: setoption " + name + " = '" + value + "' refused");
    else if (has("noisy-setoption")) say("info string " + name + " set to " + value);
    else if (has("setoption-error")) say("info string error: " + name + " could not be set");
    else if (has("chatty-setoption")) say(name + " set");
  } else if (cmd == "ucinewgame") {
    ++games;
    table = 0;
  } else if (cmd == "position") {
    if (!(search_ && has("drop-position"))) position(is);
  } else if (cmd == "go") {
    go(is);
  } else if (cmd == "ponderhit") {
    if (!search_ || !search_->pondering) return;
    search_->pondering = false;
    if (has("ponderhit-stops")) return finish();
    if (!search_->infinite)  // the clock counts from ponderhit
      search_->deadline = Clock::now() + std::chrono::milliseconds(search_->budget_ms);
  } else if (cmd == "stop") {
    if (has("slow-stop") && search_) usleep(400 * 1000);
    if (search_ && !search_->endless && !has("ignore-stop")) {
      stk::Position root = search_->root;
      finish();
      if (has("double-bestmove")) say("bestmove " + stk::to_uci(stk::MoveList(root).begin()->move));
    }
  } else if (cmd == "quit") {
    std::exit(0);
  } else {
    if (has("crash-on-garbage")) std::abort();
    say("info string error: unknown command");
  }
}

int FakeEngine::run() {
  std::string buffer;
  while (true) {
    int wait = -1;
    if (search_ && search_->deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*search_->deadline -
                                                                        Clock::now())
                      .count();
      wait = int(std::max<long long>(0, left));
    }
    pollfd pfd{0, POLLIN, 0};
    int r = poll(&pfd, 1, wait);
    if (r > 0) {
      char buf[65536];
      ssize_t n = read(0, buf, sizeof buf);
      if (n <= 0) return 0;
      buffer.append(buf, std::size_t(n));
      for (std::size_t nl; (nl = buffer.find('\n')) != std::string::npos;) {
        std::string line = buffer.substr(0, nl);
        buffer.erase(0, nl + 1);
        command(line);
      }
    }
    if (search_ && search_->deadline && Clock::now() >= *search_->deadline) {
      finish();
      while (!held_.empty() && !search_) {  // block-during-search: now run what waited
        std::string line = held_.front();
        held_.pop_front();
        command(line);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  stk::init_engine();
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--defect") defect = argv[i + 1];
  return FakeEngine().run();
}
