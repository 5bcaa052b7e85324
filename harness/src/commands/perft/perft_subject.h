// The perft function the harness runs: the engine's, or one with a planted defect that crashes or
// hangs at a chosen geometry (test policies for the harness's crash isolation; never in engine code).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "position.h"

namespace stk::harness {

using PerftFn = std::uint64_t (*)(Position&, int);

// "none" (the engine's perft), "crash-underpromotion-capture" (SIGSEGV when generating the
// moves of a node that has an under-promotion capture), "hang-underpromotion-capture" (sleeps
// forever there). Throws UsageError for another name.
PerftFn perft_subject(const std::string& plant);
const std::vector<std::string>& perft_plants();

}  // namespace stk::harness
