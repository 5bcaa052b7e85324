// Feature transformer: the first layer, kept as accumulators. acc = bias + sum of the weight rows
// of the active features (int16 lanes, modular), plus the PSQT sums (int32 x 8, modular).
// Contract: refresh() is the reference; update() applies removed/added rows to a previous
// accumulator and must give the same bits as a refresh of the new feature set.
#pragma once

#include <cstdint>

#include "nnue/nnue_common.h"
#include "nnue/simd.h"

namespace stk::nnue {

class FeatureTransformer {
 public:
  FeatureTransformer() = default;
  explicit FeatureTransformer(int hidden)
      : hidden_(hidden),
        weights_(std::size_t(kNumFeatures) * std::size_t(hidden)),
        biases_(std::size_t(hidden)),
        psqt_(std::size_t(kNumFeatures) * kNumOutputBuckets) {}

  int hidden() const { return hidden_; }

  // File order: int16 weights [22528][H], int16 biases [H], int32 PSQT [22528][8].
  void read_parameters(ByteReader& r) {
    for (std::size_t i = 0; i < weights_.size(); ++i) weights_[i] = r.i16();
    for (std::size_t i = 0; i < biases_.size(); ++i) biases_[i] = r.i16();
    for (std::size_t i = 0; i < psqt_.size(); ++i) psqt_[i] = r.i32();
  }

  const std::int16_t* row(int feature) const {
    return weights_.data() + std::size_t(feature) * std::size_t(hidden_);
  }
  const std::int32_t* psqt_row(int feature) const {
    return psqt_.data() + std::size_t(feature) * kNumOutputBuckets;
  }
  const std::int16_t* biases() const { return biases_.data(); }

  // acc[H] = bias + sum of rows; psqt[8] = sum of PSQT rows.
  template <Simd S>
  void refresh(const int* features, int n, std::int16_t* acc, std::int32_t* psqt) const {
    if constexpr (S == Simd::Avx2) {
#if defined(__AVX2__)
      // Tiles of 8 registers (128 lanes) stay in registers across all feature rows.
      constexpr int kTile = 8 * simd::kI16PerVec;
      for (int base = 0; base < hidden_; base += kTile) {
        simd::vec_t v[8];
        for (int k = 0; k < 8; ++k) v[k] = simd::load(biases_.data() + base + k * simd::kI16PerVec);
        for (int f = 0; f < n; ++f) {
          const std::int16_t* w = row(features[f]) + base;
          for (int k = 0; k < 8; ++k)
            v[k] = simd::add_16(v[k], simd::load(w + k * simd::kI16PerVec));
        }
        for (int k = 0; k < 8; ++k) simd::store(acc + base + k * simd::kI16PerVec, v[k]);
      }
      simd::vec_t p = simd::zero();
      for (int f = 0; f < n; ++f) p = simd::add_32(p, simd::load(psqt_row(features[f])));
      simd::store(psqt, p);
      return;
#endif
    }
    for (int j = 0; j < hidden_; ++j) acc[j] = biases_[j];
    for (int b = 0; b < kNumOutputBuckets; ++b) psqt[b] = 0;
    for (int f = 0; f < n; ++f) {
      const std::int16_t* w = row(features[f]);
      for (int j = 0; j < hidden_; ++j) acc[j] = add_wrap16(acc[j], w[j]);
      const std::int32_t* p = psqt_row(features[f]);
      for (int b = 0; b < kNumOutputBuckets; ++b) psqt[b] = add_wrap32(psqt[b], p[b]);
    }
  }

  // acc = prev - rows(removed) + rows(added); the same for the PSQT sums. acc may alias prev.
  template <Simd S>
  void update(const std::int16_t* prev, const std::int32_t* prev_psqt, const int* removed, int nr,
              const int* added, int na, std::int16_t* acc, std::int32_t* psqt) const {
    if constexpr (S == Simd::Avx2) {
#if defined(__AVX2__)
      for (int j = 0; j < hidden_; j += simd::kI16PerVec) {
        simd::vec_t v = simd::load(prev + j);
        for (int f = 0; f < nr; ++f) v = simd::sub_16(v, simd::load(row(removed[f]) + j));
        for (int f = 0; f < na; ++f) v = simd::add_16(v, simd::load(row(added[f]) + j));
        simd::store(acc + j, v);
      }
      simd::vec_t p = simd::load(prev_psqt);
      for (int f = 0; f < nr; ++f) p = simd::sub_32(p, simd::load(psqt_row(removed[f])));
      for (int f = 0; f < na; ++f) p = simd::add_32(p, simd::load(psqt_row(added[f])));
      simd::store(psqt, p);
      return;
#endif
    }
    for (int j = 0; j < hidden_; ++j) acc[j] = prev[j];
    for (int b = 0; b < kNumOutputBuckets; ++b) psqt[b] = prev_psqt[b];
    for (int f = 0; f < nr; ++f) {
      const std::int16_t* w = row(removed[f]);
      for (int j = 0; j < hidden_; ++j) acc[j] = sub_wrap16(acc[j], w[j]);
      const std::int32_t* p = psqt_row(removed[f]);
      for (int b = 0; b < kNumOutputBuckets; ++b) psqt[b] = sub_wrap32(psqt[b], p[b]);
    }
    for (int f = 0; f < na; ++f) {
      const std::int16_t* w = row(added[f]);
      for (int j = 0; j < hidden_; ++j) acc[j] = add_wrap16(acc[j], w[j]);
      const std::int32_t* p = psqt_row(added[f]);
      for (int b = 0; b < kNumOutputBuckets; ++b) psqt[b] = add_wrap32(psqt[b], p[b]);
    }
  }

 private:
  int hidden_ = 0;
  AlignedArray<std::int16_t> weights_;
  AlignedArray<std::int16_t> biases_;
  AlignedArray<std::int32_t> psqt_;
};

}  // namespace stk::nnue
