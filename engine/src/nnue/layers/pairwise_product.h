// Transform of one perspective's accumulator into H/2 network inputs:
// t_j = (clamp(acc[j], 0, 127) * clamp(acc[j + H/2], 0, 127)) >> 7, each in 0..126.
#pragma once

#include <cstdint>

#include "nnue/nnue_common.h"
#include "nnue/simd.h"

namespace stk::nnue {

template <Simd S>
void pairwise_product(const std::int16_t* acc, int hidden, std::uint8_t* out) {
  const int half = hidden / 2;
  if constexpr (S == Simd::Avx2) {
#if defined(__AVX2__)
    const __m256i lo = _mm256_setzero_si256(), hi = _mm256_set1_epi16(127);
    auto product = [&](int j) {
      __m256i x = _mm256_min_epi16(_mm256_max_epi16(simd::load(acc + j), lo), hi);
      __m256i y = _mm256_min_epi16(_mm256_max_epi16(simd::load(acc + half + j), lo), hi);
      return _mm256_srli_epi16(_mm256_mullo_epi16(x, y), 7);  // x*y <= 16129 fits int16
    };
    for (int j = 0; j < half; j += 32) {
      // packus interleaves the 128-bit halves; the permute restores the lane order.
      __m256i packed = _mm256_packus_epi16(product(j), product(j + 16));
      simd::store(out + j, _mm256_permute4x64_epi64(packed, 0xD8));
    }
    return;
#endif
  }
  for (int j = 0; j < half; ++j) {
    int x = acc[j] < 0 ? 0 : acc[j] > 127 ? 127 : acc[j];
    int y = acc[j + half] < 0 ? 0 : acc[j + half] > 127 ? 127 : acc[j + half];
    out[j] = std::uint8_t((x * y) >> 7);
  }
}

}  // namespace stk::nnue
