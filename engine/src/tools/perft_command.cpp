#include <chrono>
#include <cstring>
#include <iostream>

#include "notation.h"
#include "perft.h"
#include "position.h"
#include "tools/arguments.h"
#include "tools/commands.h"

namespace stk::tools {

// stk perft "<FEN>" <depth> [--divide]
int perft_command(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: stk perft \"<FEN>\" <depth> [--divide]\n";
    return 2;
  }
  Position pos;
  if (auto err = pos.set(argv[1])) {
    std::cerr << "stk perft: bad FEN \"" << argv[1] << "\": " << *err << "\n";
    return 2;
  }
  const long depth = parse_decimal(argv[2], 0, 20);
  if (depth < 0) {
    std::cerr << "stk perft: depth must be an integer 0..20, got '" << argv[2] << "'\n";
    return 2;
  }
  bool divide = argc == 4 && std::strcmp(argv[3], "--divide") == 0;
  if (argc == 4 && !divide) {
    std::cerr << "stk perft: unknown option '" << argv[3] << "'\n";
    return 2;
  }
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  if (divide && depth > 0) {  // at depth 0 no move is played: the count is the position, 1
    for (auto& [m, n] : perft_divide(pos, int(depth))) {
      std::cout << to_uci(m) << ": " << n << "\n";
      total += n;
    }
  } else {
    total = perft(pos, int(depth));
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "nodes " << total << "\ntime_ms " << int(s * 1000) << "\nnps "
            << std::uint64_t(s > 0 ? double(total) / s : 0) << std::endl;
  return 0;
}

}  // namespace stk::tools
