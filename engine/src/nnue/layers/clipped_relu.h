// Activation after each hidden layer: h = clamp(s >> 6, 0, 127) (arithmetic shift = floor).
// 48 values per evaluation: the scalar loop is the only implementation (the compiler vectorizes it).
#pragma once

#include <cstdint>

namespace stk::nnue {

inline void clipped_relu(const std::int32_t* in, int n, std::uint8_t* out) {
  for (int i = 0; i < n; ++i) {
    std::int32_t v = in[i] >> 6;
    out[i] = std::uint8_t(v < 0 ? 0 : v > 127 ? 127 : v);
  }
}

}  // namespace stk::nnue
