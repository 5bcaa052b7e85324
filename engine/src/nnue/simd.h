// The few vector helpers the AVX2 kernels are written against, chosen in this one header.
// Every kernel keeps its scalar form beside the SIMD one; the two must agree exactly.
#pragma once

#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace stk::nnue::simd {

#if defined(__AVX2__)
using vec_t = __m256i;
constexpr int kI16PerVec = 16;
constexpr int kI32PerVec = 8;
constexpr int kU8PerVec = 32;

inline vec_t load(const void* p) { return _mm256_load_si256(static_cast<const vec_t*>(p)); }
inline vec_t loadu(const void* p) { return _mm256_loadu_si256(static_cast<const vec_t*>(p)); }
inline void store(void* p, vec_t v) { _mm256_store_si256(static_cast<vec_t*>(p), v); }
inline void storeu(void* p, vec_t v) { _mm256_storeu_si256(static_cast<vec_t*>(p), v); }
inline vec_t zero() { return _mm256_setzero_si256(); }
// Lane adds wrap around (two's complement), exactly the spec's modular accumulator.
inline vec_t add_16(vec_t a, vec_t b) { return _mm256_add_epi16(a, b); }
inline vec_t sub_16(vec_t a, vec_t b) { return _mm256_sub_epi16(a, b); }
inline vec_t add_32(vec_t a, vec_t b) { return _mm256_add_epi32(a, b); }
inline vec_t sub_32(vec_t a, vec_t b) { return _mm256_sub_epi32(a, b); }

// Sum of u8 x i8 products in each group of four bytes, as int32. maddubs adds adjacent pairs
// with int16 saturation; inputs are <= 127 and weights >= -128, so |pair| <= 2*127*128 = 32512
// never saturates, and the madd with ones widens exactly.
inline vec_t dot_u8i8_32(vec_t u8, vec_t i8) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(u8, i8), _mm256_set1_epi16(1));
}
// Horizontal sum of eight int32 lanes (wrapping, as int32 lanes do).
inline std::int32_t hsum_32(vec_t v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}
// The four horizontal sums of a, b, c, d as one int32x4 (wrapping).
inline __m128i hsum_32x4(vec_t a, vec_t b, vec_t c, vec_t d) {
  vec_t s = _mm256_hadd_epi32(_mm256_hadd_epi32(a, b), _mm256_hadd_epi32(c, d));
  return _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
}
#endif

}  // namespace stk::nnue::simd
