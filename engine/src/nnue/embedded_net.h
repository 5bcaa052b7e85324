// The -nnue build: a net compiled into the engine (CMake -DSTK_EMBED_NET=FILE, engine/CMakeLists.txt)
// is its default evaluation, for UCI play and for `stk bench`; UCI EvalFile still overrides it
// (a file, "<empty>" for the classical evaluation, "<embedded>" for the built-in net again).
// A build without one behaves as before: the classical evaluation until EvalFile loads a net.
#pragma once

#include <memory>

namespace stk::nnue {

class Network;

inline constexpr const char* kEmbeddedNetName = "<embedded>";

// Whether this build carries a net.
bool has_embedded_network();

// The built-in net, parsed on first use and shared; null in a build without one. A built-in net
// that does not parse is a broken build: the parser's message goes to stderr and the process
// aborts (a silent fallback to the classical evaluation would play a different engine).
std::shared_ptr<const Network> embedded_network();

}  // namespace stk::nnue
