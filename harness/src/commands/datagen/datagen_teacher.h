// A stronger UCI engine as the label source of datagen (--teacher CMD --teacher-nodes N): the
// games are still stk's, but each record's score and quiet flag come from the teacher's search
// of that position ("go nodes N" after "position fen ..."; its hash cleared before each game).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "position.h"
#include "uci_client/uci_process.h"

namespace stk::harness::datagen {

struct Label {
  int score = 0;             // side to move, cp; a mate as +-(kValueMate - plies to mate)
  bool mate = false;         // the teacher saw a forced mate
  std::string best;          // its best move, UCI, as answered
  Move move = Move::none();  // that move in the position (set by Teacher::label once legal)
};

class Teacher {
 public:
  Teacher(const std::string& command, std::uint64_t nodes);
  void new_game();  // ucinewgame + isready: a game's labels do not depend on the one before
  // Throws std::runtime_error naming the teacher and the position when it answers no score, no
  // legal best move, or not at all within the timeout.
  Label label(const Position& pos);
  const std::string& name() const { return process_.name(); }

 private:
  UciProcess process_;
  std::uint64_t nodes_;
  std::chrono::seconds timeout_{60};
};

// Parses one teacher answer (the lines up to "bestmove"): the last unbounded multipv-1 score.
// Returns false when there is none.
bool read_label(const std::vector<std::string>& lines, Label& out);

}  // namespace stk::harness::datagen
