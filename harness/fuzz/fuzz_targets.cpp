// The target table: every check, by the name of its corpus folder.
#include "fuzz_checks.h"

namespace stk::fuzz {

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"fen", check_fen},         {"epd", check_epd}, {"uci", check_uci},
      {"netfile", check_netfile}, {"fhr", check_fhr},
  };
  return all;
}

}  // namespace stk::fuzz
