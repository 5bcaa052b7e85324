// stk: UCI engine when run without arguments; otherwise a command-line tool.
#include <chrono>
#include <cstring>
#include <iostream>
#include <string>

#include "notation.h"
#include "perft.h"
#include "position.h"
#include "uci.h"

using namespace stk;

namespace {

int usage() {
  std::cerr << "usage: stk                          run the UCI loop on stdin/stdout\n"
               "       stk perft \"<FEN>\" <depth> [--divide]\n";
  return 2;
}

int cmd_perft(int argc, char** argv) {
  if (argc < 4) return usage();
  Position pos;
  if (auto err = pos.set(argv[2])) {
    std::cerr << "stk perft: bad FEN \"" << argv[2] << "\": " << *err << "\n";
    return 2;
  }
  char* end = nullptr;
  long depth = std::strtol(argv[3], &end, 10);
  if (*end || depth < 0 || depth > 20) {
    std::cerr << "stk perft: depth must be an integer 0..20, got '" << argv[3] << "'\n";
    return 2;
  }
  bool divide = argc > 4 && std::strcmp(argv[4], "--divide") == 0;
  if (argc > 4 && !divide) {
    std::cerr << "stk perft: unknown option '" << argv[4] << "'\n";
    return 2;
  }
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  if (divide) {
    for (auto& [m, n] : perft_divide(pos, int(depth))) {
      std::cout << to_uci(m) << ": " << n << "\n";
      total += n;
    }
  } else {
    total = perft(pos, int(depth));
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "nodes " << total << "\ntime_ms " << int(s * 1000) << "\nnps "
            << std::uint64_t(s > 0 ? total / s : 0) << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  init_engine();
  if (argc == 1) return uci_loop(std::cin, std::cout);
  std::string cmd = argv[1];
  if (cmd == "perft") return cmd_perft(argc, argv);
  if (cmd == "uci") return uci_loop(std::cin, std::cout);
  if (cmd == "--help" || cmd == "help") return usage(), 0;
  std::cerr << "stk: unknown command '" << cmd << "'\n";
  return usage();
}
