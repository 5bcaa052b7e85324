#include "repro/uci_replay.h"

#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "uci_client/uci_process.h"

namespace stk::harness::repro {

namespace {

using Ms = std::chrono::milliseconds;

std::string first_word(const std::string& line) {
  std::istringstream is(line);
  std::string w;
  is >> w;
  return w;
}

// The position a "position" command sets, as the UCI protocol reads it; nullopt when it is not
// one the harness can read (the engine's answer is then not judged).
std::optional<Position> read_position(const std::string& command) {
  std::istringstream is(command);
  std::string token, fen;
  is >> token >> token;
  if (token == "startpos") {
    fen = Position::kStartFen;
    is >> token;
  } else if (token == "fen") {
    while (is >> token && token != "moves") fen += token + " ";
  } else {
    return std::nullopt;
  }
  Position pos;
  if (pos.set(fen, true)) return std::nullopt;
  if (token == "moves")
    while (is >> token) {
      const auto m = parse_uci(pos, token);
      if (!m) return std::nullopt;
      pos.make_move(*m);
    }
  return pos;
}

// The time a go command allows itself, when it states one: movetime, or the mover's clock.
std::optional<Ms> go_time(const std::string& command, const std::optional<Position>& pos) {
  std::istringstream is(command);
  std::string token;
  is >> token;
  std::optional<Ms> movetime, clock[2];
  bool limited = false;
  while (is >> token) {
    long v = 0;
    if (token == "infinite" || token == "ponder") return std::nullopt;
    if (!(is >> v)) continue;
    limited = true;
    if (token == "movetime") movetime = Ms(v);
    if (token == "wtime") clock[WHITE] = Ms(v);
    if (token == "btime") clock[BLACK] = Ms(v);
  }
  if (movetime) return movetime;
  const Color us = pos ? pos->side_to_move() : WHITE;
  if (clock[us]) return clock[us];
  if (limited) return Ms(0);  // depth, nodes, mate: the answer limit alone
  return std::nullopt;        // a bare go searches until stop
}

// A bestmove's move is legal in `pos` ("0000" / "(none)" only when there is no legal move).
bool legal_answer(const Position& pos, const std::string& move) {
  if (move == "0000" || move == "(none)") return MoveList(pos).size() == 0;
  return parse_uci(pos, move).has_value();
}

class Replayer {
 public:
  Replayer(const std::string& engine, const ReplayLimits& limits, const std::string& stderr_path)
      : limits_(limits),
        process_(UciProcess::NoHandshake{}, engine,
                 stderr_path.empty() ? "/dev/null" : stderr_path),
        start_(SteadyClock::now()) {}
  ~Replayer() { process_.kill_child(); }

  Replay run(const std::vector<std::string>& commands) {
    for (const std::string& command : commands) {
      if (!play(command)) break;
      ++out_.sent;
    }
    if (!out_.symptom.failed()) settle();
    out_.ms = ms_since_start(SteadyClock::now());
    return std::move(out_);
  }

 private:
  double ms_since_start(SteadyClock::time_point at) const {
    return std::chrono::duration<double, std::milli>(at - start_).count();
  }
  void note(char direction, const std::string& text, SteadyClock::time_point at) {
    out_.transcript.push_back({ms_since_start(at), direction, text});
  }

  // Sends one command and waits for what it asks; false once the engine failed.
  bool play(const std::string& command) {
    const std::string word = first_word(command);
    if (word == "position") position_ = read_position(command);
    note('>', command, SteadyClock::now());
    if (!process_.send(command, limits_.answer)) return gone();
    if (word == "uci") return await("uciok", limits_.answer);
    if (word == "isready") return await("readyok", limits_.answer);
    if (word == "go") {
      const auto own = go_time(command, position_);
      searching_ = !own;
      return own ? await("bestmove", *own + limits_.answer) : true;
    }
    if ((word == "stop" || word == "ponderhit") && searching_) {
      searching_ = false;
      return await("bestmove", limits_.answer);
    }
    if (word == "quit") {
      quit_ = true;
      process_.wait_exit(SteadyClock::now() + limits_.answer);
    }
    return true;
  }

  // Reads until a line starting with `awaited`; false (and the symptom) when the engine failed.
  bool await(const std::string& awaited, Ms limit) {
    const auto deadline = SteadyClock::now() + limit;
    while (auto line = process_.read_line(deadline)) {
      note('<', line->text, line->at);
      if (first_word(line->text) != awaited) continue;
      if (awaited == "bestmove") return judge_bestmove(line->text);
      return true;
    }
    if (process_.output_closed()) return gone();
    out_.symptom = {"no-answer", awaited};
    note('#', fmt::format("no {} within {} ms", awaited, limit.count()), SteadyClock::now());
    return false;
  }

  bool judge_bestmove(const std::string& line) {
    std::istringstream is(line);
    std::string word, move;
    is >> word >> move;
    if (!position_ || legal_answer(*position_, move)) return true;
    out_.symptom = {"illegal-move", move};
    note('#', "illegal move " + move + " in " + position_->fen(), SteadyClock::now());
    return false;
  }

  // The engine closed its output or stopped reading: how it ended is the symptom.
  bool gone() {
    if (quit_) return false;
    process_.wait_exit(SteadyClock::now() + kExitGrace);
    if (process_.running()) {  // closed its output and still runs: killed, a disconnect
      process_.kill_child();
      out_.symptom = {"disconnect", "output closed"};
    } else {
      out_.symptom = {"crash", process_.exit_status().describe()};
    }
    note('#', "the engine ended: " + out_.symptom.detail, SteadyClock::now());
    return false;
  }

  // After the last command: a failure the engine shows within the settle time.
  void settle() {
    const auto deadline = SteadyClock::now() + limits_.settle;
    while (auto line = process_.read_line(deadline)) {
      note('<', line->text, line->at);
      if (first_word(line->text) == "bestmove" && !judge_bestmove(line->text)) return;
    }
    if (process_.output_closed() && !quit_) gone();
  }

  ReplayLimits limits_;
  UciProcess process_;
  SteadyClock::time_point start_;
  std::optional<Position> position_ = read_position("position startpos");
  bool searching_ = false, quit_ = false;
  Replay out_;
};

}  // namespace

std::string Symptom::describe() const {
  return kind.empty() ? "none" : fmt::format("{} ({})", kind, detail);
}

Replay replay_commands(const std::string& engine, const std::vector<std::string>& commands,
                       const ReplayLimits& limits, const std::string& stderr_path) {
  return Replayer(engine, limits, stderr_path).run(commands);
}

std::string position_as_fen(const std::string& command) {
  if (first_word(command) != "position") return command;
  const auto pos = read_position(command);
  return pos ? "position fen " + pos->fen() : command;
}

}  // namespace stk::harness::repro
