#include "nnue/embedded_net.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "nnue/network.h"

#ifdef STK_EMBEDDED_NET
// The file's bytes in .rodata (the assembler's .incbin: no generated source, no size limit of a
// C array initializer); CMake rebuilds this object when the file changes.
__asm__(
    ".section .rodata\n"
    ".balign 64\n"
    ".global stk_embedded_net_begin\n"
    "stk_embedded_net_begin:\n"
    ".incbin \"" STK_EMBEDDED_NET
    "\"\n"
    ".global stk_embedded_net_end\n"
    "stk_embedded_net_end:\n"
    ".previous\n");
extern "C" const unsigned char stk_embedded_net_begin[];
extern "C" const unsigned char stk_embedded_net_end[];
#endif

namespace stk::nnue {

namespace {

std::shared_ptr<const Network> parse_embedded() {
#ifdef STK_EMBEDDED_NET
  const std::vector<std::uint8_t> bytes(stk_embedded_net_begin, stk_embedded_net_end);
  std::string why;
  std::shared_ptr<const Network> net = Network::parse(bytes, kEmbeddedNetName, false, &why);
  if (!net) {
    std::fprintf(stderr, "stk: the built-in net (%s) does not parse: %s\n", STK_EMBEDDED_NET,
                 why.c_str());
    std::abort();
  }
  return net;
#else
  return nullptr;
#endif
}

}  // namespace

bool has_embedded_network() {
#ifdef STK_EMBEDDED_NET
  return true;
#else
  return false;
#endif
}

std::shared_ptr<const Network> embedded_network() {
  static const std::shared_ptr<const Network> net = parse_embedded();
  return net;
}

}  // namespace stk::nnue
