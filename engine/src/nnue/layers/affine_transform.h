// Dense layer: out_i = bias_i + sum_j w[i][j] * in[j] with uint8 inputs (0..127), int8 weights,
// int32 sums (modular, as int32 lanes are). Rows are stored padded to a multiple of 32 inputs with
// zero weights, so one SIMD kernel serves H, 16 and 32 inputs; inputs past in_dims must be 0.
#pragma once

#include <cstdint>

#include "nnue/nnue_common.h"
#include "nnue/simd.h"

namespace stk::nnue {

class AffineTransform {
 public:
  AffineTransform() = default;
  AffineTransform(int in_dims, int out_dims)
      : in_(in_dims),
        out_(out_dims),
        padded_in_((in_dims + 31) / 32 * 32),
        weights_(std::size_t(out_dims) * std::size_t(padded_in_)),
        biases_(std::size_t(out_dims)) {}

  int input_dims() const { return in_; }
  int padded_input_dims() const { return padded_in_; }
  int output_dims() const { return out_; }

  // File order: int8 weights [out][in], then int32 biases [out].
  void read_parameters(ByteReader& r) {
    for (int i = 0; i < out_; ++i)
      for (int j = 0; j < in_; ++j) weights_[std::size_t(i) * padded_in_ + j] = r.i8();
    for (int i = 0; i < out_; ++i) biases_[i] = r.i32();
  }

  template <Simd S>
  void propagate(const std::uint8_t* in, std::int32_t* out) const {
    if constexpr (S == Simd::Avx2) {
#if defined(__AVX2__)
      int i = 0;
      // Four rows per pass share each input load; hadd folds the four sums into one vector.
      for (; i + 4 <= out_; i += 4) {
        const std::int8_t* w = weights_.data() + std::size_t(i) * padded_in_;
        simd::vec_t s0 = simd::zero(), s1 = simd::zero(), s2 = simd::zero(), s3 = simd::zero();
        for (int j = 0; j < padded_in_; j += simd::kU8PerVec) {
          simd::vec_t x = simd::load(in + j);
          s0 = simd::add_32(s0, simd::dot_u8i8_32(x, simd::load(w + j)));
          s1 = simd::add_32(s1, simd::dot_u8i8_32(x, simd::load(w + padded_in_ + j)));
          s2 = simd::add_32(s2, simd::dot_u8i8_32(x, simd::load(w + 2 * padded_in_ + j)));
          s3 = simd::add_32(s3, simd::dot_u8i8_32(x, simd::load(w + 3 * padded_in_ + j)));
        }
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                         _mm_add_epi32(simd::hsum_32x4(s0, s1, s2, s3),
                                       _mm_loadu_si128(
                                           reinterpret_cast<const __m128i*>(biases_.data() + i))));
      }
      for (; i < out_; ++i) {
        const std::int8_t* w = weights_.data() + std::size_t(i) * padded_in_;
        simd::vec_t sum = simd::zero();
        for (int j = 0; j < padded_in_; j += simd::kU8PerVec)
          sum = simd::add_32(sum, simd::dot_u8i8_32(simd::load(in + j), simd::load(w + j)));
        out[i] = add_wrap32(biases_[i], simd::hsum_32(sum));
      }
      return;
#endif
    }
    for (int i = 0; i < out_; ++i) {
      const std::int8_t* w = weights_.data() + std::size_t(i) * padded_in_;
      std::int32_t s = biases_[i];
      for (int j = 0; j < in_; ++j) s = add_wrap32(s, std::int32_t(w[j]) * std::int32_t(in[j]));
      out[i] = s;
    }
  }

 private:
  int in_ = 0, out_ = 0, padded_in_ = 0;
  AlignedArray<std::int8_t> weights_;
  AlignedArray<std::int32_t> biases_;
};

}  // namespace stk::nnue
