// stk: the UCI engine when run without arguments; otherwise a command-line tool.
#include <iostream>
#include <string_view>

#include "position.h"
#include "tools/commands.h"
#include "uci.h"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**);  // receives argv starting at the command name
  const char* usage;
};

constexpr Command kCommands[] = {
    {"perft", stk::tools::perft_command, "perft \"<FEN>\" <depth> [--divide]"},
    {"bench", stk::tools::bench_command,
     "bench [depth] [--positions | --trace N]   (node-count signature and speed)"},
    {"features", stk::tools::features_command, "features \"<FEN>\" | features --batch FILE"},
    {"eval", stk::tools::eval_command,
     "eval (--net FILE [--allow-trailing] [--impl scalar|avx2] | --classical) (\"<FEN>\" | --batch FILE)"},
    {"game", stk::tools::game_command,
     "game (\"<FEN>\" | startpos) [UCI_MOVE...] | game --batch FILE | game --fen-verdicts FILE"},
};

int usage(std::ostream& out) {
  out << "usage: stk                 run the UCI loop on stdin/stdout\n";
  for (const Command& c : kCommands) out << "       stk " << c.usage << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  stk::init_engine();
  if (argc == 1) return stk::uci_loop(std::cin, std::cout);
  std::string_view name = argv[1];
  if (name == "uci") return stk::uci_loop(std::cin, std::cout);
  if (name == "--help" || name == "-h" || name == "help") return usage(std::cout), 0;
  for (const Command& c : kCommands)
    if (name == c.name) return c.run(argc - 1, argv + 1);
  std::cerr << "stk: unknown command '" << name << "'\n";
  return usage(std::cerr);
}
